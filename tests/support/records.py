"""Long game records, made by the engine, for what large record files cost a server."""

from __future__ import annotations

import json
import random
from typing import Any

from pitch.engine import GameState, Rules, game_record


def long_record(hands: int, seed: int = 0) -> dict[str, Any]:
    """A 2-player game of random moves to a target nobody reaches, ``hands`` hands
    long (3,620 of them are 2.09 MB as compact JSON, just under the 2 MiB bound)."""
    rng = random.Random(seed)
    s = GameState(Rules(players=2, target=10**9), dealer=0)
    while len(s.history) < hands:
        actions = list(s.legal_actions())
        if actions:
            s.apply(rng.choice(actions))
        else:
            s.deal_random(rng)
    return game_record(s)


def verify_body(*records: dict[str, Any]) -> bytes:
    """A ``POST /api/records/verify`` body, compact as a client would send it."""
    return json.dumps({"records": list(records)}, separators=(",", ":")).encode()
