"""The analysis of a game (pitch.bots.analysis): right on positions whose best action
is known, blind to the cards its seat could not see, reproducible, and the same
evaluation as the master bot's moves and hints."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pitch.bots import winvalue
from pitch.bots.analysis import (
    MARKS,
    analyze,
    judge,
    mark_of,
    move_accuracy,
)
from pitch.bots.pimc import PimcBot
from pitch.engine import GameState, PitchError, Rules, game_record, parse_action
from pitch.fastcore.layout import HEURISTIC
from pitch.fastcore.search import PimcSearch
from tests.support.deals import cards, play

RULES = Rules(players=2, target=7)
SLOW = 60.0
"""A time cap no decision reaches on a loaded machine: the figures then depend on the
seed alone (each test also checks that every deal was sampled)."""
# Seat 1 pitches spades and leads the Jack of trump to the fifth trick; seat 0 then
# holds Qs and 3s: the Queen captures the Jack (its point and Game), the 3 gives both away.
US = "Qs 3s 8s 4h 5h 6h"
THEM = "Js 2s Ah Kc Qc {last}"
BEFORE = ("bid 2", "pass", "2s", "8s", "4h", "Ah", "Kc", "5h", "Qc", "6h", "Js")


def jack_position(last: str = "Jc", scores: tuple[int, int] = (0, 0)) -> GameState:
    """Seat 0 to play on the Jack of trump; ``last`` is seat 1's unseen last card."""
    s = GameState(RULES)
    s.scores[:] = scores  # a game already under way (the engine starts every game at 0)
    s.deal([cards(US), cards(THEM.format(last=last))])
    return play(s, *BEFORE)


def hand_record(last: str, taken: str) -> dict[str, Any]:
    """The one-hand record of :func:`jack_position` played out (seat 0 plays ``taken``)."""
    s = jack_position(last)
    # The Queen takes the trick and leads the 3; after the 3, seat 1 leads its last card.
    play(s, *(("Qs", "3s", last) if taken == "Qs" else ("3s", last, "Qs")))
    return game_record(s)


def test_capturing_the_jack_is_best_and_giving_it_away_loses() -> None:
    view = jack_position().view(0)
    good = judge(view, parse_action("Qs"), rng=random.Random(1), deals=200, seconds=SLOW)
    bad = judge(view, parse_action("3s"), rng=random.Random(1), deals=200, seconds=SLOW)
    assert good.deals == bad.deals == 200
    assert good.best == bad.best == parse_action("Qs")
    assert good.loss == 0.0 and good.mark is None
    values = {o.action: o for o in bad.options}
    q, three = values[parse_action("Qs")], values[parse_action("3s")]
    assert bad.loss == pytest.approx(q.value - three.value) and bad.loss > 0.01
    # The Jack's point, surely (Game may still go either way: a Ten of trump led last).
    assert q.points - three.points > 0.5


def test_only_one_card_keeps_the_game() -> None:
    """Seat 1 pitched 2 at 5 of 7: given the Jack it has its 2 points and goes out (Game
    is its, 10 Game points to seat 0's 2 and its last card, unless that is a Ten); the
    Queen keeps the Jack and the game."""
    view = jack_position(scores=(0, 5)).view(0)
    d = judge(view, parse_action("3s"), rng=random.Random(2), deals=200, seconds=SLOW)
    values = {o.action: o.value for o in d.options}
    assert d.deals == 200 and not d.cut
    assert values[parse_action("3s")] < 0.1  # seat 1 goes out but on a Ten
    assert values[parse_action("Qs")] > 0.3
    assert d.best == parse_action("Qs") and d.mark == "blunder"


def test_a_decision_with_one_legal_action_loses_exactly_nothing() -> None:
    s = jack_position()
    play(s, "Qs")  # seat 0 took the trick and leads its last card: 3s, forced
    view = s.view(0)
    assert view.legal.bit_count() == 1
    d = judge(view, parse_action("3s"), rng=random.Random(0), deals=50, seconds=SLOW)
    assert d.loss == 0.0 and d.best == d.action and d.mark is None and not d.choice
    assert len(d.options) == 1


