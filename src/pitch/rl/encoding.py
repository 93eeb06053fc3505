"""The fixed-size observation vector shared by every adapter, built from a
:class:`~pitch.engine.PlayerView` only (a seat's own cards and public facts).

Seats are *relative*: block ``i`` of a per-seat segment is the seat ``i`` places
to the left of the observer (``0`` is the observer). Sides are relative the same
way (own side first). Every entry is 0/1 except ``scores`` and ``tricks_done``.

>>> from pitch.engine import Rules
>>> enc = Encoding(Rules(players=4))
>>> enc.size
540
>>> enc.segments["hand"], enc.segments["trump"]
(slice(0, 52, None), slice(52, 56, None))
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from pitch.engine import BID, NUM_ACTIONS, PLAY, PlayerView, Rules

SCORE_CLIP: Final = 3.0
"""Scores are divided by the target and clipped to ``[-SCORE_CLIP, SCORE_CLIP]``."""

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

# Bits of a 52-card mask as a 0/1 vector: unpack the mask's little-endian bytes.
_BYTES: Final = 7


def mask_bits(mask: int, width: int = 52) -> npt.NDArray[np.uint8]:
    """``mask`` as ``width`` 0/1 entries, bit 0 first.

    >>> mask_bits(0b101, 4).tolist()
    [1, 0, 1, 0]
    """
    raw = np.frombuffer(mask.to_bytes(_BYTES + 1, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:width]


def action_mask(legal: int) -> Mask:
    """The legal-action mask over the engine's :data:`~pitch.engine.NUM_ACTIONS` ids."""
    return mask_bits(legal, NUM_ACTIONS).astype(np.int8)


class Encoding:
    """The observation layout of one table (its size depends on the players)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        self.players = n
        parts = [
            ("hand", 52),  # own cards now
            ("trump", 4),  # one-hot suit, zeros before the first lead (R4.1)
            ("trick", n * 52),  # current trick: the card each relative seat played
            ("played", n * 52),  # cards seen: each relative seat's plays this hand
            ("voids", n * 4),  # suits each relative seat showed out of (R4.3/R4.4)
            ("bids", n * 6),  # per relative seat: not yet, pass, 1, 2, 3, 4
            ("high_bid", 5),  # high bid / contract: none, 1..4
            ("pitcher", n),  # high bidder in the auction, pitcher in the play
            ("dealer", n),
            ("leader", n),  # leader of the trick in progress
            ("phase", 2),  # auction, play
            ("scores", rules.num_sides),  # own side first, score / target, clipped
            ("seat", n),  # absolute seat, one-hot
            ("tricks_done", 1),  # finished tricks this hand / 6
        ]
        self.segments: dict[str, slice] = {}
        at = 0
        for name, width in parts:
            self.segments[name] = slice(at, at + width)
            at += width
        self.size = at
        low = np.zeros(at, dtype=np.float32)
        high = np.ones(at, dtype=np.float32)
        low[self.segments["scores"]] = -SCORE_CLIP
        high[self.segments["scores"]] = SCORE_CLIP
        self.low, self.high = low, high

    def encode(self, view: PlayerView, out: Vector | None = None) -> Vector:
        """Fill ``out`` (or a new vector) with ``view``'s observation."""
        if view.rules != self.rules:
            raise ValueError("this view is of a different table than the encoding's")
        v = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            v[:] = 0.0
        seg = self.segments
        n = self.players
        me = view.seat
        v[seg["hand"]] = mask_bits(view.hand)
        if view.trump >= 0:
            v[seg["trump"].start + view.trump] = 1.0
        base = seg["trick"].start
        seat = view.leader
        for c in view.trick:
            v[base + (seat - me) % n * 52 + c] = 1.0
            seat = (seat + 1) % n
        base = seg["played"].start
        for s, m in enumerate(view.played_by):
            if m:
                r = (s - me) % n
                v[base + r * 52 : base + (r + 1) * 52] = mask_bits(m)
        base = seg["voids"].start
        for s, m in enumerate(view.voids):
            r = (s - me) % n
            v[base + r * 4 : base + (r + 1) * 4] = mask_bits(m, 4)
        base = seg["bids"].start
        bid_of = dict(view.bids)
        for s in range(n):
            v[base + (s - me) % n * 6 + (bid_of[s] + 1 if s in bid_of else 0)] = 1.0
        if view.phase in (BID, PLAY):
            v[seg["high_bid"].start + view.high_bid] = 1.0
            p = view.pitcher if view.phase == PLAY else view.high_bidder
            if p >= 0:
                v[seg["pitcher"].start + (p - me) % n] = 1.0
            v[seg["phase"].start + (0 if view.phase == BID else 1)] = 1.0
        v[seg["dealer"].start + (view.dealer - me) % n] = 1.0
        if view.phase == PLAY and view.trick:
            v[seg["leader"].start + (view.leader - me) % n] = 1.0
        sides = self.rules.num_sides
        mine = self.rules.side_of(me)
        target = float(self.rules.target)
        base = seg["scores"].start
        for side, score in enumerate(view.scores):
            v[base + (side - mine) % sides] = min(SCORE_CLIP, max(-SCORE_CLIP, score / target))
        v[seg["seat"].start + me] = 1.0
        v[seg["tricks_done"].start] = len(view.tricks) / 6.0
        return v
