"""Golden data: perft counts and step-by-step playthroughs (``python -m tests.engine.regen``)."""

from __future__ import annotations

import difflib
import json
from typing import Any

import pytest

from tests.engine import perft, regen

CASES: list[dict[str, Any]] = json.loads(regen.PERFT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft(case: dict[str, Any]) -> None:
    """The engine and the referee's brute-force enumerator both give the stored count."""
    assert perft.referee_count(case) == case["count"]
    assert perft.engine_count(case) == case["count"]


def test_perft_cases_are_the_generated_ones() -> None:
    """The stored positions are the ones regen builds (so a regen cannot drift silently)."""
    fresh = regen.perft_cases()
    assert [{k: v for k, v in c.items() if k != "count"} for c in CASES] == fresh


def test_perft_counts_by_hand() -> None:
    """A count small enough to check on paper: 2 players, dealer 1, so seat 0 bids first
    (pass or 1-4: 4 of its 5 choices let the dealer answer), and bid 4 ends it at once."""
    # seat 0: pass -> dealer must bid 2, 3 or 4 (3); bid 1 -> pass, steal 1, 2, 3, 4 (5);
    # bid 2 -> pass, 2, 3, 4 (4); bid 3 -> pass, 3, 4 (3); bid 4 -> over (1).
    assert next(c for c in CASES if c["name"] == "auction 2p")["count"] == 3 + 5 + 4 + 3 + 1


@pytest.mark.parametrize("game", regen.GAMES, ids=[g[0] for g in regen.GAMES])
def test_playthrough_matches_golden_file(game: tuple[Any, ...]) -> None:
    stem, rules, seed, max_hands = game
    path = regen.PLAYTHROUGHS / f"{stem}.txt"
    want = path.read_text(encoding="utf-8")
    got = regen.playthrough(rules, seed, max_hands)
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(True), got.splitlines(True), str(path), "regenerated"
            )
        )
        pytest.fail(f"playthrough changed; if intended, run `python -m tests.engine.regen`\n{diff}")
