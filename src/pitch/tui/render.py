"""Drawing the table with Rich: seats, auction, trump, trick, hand, scores.

Everything fits an 80x24 terminal for up to seven players.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pitch.engine import BID, PASS, PLAY, GameState, HandRecord
from pitch.engine.actions import BID_BASE
from pitch.engine.rules import END_TEXTS
from pitch.i18n import _, suit_name, term
from pitch.tui.cards import card_text, sorted_hand, suit_text
from pitch.tui.session import Seating, Session


def bid_label(bid: int) -> str:
    return term("pass") if bid == 0 else str(bid)


def action_label(action: int, symbols: bool) -> Text:
    if action >= BID_BASE:
        return Text(bid_label(action - BID_BASE))
    return card_text(action, symbols)


def header(session: Session, symbols: bool) -> Text:
    st = session.state
    t = Text()
    t.append("Pitch", style="bold magenta")
    t.append("  " + _("Hand {number}").format(number=len(st.history) + 1))
    t.append("  " + _("Target {points}").format(points=session.rules.target))
    if st.phase == PLAY:
        t.append("  " + term("bid").capitalize() + f" {st.contract}")
        if st.trump >= 0:
            t.append("  " + term("trump").capitalize() + " ")
            t.append_text(suit_text(st.trump, symbols))
            t.append(" " + suit_name(st.trump), style="bold")
    return t


def seats_table(session: Session, symbols: bool) -> Table:
    st = session.state
    rules = session.rules
    n = rules.players
    tbl = Table(box=box.ROUNDED if symbols else box.ASCII, padding=(0, 1), show_edge=True)
    tbl.add_column("", width=1, no_wrap=True)
    tbl.add_column(_("Player"), no_wrap=True, max_width=14)
    tbl.add_column(_("Role"), no_wrap=True, max_width=22)
    tbl.add_column(term("bid").capitalize(), justify="center", no_wrap=True)
    # Tricks taken this hand; the last column is the trick on the table.
    tbl.add_column(_("Taken"), justify="center", no_wrap=True)
    tbl.add_column(
        (term("team") if rules.partnerships else term("score")).capitalize(),
        justify="right",
        no_wrap=True,
    )
    tbl.add_column(term("trick").capitalize(), justify="center", no_wrap=True)
    bids = dict(st.bids)
    taken = [0] * n
    for tr in st.tricks:
        taken[tr.winner] += 1
    in_trick: dict[int, int] = {}
    last = False
    if st.trick:
        for k, c in enumerate(st.trick):
            in_trick[(st.leader + k) % n] = c
    elif st.tricks and st.phase == PLAY:
        tr = st.tricks[-1]
        last = True
        for k, c in enumerate(tr.cards):
            in_trick[(tr.leader + k) % n] = c
    turn = st.to_act if st.phase in (BID, PLAY) else -1
    for s in range(n):
        roles = []
        if s == st.dealer:
            roles.append(term("dealer"))
        if st.phase == PLAY and s == st.pitcher:
            roles.append(term("pitcher"))
        name = Text(session.shown_names[s], style="bold cyan" if s == session.human else "")
        side = rules.side_of(s)
        score = str(st.scores[side])
        if rules.partnerships:
            score = f"{'AB'[side]} {score}"
        card = Text("")
        if s in in_trick:
            style = "dim" if last else ""
            card = card_text(in_trick[s], symbols, style=style)
            if last and st.tricks[-1].winner == s:
                card.append(" *", style="yellow")
        tbl.add_row(
            Text(">", style="bold yellow") if s == turn else "",
            name,
            Text(", ".join(roles), style="italic"),
            bid_label(bids[s]) if s in bids else "",
            str(taken[s]) if st.phase == PLAY else "",
            score,
            card,
        )
    return tbl


def hand_line(session: Session, symbols: bool, choices: list[int]) -> Text:
    """The human's cards by suit; legal ones numbered in the order of ``choices``."""
    st = session.state
    t = Text(_("Your hand") + ": ", style="bold")
    hand = st.hands[session.human]
    for c in sorted_hand(hand, st.trump):
        if c in choices:
            t.append(f"{choices.index(c) + 1}:", style="yellow")
            t.append_text(card_text(c, symbols))
        else:
            t.append_text(card_text(c, symbols, style="dim"))
        t.append("  ")
    return t


def play_choices(session: Session) -> list[int]:
    """The human's legal cards in the order the hand is shown."""
    st = session.state
    legal = st.legal_mask() if session.human_to_act() and st.phase == PLAY else 0
    return [c for c in sorted_hand(st.hands[session.human], st.trump) if legal >> c & 1]


def bid_choices_line(session: Session) -> Text:
    st = session.state
    legal = st.legal_mask()
    options = []
    for a in range(PASS, BID_BASE + 5):
        if legal >> a & 1:
            b = a - BID_BASE
            options.append("0 = " + term("pass") if b == 0 else str(b))
    t = Text(_("Your bid") + ": ", style="bold")
    t.append(", ".join(options), style="yellow")
    if st.high_bid:
        t.append("   " + _("high bid {bid}").format(bid=st.high_bid), style="dim")
    return t


def table_screen(
    session: Session,
    symbols: bool,
    *,
    event: str = "",
    message: str = "",
    note: str = "",
    choices: list[int] | None = None,
) -> RenderableType:
    st = session.state
    parts: list[RenderableType] = [header(session, symbols), seats_table(session, symbols)]
    if st.trick == () and st.tricks and st.phase == PLAY:
        w = st.tricks[-1].winner
        said = (
            _("You took the last trick (*).")
            if w == session.human
            else _("{name} took the last trick (*).").format(name=session.shown_names[w])
        )
        parts.append(Text(said, style="dim"))
    parts.append(hand_line(session, symbols, choices or []))
    if session.human_to_act() and st.phase == BID:
        parts.append(bid_choices_line(session))
    if event:
        line = Text(event, style="green")
        if note:
            line.append("  " + note, style="dim")
        parts.append(line)
    if message:
        parts.append(Text(message, style="bold red"))
    return Group(*parts)


