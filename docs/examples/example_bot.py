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
    # Count a suit's strength: its length, plus the ace and the jack, which score.
    best = max(
        sum(1 for c in hand if c[1] == s) + sum(1 for c in hand if c[1] == s and c[0] in "AJ")
        for s in "cdhs"
    )
    want = "bid 3" if best >= 5 else "bid 2" if best >= 4 else "pass"
    if want in legal:
        return want
    return "pass" if "pass" in legal else legal[0]  # e.g. the dealer must bid


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
