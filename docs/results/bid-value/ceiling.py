"""Is the linear bid estimate at its ceiling? (exploration for this folder, not the product)

`rows` makes the training rows of `pitch train bid-value` again (every seat pitches every
suit it holds, bids 2, leads the suit's top card, R4.1; the kernel heuristic plays the
hand out), keeping the whole hand, the suit, the seat counted from the dealer, the points
its side took and the shipped estimate. `fit` fits ridge least squares on richer
features than the shipped 41 and reports the squared error on another seed's rows.

    python docs/results/bid-value/ceiling.py rows 4 p 300000 11 /tmp/tr-4p.npz
    python docs/results/bid-value/ceiling.py rows 4 p 100000 12 /tmp/te-4p.npz
    python docs/results/bid-value/ceiling.py fit /tmp/tr-4p.npz /tmp/te-4p.npz

`4 p` is the 4-player partnership table, `4 s` the 4-player solo one.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from numba import njit

from pitch.engine import Rules
from pitch.fastcore import layout
from pitch.fastcore._jit import seed64
from pitch.fastcore.bidsim import pitched_hand
from pitch.fastcore.layout import DEALER, HANDS, PARTNERS, R_WON, SIZE, N
from pitch.fastcore.packing import table
from pitch.fastcore.policy import learned_estimate
from pitch.fastcore.rules import SUIT_MASK, deal, side_of


@njit
def _collect(w0, n, s, hands, suits, pos, ys, est, w, res, log):  # type: ignore[no-untyped-def]
    players = w0[N]
    partnerships = w0[PARTNERS] != 0
    r = 0
    for i in range(n):
        for j in range(SIZE):
            w[j] = w0[j]
        w[DEALER] = i % players
        s = deal(w, s)
        for j in range(SIZE):
            w[SIZE + j] = w[j]
        for seat in range(players):
            hand = w[SIZE + HANDS + seat]
            for suit in range(4):
                trumps = hand & SUIT_MASK[suit]
                if trumps == 0:
                    continue
                s = pitched_hand(w, seat, trumps, s, res, log)
                hands[r] = hand
                suits[r] = suit
                pos[r] = (seat - w[SIZE + DEALER] + players) % players
                ys[r] = float(res[R_WON + side_of(w, seat)])
                est[r] = learned_estimate(hand, suit, players, partnerships)
                r += 1
    return r, s


def rows(players: int, partnerships: bool, deals: int, seed: int, out: str) -> None:
    w0 = np.array(table(Rules(players=players, partnerships=partnerships), 0), dtype=np.int64)
    cap = deals * players * 4
    hands, suits, pos = (np.zeros(cap, np.int64) for _ in range(3))
    ys, est = np.zeros(cap), np.zeros(cap)
    w = np.zeros(2 * SIZE, np.int64)
    res = np.zeros(layout.R_SIZE, np.int64)
    log = np.zeros(0, np.int64)
    start = time.time()
    r, _ = _collect(w0, deals, seed64(seed), hands, suits, pos, ys, est, w, res, log)
    np.savez(out, hands=hands[:r], suits=suits[:r], pos=pos[:r], y=ys[:r], est=est[:r])
    mse = float(np.mean((ys[:r] - est[:r]) ** 2))
    print(f"{out}: {r} rows in {time.time() - start:.1f} s; shipped estimate's MSE {mse:.4f}")


def _bits(x: Any) -> Any:
    return ((x[:, None] >> np.arange(13)) & 1).astype(np.float64)


def features(d: Any, kind: str) -> Any:
    """`est`: the shipped estimate refitted; `rich`: + the trump ranks, trump count,
    seat, side-suit ranks and shortest side suit (50); `rich2`: + rank pairs, ranks by
    count, seat by estimate (148)."""
    h, s, pos, est = d["hands"], d["suits"], d["pos"], d["est"]
    n = len(h)
    cols = [np.ones((n, 1)), est[:, None]]
    if kind == "est":
        return np.hstack(cols)
    bits = _bits((h >> (13 * s)) & 0x1FFF)
    count = bits.sum(1).astype(int)
    side = np.zeros((n, 13))
    lengths = []
    for t in range(4):
        other = s != t
        sbits = _bits((h >> (13 * t)) & 0x1FFF)
        side += sbits * other[:, None]
        lengths.append(np.where(other, sbits.sum(1), 99))
    shortest = np.sort(np.stack(lengths, 1), 1)[:, 0]
    seat = np.eye(7)[pos]
    cols += [bits, np.eye(8)[np.minimum(count, 7)], seat, side]
    cols.append(np.eye(7)[np.minimum(shortest, 6).astype(int)])
    if kind == "rich2":
        cols += [
            bits[:, i : i + 1] * bits[:, j : j + 1] for i in range(13) for j in range(i + 1, 13)
        ]
        cols += [bits * count[:, None], seat * est[:, None]]
    return np.hstack(cols)


def fit(train: str, test: str) -> None:
    tr, te = np.load(train), np.load(test)
    print(f"shipped estimate: test MSE {float(np.mean((te['y'] - te['est']) ** 2)):.4f}")
    for kind in ("est", "rich", "rich2"):
        x = features(tr, kind)
        weights = np.linalg.solve(x.T @ x + np.eye(x.shape[1]), x.T @ tr["y"])
        err = float(np.mean((te["y"] - features(te, kind) @ weights) ** 2))
        print(f"{kind} ({x.shape[1]} features): test MSE {err:.4f}")


if __name__ == "__main__":
    if sys.argv[1] == "rows":
        players, kind, deals, seed, out = sys.argv[2:7]
        rows(int(players), kind == "p", int(deals), int(seed), out)
    else:
        fit(sys.argv[2], sys.argv[3])
