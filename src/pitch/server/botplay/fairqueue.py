"""Work waiting for a bot worker, by client address, served in turn by worker time.

Each key (a client address) has one queue, first come first served, for all its
tables and hints. A worker that comes free takes the head of the queue of the key,
among those with work waiting, whose worker time would be least once that job is done
(its time so far plus what its jobs have been taking: fair queueing by finish time).
When every key's jobs cost the same this is round robin; a key whose jobs are rare or
cheap goes ahead of the backlog of keys that run long searches back to back, so twenty
addresses flooding the pool hold up a twenty-first only by the jobs already running.
Time is charged as it is used, and a key that comes back with work after a pause
starts at most ``slack`` (one long search) behind the keys being served: idle time is
not saved up as credit beyond that, and that little is what lets a table whose bot
moves now and then go ahead of searches that are queued back to back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    """Waiting items by key; :meth:`pop` picks the next one fairly. ``start`` and
    ``finish`` bracket the work an item was given, so that its time counts to its key.
    ``clock`` is seconds (monotonic); ``slack`` is the most worker time a key that
    comes back may be behind the level (and what a key never seen is expected to
    take); ``remember`` bounds the idle keys whose time is kept (one that comes back
    after being forgotten starts at the floor, as it would anyway once the others'
    time passes its own)."""

    def __init__(
        self, clock: Callable[[], float], slack: float = 2.0, remember: int = 4096
    ) -> None:
        self._clock = clock
        self._slack = slack
        self._remember = remember
        self._queues: dict[str, deque[T]] = {}
        self._used: dict[str, float] = {}
        """Worker seconds each key has had (finished work), on the scale of ``_level``."""
        self._running: dict[str, tuple[int, float]] = {}
        """Work under way by key: how many, and the sum of their start times."""
        self._cost: dict[str, float] = {}
        """What each key's jobs have been taking (a moving average of worker seconds)."""
        self._level = 0.0
        """The time of the key served last; a key that comes back starts no lower than
        ``slack`` below it."""

    def __len__(self) -> int:
        return sum(len(q) for q in self._queues.values())

    def __bool__(self) -> bool:
        return bool(self._queues)

    def keys_waiting(self) -> int:
        return len(self._queues)

    def waiting(self, key: str) -> int:
        q = self._queues.get(key)
        return len(q) if q else 0

    def _idle(self, key: str) -> bool:
        return key not in self._queues and key not in self._running

    def used(self, key: str, now: float | None = None) -> float:
        """``key``'s worker time so far, running work included; an idle key's is at
        least ``slack`` below the level (no more credit for time away)."""
        floor = self._level - self._slack
        base = self._used.get(key, floor)
        if self._idle(key):
            return max(base, floor)
        n, starts = self._running.get(key, (0, 0.0))
        if n:
            base += n * (self._clock() if now is None else now) - starts
        return base

    def _turn(self, key: str, now: float) -> tuple[float, int, int]:
        """When ``key``'s next job would end on the time scale (its jobs under way
        counted at no less than they have been taking), then how many it has running and
        waiting: the least goes first. A key never seen is expected to take ``slack``
        (a long search), so it goes no sooner than a returning key that runs them."""
        cost = self._cost.get(key, self._slack)
        n = self._running.get(key, (0, 0.0))[0]
        done = self.used(key, now)
        if n:
            done = max(done, self._used.get(key, self._level - self._slack) + n * cost)
        return (done + cost, n, self.waiting(key))

    def push(self, keys: Sequence[str], item: T) -> str:
        """Queue ``item`` for one of ``keys`` (the clients it is for): in the turn that
        comes soonest: the one with the fewest items waiting, then the soonest turn
        (so a client watching someone's table does not put that table's work behind
        its own). Returns the key it waits under ("" for none)."""
        now = self._clock()
        key = min(keys, key=lambda k: (self.waiting(k), self._turn(k, now)), default="")
        if self._idle(key):
            self._used[key] = self.used(key, now)  # no further behind than the slack
            if len(self._used) > self._remember:
                self._forget()
        self._queues.setdefault(key, deque()).append(item)
        return key

    def remove(self, key: str, item: T) -> bool:
        """Take back an item nobody waits for (its caller was cancelled)."""
        q = self._queues.get(key)
        if q is None or item not in q:
            return False
        q.remove(item)
        if not q:
            del self._queues[key]
        return True

    def pop(self) -> tuple[str, T] | None:
        """The next item: the head of the queue of the key whose turn comes first
        (then the one queued first); ``None`` if nothing waits."""
        if not self._queues:
            return None
        now = self._clock()
        key = min(self._queues, key=lambda k: self._turn(k, now))
        self._level = max(self._level, self.used(key, now))
        q = self._queues[key]
        item = q.popleft()
        if not q:
            del self._queues[key]
        return key, item

    def start(self, key: str) -> float:
        """Work for ``key`` begins now; returns the start to pass to :meth:`finish`."""
        now = self._clock()
        if self._idle(key):
            self._used[key] = self.used(key, now)
        n, starts = self._running.get(key, (0, 0.0))
        self._running[key] = (n + 1, starts + now)
        return now

    def finish(self, key: str, started: float) -> None:
        """Work for ``key`` that began at ``started`` ended (answered, killed or
        abandoned and taken back): its time counts to ``key``."""
        n, starts = self._running.pop(key, (1, started))
        if n > 1:
            self._running[key] = (n - 1, starts - started)
        took = max(0.0, self._clock() - started)
        self._used[key] = self._used.get(key, self._level - self._slack) + took
        # A moving average: one quick move (a single legal card) does not make a
        # client's searches look cheap.
        self._cost[key] = (self._cost.get(key, took) + took) / 2
        if len(self._used) > self._remember:
            self._forget()

    def _forget(self) -> None:
        # Idle keys at or below the floor lose nothing (they would start there); then
        # the longest known, if there are still too many.
        floor = self._level - self._slack
        for k in [k for k, u in self._used.items() if self._idle(k) and u <= floor]:
            del self._used[k]
            self._cost.pop(k, None)
        for k in [k for k in self._used if self._idle(k)][: len(self._used) - self._remember]:
            del self._used[k]
            self._cost.pop(k, None)

    def drain(self) -> Iterator[T]:
        """Every waiting item, removed (shutting down)."""
        queues, self._queues = self._queues, {}
        for q in queues.values():
            yield from q
