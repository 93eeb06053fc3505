"""Regenerate the golden test data: ``python -m tests.engine.regen`` (from the repo root).

Writes ``tests/data/perft.json`` (counts from the independent referee's enumerator)
and ``tests/data/playthroughs/*.txt`` (seeded games printed step by step). Run it
after an intended rules change, read the diff (``git diff tests/data``), commit both.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pitch.engine import (
    DEAL,
    OVER,
    SUIT_NAMES,
    GameState,
    Rules,
    action_str,
    card_str,
    format_cards,
)
from pitch.engine.cards import cards_of

DATA = Path(__file__).resolve().parent.parent / "data"
PERFT = DATA / "perft.json"
PLAYTHROUGHS = DATA / "playthroughs"

# (file stem, rules, seed, hands to print at most)
GAMES: list[tuple[str, Rules, int, int]] = [
    ("standard-seed1", Rules(), 1, 3),
    ("partnership-seed2", Rules(partnerships=True, target=5), 2, 4),
    ("cutthroat-redeal-seed3", Rules(players=3, all_pass="redeal", low_to="holder"), 3, 3),
]


def playthrough(rules: Rules, seed: int, max_hands: int) -> str:
    """A seeded game of uniformly random legal actions, printed step by step."""
    rng = random.Random(seed)
    s = GameState.new_game(rules, rng)
    out = [
        f"# pitch playthrough: {rules} seed {seed}",
        "# regenerate: python -m tests.engine.regen",
    ]
    while not s.is_terminal() and len(s.history) < max_hands:
        if s.phase == DEAL:
            s.deal_random(rng)
            out.append(f"hand {len(s.history)}: dealer {s.dealer}, scores {s.scores}")
            for seat, m in enumerate(s.dealt):
                out.append(f"  deal seat {seat}: {' '.join(card_str(c) for c in cards_of(m))}")
            continue
        seat = s.current_player()
        legal = s.legal_actions()
        a = rng.choice(list(legal))
        hands = len(s.history)
        trick_before = len(s.tricks)
        s.apply(a)
        out.append(f"  seat {seat} [{', '.join(legal.texts())}] -> {action_str(a)}")
        if len(s.history) > hands:
            h = s.history[-1]
            if h.result is None:
                out.append(f"  everyone passed: thrown in; scores {list(h.scores)}")
                continue
            t = h.tricks[-1]
            out.append(f"  trick {len(h.tricks)} won by seat {t.winner}")
            r = h.result
            hc = card_str(r.high_card) if r.high_card is not None else "-"
            lc = card_str(r.low_card) if r.low_card is not None else "-"
            out.append(
                f"  result: trump {SUIT_NAMES[r.trump]}, pitcher {r.pitcher} bid {r.bid}; "
                f"high {r.high} ({hc}), low {r.low} ({lc}), jack {r.jack}, game {r.game} "
                f"{list(r.game_counts)}; won {list(r.won)}, made {r.made}, "
                f"delta {list(r.delta)}, scores {list(h.scores)}"
            )
        elif len(s.tricks) > trick_before:
            t = s.tricks[-1]
            out.append(f"  trick {len(s.tricks)} won by seat {t.winner}")
            out.append(f"    hands now: {' | '.join(format_cards(m) for m in s.hands)}")
    if s.phase == OVER:
        out.append(f"game over: side {s.winner} wins with scores {s.scores}")
    else:
        out.append(f"stopped after {len(s.history)} hands, scores {s.scores}")
    return "\n".join(out) + "\n"


def _lowest_card_prefix(s: GameState, tricks: int) -> list[str]:
    out = []
    while len(s.tricks) < tricks:
        m = s.legal_mask()
        c = (m & -m).bit_length() - 1
        out.append(card_str(c))
        s.apply(c)
    return out


TEAM = Rules(partnerships=True)


def perft_cases() -> list[dict[str, Any]]:
    """Fixed positions: auctions on several tables; the last tricks of seeded deals."""
    from pitch.engine import parse_action

    cases: list[dict[str, Any]] = []
    for name, rules, dealer in [
        ("auction 4p standard", Rules(), 0),
        ("auction 4p no steal", Rules(dealer_may_steal=False), 1),
        ("auction 4p redeal", Rules(all_pass="redeal"), 2),
        ("auction 4p min bid 2", Rules(min_bid=2), 3),
        ("auction 4p redeal min bid 2", Rules(all_pass="redeal", min_bid=2), 0),
        ("auction 2p", Rules(players=2), 1),
        ("auction 7p", Rules(players=7), 4),
    ]:
        cases.append({"name": name, "kind": "auction", "rules": rules.to_dict(), "dealer": dealer})
    for name, rules, seed, auction, last in [
        ("last 3 tricks 4p", Rules(), 11, ["bid 2", "pass", "pass", "pass"], 3),
        ("last 3 tricks 4p team", TEAM, 12, ["pass", "bid 3", "pass", "pass"], 3),
        ("last 3 tricks 3p", Rules(players=3), 13, ["bid 1", "bid 2", "pass"], 3),
        ("last 4 tricks 2p", Rules(players=2), 14, ["pass", "bid 2"], 4),
        ("last 2 tricks 7p", Rules(players=7), 15, ["bid 4"], 2),
        ("last 2 tricks 5p", Rules(players=5), 16, ["pass", "pass", "pass", "pass", "bid 2"], 2),
    ]:
        s = GameState(rules, dealer=0)
        s.deal_random(random.Random(seed))
        deal = [[card_str(c) for c in cards_of(m)] for m in s.dealt]
        for a in auction:
            s.apply(parse_action(a))
        prefix = _lowest_card_prefix(s, 6 - last)
        cases.append(
            {
                "name": name,
                "kind": "play",
                "rules": rules.to_dict(),
                "dealer": 0,
                "deal": deal,
                "auction": auction,
                "prefix": prefix,
            }
        )
    return cases


def main() -> None:
    from tests.engine.perft import referee_count

    cases = perft_cases()
    for c in cases:
        c["count"] = referee_count(c)
    DATA.mkdir(exist_ok=True)
    PERFT.write_text(json.dumps(cases, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PERFT} ({len(cases)} cases)")
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for stem, rules, seed, max_hands in GAMES:
        p = PLAYTHROUGHS / f"{stem}.txt"
        p.write_text(playthrough(rules, seed, max_hands), encoding="utf-8")
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
