"""The table without a terminal: bots, refusals in words, save and resume at any point."""

from __future__ import annotations

import random

import pytest

from pitch.bots import RandomBot
from pitch.engine import (
    CardSet,
    GameState,
    IllegalActionError,
    RecordError,
    Rules,
    parse_action,
    parse_card,
    verify_record,
)
from pitch.i18n import set_language
from pitch.tui.moves import HINT, QUIT, InputError, explain, parse_input
from pitch.tui.render import play_choices
from pitch.tui.session import Session, bot_levels


def snapshot(s: Session) -> tuple[object, ...]:
    st = s.state
    return (
        st.phase,
        st.dealer,
        tuple(st.scores),
        tuple(st.hands),
        st.bids,
        st.trick,
        st.tricks,
        st.current_player(),
        st.legal_mask(),
        len(st.history),
    )


def test_save_and_resume_at_every_step_of_a_game() -> None:
    rules = Rules(players=3, target=5)
    s = Session.new(rules, human=1, levels=["random", "random"], seed=99)
    me = RandomBot(rng=random.Random(1))
    steps = 0
    while not s.over and steps < 2000:
        rec = s.to_record("sv")
        assert verify_record(rec) is None  # `pitch verify` accepts every save
        back, lang = Session.from_record(rec)
        assert lang == "sv" and snapshot(back) == snapshot(s)
        assert back.names == s.names and back.human == 1 and back.specs == s.specs
        if s.deal_if_needed():
            # A resumed game deals the same next hand: deals come from the seed.
            back.deal_if_needed()
            assert back.state.hands == s.state.hands
        elif s.human_to_act():
            s.play(me.act(s.state.view(s.human)))
        else:
            s.bot_move()
        steps += 1
    assert s.over
    rec = s.to_record()
    assert "in_progress" not in rec and verify_record(rec) is None


def test_not_a_saved_game_and_tampered_saves_are_refused_in_words() -> None:
    s = Session.new(Rules(), levels=["random"] * 3, seed=4)
    s.deal_if_needed()
    rec = s.to_record()
    plain = {k: v for k, v in rec.items() if k not in ("players", "human", "bots", "seed")}
    with pytest.raises(RecordError, match="pitch replay"):
        Session.from_record(plain)
    bad = dict(rec, in_progress=dict(rec["in_progress"], dealer=(s.state.dealer + 1) % 4))
    if not rec["hands"]:
        bad["in_progress"]["dealer"] = 9
    with pytest.raises(RecordError, match="dealer"):
        Session.from_record(bad)
    first = s.state.to_act
    wrong_bid = dict(rec, in_progress=dict(rec["in_progress"], bids=[[(first + 1) % 4, 0]]))
    with pytest.raises(RecordError, match=r"R3\.1"):
        Session.from_record(wrong_bid)
    unknown_bot = dict(rec, bots=[None if b is None else "nosuchbot" for b in rec["bots"]])
    with pytest.raises(RecordError, match="nosuchbot"):
        Session.from_record(unknown_bot)


def _trick_state(lead: str, trump_lead: str) -> Session:
    """Two players, we deal: seat 1 bids 4, leads ``trump_lead`` (we follow with 2h and
    lose), then leads ``lead`` to the second trick. Set up through real bids and plays."""
    rules = Rules(players=2)
    s = Session.new(rules, human=0, levels=["random"], seed=1)
    s.state = st = GameState(rules, dealer=0)
    st.deal(
        [
            CardSet("2h 3h Kd 4c 5c 6c").mask,
            CardSet("Ah Qd 7s 8s 9s Ts").mask,
        ]
    )
    st.apply(parse_action("bid 4"))
    st.apply(parse_card(trump_lead))  # seat 1 leads trump
    st.apply(parse_card("2h"))  # we follow with trump; seat 1 wins
    st.apply(parse_card(lead))
    return s


def test_refusals_name_the_rule_in_plain_words_and_change_nothing() -> None:
    set_language("en")
    s = _trick_state("Qd", "Ah")
    before = snapshot(s)
    # Diamonds led, we hold Kd: a club is refused (R4.3); the trump 3h is allowed.
    with pytest.raises(IllegalActionError) as e:
        s.play(parse_card("4c"))
    msg = explain(e.value)
    assert msg == "You must follow suit (diamonds) or play a trump (hearts) (R4.3)."
    assert snapshot(s) == before
    with pytest.raises(IllegalActionError) as e:
        s.play(parse_card("As"))
    assert explain(e.value) == "As is not in your hand (R4.2)."
    assert play_choices(s) == [parse_card("3h"), parse_card("Kd")]
    assert parse_input("2", s.state, play_choices(s)) == parse_card("Kd")
    assert parse_input("K♦", s.state, play_choices(s)) == parse_card("Kd")
    assert parse_input("?", s.state, []) is HINT and parse_input("q", s.state, []) is QUIT
    with pytest.raises(InputError, match="no move 7"):
        parse_input("7", s.state, play_choices(s))


