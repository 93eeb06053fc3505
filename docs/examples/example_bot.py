#!/usr/bin/env python3
"""A minimal Pitch bot for the bot protocol (docs/bot-protocol.md).

Plain Python, standard library only: read one JSON object per line on stdin, answer
each "act" with one line {"action": ...} on stdout. Try it with
    pitch arena 'ext:python3 docs/examples/example_bot.py' random
"""

import json
import sys

RANKS = "23456789TJQKA"


def rank(card):
    return RANKS.index(card[0])


def choose_bid(hand, legal):
    # What could we win with our best suit as trump? High (its ace), Jack, Low (its
    # 2 or 3), and one more point when we hold three or more of it.
    def worth(suit):
        ranks = [c[0] for c in hand if c[1] == suit]
        return ("A" in ranks) + ("J" in ranks) + ("2" in ranks or "3" in ranks) + (len(ranks) >= 3)

    best = max(worth(s) for s in "cdhs")
    bids = [a for a in legal if a.startswith("bid") and int(a.split()[1]) <= best]
    if bids:
        return bids[0]  # the cheapest bid we can hope to make
    return "pass" if "pass" in legal else legal[0]  # the dealer may have to bid


def choose_card(hand, legal, trump):
    if trump is None:  # we lead the first trick: our longest suit becomes trump
        longest = max("cdhs", key=lambda s: sum(1 for c in hand if c[1] == s))
        return max((c for c in legal if c[1] == longest), key=rank)
    trumps = [c for c in legal if c[1] == trump]
    if trumps:  # high trumps win tricks (and the High point)
        top = max(trumps, key=rank)
        if rank(top) >= RANKS.index("J"):
            return top
    return min(legal, key=rank)  # otherwise throw the cheapest card


def main():
    hand, trump, plays_this_hand = [], None, 0
    me = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "game":
            me = msg["seat"]
        elif kind == "deal":
            hand, trump, plays_this_hand = list(msg["hand"]), None, 0
        elif kind == "play":
            if plays_this_hand == 0:
                trump = msg["card"][1]  # the pitcher's first card sets trump
            plays_this_hand += 1
            if msg["seat"] == me:
                hand.remove(msg["card"])
        elif kind == "act":
            legal = msg["legal"]
            if legal[0] == "pass" or legal[0].startswith("bid"):
                action = choose_bid(hand, legal)
            else:
                action = choose_card(hand, legal, trump)
            print(json.dumps({"action": action}), flush=True)


if __name__ == "__main__":
    main()
