"""The bot side: ``serve`` and ``pitch bot`` answer every ``act`` and explain what
they cannot use on stderr, without stopping."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

from pitch.bots import RandomBot
from pitch.bots.protocol import GameEvents, act_message, end_message, serve
from pitch.engine import GameState, Rules, parse_action
from tests.protocol.conftest import pitch_bot


def _session(seat: int, seed: int, hands: int) -> tuple[list[str], list[int]]:
    """The host's lines for ``seat`` over a random game, and the decisions of a
    RandomBot with seed ``seed`` in that seat (in-process)."""
    rng = random.Random(100 + seed)
    rules = Rules(players=3)
    state = GameState.new_game(rules, rng)
    bot = RandomBot(rng=random.Random(seed))
    ev = GameEvents(state.view(seat))
    lines: list[str] = []
    chosen: list[int] = []
    sent = 0

    def send(view_events: list[dict[str, object]]) -> None:
        nonlocal sent
        lines.extend(json.dumps(e) for e in view_events[sent:])
        sent = len(view_events)

    while not state.is_terminal() and len(state.history) < hands:
        if state.is_chance_node():
            state.deal_random(rng)
            continue
        p = state.current_player()
        if p == seat:
            view = state.view(seat)
            send(ev.update(view))
            lines.append(json.dumps(act_message(view, 1.0)))
            a = bot.act(view)
            chosen.append(a)
        else:
            a = rng.choice(list(state.legal_actions()))
        state.apply(a)
    send(ev.update(state.view(seat)))
    lines.append(json.dumps(end_message(state.winner)))
    return lines, chosen


def _serve(lines: list[str], seed: int) -> tuple[list[int], str, int]:
    out, err = io.StringIO(), io.StringIO()
    problems = serve(RandomBot(rng=random.Random(seed)), io.StringIO("\n".join(lines)), out, err)
    answers = [parse_action(json.loads(x)["action"]) for x in out.getvalue().splitlines()]
    return answers, err.getvalue(), problems


def test_serve_makes_the_in_process_decisions() -> None:
    lines, chosen = _session(seat=1, seed=4, hands=4)
    answers, err, problems = _serve(lines + lines, seed=4)  # two games on one "process"
    assert answers[: len(chosen)] == chosen
    assert len(answers) == 2 * len(chosen)
    assert (err, problems) == ("", 0)


def test_bad_lines_are_reported_and_skipped() -> None:
    lines, chosen = _session(seat=0, seed=2, hands=2)
    noisy = ["not json at all", "[1, 2]", '{"type": "chat", "text": "hi"}', "", *lines]
    noisy.insert(6, '{"type": "weather"}')  # mid-game: an unknown type is skipped
    answers, err, problems = _serve(noisy, seed=2)
    assert answers == chosen
    assert problems == 4
    assert "line 1: not JSON" in err
    assert "line 2: expected a JSON object" in err
    assert "line 3: unknown message type 'chat', skipped" in err
    assert "line 7: unknown message type 'weather', skipped" in err


def test_a_contradicting_host_gets_random_legal_answers() -> None:
    lines, _ = _session(seat=2, seed=3, hands=2)
    # Drop the first bid: the auction no longer adds up, so the bot cannot follow.
    first_bid = next(i for i, x in enumerate(lines) if '"type": "bid"' in x)
    broken = lines[:first_bid] + lines[first_bid + 1 :]
    out, err = io.StringIO(), io.StringIO()
    serve(RandomBot(rng=random.Random(3)), io.StringIO("\n".join(broken)), out, err)
    acts = [json.loads(x) for x in broken if '"type": "act"' in x]
    answers = [json.loads(x)["action"] for x in out.getvalue().splitlines()]
    assert len(answers) == len(acts)
    assert all(a in act["legal"] for a, act in zip(answers, acts, strict=True))
    assert "answering at random until the next game" in err.getvalue()


def test_act_with_a_bad_legal_list_gets_a_null_answer() -> None:
    answers_out, err = io.StringIO(), io.StringIO()
    serve(RandomBot(), io.StringIO('{"type": "act", "legal": []}\n'), answers_out, err)
    assert json.loads(answers_out.getvalue()) == {"action": None}
    assert "'legal' must be a non-empty list" in err.getvalue()


def test_pitch_bot_command_survives_garbage_and_exits_at_end_of_input() -> None:
    lines, chosen = _session(seat=1, seed=9, hands=1)
    text = "\n".join(["garbage", *lines, "{oops"]) + "\n"
    run = subprocess.run(
        pitch_bot("random", 9), input=text, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0
    answers = [parse_action(json.loads(x)["action"]) for x in run.stdout.splitlines()]
    assert answers == chosen
    assert "line 1: not JSON" in run.stderr
    assert "Traceback" not in run.stderr


def test_pitch_bot_rejects_an_unknown_level() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pitch", "bot", "grandmaster"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "unknown bot 'grandmaster'" in run.stderr
    assert "Traceback" not in run.stderr