def test_trump_led_refusal_and_translation() -> None:
    rules = Rules(players=2)
    s = Session.new(rules, human=0, levels=["random"], seed=1)
    s.state = st = GameState(rules, dealer=0)
    st.deal(
        [
            CardSet("2h 3h Kd 4c 5c 6c").mask,
            CardSet("Ah Qd 7s 8s 9s Ts").mask,
        ]
    )
    st.apply(parse_action("bid 4"))
    st.apply(parse_card("Ah"))
    try:
        set_language("ru")
        with pytest.raises(IllegalActionError) as e:
            s.play(parse_card("Kd"))
        msg = explain(e.value)
        assert "козыр" in msg and "черви" in msg and "R4.3" in msg
        with pytest.raises(InputError, match="не карта"):
            parse_input("пас", st, [])  # in the play a word for pass is no card
    finally:
        set_language("en")


def test_bid_input_and_dealer_refusal() -> None:
    rules = Rules(players=2)
    s = Session.new(rules, human=0, levels=["random"], seed=1)
    s.state = st = GameState(rules, dealer=0)
    st.deal_random(random.Random(3))
    st.apply(parse_action("pass"))  # seat 1 passes; we are the dealer
    assert parse_input("pass", st, []) == parse_action("pass")
    assert parse_input("3", st, []) == parse_action("bid 3")
    with pytest.raises(IllegalActionError) as e:
        s.play(parse_action("pass"))
    assert "dealer must bid at least 2 (R3.5)" in explain(e.value)
    # A card in the auction is the engine's to refuse (R3.1), in the same words.
    assert parse_input("Ah", st, []) == parse_card("Ah")
    with pytest.raises(IllegalActionError) as e:
        s.play(parse_card("Ah"))
    assert explain(e.value) == "The auction is not over: bid or pass first (R3.1)."
    set_language("gl")
    try:
        assert parse_input("paso", st, []) == parse_action("pass")
    finally:
        set_language("en")


def test_bot_levels_per_seat_and_unknown_names() -> None:
    assert bot_levels("random", None, 4, 0) == ["random"] * 3
    assert bot_levels(None, "random,random,random", 4, 2) == ["random"] * 3
    with pytest.raises(ValueError, match="one per bot seat"):
        bot_levels(None, "random,random", 4, 0)
    with pytest.raises(ValueError, match="known bots"):
        bot_levels("grandmaster", None, 4, 0)


def test_default_level_is_club_else_the_strongest_bot_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pitch.tui.session as session_mod

    # A registry as on a branch with only the random bot, then as the bots add theirs.
    bots: dict[str, object] = {"random": RandomBot}
    aliases: dict[str, str] = {}
    monkeypatch.setattr(session_mod, "BOTS", bots)
    monkeypatch.setattr(session_mod, "ALIASES", aliases)
    assert session_mod.default_level() == ("random", "random")
    assert session_mod.strongest_level() == "random"
    bots["heuristic"] = RandomBot
    aliases.update(beginner="random", expert="heuristic")
    assert session_mod.default_level() == ("expert", "expert")
    aliases.update(club="heuristic", master="heuristic")
    assert session_mod.default_level() == ("club", None)
    assert session_mod.strongest_level() == "master"
    aliases["future"] = "pimc"  # a level whose bot this installation lacks is skipped
    assert session_mod.strongest_level() == "master"


def test_the_terminal_orders_levels_as_the_registry_lists_them() -> None:
    """One list of levels, weakest to strongest (pitch.bots.registry.ALIASES): the
    terminal's order is that list reversed, and the master (pimc) is the strongest."""
    import pitch.tui.session as session_mod
    from pitch.bots.registry import levels

    listed = [lv.level for lv in levels()]
    assert listed == ["beginner", "club", "expert", "master"]
    assert session_mod.strength_order() == listed[::-1]
    assert session_mod.strongest_level() == "master"
    assert session_mod.default_level() == ("club", None)


def test_a_save_names_the_player_the_same_in_every_language() -> None:
    """A player who gave no name is stored as "Player N" (issue 17 item 8: a Swedish
    save said "Du", which an English replay showed) and shown as "You" in the
    terminal's language at display only."""
    rules = Rules(players=3)
    try:
        set_language("sv")
        s = Session.new(rules, human=1, levels=["random", "random"], seed=5)
        rec = s.to_record("sv")
        assert rec["players"][1] == "Player 2" and rec["named"] is False
        assert s.shown_names[1] == "Du" and s.seating.names[1] == "Du"
        back, _lang = Session.from_record(rec)
        set_language("en")
        assert back.names[1] == "Player 2" and back.shown_names[1] == "You"
        named = Session.new(rules, human=0, name="Tess", levels=["random", "random"], seed=5)
        rec = named.to_record("sv")
        assert rec["players"][0] == "Tess" and rec["named"] is True
        assert Session.from_record(rec)[0].shown_names[0] == "Tess"
        old = dict(rec, players=["Du", "Ann", "Bo"])  # a save from before: as stored
        del old["named"]
        assert Session.from_record(old)[0].shown_names[0] == "Du"
    finally:
        set_language("en")
