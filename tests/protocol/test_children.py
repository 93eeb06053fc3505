"""What a bot program starts ends with it: a child in its own session, one that holds
the program's stdout open, one that also dropped its environment. None is left after
a match, and a program that exits is noticed although its child still holds its output
(the host does not wait for that pipe)."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitch.arena.match import ArenaConfig, run_local
from pitch.bots import RandomBot, play_game
from pitch.bots.external import ExternalBot
from pitch.cli.main import app
from pitch.engine import Rules
from tests.protocol.conftest import FORKING, forking, running

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _left_running(pids: Path, started: int | None) -> list[int]:
    """The processes the bots wrote into ``pids`` (``started`` of them, if known) still
    running."""
    found = [int(p.name) for p in pids.iterdir()]
    assert started is None or len(found) == started
    return [pid for pid in found if running(pid) and _ours(pid)]


def _ours(pid: int) -> bool:
    """Still a bot or a child of one (not another process that got its pid since)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return str(FORKING).encode() in cmdline or b"time.sleep(600)" in cmdline


def _spec(pids: Path, kind: str) -> str:
    return f"ext[time=5,grace=5,startup=60]:{shlex.join(forking(pids, kind))}"


@pytest.mark.parametrize("keep", [False, True], ids=["per-game", "keep-ext"])
@pytest.mark.parametrize("kind", ["session", "holder", "hidden"])
def test_an_arena_leaves_nothing_of_a_bot_that_starts_children(
    tmp_path: Path, kind: str, keep: bool
) -> None:
    # Solo 3 with the program as A: one seat in each of three rotations, so three
    # programs (one per game, or kept per rotation and seat) and three children.
    cfg = ArenaConfig(_spec(tmp_path, kind), "random", Rules(players=3), deals=1, seed=3)
    (deal,) = run_local(cfg, [0], 1, keep_ext=keep)
    assert deal.tally[0].games == 3
    assert _left_running(tmp_path, 6) == []


def test_pitch_arena_with_workers_leaves_nothing(tmp_path: Path) -> None:
    runs = {}
    for keep in (False, True):
        pids = tmp_path / str(keep)
        pids.mkdir()
        args = ["arena", _spec(pids, "session"), "random", "-n", "2", "--players", "3"]
        res = CliRunner().invoke(app, [*args, "--workers", "2", *(["--keep-ext"] * keep)])
        assert res.exit_code == 0, res.output
        runs[keep] = _left_running(pids, 12)  # 2 deals x 3 games, a program and a child each
    assert runs == {False: [], True: []}


def test_an_interrupted_arena_leaves_nothing(tmp_path: Path) -> None:
    """Stopped after its first deal, the parent terminates the workers in the middle of
    others: each stops its programs (out of the signal's reach) before it exits."""
    cfg = ArenaConfig(_spec(tmp_path, "session"), "random", Rules(players=3), deals=6, seed=3)
    deals = run_local(cfg, list(range(6)), 2, keep_ext=True)
    next(deals)
    deals.close()  # terminates the workers, as Ctrl-C in `pitch arena` does
    # The workers end on their own time: wait for them, generously.
    deadline = time.monotonic() + 60
    while _left_running(tmp_path, None) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(list(tmp_path.iterdir())) >= 4  # programs and their children were started
    assert _left_running(tmp_path, None) == []


# A process whose SIGTERM handler ends its programs, then exits (as an arena worker's
# does), is signalled while a program is started but not yet registered: after the
# program started its child, in the same thread (the handler interrupts the start) or
# in another one (the handler runs beside it).
_INTERRUPTED_START = textwrap.dedent("""
    import os, signal, subprocess, sys, threading, time
    from pathlib import Path
    from pitch.bots import process_tree

    pids, where, argv = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    in_start = threading.Event()
    signal.signal(
        signal.SIGTERM, lambda *_: process_tree.end_all(0.5, then=lambda: os._exit(7))
    )
    real = process_tree._start_time

    def late(pid):
        while len(list(pids.iterdir())) < 2:  # the program and its child
            time.sleep(0.01)
        in_start.set()
        if where == "same":
            os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.5)
        return real(pid)

    process_tree._start_time = late
    trees = []  # held, as a bot holds its program (the registry's references are weak)
    start = lambda: trees.append(process_tree.ProcessTree(argv, stdin=subprocess.PIPE))
    if where == "same":
        start()
    else:
        threading.Thread(target=start).start()
        in_start.wait()
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)
""")


@pytest.mark.parametrize("where", ["same", "other"])
def test_a_program_started_as_the_host_is_stopped_is_stopped_too(
    tmp_path: Path, where: str
) -> None:
    argv = [sys.executable, "-c", _INTERRUPTED_START, str(tmp_path), where]
    res = subprocess.run([*argv, *forking(tmp_path, "session")], timeout=60, check=False)
    assert res.returncode == 7  # the handler's exit, after the program was registered
    assert _left_running(tmp_path, 2) == []


@pytest.mark.parametrize("kind", ["session", "holder"])
def test_a_program_that_exits_is_noticed_while_its_child_holds_on(
    tmp_path: Path, kind: str
) -> None:
    """It exits at its second decision, leaving its child; its answer would be awaited
    for 30 s, yet its exit is what the forfeit reports (before, the holder kept the
    host waiting the full 30 s for the end of the program's output)."""
    bot = ExternalBot(
        command=forking(tmp_path, kind, crash=2),
        rng=random.Random(1),
        time=30.0,
        grace=0.0,
        startup=0.0,
        restarts=0,
    )
    others = [RandomBot(rng=random.Random(s)) for s in (2, 3)]
    with bot:
        play_game(Rules(players=3), [bot, *others], random.Random(5), max_hands=1)
        reasons = [f.reason for f in bot.forfeits]
        assert reasons[0] == "the program exited (status 3)"
        assert len(reasons) > 1 and all("failed 1 times" in r for r in reasons[1:])
        # Stopped with it, before the bot is closed.
        assert _left_running(tmp_path, 2) == []
