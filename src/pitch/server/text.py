"""Free text from clients (names, chat lines, names inside records): one rule for all."""

from __future__ import annotations


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
