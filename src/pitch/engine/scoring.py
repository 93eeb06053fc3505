"""Scoring one hand (R5): High, Low, Jack, Game, and the set-back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pitch.engine.cards import BIT, JACK, SUIT_MASK, game_points


class HandResult(NamedTuple):
    """What a hand was worth. Sides are seats (solo) or teams ``seat % 2``.

    ``high``/``low``/``jack``/``game`` name the side that took each point, or
    ``None`` (no jack of trump dealt, R5.3; a tie for Game, R5.4).
    """

    pitcher: int
    bid: int
    trump: int
    high: int | None
    low: int | None
    jack: int | None
    game: int | None
    high_card: int | None
    low_card: int | None
    jack_card: int | None
    game_counts: tuple[int, ...]
    """R5.4: game-point count of each side's captured cards."""
    won: tuple[int, ...]
    """Points each side won this hand, before the set-back."""
    made: bool
    """R5.6: whether the pitcher's side won at least its bid."""
    delta: tuple[int, ...]
    """Score change per side (the pitcher's side loses the bid when set back)."""

    @property
    def awards(self) -> dict[str, int | None]:
        return {"high": self.high, "low": self.low, "jack": self.jack, "game": self.game}


def score_hand(
    *,
    num_sides: int,
    side_of: Sequence[int],
    trump: int,
    dealt: Sequence[int],
    captured: Sequence[int],
    pitcher: int,
    bid: int,
    low_to_holder: bool = False,
) -> HandResult:
    """Score a finished hand.

    ``dealt[seat]`` is the mask each seat was dealt; ``captured[side]`` the mask
    of cards each side won in tricks; ``pitcher`` is a seat.
    """
    in_play = 0
    for m in dealt:
        in_play |= m
    trumps = in_play & SUIT_MASK[trump]
    won = [0] * num_sides
    high = low = jack = game = None
    high_card = low_card = jack_card = None
    if trumps:
        # R5.1/R5.5: the highest and lowest trump in play (the same card if only one).
        high_card = trumps.bit_length() - 1
        low_card = (trumps & -trumps).bit_length() - 1
        high = _captor(captured, BIT[high_card])
        won[high] += 1
        if low_to_holder:
            low = side_of[_holder(dealt, BIT[low_card])]
        else:
            low = _captor(captured, BIT[low_card])
        won[low] += 1
        j = trump * 13 + JACK
        if trumps & BIT[j]:
            jack_card = j
            jack = _captor(captured, BIT[j])
            won[jack] += 1
    counts = tuple(game_points(m) for m in captured)
    best = max(counts)
    if counts.count(best) == 1:
        game = counts.index(best)
        won[game] += 1
    pside = side_of[pitcher]
    made = won[pside] >= bid
    delta = list(won)
    if not made:
        delta[pside] = -bid
    return HandResult(
        pitcher=pitcher,
        bid=bid,
        trump=trump,
        high=high,
        low=low,
        jack=jack,
        game=game,
        high_card=high_card,
        low_card=low_card,
        jack_card=jack_card,
        game_counts=counts,
        won=tuple(won),
        made=made,
        delta=tuple(delta),
    )


def _captor(captured: Sequence[int], bit: int) -> int:
    for side, m in enumerate(captured):
        if m & bit:
            return side
    raise AssertionError("a card in play was captured by no side")


def _holder(dealt: Sequence[int], bit: int) -> int:
    for seat, m in enumerate(dealt):
        if m & bit:
            return seat
    raise AssertionError("a card in play was dealt to no seat")
