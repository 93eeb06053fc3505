"""Free text from clients (names, chat lines, names inside records): one rule for all."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Final

from pitch.i18n import LANGUAGE_NAMES

CATALOGS: Final = Path(__file__).parent / "static" / "i18n"
"""The web client's translations (built from ``locale/*/web.po``)."""

NAME_LIMIT: Final = 32
"""Characters in a player's name."""


def one_line(text: str, limit: int) -> str | None:
    """``text`` on one line, its runs of white space folded to one space, at most
    ``limit`` characters; ``None`` if nothing printable is left (or a control or other
    unprintable character remains).

    >>> one_line("  Ann\\n  Lee ", 32)
    'Ann Lee'
    >>> one_line("\\u0007", 32) is None
    True
    """
    out = " ".join(text.split())[:limit]
    return out if out and out.isprintable() else None


def name_key(name: str) -> str:
    """What two names must differ in to be told apart at one table: case and Unicode
    width or compatibility forms do not count.

    >>> name_key("ＡＮＮ") == name_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def distinct_name(name: str, taken: Iterable[str], limit: int) -> str:
    """``name``, or if a name in ``taken`` is the same (:func:`name_key`) the first of
    ``name 2``, ``name 3``, ... that is not, cut to ``limit`` characters.

    >>> distinct_name("Ann", ["ann", "Ann 2"], 32)
    'Ann 3'
    """
    keys = {name_key(n) for n in taken}
    out, n = name, 1
    while name_key(out) in keys:
        n += 1
        tail = f" {n}"
        out = name[: limit - len(tail)].rstrip() + tail
    return out


@cache
def _bot_names() -> re.Pattern[str]:
    """Every way the client names a bot seat, in every language it speaks ("Bot 2",
    "Бот 2", "Robot 2"), with anything in brackets after it ("Bot 2 (for Ann)", a
    record's "Bot 2 (beginner)"): read from the catalogs, the one source of them."""
    forms = set()
    for lang in LANGUAGE_NAMES:
        catalog = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        form = " ".join(name_key(catalog["messages"].get("Bot {n}") or "Bot {n}").split())
        forms.add(re.escape(form).replace(r"\ ", r"\s*").replace(r"\{n\}", r"\d+"))
    return re.compile(rf"(?:{'|'.join(sorted(forms))})(?:\s*\(.*\))?")


def bot_like(name: str) -> bool:
    """Whether ``name`` reads as a bot's in some language the site speaks (told apart as
    :func:`name_key` does): a person must not pass for a bot, nor a bot for a person.

    >>> bot_like("BOT 2"), bot_like("Бот 3 (за Ann)"), bot_like("Robot 12")
    (True, True, True)
    >>> bot_like("Bot"), bot_like("Botond 2"), bot_like("Ann (Bot 2)")
    (False, False, False)
    """
    return _bot_names().fullmatch(" ".join(name_key(name).split())) is not None
