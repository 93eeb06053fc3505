"""The light stand-ins ``pitch.server.realtime.sockets`` gives uvicorn's WebSocket protocol for
its ``asyncio.Queue`` and ``asyncio.Event`` (an idle socket's memory, issue 43): they
must behave as those do where the protocol uses them."""

from __future__ import annotations

import asyncio

import pytest

from pitch.server.realtime.sockets import _Inbox, _Writable


def test_the_inbox_keeps_order_and_loses_nothing_to_a_cancelled_get() -> None:
    async def main() -> None:
        box = _Inbox()
        assert box.empty()
        with pytest.raises(TimeoutError):  # the route's auth wait, timed out
            await asyncio.wait_for(box.get(), 0.01)
        box.put_nowait(1)
        box.put_nowait(2)
        assert box.qsize() == 2
        assert [await box.get(), await box.get()] == [1, 2]
        waiting = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        box.put_nowait(3)
        assert await waiting == 3
        assert box.empty()

    asyncio.run(main())


def test_the_writable_flag_holds_senders_until_set() -> None:
    async def main() -> None:
        flag = _Writable()
        assert flag.is_set() and await flag.wait()
        flag.clear()
        senders = [asyncio.create_task(flag.wait()) for _ in range(2)]
        cancelled = asyncio.create_task(flag.wait())
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.sleep(0)
        assert not any(s.done() for s in senders)
        flag.set()
        assert await asyncio.gather(*senders) == [True, True]
        assert cancelled.cancelled()

    asyncio.run(main())
