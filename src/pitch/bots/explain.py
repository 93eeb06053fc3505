"""Why a move: one line a player can read, for the hints (browser and terminal).

A hint is the hint bot's move (:meth:`pitch.bots.base.Bot.advise`) with two
translatable lines: :func:`explain` says what the move does at this moment, seen from
the player's own view (draws trump with a master, feeds a partner's trick, sets trump,
follows the heuristic's hand estimate when bidding); a search bot adds its own figures
(:class:`Evidence`: on how many sampled deals, and by how much, it beat the next best
move). A line does not repeat the move when it names no card or bid: clients show
the move beside it. Each line is a message key (the English text, a gettext msgid with
``{placeholders}``) and its arguments, so each client translates and formats them: a
``card`` or ``alt`` argument is an action as the protocol writes it (``As``, ``bid 2``,
``pass``), ``suit`` a suit letter, numbers are numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pitch.engine import PlayerView
from pitch.engine.actions import BID_BASE, action_str, is_bid
from pitch.engine.cards import GAME_VALUE, JACK, RANK_OF, SUIT_MASK, SUIT_OF, SUITS
from pitch.engine.state import BID
from pitch.fastcore.search import card_worth, hand_estimate

Args = dict[str, str | int | float]


def N_(text: str) -> str:
    """Mark a message key for extraction; it is translated where it is shown."""
    return text


@dataclass(frozen=True, slots=True)
class Line:
    """A message key (English text with ``{placeholders}``) and its arguments."""

    key: str
    args: Args = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "args": dict(self.args)}


_EVIDENCE = {
    # (what the figures say, whether they count the chance of winning the game)
    ("kept", False): N_(
        "Over {deals} sampled deals {alt} scored {loss} points a hand more, "
        "but not surely enough to leave the bid the hand's estimate gives."
    ),
    ("kept", True): N_(
        "Over {deals} sampled deals {alt} was worth {loss} points more, "
        "counting the chance of winning the game, but not surely enough "
        "to leave the bid the hand's estimate gives."
    ),
    ("even", False): N_("Over {deals} sampled deals {alt} did about as well."),
    ("even", True): N_("Over {deals} sampled deals {alt} did about as well."),
    ("one", False): N_("On the one deal it had time to try, this beat {alt} by {gain} points."),
    ("one", True): N_(
        "On the one deal it had time to try, this beat {alt} by {gain} "
        "points, counting the chance of winning the game."
    ),
    ("more", False): N_(
        "Over {deals} sampled deals this scored {gain} points a hand more than {alt}."
    ),
    ("more", True): N_(
        "Over {deals} sampled deals this was worth {gain} points more than "
        "{alt}, counting the chance of winning the game."
    ),
}
"""Each evidence line's text, per case: the search kept the hand estimate's bid over a
better-looking one, found no real difference, tried one deal, or found this move better."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A search bot's own case for its move: over ``deals`` sampled deals it scored
    ``gain`` points a hand more than ``alt``, the next best move (paired: same deals).
    ``game``: the search's values count the chance of winning the game too (in points,
    ``pimc:win_weight``), so the figures say so rather than "points a hand"."""

    deals: int
    gain: float
    alt: int
    game: bool = False

    def line(self) -> Line:
        alt, gain, n = action_str(self.alt), round(self.gain, 1), self.deals
        args: Args
        if self.gain <= -0.05:  # a bid search that kept the hand estimate's bid
            case, args = "kept", {"deals": n, "alt": alt, "loss": -gain}
        elif self.gain < 0.05:
            case, args = "even", {"deals": n, "alt": alt}
        elif n == 1:
            case, args = "one", {"alt": alt, "gain": gain}
        else:
            case, args = "more", {"deals": n, "alt": alt, "gain": gain}
        return Line(_EVIDENCE[case, self.game], args)


@dataclass(frozen=True, slots=True)
class Advice:
    """A bot's move, with its own figures when it has any (search bots)."""

    action: int
    evidence: Evidence | None = None


def explain(view: PlayerView, action: int) -> Line:
    """What ``action`` does for ``view``'s seat, which is to act, in one line."""
    if view.legal.bit_count() == 1:
        return Line(N_("It is your only legal move."))
    if view.phase == BID or is_bid(action):
        return _bid(view, action - BID_BASE)
    return _card(view, action)