def test_the_analysis_never_sees_a_card_its_seat_could_not_see() -> None:
    """Seat 1's last card differs between the two records (and with it the scoring):
    every decision seat 0 made before seat 1 showed it gets the very same figures."""
    one = analyze(hand_record("Jc", "Qs"), deals=100, seed=3, seconds=SLOW)
    two = analyze(hand_record("9d", "Qs"), deals=100, seed=3, seconds=SLOW)
    shown = next(d.number for d in one.decisions if d.trick == 5 and d.seat == 1)
    before = [d for d in one.decisions if d.number < shown and d.seat == 0]
    assert all(d.deals == 100 for d in one.decisions + two.decisions if d.trick is not None)
    assert len(before) == 7  # its bid and six cards (the last one led before seat 1 shows)
    assert before == [d for d in two.decisions if d.number < shown and d.seat == 0]
    # Seat 1's own decisions do see the card: it is in its hand.
    assert one.decisions[0] != two.decisions[0]


def test_same_seed_same_analysis_other_seed_other_samples() -> None:
    rec = hand_record("Jc", "3s")
    a = analyze(rec, deals=60, seed=5, seconds=SLOW)
    assert a.to_json() == analyze(rec, deals=60, seed=5, seconds=SLOW).to_json()
    assert a.to_json() != analyze(rec, deals=60, seed=6, seconds=SLOW).to_json()


def test_the_taken_action_loses_what_the_best_one_is_worth_more() -> None:
    a = analyze(hand_record("Jc", "3s"), deals=200, seed=1, seconds=SLOW)
    d = next(d for d in a.decisions if d.action == parse_action("3s") and d.trick == 4)
    assert d.best == parse_action("Qs") and d.loss > 0
    for d in a.decisions:
        best = max(o.value for o in d.options)
        taken = next(o.value for o in d.options if o.action == d.action)
        assert d.loss == best - taken >= 0
        assert d.chances[d.side] == taken  # the chart's point is the action taken
    seat0 = a.players[0]
    assert seat0.worst and seat0.worst[0].loss == max(d.loss for d in a.decisions if d.seat == 0)
    assert seat0.accuracy is not None and seat0.accuracy < 100


def test_the_evaluation_is_the_master_bots_own() -> None:
    """The hint's figures and the analysis come from the same evaluation: on the same
    generator, the bot's choice is the action with the best mean payoff of the very
    deals whose win chances the analysis reads."""
    view = jack_position().view(0)
    bot = PimcBot(rng=random.Random(9), samples=100, time=None)
    ev = PimcBot(rng=random.Random(9), samples=100, time=None).evaluate(view)
    advice = bot.advise(view)
    means = [sum(v) / len(v) for v in ev.samples.values]
    assert advice.action == ev.actions[means.index(max(means))]
    assert advice.evidence is not None and advice.evidence.deals == ev.deals == 100


def test_the_detail_reads_the_same_deals_and_payoffs() -> None:
    """With room for the detail, the kernel writes the same payoffs, and the win chance
    it reports for the viewer's side is the one the payoff is made of."""
    view = jack_position().view(0)
    acts = list(view.legal_actions())
    kernel = PimcSearch(HEURISTIC, winvalue.shipped().table, 1.0, 0.0)  # the chance alone
    plain = kernel.values(view, acts, 40, 6.0, random.Random(4))
    detail = kernel.samples(view, acts, 40, 6.0, random.Random(4))
    assert detail.values == plain and len(plain[0]) == 40
    assert [row[view.side] for row in detail.chances] == [sum(v) for v in plain]
    assert all(len(row) == 2 and all(0 <= x <= 40 for x in row) for row in detail.chances)
    assert all(x == int(x) and -2 * 40 <= x <= 4 * 40 for x in detail.points)


def test_marks_and_accuracy() -> None:
    assert [mark_of(x) for x in (0.0, 0.049, 0.05, 0.1, 0.2)] == [
        None,
        None,
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert [at for _, at in MARKS] == sorted((at for _, at in MARKS), reverse=True)
    assert move_accuracy(0.0) == 100.0 and move_accuracy(1.0) == 0.0
    assert 60 < move_accuracy(0.1) < 65


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"seconds": -1.0}, "time"),
        ({"seconds": float("nan")}, "time"),
        ({"seconds": 1e9}, "time"),
        ({"deals": 0}, "deals"),
        ({"seats": [5]}, "seats"),
    ],
)
def test_a_bad_budget_is_refused(kwargs: dict[str, Any], says: str) -> None:
    with pytest.raises(PitchError, match=says):
        analyze(hand_record("Jc", "Qs"), **kwargs)


def test_a_refused_record_and_a_huge_one_are_refused() -> None:
    rec = hand_record("Jc", "Qs")
    rec["hands"][0]["tricks"][0]["winner"] = 1
    with pytest.raises(PitchError, match="R4"):
        analyze(rec)
    rec["hands"] = [rec["hands"][0]] * 10_000
    with pytest.raises(PitchError, match="too long"):
        analyze(rec)
