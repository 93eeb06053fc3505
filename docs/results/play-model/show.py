import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    a, b = d["bots"]
    pd, pg = d["paired_difference"], d["paired_game_difference"]
    print(f"{f.split('/')[-1]}: deals {d['deals']} games {d['games']} | A {a['bot']} won {a['games_won']} ({a['game_win_rate']['estimate']:.3f}) | "
          f"pts/hand {pd['estimate']:+.3f} [{pd['low']:+.3f},{pd['high']:+.3f}] | games {pg['estimate']:+.3f} [{pg['low']:+.3f},{pg['high']:+.3f}] | "
          f"set {a['set_rate']:.3f}/{b['set_rate']:.3f} bids {a['bids_won']}/{b['bids_won']} s/dec {a['seconds_per_decision']:.4f}/{b['seconds_per_decision']:.4f}")
