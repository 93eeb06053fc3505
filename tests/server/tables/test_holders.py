"""Who made each hand's bid at a seat whose holder changed (``LiveTable.holder_since``):
the score sheet names a past hand's pitcher by who held the seat then."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from pitch.engine import BID, DEAL, OVER, GameState, Rules
from pitch.server.kernel.schemas import TableOptions
from pitch.server.tables.live import LiveTable, Seat
from pitch.store import EventRow, StoredTable
from pitch.store.repo import SeatRow


def _table(seats: list[Seat]) -> LiveTable:
    rules = Rules(players=2)
    t = LiveTable(
        id="t",
        rules=rules,
        options=TableOptions(),
        first_dealer=0,
        seats=seats,
        created_at=datetime.now(UTC),
    )
    t.state = GameState(rules, dealer=0)
    return t


def _hand(t: LiveTable, by: list[str], log: list[EventRow] | None = None) -> None:
    """Deal and bid a hand (seat i's bid made by ``by[i]``), then finish it; with ``log``,
    the events as the server stores them."""
    st = t.state
    assert st is not None
    st.deal_random(random.Random(len(st.history)))
    events = [EventRow(kind="deal", deal=tuple(st.dealt), by="server")]
    while st.phase != DEAL and st.phase != OVER:
        seat = st.current_player()
        who = by[seat] if st.phase == BID else "bot"  # card plays are not bids
        action = next(iter(st.legal_actions()))  # a pass (the dealer: the least bid)
        t.note_bid(st, seat, who)
        events.append(EventRow(kind="action", seat=seat, action=action, by=who))
        st.apply(action)
    if log is not None:
        log.extend(events)


def test_a_seat_never_changed_has_no_since() -> None:
    t = _table([Seat("human", None, name="Ann"), Seat("bot", "club")])
    _hand(t, ["player", "bot"])
    assert [t.holder_since(i) for i in range(2)] == [None, None]


def test_a_stranger_who_took_over_a_bot_after_two_hands() -> None:
    t = _table([Seat("human", None, name="Ann"), Seat("bot", "club")])
    _hand(t, ["player", "bot"])
    _hand(t, ["timer", "bot"])  # a move the timer made is still the player's
    s = t.seats[1]
    s.kind, s.name, s.token_hash = "human", "Bob", "x"  # arrives between hands
    assert t.holder_since(1) == 2  # nothing bid by him yet
    _hand(t, ["player", "player"])
    assert t.holder_since(1) == 2
    assert t.holder_since(0) is None


def test_a_player_who_resigned_mid_hand_after_bidding() -> None:
    t = _table([Seat("human", None, name="Ann"), Seat("human", None, name="Tess")])
    _hand(t, ["player", "substitute"])  # a stand-in bot plays for an absent player
    _hand(t, ["player", "player"])
    s = t.seats[1]
    s.kind, s.bot, s.token_hash = "bot", "club", None  # resigned after bidding in hand 2
    assert t.holder_since(1) == 2
    _hand(t, ["player", "bot"])
    assert t.holder_since(1) == 2


def test_a_table_rebuilt_from_its_events_knows_the_same() -> None:
    # After a restart the table is replayed from the store: the events' ``by`` say it.
    t = _table([Seat("human", None, name="Ann"), Seat("bot", "club")])
    log: list[EventRow] = []
    _hand(t, ["player", "bot"], log)
    s = t.seats[1]
    s.kind, s.name, s.token_hash = "human", "Bob", "x"
    _hand(t, ["player", "player"], log)
    rows = tuple(SeatRow(i, x.kind, x.bot, x.name, x.token_hash) for i, x in enumerate(t.seats))
    stored = StoredTable(
        id="t",
        created_at=t.created_at,
        rules=t.rules.to_dict(),
        options=t.options.model_dump(),
        first_dealer=0,
        status="playing",
        seats=rows,
        events=tuple(log),
        winner=None,
    )
    back = LiveTable.from_stored(stored)
    assert back.bids_by == t.bids_by
    assert [back.holder_since(i) for i in range(2)] == [None, 1]
