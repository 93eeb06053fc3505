"""The FastAPI app: HTTP API (OpenAPI at ``/docs``), the table socket, static files.

The routes are in :mod:`pitch.server.api`, one router per domain; here are the
settings, the service's lifespan, the middleware and the error handlers.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from pitch.server.api import ROUTERS
from pitch.server.api.deps import Limits
from pitch.server.api.guard import ForwardedFor, Guard
from pitch.server.api.pages import STATIC
from pitch.server.api.socket import socket_entry, socket_table_id
from pitch.server.kernel.errors import ServiceError
from pitch.server.records.check import RecordChecks
from pitch.server.settings import Settings
from pitch.server.wiring import TableService

SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
MAX_RECORDS_BODY = 2 * 1024 * 1024
"""A record file sent to be checked (100 games of ~10 kB each, with room)."""


async def _service_error(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    body = {"detail": exc.detail, "code": exc.code, **exc.extra}
    if exc.retry_after is not None:  # in the body too, for a client that reads no headers
        body["retry_after"] = exc.retry_after
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return JSONResponse(body, status_code=exc.status, headers=headers)


async def _invalid(_req: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422, without echoing the input back: a request's own values (a
    NaN that JSON cannot write, a 60 kB string) never come back in the answer."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
        for e in exc.errors()[:20]
    ]
    return JSONResponse({"detail": errors, "code": "bad_request"}, status_code=422)


def _is_page(path: str) -> bool:
    """A path a person may type or follow to a page: not the API, a socket, or a file
    (a name with a dot: a script, a picture, a catalog)."""
    first = path.lstrip("/").split("/", 1)[0]
    return first not in ("api", "ws", "docs-assets") and "." not in path.rsplit("/", 1)[-1]


async def _http_error(req: Request, exc: Exception) -> Response:
    """A page that does not exist is the web client's "Page not found" (404, in the
    reader's language), not a bare JSON answer; everything else as FastAPI answers it."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and req.method in ("GET", "HEAD") and _is_page(req.url.path):
        return FileResponse(STATIC / "index.html", status_code=404)
    if exc.status_code in (404, 405):  # no route: a code like every other refusal's
        body = {"detail": exc.detail, "code": "no_route"}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)
    return await http_exception_handler(req, exc)


class PitchApp(FastAPI):
    """FastAPI, with the table sockets let in at the door: their handshake passes the
    same client and Origin checks as the middleware's (``sockets``, made below), then
    goes straight to the socket's handler. Through the middleware stack and the router
    a socket held two dozen coroutine frames for its whole life, 8.5 of the 23 KiB an
    idle one cost (issue 43, docs/benchmarks.md "Idle sockets")."""

    sockets: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "websocket"
            and self.sockets is not None
            and socket_table_id(scope["path"]) is not None
        ):
            scope["app"] = self
            await self.sockets(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> PitchApp:
    settings = settings or Settings()
    service = TableService(settings)
    record_checks = RecordChecks(settings.record_check_workers)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        # Everything alive now (the app, its libraries, the restored tables) stays for
        # good: keep it out of the garbage collector's scans, which otherwise cost ~10%
        # of the CPU per action once a few hundred tables are live.
        gc.collect()
        gc.freeze()
        yield
        record_checks.close()
        await service.stop()

    app = PitchApp(
        title="pitch server",
        version="1",
        description="Tables for Pitch (Auction Pitch, Setback). "
        "The WebSocket protocol is described in docs/server.md.",
        lifespan=lifespan,
        docs_url=None,  # our own /docs page (api/pages.py): Swagger UI, no CDN
        redoc_url=None,
        exception_handlers={
            ServiceError: _service_error,
            RequestValidationError: _invalid,
            HTTPException: _http_error,
        },
    )
    app.state.service = service
    app.state.record_checks = record_checks
    app.state.limits = Limits.of(settings)
    app.state.client_secret = service.repo.client_secret()
    origins = [*settings.allowed_origins, *([settings.public_url] if settings.public_url else [])]
    app.add_middleware(
        Guard,
        allowed_origins=origins,
        large_bodies={"/api/records/verify": MAX_RECORDS_BODY, "/api/analysis": MAX_RECORDS_BODY},
        body_seconds=settings.body_seconds,
    )
    if settings.forwarded_allow_ips:  # outermost: every layer sees the client it names
        app.add_middleware(ForwardedFor, trusted=settings.forwarded_allow_ips)
    # The same two checks in front of the table sockets (PitchApp.__call__).
    sockets: Any = Guard(socket_entry, allowed_origins=origins)
    if settings.forwarded_allow_ips:
        sockets = ForwardedFor(sockets, trusted=settings.forwarded_allow_ips)
    app.sockets = cast(ASGIApp, sockets)
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
