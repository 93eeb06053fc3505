"""Belief accuracy of the kernel determinization (issue 48, exploration).

Plays hands of the partnership game with BOT in every seat, keeps the views of the
seat to act between the 4th and the 16th card played (with the real hands), then
counts, over 20 determinizations a view, how many of the other seats' hidden cards
each reading puts in the hand that really holds them (the rest of the unseen cards
are the 28 undealt, so chance is low).

    PYTHONPATH=src python docs/results/read-model/belief.py "pimc:samples=100,time=100" 60 \
        "[(0, 1), (0, 24), (0.5, 24), (1, 24)]"

Each entry is ``(read, tries)``: ``read`` is ``pimc:read_model``'s power (0: as `master`).
It runs at ``85ca7f4``, where that option exists (it was removed after its gate).
"""

from __future__ import annotations

import ast
import random
import sys
import time

from pitch.bots import make_bot
from pitch.engine import GameState, PlayerView, Rules
from pitch.fastcore import layout
from pitch.fastcore._jit import new_array, seed64
from pitch.fastcore.determinize import SCRATCH_SIZE, determinize
from pitch.fastcore.search import pack_view


def positions(spec: str, games: int, seed: int) -> list[tuple[PlayerView, list[int]]]:
    rng = random.Random(seed)
    out: list[tuple[PlayerView, list[int]]] = []
    for _ in range(games):
        state = GameState.new_game(Rules(players=4, partnerships=True), rng=rng)
        state.deal_random(rng)
        bots = [make_bot(spec, rng=random.Random(rng.getrandbits(32))) for _ in range(4)]
        while state.phase in (layout.BID, layout.PLAY):
            seat = state.to_act
            view = state.view(seat)
            if state.phase == layout.PLAY and 4 <= view.played.bit_count() <= 16:
                out.append((view, list(state.hands)))
            state.apply(bots[seat].act(view))
        if len(out) > 400:
            break
    return out


def accuracy(views: list[tuple[PlayerView, list[int]]], read: float, tries: int) -> float:
    rng = random.Random(3)
    right = total = 0
    sc = new_array([0] * SCRATCH_SIZE)
    w = new_array([0] * layout.SIZE)
    for view, hands in views:
        pos, aux = pack_view(view, rng, tries, read=read)
        s = seed64(rng.getrandbits(64))
        for _ in range(20):
            s = seed64(int(determinize(pos, aux, w, sc, s)))
            for t in range(4):
                if t != view.seat:
                    right += (int(w[layout.HANDS + t]) & hands[t]).bit_count()
                    total += hands[t].bit_count()
    return right / total


if __name__ == "__main__":
    spec, games, readings = sys.argv[1], int(sys.argv[2]), ast.literal_eval(sys.argv[3])
    t0 = time.time()
    views = positions(spec, games, 7)
    print(f"{len(views)} views from {spec} in {time.time() - t0:.0f} s", flush=True)
    for read, tries in readings:
        print(read, tries, f"{accuracy(views, read, tries):.4f}", flush=True)