def _bid(view: PlayerView, bid: int) -> Line:
    rules = view.rules
    suit, est = hand_estimate(view.hand, rules.players, rules.partnerships)
    # A learned estimate of a very weak hand at a big table can dip below 0 points.
    s, points = SUITS[suit], round(max(est, 0.0), 1)
    me = view.side
    if bid == 0:
        hb = view.high_bidder
        if hb >= 0 and hb != view.seat and rules.side_of(hb) == me:
            return Line(N_("Your partner already holds the bid."))
        if view.high_bid > 0 and est >= view.high_bid:
            return Line(
                N_(
                    "Your best suit ({suit}) is worth about {points}, "
                    "too little to bid more than {high}."
                ),
                {"suit": s, "points": points, "high": view.high_bid},
            )
        return Line(
            N_("Your best suit ({suit}) is worth only about {points} points."),
            {"suit": s, "points": points},
        )
    dealer = view.seat == view.dealer
    if dealer and view.high_bid == 0 and not view.legal >> BID_BASE & 1:
        return Line(
            N_("Everyone passed, so you must bid (rule R3.5): {suit} is your best suit."),
            {"suit": s},
        )
    if dealer and bid == view.high_bid:
        return Line(
            N_(
                "As dealer you may take the bid at {bid} (rule R3.6): "
                "your {suit} are worth about {points}."
            ),
            {"bid": bid, "suit": s, "points": points},
        )
    # The heuristic bids more when another side is this close (pitch.fastcore.policy).
    threat = any(sc >= rules.target - 2 for side, sc in enumerate(view.scores) if side != me)
    if threat and est < bid:
        return Line(
            N_(
                "Bid to keep the others from going out: "
                "only the pitcher's side can win a hand (rule R6.2)."
            ),
        )
    return Line(
        N_("Your best suit, {suit}, looks worth about {points} points: bid {bid}."),
        {"suit": s, "points": points, "bid": bid},
    )


def _card(view: PlayerView, card: int) -> Line:
    c = action_str(card)
    trump = view.trump
    suit = SUIT_OF[card]
    unseen = view.unseen
    higher = unseen & SUIT_MASK[suit] & ~((2 << card) - 1)
    if not view.trick:
        if trump < 0:
            return Line(
                N_("Lead {card}: your first card makes {suit} trump (rule R4.1)."),
                {"card": c, "suit": SUITS[suit]},
            )
        if suit == trump:
            if not higher:
                return Line(N_("Draw trump with your master {card}."), {"card": c})
            return Line(N_("Lead trump to draw the others' trumps."), {"card": c})
        if not higher and unseen & SUIT_MASK[suit]:
            return Line(
                N_("Lead {card}: it is the highest card left in its suit; only a trump beats it."),
                {"card": c},
            )
        if GAME_VALUE[RANK_OF[card]] == 0:
            return Line(N_("Lead {card}: a low card gives little away."), {"card": c})
        return Line(N_("Lead {card}: of your cards, it is the best lead here."), {"card": c})
    value = card_worth(card, trump, unseen, view.played)
    partner_holds = view.holder != view.seat and view.rules.side_of(view.holder) == view.side
    if partner_holds and not view.takes_lead(card):
        if value >= 0.2 or (suit == trump and RANK_OF[card] == JACK):
            return Line(
                N_("Give {card} to your partner's trick: its points stay with you."), {"card": c}
            )
        return Line(N_("Play low with {card}: your partner holds the trick."), {"card": c})
    if view.takes_lead(card):
        led = SUIT_OF[view.trick[0]]
        if suit == trump and led != trump:
            return Line(N_("Trump in with {card} to take the trick."), {"card": c})
        points = sum(GAME_VALUE[RANK_OF[x]] for x in view.trick)
        if points:
            return Line(
                N_("Take the trick with {card}: it holds {points} of Game."),
                {"card": c, "points": points},
            )
        return Line(N_("Take the trick with {card}."), {"card": c})
    if value >= 0.2:
        return Line(
            N_("Play {card}: it cannot take this trick, and it would be lost later too."),
            {"card": c},
        )
    return Line(
        N_("Throw {card}: it cannot take this trick, and you will miss it least."), {"card": c}
    )
