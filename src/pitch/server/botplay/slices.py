"""Several bot decisions at once in one worker process, served in slices.

A search runs in batches of at most about :data:`pitch.fastcore.search.SLICE` of work
(:data:`~pitch.fastcore.search.Sliced`); between two batches a worker may run a batch of
another decision. :class:`Slices` holds a worker's decisions and picks the next batch:
a decision past its deadline first (it only has to pick its move from what it has), else
the clients in turn, then each client's decisions in turn. So a client with forty tables
searching gets the same share of a worker as one with one table, and every decision
stops at its own deadline, counted from when its table asked: a busy worker gives each
decision fewer rollouts, never a later answer.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pitch.bots.explain import Advice
from pitch.fastcore.search import Sliced

Reply = tuple[str, Any]
"""``("ok", Advice)`` or ``("error", why)``, as a worker sends it to the server."""


@dataclass(eq=False)
class _Decision:
    job: int
    key: str
    steps: Sliced[Advice]
    deadline: float | None = None
    """When it must stop, as it said at its last batch boundary (``None``: not yet)."""


class Slices:
    """The decisions a worker holds; :meth:`step` runs the next one a batch further.
    ``clock`` is ``time.perf_counter`` (the clock the searches' deadlines are on)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._jobs: dict[int, _Decision] = {}
        self._turns: OrderedDict[str, deque[_Decision]] = OrderedDict()
        """Each client's decisions, in the order their turns come."""

    def __len__(self) -> int:
        return len(self._jobs)

    def add(self, job: int, key: str, steps: Sliced[Advice]) -> None:
        """Take decision ``job`` for client ``key``. A client with nothing here goes
        first: a quick move (a bot that does not search) is then answered at once."""
        d = _Decision(job, key, steps)
        self._jobs[job] = d
        q = self._turns.get(key)
        if q is None:
            self._turns[key] = deque([d])
            self._turns.move_to_end(key, last=False)
        else:
            q.append(d)

    def drop(self, job: int) -> bool:
        """Forget ``job`` (nobody waits for it any more); whether it was here."""
        d = self._jobs.get(job)
        if d is None:
            return False
        self._remove(d)
        d.steps.close()
        return True

    def _remove(self, d: _Decision) -> None:
        del self._jobs[d.job]
        q = self._turns[d.key]
        q.remove(d)
        if not q:
            del self._turns[d.key]

    def _next(self) -> _Decision:
        now = self._clock()
        for d in self._jobs.values():
            if d.deadline is not None and d.deadline <= now:
                return d  # due: resumed, it stops and answers (one short step)
        key, q = next(iter(self._turns.items()))
        self._turns.move_to_end(key)
        d = q[0]
        q.rotate(-1)
        return d

    def step(self) -> tuple[int, Reply] | None:
        """Run one batch of the next decision (there must be one): its job and reply
        if it ended (answered or failed), else ``None``."""
        d = self._next()
        try:
            d.deadline = next(d.steps)
            return None
        except StopIteration as end:
            reply: Reply = ("ok", end.value)
        except Exception as e:  # reported to the server, which plays for the bot
            reply = ("error", f"{type(e).__name__}: {e}")
        self._remove(d)
        return d.job, reply
