"""Card play's edge by role, from arena records (exploration for this folder).

Reads the records of `pitch arena A B --out FILE` on a partnership table. The arena
plays every deal twice with the bots' seats swapped, so hand k of both games has the
same cards at the same seats. Where both hands also had the same auction (the same
bids, hence the same pitcher), the difference of the side's net points (its points
minus the other side's) between the two games is A's edge over B with those cards,
split by whether that side pitched.

    python docs/results/play-edge/edge.py RECORDS.jsonl
"""

from __future__ import annotations

import json
import statistics
import sys
from typing import Any


def net(hand: dict[str, Any]) -> int:
    delta: list[int] = hand["delta"]
    return delta[0] - delta[1]


def interval(xs: list[int]) -> str:
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] over {len(xs)} hands"


def main(path: str) -> None:
    games: dict[int, dict[int, Any]] = {}
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            games.setdefault(record["arena"]["deal"], {})[record["arena"]["rotation"]] = record
    pitched: list[int] = []
    defended: list[int] = []
    hands = unpaired = 0
    for pair in games.values():
        # seats 0 and 2 are A's in rotation 0 and B's in rotation 1
        for a, b in zip(pair[0]["hands"], pair[1]["hands"], strict=False):
            hands += 1
            same = (a["deal"], a["dealer"], a["bids"]) == (b["deal"], b["dealer"], b["bids"])
            if not same:
                unpaired += 1
                continue
            (pitched if a["pitcher"] % 2 == 0 else defended).append(net(a) - net(b))
    print(f"{hands} hand pairs, {unpaired} with different auctions left out")
    print("A's edge in net points, its side pitching:", interval(pitched))
    print("A's edge in net points, the other side pitching:", interval(defended))


if __name__ == "__main__":
    main(sys.argv[1])
