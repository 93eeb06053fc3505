"""Large record checks on a real server (issue 43 part 6): the whole check (the JSON,
the replay, the answer) runs in worker processes, at most ``PITCH_RECORD_CHECK_WORKERS``
at once, so the server answers other requests while they run; one address has one
check at a time, and a few more wait; past that a check is refused at once, as JSON.

Concurrency is read from ``/api/health``'s ``record_checks`` (running, waiting), never
from how long anything took."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitch.server.kernel.errors import ServiceError
from pitch.server.records.check import RecordChecks, hands_of_body
from tests.server.helpers import ServerProcess, create_table
from tests.support.databases import db_url
from tests.support.records import long_record, verify_body
from tests.support.timing import margin

PROXY = ("--forwarded-allow-ips", "127.0.0.1")  # each check from an address of its own


@pytest.fixture(scope="module")
def big() -> bytes:
    return verify_body(long_record(2500))  # 1.4 MB


def _post(h: httpx.AsyncClient, body: bytes, address: str) -> Any:
    return h.post(
        "/api/records/verify",
        content=body,
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )


async def _until(h: httpx.AsyncClient, ok: Any) -> dict[str, Any]:
    """Poll ``/api/health`` until its ``record_checks`` satisfy ``ok``; return them."""
    deadline = asyncio.get_running_loop().time() + margin(60)
    while asyncio.get_running_loop().time() < deadline:
        checks = (await h.get("/api/health")).json()["record_checks"]
        if ok(checks):
            return dict(checks)
        await asyncio.sleep(0.01)
    raise AssertionError("the checks never got there")


def test_big_checks_run_in_workers_while_the_server_answers(make_server: Any, big: bytes) -> None:
    srv = make_server(env={"PITCH_RECORD_CHECK_WORKERS": "2"}, args=PROXY, ready=False)
    table = create_table(srv.base)["id"]

    async def main() -> None:
        async with httpx.AsyncClient(base_url=srv.base, timeout=margin(120)) as h:
            checks = [asyncio.create_task(_post(h, big, f"10.1.0.{i}")) for i in range(3)]
            # Two replay at once and the third waits, while the server still answers
            # a health check and another table's read, more than once.
            seen = await _until(h, lambda c: c["running"] == 2 and c["waiting"] == 1)
            assert seen["workers"] == 2
            for _ in range(3):
                assert (await h.get(f"/api/tables/{table}")).status_code == 200
            assert not any(t.done() for t in checks), "a check ended before the reads"
            answers = await asyncio.gather(*checks)
            assert [r.status_code for r in answers] == [200] * 3, answers[0].text
            first = answers[0].json()
            assert first["problems"] == [] and len(first["records"][0]["hands"]) == 2500
            assert all(r.content == answers[0].content for r in answers)
            after = (await h.get("/api/health")).json()["record_checks"]
            assert after == {"running": 0, "waiting": 0, "workers": 2, "jobs": 3}

    asyncio.run(main())


def test_checks_past_the_bounds_are_refused_at_once(make_server: Any, big: bytes) -> None:
    # One worker: 4 checks may wait for it.
    srv = make_server(env={"PITCH_RECORD_CHECK_WORKERS": "1"}, args=PROXY, ready=False)
    small = verify_body(long_record(1))

    async def main() -> None:
        async with httpx.AsyncClient(base_url=srv.base, timeout=margin(120)) as h:
            first = asyncio.create_task(_post(h, big, "10.2.0.1"))
            await _until(h, lambda c: c["running"] == 1)
            again = await _post(h, small, "10.2.0.1")  # the same address, meanwhile
            assert again.status_code == 429, again.text
            assert again.headers["content-type"] == "application/json"
            assert again.json() == {
                "detail": "a record check of yours is still running; wait for it",
                "code": "too_many_requests",
            }
            waiting = [asyncio.create_task(_post(h, small, f"10.2.0.{i}")) for i in range(2, 6)]
            await _until(h, lambda c: c["waiting"] == 4)
            busy = await _post(h, small, "10.2.0.6")
            assert busy.status_code == 503, busy.text
            assert busy.json() == {
                "detail": "the server is checking as many records as it can; try again",
                "code": "server_busy",
            }
            assert not first.done()
            done = await asyncio.gather(first, *waiting)
            assert [r.status_code for r in done] == [200] * 5
            # Refused checks spent nothing: the same addresses check again at once.
            assert (await _post(h, small, "10.2.0.6")).status_code == 200
            assert (await _post(h, small, "10.2.0.1")).status_code == 200

    asyncio.run(main())


def _wait_for_file(body: bytes) -> int:
    """A check that lasts until the file named by ``body`` exists (in a worker)."""
    path = Path(body.decode())
    deadline = time.monotonic() + margin(60)
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return 1


async def _settle(cond: Any) -> None:
    deadline = asyncio.get_running_loop().time() + margin(60)
    while not cond():
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.01)


def test_a_check_whose_client_left_keeps_its_worker_until_it_ends(tmp_path: Path) -> None:
    # Were its place given back while its worker still runs it, clients that hang up
    # could set more checks going than there are workers.
    done = tmp_path / "done"

    async def main() -> None:
        checks = RecordChecks(1)

        async def check() -> int:
            async with checks.turn("a"):
                return await checks.run(_wait_for_file, str(done).encode())

        task = asyncio.create_task(check())
        await _settle(lambda: checks.running == 1)
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert checks.state() == {"running": 1, "waiting": 0, "workers": 1, "jobs": 1}
        with pytest.raises(ServiceError):  # the same client meanwhile: 429
            async with checks.turn("a"):
                pass
        done.touch()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert checks.state() == {"running": 0, "waiting": 0, "workers": 1, "jobs": 1}
        checks.close()

    asyncio.run(main())


def test_the_workers_end_when_idle_and_come_back() -> None:
    body = verify_body(long_record(3))

    async def main() -> None:
        checks = RecordChecks(1, idle_seconds=0.05)
        async with checks.turn("a"):
            assert await checks.run(hands_of_body, body) == 3
        pool = checks._pool
        assert pool is not None
        await _settle(lambda: checks._pool is None)  # ended, its memory given back
        async with checks.turn("a"):
            assert await checks.run(hands_of_body, body) == 3  # fresh workers
        assert checks._pool is not None and checks._pool is not pool
        checks.close()

    asyncio.run(main())


def test_a_check_reads_its_body_once(tmp_path: Path) -> None:
    """One worker job a check, valid or not (its body went to the workers twice, and
    was read twice, once to count its hands and once to check them); past the
    client's hands allowance the check is refused as before."""
    env = {"PITCH_RECORD_HANDS_PER_MINUTE": "100"}
    srv = ServerProcess(db_url("sqlite", tmp_path), env=env, log=tmp_path / "server.log")
    srv.args = PROXY
    srv.start()
    body = verify_body(long_record(60))

    async def main() -> None:
        async with httpx.AsyncClient(base_url=srv.base, timeout=margin(60)) as h:

            async def jobs() -> int:
                return int((await h.get("/api/health")).json()["record_checks"]["jobs"])

            ok = await _post(h, body, "10.3.0.1")
            assert ok.status_code == 200, ok.text
            assert len(ok.json()["records"]) == 1 and ok.json()["problems"] == []
            assert await jobs() == 1
            over = await _post(h, body, "10.3.0.1")  # 60 more hands of the 40 left
            assert over.status_code == 429, over.text
            assert over.json()["detail"] == "too many hands checked; wait a minute"
            assert await jobs() == 2
            bad = await _post(h, b'{"records": []}', "10.3.0.2")
            assert bad.status_code == 422, bad.text
            assert await jobs() == 3
            # The refusals spent no hands of another address.
            assert (await _post(h, body, "10.3.0.2")).status_code == 200
            assert await jobs() == 4

    try:
        asyncio.run(main())
    finally:
        srv.stop()
