"""Step 8's pooled bar: the paired differences of several arena runs' deals together,
with the arena's own cluster-robust interval (pitch.arena.stats.ratio_interval)."""

import json
import sys
from pathlib import Path

from pitch.arena.stats import ratio_interval

won: list[float] = []
games: list[float] = []
points: list[float] = []
hands: list[float] = []
for name in sys.argv[1:]:
    for d in json.loads(Path(name).read_text())["per_deal"]:
        won.append(d["win_share"][0] - d["win_share"][1])
        games.append(d["games"])
        points.append(d["difference"])
        hands.append(d["hands"])
g = ratio_interval(won, games)
p = ratio_interval(points, hands)
print(
    f"pooled {len(won)} deals: games {g.estimate:+.3f} [{g.low:+.3f}, {g.high:+.3f}], "
    f"points a hand {p.estimate:+.3f} [{p.low:+.3f}, {p.high:+.3f}]"
)
