"""Group commit: the appends of all tables that arrive while a commit is in flight are
stored together in the next transaction, on the database thread.

An action's broadcast still waits for the commit that holds it (the durability rule:
committed before anyone hears of it). With nothing in flight an append is committed at
once, so a quiet server adds no delay; a busy one pays one transaction (and one trip
to the database thread and back) per batch instead of per action.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor

from pitch.store import Append, EventWriter


class GroupCommitter:
    def __init__(self, writer: EventWriter, executor: Executor) -> None:
        self._writer = writer
        self._executor = executor
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
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
                try:
                    results = await loop.run_in_executor(
                        self._executor, self._writer.append_batch, [a for a, _ in batch]
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
        finally:
            self._flusher = None
