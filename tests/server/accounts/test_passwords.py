"""Password hashes: Argon2id with argon2-cffi's recommended parameters, rehashed at
sign-in when they change, worked out off the event loop and bounded."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select, update

from pitch.server.accounts.passwords import Hasher
from pitch.server.kernel.errors import ServiceError
from pitch.store.models import AccountModel
from tests.server.inprocess import app_client, in_process_settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_an_old_hash_is_replaced_at_sign_in(tmp_path: Path) -> None:
    body = {"name": "Ann", "password": "correct horse"}
    with app_client(in_process_settings(tmp_path)) as c:
        assert c.post("/api/accounts", json=body).status_code == 201
        db = c.app.state.service.db  # type: ignore[attr-defined]
        with db.sessions() as s:
            stored = s.scalar(select(AccountModel.password_hash))
        assert stored.startswith("$argon2id$") and "m=65536,t=3,p=4" in stored
        weak = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash("correct horse")
        with db.sessions.begin() as s:
            s.execute(update(AccountModel).values(password_hash=weak))
        assert c.post("/api/session", json=body).status_code == 200
        with db.sessions() as s:
            rehashed = s.scalar(select(AccountModel.password_hash))
        assert rehashed != weak and "m=65536,t=3,p=4" in rehashed
        assert PasswordHasher().verify(rehashed, "correct horse")


def test_hashes_past_the_queue_are_refused_at_once() -> None:
    hasher = Hasher(workers=1, queue=1)
    gate = threading.Event()
    hasher._ph = _Blocking(gate)  # type: ignore[assignment]

    async def scenario() -> None:
        running = [asyncio.ensure_future(hasher.hash("x")) for _ in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(ServiceError) as refused:
            await hasher.hash("x")
        assert refused.value.status == 503 and refused.value.code == "server_busy"
        # A request that gave up does not free its slot while its hash still runs.
        running[1].cancel()
        with pytest.raises(ServiceError):
            await hasher.hash("x")
        gate.set()
        await running[0]
        while True:  # the cancelled one's thread ends too, and its slot is free again
            try:
                assert await hasher.hash("x") == "done"
                break
            except ServiceError:
                await asyncio.sleep(0.01)

    try:
        asyncio.run(scenario())
    finally:
        gate.set()
        hasher.close()


class _Blocking:
    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate

    def hash(self, _password: str) -> str:
        self.gate.wait()
        return "done"


def test_an_unknown_name_costs_a_hash_like_a_wrong_password(tmp_path: Path) -> None:
    # No account enumeration by timing: both answers wait for one Argon2 check.
    with app_client(in_process_settings(tmp_path)) as c:
        assert (
            c.post("/api/accounts", json={"name": "Ann", "password": "x" * 12}).status_code == 201
        )
        hasher = c.app.state.service.accounts.hasher  # type: ignore[attr-defined]
        checked: list[str] = []
        real = hasher._verify

        def counting(encoded: str, password: str) -> bool:
            checked.append(encoded)
            return bool(real(encoded, password))

        hasher._verify = counting
        for name in ("Ann", "Nobody"):
            r = c.post("/api/session", json={"name": name, "password": "y" * 12})
            assert r.status_code == 401
        assert len(checked) == 2 and all(e.startswith("$argon2id$") for e in checked)
        assert "m=65536,t=3,p=4" in checked[1]  # the dummy has today's parameters too
