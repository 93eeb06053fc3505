"""The browser client: plain files served as they are (no build step), package data.

``js/app.js`` is the router; the rest of ``js/`` is grouped by room: ``core/`` (what
every page shares: the API, DOM helpers, translations, cards, seats and refusals'
words), ``lobby/``, ``table/`` (the live table, its board, chat, score sheet and tour),
``replay/`` (which draws with ``table/``'s board) and ``rules/``. A room imports from
``core/`` and never from a room that imports it back. ``i18n/`` holds the catalogs
``scripts/build_web_i18n.py`` writes, ``rulebook/`` the rules page's text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).parent
"""What the server serves at ``/``."""
JS: Final = ROOT / "js"
CATALOGS: Final = ROOT / "i18n"
"""The client's translations, one JSON file a language (the server reads them too)."""
RULEBOOK: Final = ROOT / "rulebook"
