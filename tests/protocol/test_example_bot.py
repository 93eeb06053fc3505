"""The example bot from docs/bot-protocol.md plays whole games with no forfeit."""

from __future__ import annotations

import importlib.util
import io
import random
import subprocess
import sys

import pytest

from pitch.bots import Bot, RandomBot, play_game
from pitch.bots.external import ExternalBot
from pitch.bots.protocol import serve
from pitch.engine import Rules
from tests.protocol.conftest import EXAMPLE_BOT, ROOT


def test_the_docs_show_the_example_bot_in_full() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    assert EXAMPLE_BOT.read_text(encoding="utf-8").strip() in doc


def test_example_bot_uses_nothing_from_pitch() -> None:
    assert "pitch." not in EXAMPLE_BOT.read_text(encoding="utf-8").replace("pitch arena", "")


@pytest.mark.parametrize(
    "rules", [Rules(players=4), Rules(players=3, target=11)], ids=["4p", "3p-to-11"]
)
def test_example_bot_plays_a_full_game(rules: Rules) -> None:
    ext = ExternalBot(
        command=[sys.executable, str(EXAMPLE_BOT)], time=5.0, grace=5.0, rng=random.Random(0)
    )
    bots: list[Bot] = [ext]
    bots += [RandomBot(rng=random.Random(i)) for i in range(1, rules.players)]
    with ext:
        for seed in range(2):
            state = play_game(rules, bots, random.Random(seed), max_hands=200).state
            assert state.is_terminal()  # somebody won: a whole game was played
    assert ext.forfeits == []
    assert ext.games == 2 and ext.decisions > 30


@pytest.mark.skipif(
    importlib.util.find_spec("pitch.cli.arena") is None,
    reason="`pitch arena` is not on this branch yet (it comes with the bots work)",
)
def test_example_bot_in_the_arena() -> None:
    _ONE_QUICK_DEAL = ["--deals", "1", "--workers", "1", "--max-hands", "30"]
    command = f"ext[time=5,grace=5]:{sys.executable} {EXAMPLE_BOT}"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pitch",
            "arena",
            command,
            "random",
            "--deals",
            "1",
            "--workers",
            "1",
            "--max-hands",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert "forfeit" not in run.stderr


def _doc_session() -> list[str]:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    block = doc.split("## A complete example session", 1)[1].split("```text\n", 1)[1]
    return block.split("\n```", 1)[0].splitlines()


def test_the_docs_session_is_what_the_example_bot_answers() -> None:
    lines = _doc_session()
    host = "".join(x[2:] + "\n" for x in lines if x.startswith("> "))
    said = [x[2:] for x in lines if x.startswith("< ")]
    run = subprocess.run(
        [sys.executable, str(EXAMPLE_BOT)], input=host, capture_output=True, text=True, timeout=60
    )
    assert run.stdout.splitlines() == said


def test_the_docs_session_follows_the_rules() -> None:
    out, err = io.StringIO(), io.StringIO()
    host = "".join(x[2:] + "\n" for x in _doc_session() if x.startswith("> "))
    problems = serve(RandomBot(rng=random.Random(0)), io.StringIO(host), out, err)
    assert (problems, err.getvalue()) == (0, "")
