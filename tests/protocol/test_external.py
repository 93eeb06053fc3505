"""ExternalBot: our bots through the protocol play exactly as in-process, and a
misbehaving program costs only its own decisions."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from pitch.bots import BOTS, Bot, RandomBot, make_bot, play_game
from pitch.bots.external import ExternalBot
from pitch.engine import GameState, Rules
from tests.protocol.conftest import misbehaving, pitch_bot

# Generous limits: these tests are about decisions, not speed, on a busy machine.
SLOW_OK = {"time": 5.0, "grace": 5.0, "startup": 60.0}


def _play(rules: Rules, bots: list[Bot], seed: int, max_hands: int | None) -> GameState:
    return play_game(rules, bots, random.Random(seed), max_hands=max_hands).state


def _others(n: int, seed: int) -> list[Bot]:
    return [RandomBot(rng=random.Random(seed * 100 + i)) for i in range(1, n)]


# Search bots stop on the clock by default, which no two processes share: give them a
# fixed budget (a clock limit they never reach) so their decisions are reproducible.
_FIXED_BUDGET = {"pimc": "pimc:samples=6,time=100", "ismcts": "ismcts:iterations=40,time=100"}


@pytest.mark.parametrize("name", sorted(set(BOTS) - {"ext"}))
def test_same_decisions_as_in_process(name: str, tmp_path: Path) -> None:
    """Seat 0 is NAME with seed 7, in-process and through ``pitch bot``, for two games
    on one process: every hand of both games is the same."""
    rules = Rules(players=4)
    # Random bidders rarely finish a game (scores run far below zero): some hands do.
    max_hands = 8 if name == "random" else 3
    spec = _FIXED_BUDGET.get(name, name)
    inproc = make_bot(spec, rng=random.Random(7))
    with (tmp_path / "stderr").open("w+") as err:
        with ExternalBot(command=pitch_bot(spec, 7), stderr=err, **SLOW_OK) as ext:
            for game in range(2):
                a = _play(rules, [inproc, *_others(4, game)], game, max_hands)
                b = _play(rules, [ext, *_others(4, game)], game, max_hands)
                assert b.history == a.history
                assert (b.scores, b.winner) == (a.scores, a.winner)
            assert ext.forfeits == []
            assert ext.games == 2
        err.seek(0)
        assert err.read() == ""  # pitch bot followed every message


def test_a_new_game_without_game_over_is_announced(tmp_path: Path) -> None:
    """A host that abandons a game without game_over: the next view is of a new game,
    so the program is sent ``end`` and a new ``game``, and follows it."""
    rules = Rules(players=3)
    with (tmp_path / "stderr").open("w+") as err:
        ext = ExternalBot(command=pitch_bot("random", 1), stderr=err, **SLOW_OK)
        inproc = RandomBot(rng=random.Random(1))
        for bot in (ext, inproc):
            state = GameState(rules, dealer=2)
            state.deal_random(random.Random(5))
            bot.act(state.view(0))  # seat 0 bids first; the game is then dropped
        a = _play(rules, [inproc, *_others(3, 2)], 2, 4)
        b = _play(rules, [ext, *_others(3, 2)], 2, 4)
        ext.close()
        assert b.history == a.history
        assert ext.forfeits == [] and ext.games == 2
        err.seek(0)
        assert err.read() == ""


def test_several_external_seats_in_a_partnership_game() -> None:
    rules = Rules(partnerships=True)
    inproc: list[Bot] = [RandomBot(rng=random.Random(s)) for s in range(4)]
    ext: list[Bot] = [
        ExternalBot(command=pitch_bot("random", s), **SLOW_OK)
        if s % 2
        else RandomBot(rng=random.Random(s))
        for s in range(4)
    ]
    a = _play(rules, inproc, 3, 8)
    b = _play(rules, ext, 3, 8)
    assert b.history == a.history and len(b.history) == 8
    for bot in ext:
        if isinstance(bot, ExternalBot):
            assert bot.forfeits == []
            bot.close()


def _misbehave(mode: str, good: int, **options: float) -> tuple[ExternalBot, GameState]:
    bot = ExternalBot(
        command=misbehaving(mode, good), rng=random.Random(1), **{**SLOW_OK, **options}
    )
    with bot:
        state = _play(Rules(players=3), [bot, *_others(3, 5)], 5, max_hands=2)
    assert len(state.history) == 2 or state.is_terminal()  # the game went on to the end
    assert bot._proc is None  # closed
    return bot, state


def test_a_crashing_program_is_restarted_then_given_up(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="pitch.bots.external"):
        bot, _ = _misbehave("crash", 2, restarts=2)
    reasons = [f.reason for f in bot.forfeits]
    # Each start answers two decisions, then exits; after the third start, no more.
    assert reasons[:3] == ["the program exited (status 3)"] * 3
    assert all("failed 3 times this game" in r for r in reasons[3:])
    assert len(reasons) == bot.decisions - 6 > 3
    assert "forfeits a decision: the program exited (status 3)" in caplog.text


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("garbage", "the answer is not JSON: 'I think I will play the ace'"),
        ("illegal", "is not legal here"),
        ("shape", 'the answer is not {"action": TEXT}'),
    ],
)
def test_bad_answers_forfeit_each_decision(mode: str, reason: str) -> None:
    bot, _ = _misbehave(mode, 1)
    assert len(bot.forfeits) == bot.decisions - 1 > 5
    assert all(reason in f.reason for f in bot.forfeits)


def test_a_silent_program_is_stopped() -> None:
    bot, _ = _misbehave("silent", 1, time=0.2, grace=0.1, startup=2.0, restarts=1)
    reasons = [f.reason for f in bot.forfeits]
    # It answers once, then is silent; the restarted one (told the game so far) answers
    # its first act again, then is silent; after that it is not started again.
    assert reasons[:2] == ["no answer within 0.3 s; the program was stopped"] * 2
    assert all("failed 2 times" in r for r in reasons[2:])
    assert len(reasons) == bot.decisions - 2


def test_unrequested_lines_are_ignored(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="pitch.bots.external"):
        bot, _ = _misbehave("chatty", 0)
    # The debug line is taken for the first answer; later the stale line is dropped and
    # each answer then is one line late, so it is read by the next act: all forfeited or
    # legal by chance, but never a stall or a crash.
    assert bot.forfeits and bot.forfeits[0].reason.startswith("the answer is not JSON")
    assert "unrequested output" in caplog.text


def test_a_missing_program_forfeits_without_crashing() -> None:
    bot = ExternalBot(command="/nonexistent/pitch-bot --fast", rng=random.Random(2))
    state = _play(Rules(players=2), [bot, RandomBot(rng=random.Random(3))], 1, max_hands=1)
    assert len(state.history) == 1
    assert bot.forfeits[0].reason.startswith("cannot start '/nonexistent/pitch-bot'")
    assert len(bot.forfeits) == bot.decisions


def test_fallback_is_a_legal_action_from_the_bots_own_rng() -> None:
    # Two bots with equal seeds that never answer make the same fallback choices.
    games = []
    for _ in range(2):
        bot = ExternalBot(command="/nonexistent/x", rng=random.Random(9))
        games.append(_play(Rules(players=2), [bot, RandomBot(rng=random.Random(4))], 2, 2))
    assert games[0].history == games[1].history


def test_close_stops_the_program() -> None:
    bot = ExternalBot(command=misbehaving("silent", 100), rng=random.Random(1))
    _play(Rules(players=2), [bot, RandomBot(rng=random.Random(3))], 1, max_hands=1)
    proc = bot._proc
    assert proc is not None and proc.alive()
    bot.close(wait=0.2)  # the program does not read its input, so it is killed
    assert not proc.alive()


def test_ext_specs_through_the_registry() -> None:
    bot = make_bot("ext[time=0.25,grace=0.1,restarts=0]:python3 'my bot.py' --level 2")
    assert isinstance(bot, ExternalBot)
    assert bot.argv == ["python3", "my bot.py", "--level", "2"]
    assert (bot.time, bot.grace, bot.restarts) == (0.25, 0.1, 0)
    for bad, why in [
        ("ext", "ext:COMMAND ARGS"),
        ("ext:", "needs a command line"),
        ("ext[time=fast]:x", "time must be a number, not .fast."),
        ("ext[speed=1]:x", "bad options for bot 'ext'"),
        ("ext:python3 'unclosed", "bad command line"),
    ]:
        with pytest.raises(ValueError, match=why):
            make_bot(bad)
