"""One line per arena result file: games, A's wins, the paired intervals, cost."""

import json
import sys
from pathlib import Path


def interval(x: dict[str, float]) -> str:
    return f"{x['estimate']:+.3f} [{x['low']:+.3f},{x['high']:+.3f}]"


for name in sys.argv[1:]:
    d = json.loads(Path(name).read_text())
    a, b = d["bots"]
    print(
        f"{Path(name).name}: deals {d['deals']} games {d['games']} | A {a['bot']} won "
        f"{a['games_won']} ({a['game_win_rate']['estimate']:.3f}) | "
        f"pts/hand {interval(d['paired_difference'])} | "
        f"games {interval(d['paired_game_difference'])} | "
        f"set {a['set_rate']:.3f}/{b['set_rate']:.3f} bids {a['bids_won']}/{b['bids_won']} "
        f"s/dec {a['seconds_per_decision']:.4f}/{b['seconds_per_decision']:.4f}"
    )
