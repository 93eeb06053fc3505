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
(slice(0, 52, None), slice(468, 472, None))
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
    """The observation layout of one table (its size depends on the players). The
    card segments come first and are unpacked from int masks in one numpy call."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        self.players = n
        parts = [
            ("hand", 52),  # own cards now
            ("trick", n * 52),  # current trick: the card each relative seat played
            ("played", n * 52),  # cards seen: each relative seat's plays this hand
            ("trump", 4),  # one-hot suit, zeros before the first lead (R4.1)
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
        self.card_masks = 1 + 2 * n
        """How many 52-card masks open the vector (hand, trick, played)."""
        low = np.zeros(at, dtype=np.float32)
        high = np.ones(at, dtype=np.float32)
        low[self.segments["scores"]] = -SCORE_CLIP
        high[self.segments["scores"]] = SCORE_CLIP
        self.low, self.high = low, high

    def _masks(self, view: PlayerView) -> list[int]:
        n = self.players
        me = view.seat
        trick = [0] * n
        seat = view.leader
        for c in view.trick:
            trick[(seat - me) % n] = 1 << c
            seat = (seat + 1) % n
        played = [view.played_by[(me + r) % n] for r in range(n)]
        return [view.hand, *trick, *played]

    def encode(self, view: PlayerView, out: Vector | None = None) -> Vector:
        """Fill ``out`` (or a new vector) with ``view``'s observation."""
        v = np.zeros(self.size, dtype=np.float32) if out is None else out
        self.encode_batch([view], v.reshape(1, -1))
        return v

    def encode_batch(self, views: list[PlayerView], out: npt.NDArray[np.float32]) -> None:
        """Fill row ``i`` of ``out`` with ``views[i]``'s observation."""
        for view in views:
            if view.rules != self.rules:
                raise ValueError("this view is of a different table than the encoding's")
        masks = np.array([self._masks(v) for v in views], dtype="<u8")
        bits = np.unpackbits(masks.view(np.uint8), axis=-1, bitorder="little")
        width = self.card_masks * 52
        out[:, :width] = bits.reshape(len(views), self.card_masks, 64)[:, :, :52].reshape(
            len(views), width
        )
        out[:, width:] = 0.0
        for row, view in zip(out, views, strict=True):
            self._fill_rest(view, row)

    def _fill_rest(self, view: PlayerView, v: Vector) -> None:
        seg = self.segments
        n = self.players
        me = view.seat
        if view.trump >= 0:
            v[seg["trump"].start + view.trump] = 1.0
        base = seg["voids"].start
        for s, m in enumerate(view.voids):
            if m:
                r = (s - me) % n
                for suit in range(4):
                    if m >> suit & 1:
                        v[base + r * 4 + suit] = 1.0
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
