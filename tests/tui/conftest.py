"""Drive ``pitch play`` in a pseudo-terminal, as a player would."""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

BID_PROMPT = r"\(0-4 or pass"
CARD_PROMPT = r"\(card or number"
NEXT_HAND = r"Press Enter for the next hand"
WON = r"won the game"


def _as_from_a_shell() -> None:
    """In the child before it runs: SIGINT delivered and handled as a shell would start
    it. A child inherits its parent's ignored signals and signal mask, and a test
    process may have either from what ran in it before (a library's helpers, a pool's
    workers); then Ctrl-C would never reach the game."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], cwd: Path, lang: str = "en") -> pexpect.spawn:
    env = dict(os.environ)
    env.update({"NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "LINES": "24"})
    env.pop("LANGUAGE", None)
    env["LANG"] = "C.UTF-8"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pitch", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=30,
        preexec_fn=_as_from_a_shell,
    )
    return child


def first_choice_loop(child: pexpect.spawn, patterns: dict[str, str], hands: int) -> str:
    """Answer every prompt with the first legal move until the game ends or ``hands``
    hand summaries went by; returns which pattern ended it ("won" or "hands")."""
    keys = list(patterns)
    seen = 0
    while True:
        i = child.expect([patterns[k] for k in keys])
        k = keys[i]
        if k == "bid":
            child.sendline(_first_bid(child.before))
        elif k == "card":
            child.sendline("1")
        elif k == "next":
            seen += 1
            if seen >= hands:
                return "hands"
            child.sendline("")
        elif k == "won":
            return "won"


def _first_bid(screen: str) -> str:
    # The bid line lists the legal bids ("0 = pass, 2, 3, 4"); take the first one.
    screen = strip_ansi(screen)
    lines = [ln for ln in screen.splitlines() if "=" in ln and re.search(r"\d", ln)]
    m = re.search(r":\s*(\d)", lines[-1]) if lines else None
    return m.group(1) if m else "0"


def strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]", "", text)


@pytest.fixture
def game_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def signal_state(child: pexpect.spawn) -> str:
    """The child's blocked and ignored signals and its state, for a failure message."""
    try:
        status = Path(f"/proc/{child.pid}/status").read_text(encoding="utf-8")
    except OSError as e:
        return f"no /proc status: {e}"
    keep = ("State", "SigBlk", "SigIgn", "SigCgt", "Threads")
    return "; ".join(ln for ln in status.splitlines() if ln.split(":")[0] in keep)
