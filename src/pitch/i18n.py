"""Translations: gettext catalogs (domain ``pitch``) shipped in ``pitch/locale``.

One catalog serves every front end (terminal, browser). Game terms have their own
message context ``"term"`` so that a translator gives each language's usual word
for the game once, and every front end reuses it::

    >>> set_language("en")
    'en'
    >>> term("trump"), suit_name(2)
    ('trump', 'hearts')
    >>> set_language("sv")
    'sv'
    >>> term("trump"), suit_name(2)
    ('trumf', 'hjärter')
    >>> _ = set_language("en")

Only the standard library's :mod:`gettext` runs at play time; Babel compiles the
catalogs (``docs/terminal.md``).
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DOMAIN: Final = "pitch"
LOCALE_DIR: Final = Path(__file__).parent / "locale"

LANGUAGES: Final = ("en", "nb", "ru", "sv", "sq", "gl")
"""Language codes with a complete catalog (English is the source language)."""

LANGUAGE_NAMES: Final = {
    "en": "English",
    "nb": "Norsk bokmål",
    "ru": "Русский",
    "sv": "Svenska",
    "sq": "Shqip",
    "gl": "Galego",
}

# Locale names that mean one of ours: Norwegian without a written standard, or
# Nynorsk, reads Bokmål well enough.
_ALIASES: Final = {"no": "nb", "nn": "nb"}

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_current_code = "en"


def normalize(code: str) -> str | None:
    """``"nb_NO.UTF-8"`` -> ``"nb"``; ``None`` if we have no catalog for it.

    >>> normalize("sv_SE.UTF-8"), normalize("RU"), normalize("no"), normalize("de_DE")
    ('sv', 'ru', 'nb', None)
    """
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    base = _ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, in gettext's order), or English.

    >>> detect_language({"LANG": "gl_ES.UTF-8"}), detect_language({"LANG": "C"})
    ('gl', 'en')
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        # LANGUAGE may list several, colon-separated, in order of preference.
        for part in value.split(":"):
            code = normalize(part)
            if code is not None:
                return code
        if var != "LANGUAGE":
            break  # the first locale variable that is set decides (POSIX)
    return "en"


def translation(code: str) -> _gettext.NullTranslations:
    """The catalog for ``code`` (English: the messages as written)."""
    if code == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])


def set_language(code: str | None = None) -> str:
    """Use ``code`` (or the locale's language when ``None``) from now on; returns the
    code chosen. Raises ``ValueError`` naming the languages we have."""
    global _current, _current_code
    chosen = detect_language() if code is None else normalize(code)
    if chosen is None:
        raise ValueError(
            f"no translation for language {code!r}; choose one of {', '.join(LANGUAGES)}"
        )
    _current = translation(chosen)
    _current_code = chosen
    return chosen


def current_language() -> str:
    return _current_code


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _current.gettext(message)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (``"term"`` for game terms)."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it yet."""
    return message


# Game terms: one msgid each, in context "term", reused by every front end.
# Keys are stable names for code; values are the English msgids.
TERMS: Final = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "game": "Game",
    "trump": "trump",
    "pitcher": "pitcher",
    "dealer": "dealer",
    "bid": "bid",
    "pass": "pass",
    "set back": "set back",
    "trick": "trick",
    "tricks": "tricks",
    "score": "score",
    "team": "team",
    "target": "target",
    "hand": "hand",
    "game points": "game points",
}


def term(key: str) -> str:
    """A game term in the current language (``term("trump")``)."""
    return pgettext("term", TERMS[key])


def _mark_terms() -> tuple[str, ...]:
    # Never called: it lists each term literally so that Babel extracts them.
    return (
        pgettext("term", "High"),
        pgettext("term", "Low"),
        pgettext("term", "Jack"),
        pgettext("term", "Game"),
        pgettext("term", "trump"),
        pgettext("term", "pitcher"),
        pgettext("term", "dealer"),
        pgettext("term", "bid"),
        pgettext("term", "pass"),
        pgettext("term", "set back"),
        pgettext("term", "trick"),
        pgettext("term", "tricks"),
        pgettext("term", "score"),
        pgettext("term", "team"),
        pgettext("term", "target"),
        pgettext("term", "hand"),
        pgettext("term", "game points"),
        pgettext("suit", "clubs"),
        pgettext("suit", "diamonds"),
        pgettext("suit", "hearts"),
        pgettext("suit", "spades"),
    )


_SUITS: Final = ("clubs", "diamonds", "hearts", "spades")


def suit_name(suit: int) -> str:
    """The name of suit 0..3 (clubs, diamonds, hearts, spades) in the current language."""
    return pgettext("suit", _SUITS[suit])


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "TERMS",
    "_",
    "current_language",
    "detect_language",
    "normalize",
    "pgettext",
    "set_language",
    "suit_name",
    "term",
    "translation",
]
