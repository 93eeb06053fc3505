"""Helpers for the protocol tests: command lines of bot programs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MISBEHAVING = Path(__file__).with_name("bots") / "misbehaving_bot.py"
FORKING = Path(__file__).with_name("bots") / "forking_bot.py"
EXAMPLE_BOT = ROOT / "docs" / "examples" / "example_bot.py"


def pitch_bot(spec: str, seed: int) -> list[str]:
    """``pitch bot SPEC --seed S`` with this interpreter."""
    return [sys.executable, "-m", "pitch", "bot", spec, "--seed", str(seed)]


def misbehaving(mode: str, good: int = 0) -> list[str]:
    return [sys.executable, str(MISBEHAVING), mode, str(good)]


def forking(pids: Path, kind: str, crash: int = 0) -> list[str]:
    """A bot that leaves a child of KIND behind, writing both pids into ``pids``."""
    return [sys.executable, str(FORKING), str(pids), kind, str(crash)]


def running(pid: int) -> bool:
    """``pid`` is a process that has not exited (a zombie awaiting its parent has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
