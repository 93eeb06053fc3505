"""Free text from clients (names, chat lines, names inside records): one rule for all."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

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
