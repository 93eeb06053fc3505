"""Duplicate matches between two bots, and their statistics.

What is paired. A *deal* is one seeded game: the deal seed seeds every shuffle
of that game and the first dealer. Each deal is played once per *rotation*:

* partnership game: bot A holds seats 0+2 and B seats 1+3, then the same deal
  with the teams swapped (2 games);
* solo games with P players: A sits in seat r and B in every other seat, for
  r = 0..P-1 (P games).

Both rotations of a deal see the same shuffles for as long as both games last
(a game that ends earlier simply stops using them). The bot in seat s of every
rotation gets a generator seeded from (deal seed, s), so two identical
deterministic bots play mirror games and tie exactly.

"Points per hand" for a bot is the score change of the side(s) it controls,
summed over a deal's games and divided by the hands played; with several sides
(B in a solo game) it is their mean. The paired difference is A's minus B's, per
hand, with deals as independent clusters (see :mod:`pitch.arena.stats`).

Bots are created only with :func:`make_bot`, inside the process that plays the
deal: they may hold subprocesses (``ext:``) and are never pickled. An external bot is
started for each game, unless the match keeps them (:class:`KeptBots`,
``pitch arena --keep-ext``).
"""

from __future__ import annotations

import math
import multiprocessing.util
import os
import random
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from pitch import fastcore
from pitch.arena.stats import Interval, ratio_interval, wilson_interval
from pitch.bots.base import Bot
from pitch.bots.external import STOP_GRACE, ExternalBot
from pitch.bots.process_tree import end_all
from pitch.bots.registry import frozen_spec, make_bot, parse_bot_spec
from pitch.bots.runner import play_game
from pitch.engine import Rules, dumps, game_record

LABELS = ("A", "B")


@dataclass(frozen=True)
class ArenaConfig:
    bot_a: str
    bot_b: str
    rules: Rules
    deals: int
    seed: int
    max_hands: int = 200
    """A game still running after this many hands stops unfinished (no winner)."""
    records: bool = False
    """Return each game's JSON Lines record as well."""

    def __post_init__(self) -> None:
        # Fail early, in the parent, on a bad spec.
        parse_bot_spec(self.bot_a)
        parse_bot_spec(self.bot_b)
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")


def rotations(rules: Rules) -> list[tuple[int, ...]]:
    """For each rotation, the bot (0 = A, 1 = B) in each seat.

    >>> rotations(Rules(partnerships=True))
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    >>> rotations(Rules(players=3))
    [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    """
    n = rules.players
    if rules.partnerships:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    return [tuple(0 if s == r else 1 for s in range(n)) for r in range(n)]


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a match seeded with ``seed``."""
    return random.Random(f"pitch-arena/{seed}/{index}").getrandbits(64)


@dataclass
class BotTally:
    """One bot's totals over one deal (or many)."""

    points: float = 0.0
    """Score change of its sides, averaged over the sides it controls."""
    hands: int = 0
    seat_hands: int = 0
    """Hands times seats it held (the chances it had to win an auction)."""
    games: int = 0
    games_won: int = 0
    win_share: float = 0.0
    """Games won, each divided by the sides the bot held in it: in a P-player solo
    game B holds P - 1 sides, so equal bots have equal shares (1/P a game each)."""
    auctions_won: int = 0
    made: int = 0
    set: int = 0
    bid_sum: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def add(self, other: BotTally) -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)


@dataclass
class DealResult:
    index: int
    seed: int
    tally: tuple[BotTally, BotTally]
    unfinished: int = 0
    records: list[str] = field(default_factory=list)


class KeptBots:
    """External bots kept running from deal to deal in one process, so that a program
    starts once per worker rather than once per game (its start-up, a Python program
    loading its libraries, can cost more than the game).

    One program per rotation and seat: both rotations of a deal share its shuffles, so
    a program that played one of them must not play the other (it could remember the
    cards). A program may carry what it learnt from one deal into later ones, and which
    deals a worker plays is not fixed: a seeded program's results are reproducible
    only in one worker. Bots of other kinds are made for each game as usual."""

    def __init__(self) -> None:
        self._bots: dict[tuple[str, int, int], ExternalBot] = {}

    def bot(self, spec: str, rotation: int, seat: int, rng: random.Random) -> Bot:
        """The bot for ``spec`` in this rotation and seat, playing with ``rng``."""
        if parse_bot_spec(spec).name != "ext":
            return make_bot(spec, rng=rng)
        key = (spec, rotation, seat)
        kept = self._bots.get(key)
        if kept is None:
            made = make_bot(spec, rng=rng)
            assert isinstance(made, ExternalBot)
            self._bots[key] = kept = made
        kept.rng = rng  # its forfeits are drawn from this game's seat generator
        return kept

    def close(self) -> None:
        """Stop every kept program."""
        bots, self._bots = list(self._bots.values()), {}
        for b in bots:
            b.close()


