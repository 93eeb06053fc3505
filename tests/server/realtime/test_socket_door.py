"""Table sockets go in at ``PitchApp``'s door, past FastAPI's middleware and router
(whose frames an idle socket held for its whole life, issue 43), yet pass the same
checks: the Origin, and the client a trusted proxy names."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
from starlette.websockets import WebSocketDisconnect

from pitch.server import create_app
from tests.server.inprocess import app_client, in_process_settings


class Spy:
    """A middleware that notes the kind and path of every scope it is handed."""

    seen: ClassVar[list[tuple[str, str]]] = []

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            Spy.seen.append((scope["type"], scope["path"]))
        await self.app(scope, receive, send)


def test_a_table_socket_skips_the_middleware_and_other_sockets_do_not(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    app = create_app(in_process_settings(tmp_path))
    app.add_middleware(Spy)
    Spy.seen.clear()
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"rules": {"players": 2}}).json()["id"]
        with client.websocket_connect(f"/ws/tables/{t}") as ws:
            ws.send_json({"type": "spectate"})
            assert ws.receive_json()["type"] == "welcome"
        # Not a table socket's path: the app's own answer (no such route), through it all.
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/elsewhere"):
            pass
    assert ("http", "/api/tables") in Spy.seen
    assert ("websocket", "/ws/elsewhere") in Spy.seen
    assert not [s for s in Spy.seen if s[1].startswith("/ws/tables/")], Spy.seen


def test_a_table_socket_from_another_site_is_refused_at_the_door(tmp_path: Path) -> None:
    with app_client(in_process_settings(tmp_path)) as client:
        t = client.post("/api/tables", json={"rules": {"players": 2}}).json()["id"]
        evil = {"origin": "https://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"/ws/tables/{t}", headers=evil),
        ):
            pass
        assert refused.value.code == 1008


def test_a_trusted_proxys_client_is_who_the_socket_counts(tmp_path: Path) -> None:
    settings = in_process_settings(
        tmp_path, forwarded_allow_ips=["*"], max_connections_per_client=1
    )
    with app_client(settings) as client:
        t = client.post("/api/tables", json={"rules": {"players": 2}}).json()["id"]

        def as_client(ip: str) -> Any:
            return client.websocket_connect(f"/ws/tables/{t}", headers={"x-forwarded-for": ip})

        with as_client("10.1.2.3") as first:
            first.send_json({"type": "spectate"})
            assert first.receive_json()["type"] == "welcome"
            # The same client's second socket is over its cap of one...
            with pytest.raises(WebSocketDisconnect) as refused, as_client("10.1.2.3") as again:
                again.receive_json()
            assert refused.value.code == 1013
            # ...another client behind the same proxy is not.
            with as_client("10.9.9.9") as other:
                other.send_json({"type": "spectate"})
                assert other.receive_json()["type"] == "welcome"
