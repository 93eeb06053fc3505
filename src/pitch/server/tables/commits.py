"""Group commit: the appends of all tables that arrive while a commit is in flight (or
in the same turn of the event loop) are stored together in the next transaction.

An action's broadcast still waits for the commit that holds it (the durability rule:
committed before anyone hears of it). A quiet server commits each append at once.

With SQLite the commit runs on the event loop itself (``inline``): a commit in WAL mode
with ``synchronous=NORMAL`` only writes to the page cache (tens of microseconds), while
handing it to the database thread and back (waking the thread, then the loop) cost
several times more CPU than the commit. The disk is synced only by checkpoints, which
run on the database thread every few hundred commits. If another connection holds the
write lock (a seat being claimed), that batch goes to the database thread, which may
wait for it. PostgreSQL commits always go to the database threads (network round trips).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import Executor

from pitch.store import Append, EventWriter, WriterBusy

log = logging.getLogger("pitch.server")

CHECKPOINT_EVERY = 500
"""Inline commits between two checkpoints of the write-ahead log."""


class GroupCommitter:
    def __init__(self, writer: EventWriter, executor: Executor, *, inline: bool) -> None:
        self._writer = writer
        self._executor = executor
        self._inline = inline
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._checkpoint: asyncio.Future[None] | None = None
        self.batches = 0
        """Transactions run so far (with :attr:`appends`: how well commits group)."""
        self.appends = 0

    async def append(self, a: Append) -> None:
        """Store ``a``; raises :class:`pitch.store.StaleWrite` or the database's error."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((a, fut))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        # shield: a cancelled caller must not cancel the commit of everyone in its batch.
        await asyncio.shield(fut)

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                appends = [a for a, _ in batch]
                try:
                    results = None
                    if self._inline:
                        # WriterBusy: the write lock is taken: wait for it off the loop.
                        with contextlib.suppress(WriterBusy):
                            results = self._writer.append_batch(appends, wait=False)
                    if results is None:
                        results = await loop.run_in_executor(
                            self._executor, self._writer.append_batch, appends
                        )
                except asyncio.CancelledError:  # shutting down: nobody waits for these
                    for _, fut in batch + self._pending:
                        fut.cancel()
                    raise
                except Exception as e:  # the thread pool itself failed
                    results = [e] * len(batch)
                self.batches += 1
                self.appends += len(batch)
                for (_, fut), err in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if err is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(err)
                if self._inline and self.batches % CHECKPOINT_EVERY == 0:
                    self._start_checkpoint(loop)
        finally:
            self._flusher = None

    def _start_checkpoint(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._checkpoint is not None and not self._checkpoint.done():
            return  # the last one is still running
        self._checkpoint = loop.run_in_executor(self._executor, self._writer.checkpoint)
        self._checkpoint.add_done_callback(_log_failure)


def _log_failure(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled() and fut.exception() is not None:
        log.warning("checkpoint failed: %s", fut.exception())
