"""``pitch arena --keep-ext``: external programs kept from deal to deal play the same
games as programs started for every game, start once per rotation and seat, never see
one deal twice, and are stopped when the match ends."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitch.arena.match import ArenaConfig, Summary, run_local, summarize
from pitch.cli.main import app
from pitch.engine import Rules
from tests.protocol.conftest import EXAMPLE_BOT


def _logged_example_bot(logs: Path) -> str:
    """An ``ext:`` spec of the example bot behind a shell that copies everything the
    host sends into ``logs/<shell pid>``, and lingers after its input ends (as a
    careless program might), so only the host stopping it ends it."""
    line = (
        f"tee {shlex.quote(str(logs))}/$$ | {shlex.quote(sys.executable)} {EXAMPLE_BOT}; sleep 30"
    )
    return f"ext[time=5,grace=5,startup=60]:sh -c {shlex.quote(line)}"


def _first_hands(log: Path) -> list[str]:
    """The bot's own cards in the first hand of each game the program was sent."""
    hands, fresh = [], False
    for raw in log.read_text(encoding="utf-8").splitlines():
        msg = json.loads(raw)
        if msg["type"] == "game":
            fresh = True
        elif msg["type"] == "deal" and fresh:
            hands.append(" ".join(sorted(msg["hand"])))
            fresh = False
    return hands


def _gone(pids: list[int], within: float = 20.0) -> bool:
    """Wait until no process in ``pids`` is running (a stopped program may take a moment)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def _running(pid: int) -> bool:
    """``pid`` is a process that has not exited (a zombie awaiting its parent has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("workers", [1, 2])
def test_kept_programs_play_the_same_games_and_start_once_per_rotation_and_seat(
    tmp_path: Path, workers: int
) -> None:
    fresh_logs, kept_logs = tmp_path / "fresh", tmp_path / "kept"
    fresh_logs.mkdir()
    kept_logs.mkdir()
    # Solo 3, the program as B: two seats in each of three rotations, and a seat's
    # cards are the same in every rotation of a deal.
    rules = Rules(players=3)
    deals = 4

    def run(logs: Path, keep: bool) -> Summary:
        cfg = ArenaConfig("heuristic", _logged_example_bot(logs), rules, deals, seed=5)
        return summarize(cfg, run_local(cfg, list(range(deals)), workers, keep_ext=keep))

    fresh, kept = run(fresh_logs, False), run(kept_logs, True)
    # The example bot is deterministic: the same decisions, deal by deal.
    assert sorted(kept.per_deal) == sorted(fresh.per_deal)
    # Started for every game: 4 deals x 3 rotations x 2 seats; kept: 3 rotations x 2
    # seats in each worker that played a deal.
    assert len(list(fresh_logs.iterdir())) == deals * 3 * 2
    started = list(kept_logs.iterdir())
    assert 6 <= len(started) <= 6 * workers
    seen = [_first_hands(log) for log in started]
    assert sum(len(h) for h in seen) == deals * 3 * 2  # every game was played by one
    for hands in seen:
        # Both rotations of a deal deal the same cards to a seat: a program kept across
        # rotations would see one hand twice.
        assert len(set(hands)) == len(hands)
    # The match is over: every kept program has been stopped (its shell is gone, and
    # the `sleep` it had started with it: see test_children).
    assert _gone([int(p.name) for p in started])


def test_keep_ext_is_refused_where_it_cannot_apply() -> None:
    res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--keep-ext", "-n", "1"])
    assert res.exit_code == 2 and "neither bot is one" in " ".join(res.output.split())
    spec = f"ext:{sys.executable} {EXAMPLE_BOT}"
    res = CliRunner().invoke(app, ["arena", spec, "random", "--keep-ext", "--ray", "local"])
    assert res.exit_code == 2 and "not with --ray" in " ".join(res.output.split())
