"""Where each field lives in a packed position (one flat int64 array).

A packed position is everything the kernels need to continue a hand: the table
options, the auction and trick fields of :class:`pitch.engine.GameState`, the
hands, and a log of this hand's bids and cards (so that it unpacks exactly).
Slots for 7 seats are always reserved; sides use the first ``SIDES`` slots.
"""

from __future__ import annotations

from typing import Final

# Table options (pitch.engine.Rules).
N: Final = 0
SIDES: Final = 1
PARTNERS: Final = 2
LOW_HOLDER: Final = 3
STEAL: Final = 4
REDEAL: Final = 5
MIN_BID: Final = 6
TARGET: Final = 7
MUST_MAKE: Final = 8
# The hand in progress.
PHASE: Final = 9
TO_ACT: Final = 10
DEALER: Final = 11
HIGH_BID: Final = 12
HIGH_BIDDER: Final = 13
PITCHER: Final = 14
CONTRACT: Final = 15
TRUMP: Final = 16
LEAD: Final = 17
BEST_CARD: Final = 18
BEST_SEAT: Final = 19
TRICK_MASK: Final = 20
TRICK_LEN: Final = 21
TRICKS_DONE: Final = 22
LEADER: Final = 23
NBIDS: Final = 24
NPLAYED: Final = 25
HANDS: Final = 26
DEALT: Final = 33
CAPTURED: Final = 40
SCORES: Final = 47
# Everything above is the position; playouts restore only this much.
POSITION_SIZE: Final = 54
BIDS: Final = 54
"""Bid values (0 = pass) in order; the bidder follows from the dealer."""
PLAYED: Final = 61
"""Cards in the order played this hand."""
DECK: Final = 103
"""A permutation of the 52 cards that dealing shuffles in place."""
SIZE: Final = 155

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

# Policies, per seat: bit ``seat`` of a policy mask set means the heuristic plays it.
RANDOM: Final = 0
HEURISTIC: Final = 127