def play_deal(cfg: ArenaConfig, index: int, kept: KeptBots | None = None) -> DealResult:
    """Play every rotation of one deal. Runs in a worker process (or a Ray task); with
    ``kept``, its external bots are taken from there (:class:`KeptBots`)."""
    seed = deal_seed(cfg.seed, index)
    rules = cfg.rules
    specs = (cfg.bot_a, cfg.bot_b)
    tally = (BotTally(), BotTally())
    unfinished = 0
    records: list[str] = []
    for rot, who in enumerate(rotations(rules)):
        rngs = [random.Random(f"pitch-arena/{seed}/seat{s}") for s in range(len(who))]
        bots = [
            make_bot(specs[b], rng=rngs[s]) if kept is None else kept.bot(specs[b], rot, s, rngs[s])
            for s, b in enumerate(who)
        ]
        try:
            outcome = play_game(rules, bots, random.Random(seed), max_hands=cfg.max_hands)
        finally:
            if kept is None:  # this game's programs, and all they started, end with it
                for bot in bots:
                    if isinstance(bot, ExternalBot):
                        bot.close()
        st = outcome.state
        sides = [sorted({rules.side_of(s) for s, b in enumerate(who) if b == k}) for k in (0, 1)]
        hands = [h for h in st.history if h.result is not None]
        for k in (0, 1):
            t = tally[k]
            t.games += 1
            if st.winner is not None and st.winner in sides[k]:
                t.games_won += 1
                t.win_share += 1 / len(sides[k])
            t.hands += len(hands)
            t.seat_hands += len(hands) * sum(1 for b in who if b == k)
            for h in hands:
                assert h.result is not None
                t.points += sum(h.result.delta[sd] for sd in sides[k]) / len(sides[k])
                if who[h.result.pitcher] == k:
                    t.auctions_won += 1
                    t.bid_sum += h.result.bid
                    if h.result.made:
                        t.made += 1
                    else:
                        t.set += 1
            for s, b in enumerate(who):
                if b == k:
                    t.decisions += outcome.decisions[s]
                    t.seconds += outcome.think_seconds[s]
        if st.winner is None:
            unfinished += 1
        if cfg.records:
            rec = game_record(
                st,
                bots=[specs[b] for b in who],
                seed=seed,
                arena={"deal": index, "rotation": rot},
            )
            records.append(dumps(rec))
    return DealResult(index, seed, tally, unfinished, records)


Runner = Callable[[ArenaConfig, list[int]], Iterator[DealResult]]


_WORKER_KEPT: KeptBots | None = None
"""A worker process's kept external bots (``run_local(..., keep_ext=True)``)."""


def _worker_init(keep_ext: bool = False) -> None:
    # Workers leave interrupts to the parent, which stops them (the parent may have
    # installed handlers that forked workers would otherwise inherit).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    fastcore.warm_up()
    global _WORKER_KEPT
    if keep_ext:
        _WORKER_KEPT = KeptBots()
        # A pool worker leaves by os._exit (no atexit): multiprocessing's finalizers run.
        multiprocessing.util.Finalize(None, _WORKER_KEPT.close, exitpriority=10)


def _stop_worker(signum: int, frame: object) -> None:
    """SIGTERM (the parent stops a match early): the worker's ``ext:`` programs run in
    sessions of their own, out of the signal's reach, so stop them, then exit at once."""
    end_all(STOP_GRACE, then=lambda: os._exit(128 + signum))


def _play_in_worker(cfg: ArenaConfig, index: int) -> DealResult:
    return play_deal(cfg, index, _WORKER_KEPT)


def run_local(
    cfg: ArenaConfig, indices: list[int], workers: int = 1, *, keep_ext: bool = False
) -> Iterator[DealResult]:
    """Deals in this process (``workers`` <= 1) or a process pool, as they finish, with
    external bots kept from deal to deal if ``keep_ext`` (:class:`KeptBots`).
    Closing the iterator early (an interrupted match) cancels the deals not started."""
    if workers <= 1:
        # Load the kernels before the first deal: a bot's first decision must not spend
        # its time cap on numba's cache (a capped search would then play differently).
        fastcore.warm_up()
        kept = KeptBots() if keep_ext else None
        try:
            for i in indices:
                yield play_deal(cfg, i, kept)
        finally:
            if kept is not None:
                kept.close()
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(keep_ext,))
    done = 0
    try:
        futures = [pool.submit(_play_in_worker, cfg, i) for i in indices]
        for f in as_completed(futures):
            yield f.result()
            done += 1
    finally:
        if done < len(indices):
            # Stopped early: don't wait for deals in progress (they can take minutes).
            procs = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                p.terminate()
        else:
            pool.shutdown()


