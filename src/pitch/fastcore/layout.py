"""Where each field lives in a packed position (one flat int64 array).

A packed position is everything the kernels need to continue a hand: the table
options, the auction and trick fields of :class:`pitch.engine.GameState`, the
hands, and a log of this hand's bids and cards (so that it unpacks exactly).
Slots for 7 seats are always reserved; sides use the first ``SIDES`` slots.
"""

from __future__ import annotations

from typing import Final

from pitch.engine.rules import OPTIONS

OPTION_SLOTS: Final[tuple[str, ...]] = tuple(o.key for o in OPTIONS)
"""The table options' slots after ``N``, ``SIDES`` (``SIDES`` is derived, not an
option), in :data:`pitch.engine.rules.OPTIONS` order: ``w[OPTION_SLOT[key]]`` is
the option as an int (a bool, or the index of the value in its ``choices``)."""
OPTION_SLOT: Final[dict[str, int]] = {
    key: i + (1 if i else 0) for i, key in enumerate(OPTION_SLOTS)
}  # players first, at 0: SIDES follows it

# Table options (pitch.engine.Rules); numba reads these as compile-time constants.
N: Final = OPTION_SLOT["players"]
SIDES: Final = 1
PARTNERS: Final = OPTION_SLOT["partnerships"]
LOW_HOLDER: Final = OPTION_SLOT["low_to"]
STEAL: Final = OPTION_SLOT["dealer_may_steal"]
REDEAL: Final = OPTION_SLOT["all_pass"]
MIN_BID: Final = OPTION_SLOT["min_bid"]
TARGET: Final = OPTION_SLOT["target"]
MUST_MAKE: Final = OPTION_SLOT["must_make_bid_to_win"]
SMUDGE: Final = OPTION_SLOT["smudge"]
OPTIONS_END: Final = len(OPTIONS) + 1
# The hand in progress.
PHASE: Final = OPTIONS_END
TO_ACT: Final = OPTIONS_END + 1
DEALER: Final = OPTIONS_END + 2
HIGH_BID: Final = OPTIONS_END + 3
HIGH_BIDDER: Final = OPTIONS_END + 4
PITCHER: Final = OPTIONS_END + 5
CONTRACT: Final = OPTIONS_END + 6
TRUMP: Final = OPTIONS_END + 7
LEAD: Final = OPTIONS_END + 8
BEST_CARD: Final = OPTIONS_END + 9
BEST_SEAT: Final = OPTIONS_END + 10
TRICK_MASK: Final = OPTIONS_END + 11
TRICK_LEN: Final = OPTIONS_END + 12
TRICKS_DONE: Final = OPTIONS_END + 13
LEADER: Final = OPTIONS_END + 14
NBIDS: Final = OPTIONS_END + 15
NPLAYED: Final = OPTIONS_END + 16
HANDS: Final = NPLAYED + 1
DEALT: Final = HANDS + 7
CAPTURED: Final = DEALT + 7
SCORES: Final = CAPTURED + 7
# Everything above is the position; playouts restore only this much.
POSITION_SIZE: Final = SCORES + 7
BIDS: Final = POSITION_SIZE
"""Bid values (0 = pass) in order; the bidder follows from the dealer."""
PLAYED: Final = BIDS + 7
"""Cards in the order played this hand."""
DECK: Final = PLAYED + 42
"""A permutation of the 52 cards that dealing shuffles in place."""
SIZE: Final = DECK + 52

# Phases: the engine's DEAL/BID/PLAY, then two ends of a hand the kernels stop at.
DEAL: Final = 0
BID: Final = 1
PLAY: Final = 2
HAND_DONE: Final = 4
THROWN: Final = 5

# A hand's result (one row of R_SIZE ints); awards are a side or -1 (none).
R_DELTA: Final = 0
R_WON: Final = 7
R_HIGH: Final = 14
R_LOW: Final = 15
R_JACK: Final = 16
R_GAME: Final = 17
R_MADE: Final = 18
R_HIGH_CARD: Final = 19
R_LOW_CARD: Final = 20
R_JACK_CARD: Final = 21
R_COUNTS: Final = 22
R_THROWN: Final = 29
R_SIZE: Final = 30

# Policies, per seat: bit ``seat`` of a policy mask set means the heuristic plays it;
# bit ``LEARNED_SHIFT + seat`` set, that the learned card model plays its cards
# (:func:`pitch.fastcore.policy.learned_card`; its bids stay the heuristic's).
RANDOM: Final = 0
HEURISTIC: Final = 127
LEARNED_SHIFT: Final = 7
LEARNED: Final = HEURISTIC | HEURISTIC << LEARNED_SHIFT
ALL_POLICIES: Final = LEARNED
"""The largest policy mask."""
