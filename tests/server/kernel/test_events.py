"""The in-process event bus (issue 45): handlers in order, errors logged, none lost."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import pytest

from pitch.server.kernel.events import Bus, Event


@dataclass(frozen=True, slots=True)
class Ping(Event):
    n: int


@dataclass(frozen=True, slots=True)
class Pong(Event):
    n: int


def test_handlers_run_in_the_order_subscribed_and_only_for_their_event() -> None:
    bus, seen = Bus(), []

    async def first(e: Ping) -> None:
        await asyncio.sleep(0)  # a handler that suspends still finishes before the next
        seen.append(("first", e.n))

    async def second(e: Ping) -> None:
        seen.append(("second", e.n))

    async def pong(e: Pong) -> None:
        seen.append(("pong", e.n))

    bus.subscribe(Ping, first)
    bus.subscribe(Ping, second)
    bus.subscribe(Pong, pong)
    asyncio.run(bus.publish(Ping(1)))
    assert seen == [("first", 1), ("second", 1)]
    asyncio.run(bus.publish(Pong(2)))
    assert seen[-1] == ("pong", 2)


def test_a_failing_handler_is_logged_and_the_next_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, seen = Bus(), []

    async def broken(e: Ping) -> None:
        raise RuntimeError("boom")

    async def after(e: Ping) -> None:
        seen.append(e.n)

    bus.subscribe(Ping, broken)
    bus.subscribe(Ping, after)
    with caplog.at_level(logging.ERROR, logger="pitch.server"):
        asyncio.run(bus.publish(Ping(3)))  # the publisher is not stopped
    assert seen == [3]
    (record,) = [r for r in caplog.records if r.exc_info]
    assert "Ping" in record.getMessage() and "broken" in record.getMessage()
    assert record.exc_info is not None and isinstance(record.exc_info[1], RuntimeError)


def test_publishing_with_no_subscriber_does_nothing() -> None:
    asyncio.run(Bus().publish(Ping(4)))


def test_a_handler_that_does_not_suspend_runs_within_the_publishers_step() -> None:
    # The play pipeline relies on this: the scheduler's plan is made before the
    # publisher's next line, with no other task running in between.
    bus, order = Bus(), []

    async def plan(e: Ping) -> None:
        order.append("planned")

    async def main() -> None:
        other = asyncio.create_task(asyncio.sleep(0, result=None))
        other.add_done_callback(lambda _: order.append("other task"))
        bus.subscribe(Ping, plan)
        await bus.publish(Ping(5))
        order.append("publisher goes on")
        await other

    asyncio.run(main())
    assert order == ["planned", "publisher goes on", "other task"]
