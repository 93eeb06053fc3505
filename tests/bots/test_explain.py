"""Hints that explain (pitch.bots.explain): each line fits the position it explains,
every key is translated for the browser and the terminal, and a search bot's figures
are its own (same deals for each move)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pitch.bots import make_bot
from pitch.bots.explain import Evidence, Line, explain
from pitch.engine import GameState, Rules, action_str, parse_action
from pitch.engine.actions import BID_BASE
from pitch.engine.cards import SUIT_OF
from pitch.engine.state import BID, DEAL, PLAY
from pitch.i18n import LANGUAGES
from tests.support.deals import dealt, play

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "src/pitch/bots/explain.py").read_text(encoding="utf-8")
KEYS = {
    "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m))
    for m in re.findall(r"N_\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\)", SOURCE)
}
LANGS = tuple(code for code in LANGUAGES if code != "en")
PASS_KEYS = {
    "Your partner already holds the bid.",
    "Your best suit ({suit}) is worth about {points}, too little to bid more than {high}.",
    "Your best suit ({suit}) is worth only about {points} points.",
}


def test_keys_are_found() -> None:
    assert len(KEYS) >= 20
    assert "Draw trump with your master {card}." in KEYS


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", ["web", "pitch"])
def test_every_key_is_translated(lang: str, domain: str) -> None:
    path = ROOT / f"src/pitch/locale/{lang}/LC_MESSAGES/{domain}.po"
    with path.open("rb") as fh:
        cat = {m.id: m.string for m in read_po(fh) if m.id}
    for key in KEYS:
        assert cat.get(key), f"{domain}/{lang} lacks {key!r}"
        want = sorted(set(re.findall(r"\{(\w+)\}", key)))
        assert sorted(set(re.findall(r"\{(\w+)\}", cat[key]))) == want, (lang, key)


def _lines(seed: int, rules: Rules, hands: int = 3) -> list[tuple[GameState, int, Line]]:
    """Every decision of a few random hands, with the heuristic's move and its line."""
    rng = random.Random(seed)
    bot = make_bot("heuristic", rng=rng)
    st = GameState(rules, dealer=0)
    st.deal_random(rng)
    out = []
    while not st.is_terminal() and len(st.history) < hands:
        seat = st.current_player()
        view = st.view(seat)
        a = bot.act(view)
        line = explain(view, a)
        assert line.key in KEYS
        placeholders = set(re.findall(r"\{(\w+)\}", line.key))
        assert placeholders <= set(line.args), (line, placeholders)
        out.append((st.copy(), a, line))
        st.apply(a)
        if st.phase == DEAL:
            st.deal_random(rng)
    return out


@pytest.mark.parametrize("partnerships", [False, True])
def test_lines_fit_their_positions(partnerships: bool) -> None:
    rules = Rules(players=4, partnerships=partnerships)
    seen: set[str] = set()
    for seed in range(8):
        for st, action, line in _lines(seed, rules):
            seen.add(line.key)
            legal = st.legal_mask()
            if legal.bit_count() == 1:
                assert line.key == "It is your only legal move."
                continue
            if st.phase == BID:
                passing = line.key in PASS_KEYS
                assert passing == (action == BID_BASE) or line.key.startswith("It is"), line
            elif st.phase == PLAY and not st.trick and st.trump < 0:
                assert line.key.endswith("trump (rule R4.1).")
                assert line.args == {"card": action_str(action), "suit": "cdhs"[SUIT_OF[action]]}
            elif "partner" in line.key:
                assert partnerships and st.best_seat % 2 == st.current_player() % 2
            if line.key.startswith("Trump in"):
                assert SUIT_OF[action] == st.trump != SUIT_OF[st.trick[0]]
    assert len(seen) >= 10, seen  # the positions reach most kinds of line


def test_master_trump_lead() -> None:
    # Seat 1 pitches spades with As; later, leading with the Ks master, it draws trump.
    st = dealt(
        Rules(players=2),
        ["2c 3c 4c 5d 6d 7d", "As Ks 2s 9h Th 3h"],
        dealer=0,
    )
    play(st, "bid 2", "pass")  # seat 1 bids 2, the dealer passes: seat 1 pitches
    view = st.view(1)
    assert explain(view, parse_action("As")).key.endswith("trump (rule R4.1).")
    play(st, "As", "2c")
    view = st.view(1)
    assert explain(view, parse_action("Ks")) == Line(
        "Draw trump with your master {card}.", {"card": "Ks"}
    )


def test_search_evidence_is_paired_and_names_another_move() -> None:
    rng = random.Random(5)
    st = GameState(Rules(players=4, partnerships=True), dealer=0)
    st.deal_random(rng)
    bot = make_bot("pimc:samples=30,time=2", rng=random.Random(1))
    for _ in range(12):
        view = st.view(st.current_player())
        advice = bot.advise(view)
        assert (view.legal >> advice.action) & 1
        if view.legal.bit_count() > 1:
            ev = advice.evidence
            assert isinstance(ev, Evidence) and ev.deals >= 1
            assert ev.alt != advice.action and (view.legal >> ev.alt) & 1
            assert ev.line().key in KEYS
            assert ev.game  # master's values count the chance of winning the game
        st.apply(advice.action)


def test_evidence_says_when_its_points_count_the_game() -> None:
    """A search that values the chance of winning the game does not call its figures
    "points a hand"; one that counts points only does."""
    for ev in (Evidence(40, 1.26, BID_BASE), Evidence(40, -0.3, BID_BASE), Evidence(1, 2.0, 0)):
        plain, game = ev.line(), Evidence(ev.deals, ev.gain, ev.alt, game=True).line()
        assert "winning the game" not in plain.key and "winning the game" in game.key
        assert plain.args == game.args and game.key in KEYS
        assert "a hand" not in game.key
    assert Evidence(40, 0.0, 0, game=True).line() == Evidence(40, 0.0, 0).line()
    points_only = make_bot("pimc:win_weight=0,samples=8,time=2", rng=random.Random(1))
    st = GameState(Rules(players=4, partnerships=True), dealer=0)
    st.deal_random(random.Random(5))
    view = st.view(st.current_player())
    ev = points_only.advise(view).evidence
    assert ev is not None and not ev.game


def test_evidence_wording() -> None:
    assert Evidence(40, -0.3, BID_BASE).line().args["loss"] == 0.3
    assert Evidence(40, 0.04, BID_BASE).line().key == (
        "Over {deals} sampled deals {alt} did about as well."
    )
    line = Evidence(40, 1.26, BID_BASE).line()
    assert line.args == {"deals": 40, "gain": 1.3, "alt": "pass"}


def test_a_bid_hint_never_says_a_hand_is_worth_less_than_nothing() -> None:
    # At seven seats the learned estimate of a very weak hand dips below 0 points
    # (about one hand in 10,000): the first to bid gets one such hand.
    from pitch.fastcore.search import hand_estimate

    rules = Rules(players=7)
    rng = random.Random(7)
    for _ in range(100_000):
        hand = sum(1 << c for c in rng.sample(range(52), 6))
        if hand_estimate(hand, 7, False)[1] < -0.01:
            break
    else:
        pytest.fail("no seven-seat hand with an estimate below 0")
    rest = [c for c in range(52) if not hand >> c & 1]
    rng.shuffle(rest)
    s = GameState(rules, dealer=6)
    s.deal([hand] + [sum(1 << c for c in rest[6 * i : 6 * i + 6]) for i in range(6)])
    line = explain(s.view(0), BID_BASE)
    assert "only about" in line.key and str(line.args["points"]) == "0.0"  # not "-0.0"
