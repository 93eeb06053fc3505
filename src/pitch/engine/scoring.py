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
    return score_positional(num_sides, side_of, trump, dealt, captured, pitcher, bid, low_to_holder)


def score_positional(
    num_sides: int,
    side_of: Sequence[int],
    trump: int,
    dealt: Sequence[int],
    captured: Sequence[int],
    pitcher: int,
    bid: int,
    low_to_holder: bool,
) -> HandResult:
    """:func:`score_hand` with positional arguments, for the engine's hot paths."""
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
        low_bit = trumps & -trumps
        low_card = low_bit.bit_length() - 1
        high_bit = BIT[high_card]
        jack_bit = trumps & BIT[trump * 13 + JACK]  # 0 when the jack was not dealt (R5.3)
        # One pass over the sides' captured cards finds all three captors.
        for side, m in enumerate(captured):
            if m & high_bit:
                high = side
            if m & low_bit:
                low = side
            if m & jack_bit:
                jack = side
        if low_to_holder:
            for seat, m in enumerate(dealt):
                if m & low_bit:
                    low = side_of[seat]
        if high is None or low is None:
            raise AssertionError("a trump in play was captured by no side")
        won[high] += 1
        won[low] += 1
        if jack_bit:
            jack_card = trump * 13 + JACK
            if jack is None:
                raise AssertionError("the jack of trump was captured by no side")
            won[jack] += 1
    counts = tuple(map(game_points, captured))
    best = max(counts)
    if counts.count(best) == 1:
        game = counts.index(best)
        won[game] += 1
    pside = side_of[pitcher]
    made = won[pside] >= bid
    delta = list(won)
    if not made:
        delta[pside] = -bid
    # Positional, in HandResult's field order (keywords cost time on this path).
    return HandResult(
        pitcher,
        bid,
        trump,
        high,
        low,
        jack,
        game,
        high_card,
        low_card,
        jack_card,
        counts,
        tuple(won),
        made,
        tuple(delta),
    )