def award_name(session: Seating, side: int | None) -> str:
    return "—" if side is None else session.side_name(side)


def trick_line(session: Seating, leader: int, cards: tuple[int, ...], symbols: bool) -> Text:
    n = session.rules.players
    t = Text()
    for k, c in enumerate(cards):
        t.append(session.names[(leader + k) % n] + " ")
        t.append_text(card_text(c, symbols))
        t.append("  ")
    return t


def hand_summary(
    session: Seating, hands: tuple[HandRecord, ...], number: int, symbols: bool
) -> RenderableType:
    """Who took High, Low, Jack and Game, whether the pitcher made it, score changes
    (hand ``number``, 1-based, of ``hands``)."""
    hand = hands[number - 1]
    res = hand.result
    parts: list[RenderableType] = []
    if res is None:
        parts.append(
            Text(_("Everyone passed: the hand is thrown in and dealt again."), style="bold")
        )
        return Group(*parts)
    if hand.tricks:
        last = hand.tricks[-1]
        line = Text(_("Last trick") + ": ", style="dim")
        line.append_text(trick_line(session, last.leader, last.cards, symbols))
        line.append("-> " + session.names[last.winner], style="yellow")
        parts.append(line)
    title = Text(_("Hand {number}").format(number=number) + ": ", style="bold")
    title.append(
        _("{name} pitched a bid of {bid}. Trump:").format(
            name=session.names[res.pitcher], bid=res.bid
        )
    )
    title.append(" ")
    title.append_text(suit_text(res.trump, symbols))
    title.append(" " + suit_name(res.trump))
    parts.append(title)
    aw = Table(box=None, show_header=False, padding=(0, 1))
    aw.add_column(style="bold")
    aw.add_column()
    aw.add_column()
    for key, side, card in (
        ("high", res.high, res.high_card),
        ("low", res.low, res.low_card),
        ("jack", res.jack, res.jack_card),
    ):
        if card is None:
            aw.add_row(term(key), "—", Text(_("not dealt"), style="dim"))
        else:
            aw.add_row(term(key), award_name(session, side), card_text(card, symbols))
    counts = ", ".join(f"{session.side_name(s)} {c}" for s, c in enumerate(res.game_counts))
    game_who = award_name(session, res.game) if res.game is not None else _("tie: nobody")
    aw.add_row(term("game"), game_who, Text(f"{term('game points')}: {counts}", style="dim"))
    parts.append(aw)
    pside = session.rules.side_of(res.pitcher)
    if res.made:
        verdict = _("{name} made the bid of {bid}.").format(
            name=session.side_name(pside), bid=res.bid
        )
        parts.append(Text(verdict, style="bold green"))
    else:
        verdict = _("{name} missed the bid of {bid}: set back by {bid}.").format(
            name=session.side_name(pside), bid=res.bid
        )
        parts.append(Text(verdict, style="bold red"))
    parts.append(score_sheet(session, hands[:number], rows=6, symbols=symbols))
    return Group(*parts)


def score_sheet(
    session: Seating, hist: tuple[HandRecord, ...], rows: int = 8, symbols: bool = True
) -> Table:
    """The last ``rows`` hands: pitcher, bid, each side's change, and the totals."""
    rules = session.rules
    tbl = Table(box=box.SIMPLE_HEAD if symbols else box.ASCII2, padding=(0, 1))
    tbl.add_column("#", justify="right")
    tbl.add_column(term("pitcher").capitalize(), no_wrap=True, max_width=12)
    tbl.add_column(term("bid").capitalize(), justify="center")
    for side in range(rules.num_sides):
        tbl.add_column(session.side_name(side), justify="right", no_wrap=True, max_width=12)
    start = max(0, len(hist) - rows)
    for i in range(start, len(hist)):
        h = hist[i]
        res = h.result
        if res is None:
            tbl.add_row(str(i + 1), "—", term("pass"), *(["—"] * rules.num_sides))
            continue
        cells: list[Text] = []
        for side, d in enumerate(res.delta):
            style = "red" if d < 0 else ("green" if d > 0 else "dim")
            cells.append(Text(f"{d:+d} {h.scores[side]:>3}", style=style))
        tbl.add_row(str(i + 1), session.names[res.pitcher], str(res.bid), *cells)
    return tbl


def end_lines(state: GameState) -> list[Text]:
    """Why the game ended (R6.2, or a house rule), translated from its message key."""
    reason = state.end_reason
    return [] if reason is None else [Text(_(END_TEXTS[reason]), style="yellow")]


def final_screen(session: Session, symbols: bool, saved: str) -> RenderableType:
    """The winner and where the record went (the last hand's summary, with the score
    sheet, is on the screen just above)."""
    st = session.state
    parts: list[RenderableType] = []
    if st.winner is not None:
        score = st.scores[st.winner]
        if st.winner == session.rules.side_of(session.human) and not session.rules.partnerships:
            said = _("You won the game with {score} points!").format(score=score)
        else:
            said = _("{name} won the game, {score} points!").format(
                name=session.side_name(st.winner), score=score
            )
        won = Text(said, style="bold yellow")
        parts.append(won)
        parts.extend(end_lines(st))
    parts.append(Text(saved, style="dim"))
    return Group(*parts)