@dataclass(frozen=True)
class Summary:
    config: ArenaConfig
    deals: int
    tally: tuple[BotTally, BotTally]
    points_per_hand: tuple[float, float]
    diff: Interval
    """A's points per hand minus B's, 95% interval (deals as clusters)."""
    win_rate: tuple[Interval, Interval]
    win_diff: Interval
    """A's games won minus B's, per game and per side each held, 95% interval (deals as
    clusters): +1 when A wins every game, 0 for equal bots (an unfinished game counts
    for neither). In the partnership and heads-up games each holds one side; in a
    P-player solo game B's wins are divided by its P - 1 seats."""
    unfinished: int
    interrupted: bool = False
    """The match was stopped early: ``deals`` is the number that finished."""
    per_deal: tuple[tuple[int, int, float, int, int, int, float, float], ...] = ()
    """Per deal: its index, the hands played, A's points minus B's, the games played,
    the games A and B won and their win shares (to pair runs by points or by games)."""

    def to_dict(self) -> dict[str, Any]:
        bots = []
        for k, spec in enumerate((self.config.bot_a, self.config.bot_b)):
            t = self.tally[k]
            bots.append(
                {
                    "label": LABELS[k],
                    "bot": spec,
                    "frozen": frozen_spec(spec, self.config.rules),
                    "points_per_hand": self.points_per_hand[k],
                    "games": t.games,
                    "games_won": t.games_won,
                    "game_win_rate": self.win_rate[k].to_dict(),
                    "hands": t.hands,
                    "bids_won": t.auctions_won,
                    "auction_win_rate": t.auctions_won / t.seat_hands if t.seat_hands else None,
                    "contracts_made": t.made,
                    "contracts_set": t.set,
                    "set_rate": t.set / t.auctions_won if t.auctions_won else None,
                    "average_bid": t.bid_sum / t.auctions_won if t.auctions_won else None,
                    "decisions": t.decisions,
                    "seconds_per_decision": t.seconds / t.decisions if t.decisions else None,
                }
            )
        r = self.config.rules
        return {
            "rules": r.to_dict(),
            "deals": self.deals,
            "deals_requested": self.config.deals,
            "interrupted": self.interrupted,
            "games": self.tally[0].games,
            "seed": self.config.seed,
            "unfinished_games": self.unfinished,
            "bots": bots,
            "paired_difference": {"per": "hand", "confidence": 0.95, **self.diff.to_dict()},
            "paired_game_difference": {
                "per": "game",
                "confidence": 0.95,
                **self.win_diff.to_dict(),
            },
            "per_deal": [
                {
                    "deal": i,
                    "hands": h,
                    "difference": d,
                    "games": g,
                    "won": [wa, wb],
                    "win_share": [sa, sb],
                }
                for i, h, d, g, wa, wb, sa, sb in self.per_deal
            ],
        }


def _within_one(iv: Interval) -> Interval:
    """A per-game difference of wins lies in [-1, 1]: the normal interval, cut there
    (an interval that fewer than 2 deals cannot bound stays unbounded)."""
    if not (math.isfinite(iv.low) and math.isfinite(iv.high)):
        return iv
    return Interval(iv.estimate, max(iv.low, -1.0), min(iv.high, 1.0))


def summarize(
    cfg: ArenaConfig, results: Iterable[DealResult], *, interrupted: bool = False
) -> Summary:
    results = sorted(results, key=lambda r: r.index)
    total = (BotTally(), BotTally())
    diffs: list[float] = []
    sizes: list[float] = []
    won: list[float] = []
    games: list[float] = []
    unfinished = 0
    per_deal = []
    for r in results:
        a, b = r.tally
        per_deal.append(
            (
                r.index,
                a.hands,
                a.points - b.points,
                a.games,
                a.games_won,
                b.games_won,
                a.win_share,
                b.win_share,
            )
        )
        won.append(a.win_share - b.win_share)
        games.append(a.games)
        for k in (0, 1):
            total[k].add(r.tally[k])
        # Both bots play the same hands of a deal, so its hand count is shared.
        diffs.append(r.tally[0].points - r.tally[1].points)
        sizes.append(r.tally[0].hands)
        unfinished += r.unfinished
    pph = tuple(t.points / t.hands if t.hands else float("nan") for t in total)
    return Summary(
        config=cfg,
        deals=len(results),
        tally=total,
        points_per_hand=(pph[0], pph[1]),
        diff=ratio_interval(diffs, sizes),
        win_diff=_within_one(ratio_interval(won, games)),
        win_rate=(
            wilson_interval(total[0].games_won, total[0].games),
            wilson_interval(total[1].games_won, total[1].games),
        ),
        unfinished=unfinished,
        interrupted=interrupted,
        per_deal=tuple(per_deal),
    )
