"""Bot moves in worker processes, so that search never blocks the event loop."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from pitch.bots.registry import make_bot, parse_bot_spec
from pitch.engine import PlayerView
from pitch.server.schemas import NETWORK_REFUSED

log = logging.getLogger("pitch.server")


_watching: list[int] = []


def _exit_with_parent(parent: int) -> None:
    """A worker whose server died (kill -9 gives it no chance to stop its pool) would
    otherwise live on, holding memory and a compiled search: leave when orphaned."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start(parent: int) -> None:
    """Worker initializer. ``parent`` is the server's pid, passed in rather than read
    here: a server killed while this worker was still starting would otherwise leave
    it watching its new parent (init) for ever."""
    if not _watching:
        _watching.append(parent)
        threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    _warm()


def _warm() -> None:
    import pitch.bots  # noqa: F401  (registers every bot the package ships)
    from pitch import fastcore

    # Compile (first run) or load the search kernels before the first bot move.
    took = fastcore.warm_up()
    if took > 5:
        log.info("bot worker compiled the search kernels in %.1f s", took)


def choose(spec: str, view: PlayerView, seed: int) -> int:
    """Run in a worker: a fresh bot of ``spec`` picks an action for ``view``. A spec
    that would run a program (stored before requests refused it) is refused here too."""
    if parse_bot_spec(spec).name in NETWORK_REFUSED:
        raise ValueError(f"the server does not run external program bots: {spec!r}")
    bot = make_bot(spec, rng=random.Random(seed))
    return int(bot.act(view))


def fallback(view: PlayerView) -> int:
    """A legal action chosen at random (when a bot fails or takes too long)."""
    return secrets.choice(list(view.legal_actions()))


class BotPool:
    def __init__(self, workers: int, timeout: float) -> None:
        self.workers = max(1, workers)
        self.timeout = timeout
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: forking a process that runs an event loop and
            # database threads copies locks in unknown states.
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self) -> None:
        """Start the workers now, so that the first bot move does not wait for them."""
        for _ in range(self.workers):
            self._executor().submit(_warm)

    async def choose(self, spec: str, view: PlayerView) -> int:
        """The bot's action, or a random legal one if the bot fails."""
        action = await self.suggest(spec, view)
        return fallback(view) if action is None else action

    async def suggest(self, spec: str, view: PlayerView) -> int | None:
        """The bot's legal action for ``view``, or ``None`` if it fails or takes too long."""
        loop = asyncio.get_running_loop()
        seed = secrets.randbits(64)
        try:
            fut = loop.run_in_executor(self._executor(), choose, spec, view, seed)
            action = await asyncio.wait_for(fut, self.timeout)
        except BrokenProcessPool:
            log.error("bot worker died; restarting the pool")
            self._pool = None
            return None
        except (TimeoutError, ValueError) as e:
            log.warning("bot %s failed (%s)", spec, e)
            return None
        if not (view.legal >> action) & 1:
            log.warning("bot %s chose an illegal action %s", spec, action)
            return None
        return action

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
