"""The FastAPI app: HTTP API (OpenAPI at ``/docs``), the table socket, static files."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import fastapi_offline
from fastapi import Body, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from pitch.bots.registry import ALIASES, BOTS, levels
from pitch.engine import PRESETS
from pitch.server.chat import MAX_TEXT, PHRASES
from pitch.server.fairness import FAIRNESS_HTML
from pitch.server.guard import Guard
from pitch.server.limits import KeyedBuckets, client_key
from pitch.server.live import Conn, LiveTable, hash_token
from pitch.server.protocol import error, parse_client_message
from pitch.server.records_check import check_records
from pitch.server.schemas import (
    Claimed,
    ClaimSeat,
    CreateTable,
    GameListItem,
    LeaveTable,
    LeftTable,
    MyTables,
    Problem,
    QuickPlay,
    QuickSeat,
    QuickTable,
    RecordProblem,
    RecordsChecked,
    RecordsIn,
    Rematch,
    TableInfo,
)
from pitch.server.service import ServiceError, TableService
from pitch.server.settings import Settings
from pitch.server.view_json import hand_results
from pitch.store import GameSummary

STATIC = Path(__file__).parent / "static"
SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
MAX_RECORDS_BODY = 2 * 1024 * 1024
"""A record file sent to be checked (100 games of ~10 kB each, with room)."""
_HOST = re.compile(
    r"(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?"
)


def _items(rows: list[GameSummary]) -> list[GameListItem]:
    return [
        GameListItem(
            table=r.table_id,
            seat=r.seat,
            status=r.status,
            winner=r.winner,
            names=list(r.names),
            created_at=r.created_at,
            updated_at=r.updated_at,
        )
        for r in rows
    ]


log = logging.getLogger("pitch.server")

TableId = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[a-z0-9]+$")]
ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem},
    403: {"model": Problem},
    409: {"model": Problem},
    422: {"model": Problem},
    429: {"model": Problem},
}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    service = TableService(settings)
    checks = KeyedBuckets(
        rate=settings.record_checks_per_minute / 60.0,
        burst=max(1.0, settings.record_checks_per_minute),
    )
    creations = KeyedBuckets(
        rate=settings.table_creations_per_minute / 60.0,
        burst=max(1.0, settings.table_creations_per_minute),
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        # Everything alive now (the app, its libraries, the restored tables) stays for
        # good: keep it out of the garbage collector's scans, which otherwise cost ~10%
        # of the CPU per action once a few hundred tables are live.
        gc.collect()
        gc.freeze()
        yield
        await service.stop()

    app = FastAPI(
        title="pitch server",
        version="1",
        description="Tables for Pitch (Auction Pitch, Setback). "
        "The WebSocket protocol is described in docs/server.md.",
        lifespan=lifespan,
        docs_url=None,  # our own /docs page below: Swagger UI from the package, no CDN
        redoc_url=None,
    )
    app.state.service = service
    origins = [*settings.allowed_origins, *([settings.public_url] if settings.public_url else [])]
    app.add_middleware(
        Guard,
        allowed_origins=origins,
        large_bodies={"/api/records/verify": MAX_RECORDS_BODY},
        body_seconds=settings.body_seconds,
    )
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")

    @app.exception_handler(ServiceError)
    async def _service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's 422, without echoing the input back: a request's own values (a
        NaN that JSON cannot write, a 60 kB string) never come back in the answer."""
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()[:20]
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    def base_url(req: Request) -> str:
        """Invite links' base: ``--public-url``, else the address the client used if it
        is a plain host[:port] (never arbitrary text from a ``Host`` header), else the
        address the server listens on."""
        if settings.public_url:
            return settings.public_url.rstrip("/")
        host = req.headers.get("host", "")
        if not _HOST.fullmatch(host):
            server = req.scope.get("server") or ("127.0.0.1", 8000)
            host = f"{server[0]}:{server[1]}"
        return f"{req.url.scheme}://{host}"

    def info(t: LiveTable, req: Request) -> TableInfo:
        return TableInfo(
            id=t.id,
            status=t.status,  # type: ignore[arg-type]
            rules=t.rules.to_dict(),
            options=t.options,
            seats=service.seat_infos(t),
            seq=t.seq,
            winner=t.state.winner if t.state is not None else None,
            invite_url=f"{base_url(req)}/t/{t.id}",
            created_at=t.created_at,
            rematch=t.rematch,
        )

    @app.post("/api/tables", status_code=201, responses=ERRORS, tags=["tables"])
    async def create_table(
        req: Request, body: Annotated[CreateTable, Body()] | None = None
    ) -> TableInfo:
        """Create a table: rules (a preset and/or fields), seat plan, options."""
        who = client_key(req.client.host if req.client else None)
        if not creations.take(who):
            raise ServiceError(429, "too many tables created; wait a minute")
        t = await service.create(body or CreateTable(), who)
        return info(t, req)

    @app.get("/api/tables/{table_id}", responses=ERRORS, tags=["tables"])
    async def get_table(table_id: TableId, req: Request) -> TableInfo:
        """Public information about a table (also what an invite link resolves to)."""
        return info(await service.find(table_id), req)

    @app.post("/api/tables/{table_id}/seats/{seat}", responses=ERRORS, tags=["tables"])
    async def claim_seat(
        table_id: TableId,
        seat: Annotated[int, PathParam(ge=0, le=6)],
        body: ClaimSeat,
        req: Request,
    ) -> Claimed:
        """Take an open human seat. The answer's ``token`` is the only key to the seat."""
        token = await service.claim(table_id, seat, body.name)
        ws = base_url(req).replace("http", "ws", 1)
        return Claimed(table=table_id, seat=seat, token=token, ws_url=f"{ws}/ws/tables/{table_id}")

    @app.post("/api/quickplay", responses=ERRORS, tags=["tables"])
    async def quick_play(body: QuickPlay, req: Request) -> QuickTable:
        """Play now: an active quick-play table with these rules and bots of this level
        that has an open seat, or a new such table (seat 0 left for you, bots in the
        others, open to the next strangers). Take the seat with ``quickseat``. Counts
        as a table creation for the rate limit."""
        who = client_key(req.client.host if req.client else None)
        if not creations.take(who):
            raise ServiceError(429, "too many tables created; wait a minute")
        return QuickTable(table=await service.quick.table(body, who))

    @app.post("/api/tables/{table_id}/quickseat", responses=ERRORS, tags=["tables"])
    async def quick_seat(table_id: TableId, body: ClaimSeat, req: Request) -> QuickSeat:
        """Take a seat at a quick-play table: its free seat, or an open bot seat, which
        is yours when the hand in play ends (``waiting``; watch meanwhile). 409: no seat
        is open (someone was quicker: ask ``/api/quickplay`` again, avoiding it)."""
        seat, token, waiting = await service.quick.seat(table_id, body.name)
        ws = base_url(req).replace("http", "ws", 1)
        return QuickSeat(
            table=table_id,
            seat=seat,
            token=token,
            ws_url=f"{ws}/ws/tables/{table_id}",
            waiting=waiting,
        )

    @app.post(
        "/api/tables/{table_id}/leave",
        responses=ERRORS,
        tags=["tables"],
    )
    async def leave_table(table_id: TableId, body: LeaveTable, req: Request) -> LeftTable:
        """Leave the seat that ``token`` holds. At a table still waiting for players the
        seat is open again; in a game under way the player resigns and the table's
        ``substitute`` bot plays the seat to the end. The table no longer counts to
        your unfinished tables. If no player holds a seat any more, the table is
        abandoned: deleted (``status: abandoned``). 403: the token holds no seat here;
        409: the game is over."""
        who = client_key(req.client.host if req.client else None)
        return await service.leave_seat(table_id, body.token, who)

    @app.post(
        "/api/tables/{table_id}/rematch",
        responses=ERRORS,
        tags=["tables"],
    )
    async def rematch(table_id: TableId, body: Rematch, req: Request) -> Claimed:
        """Play again at a finished table: same rules, options and seats, the deal passed
        on to the next seat. The first player to ask makes the rematch (the others see
        its id as ``rematch`` in the table's state); each takes their own seat in it with
        this call and gets its new token. 403: the token holds no seat here; 409: the
        game is not over, or the seat in the rematch is taken already."""
        who = client_key(req.client.host if req.client else None)
        new, seat, token = await service.rematch(table_id, body.token, who)
        ws = base_url(req).replace("http", "ws", 1)
        return Claimed(table=new, seat=seat, token=token, ws_url=f"{ws}/ws/tables/{new}")

    @app.get("/api/tables/{table_id}/state", responses=ERRORS, tags=["tables"])
    async def public_state(table_id: TableId) -> dict[str, Any]:
        """The spectators' ``state`` message (public information only)."""
        return service.message(await service.find(table_id), None)

    @app.get("/api/tables/{table_id}/hands", responses=ERRORS, tags=["tables"])
    async def hands(table_id: TableId) -> list[dict[str, Any]]:
        """Results of the finished hands so far, each like the state's ``last_hand``."""
        t = await service.find(table_id)
        return hand_results(t.state.history) if t.state is not None else []

    @app.get("/api/tables/{table_id}/record", responses=ERRORS, tags=["records"])
    async def record(table_id: TableId) -> JSONResponse:
        """A finished game's record in the engine's record format (``pitch verify``)."""
        rec = service.record(await service.find(table_id))
        return JSONResponse(
            rec, headers={"Content-Disposition": f'attachment; filename="pitch-{table_id}.json"'}
        )

    @app.post("/api/records/verify", responses=ERRORS, tags=["records"])
    async def verify_records(req: Request, body: RecordsIn) -> RecordsChecked:
        """Replay game records by the rules, as ``pitch verify`` does. The answer holds
        the records that follow them, rebuilt by the engine (the replay viewer shows
        only these), and the first problem of each that does not."""
        if not checks.take(client_key(req.client.host if req.client else None)):
            raise ServiceError(429, "too many records checked; wait a minute")
        good, bad = await asyncio.to_thread(check_records, body.records)
        return RecordsChecked(records=good, problems=[RecordProblem(**b) for b in bad])

    @app.get("/api/players/{name}/games", tags=["records"])
    async def games(
        name: Annotated[str, PathParam(min_length=1, max_length=32)],
    ) -> list[GameListItem]:
        """Recent *finished* games where a seat was claimed under this display name (a
        name is no secret: open tables are found with their seat tokens, below)."""
        return _items(await service.run_db(service.repo.games_of, name))

    @app.post("/api/my/tables", tags=["records"])
    async def my_tables(body: MyTables) -> list[GameListItem]:
        """The tables whose seat tokens the client holds (its own, in any state)."""
        pairs = [(s.table, hash_token(s.token)) for s in body.seats]
        return _items(await service.run_db(service.repo.games_with_tokens, pairs))

    @app.get("/api/bots", tags=["lobby"])
    async def bots() -> dict[str, Any]:
        """Bot names and levels a seat plan may use. ``levels`` lists the levels weakest
        to strongest, each with the bot spec a table stores for it (clients name and
        order their level choices by it); ``aliases`` maps each level to its spec as
        written in the registry."""
        return {
            "bots": sorted(BOTS),
            "levels": [{"level": lv.level, "spec": lv.spec} for lv in levels()],
            "aliases": dict(ALIASES),
        }

    @app.get("/api/chat", tags=["lobby"])
    async def chat() -> dict[str, Any]:
        """The quick phrases (their index is what a ``chat`` message sends; the English
        text is what clients translate) and the longest free-text line."""
        return {"phrases": list(PHRASES), "max_text": MAX_TEXT}

    @app.get("/api/presets", tags=["lobby"])
    async def presets() -> dict[str, dict[str, Any]]:
        return {k: v.to_dict() for k, v in PRESETS.items()}

    @app.get("/api/rules/options", tags=["lobby"])
    async def rule_options() -> list[dict[str, Any]]:
        """The table options, described once in the engine (the lobby's form reads
        them): key, type, default, choices or range, rule id, label and help keys."""
        from pitch.engine.rules import OPTIONS

        return [o.public() for o in OPTIONS]

    @app.get("/api/health", tags=["lobby"])
    async def health() -> JSONResponse:
        """Readiness, for a proxy or a supervisor: 503 while this process does not
        hold its lease (it serves no table then; docs/deploy.md)."""
        lease = service.owners.state()
        body = {
            "ok": lease["held"],
            "instance": settings.instance,
            "tables": len(service.tables),
            "cached": len(service.cache),
            "lease": lease,
            "appended": service.repo.writer.appended,
            "bot_workers": {"ready": service.bots.ready(), "wanted": service.bots.workers},
        }
        return JSONResponse(body, status_code=200 if lease["held"] else 503)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        """Swagger UI, from the files of the fastapi-offline package (no CDN)."""
        return FileResponse(STATIC / "docs.html")

    @app.get("/fairness", response_class=HTMLResponse, include_in_schema=False)
    async def fairness() -> str:
        return FAIRNESS_HTML

    @app.get("/t/{table_id}", include_in_schema=False)
    async def invite(table_id: TableId) -> FileResponse:
        """Invite links open the web client, which reads the table id from the path."""
        return FileResponse(STATIC / "index.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        """The rules are a page of the web client too (its router shows them)."""
        return FileResponse(STATIC / "index.html")

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        who = client_key(ws.client.host if ws.client else None)
        if not service.admit(who):
            await ws.close(1013, "too many connections from your address")
            return
        try:
            await _serve_socket(ws, table_id)
        finally:
            service.release(who)

    async def _serve_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        try:
            t = await service.find(table_id[:33], live=True)
        except ServiceError as e:
            if e.status == 503:  # full, or the table is on its way here: come back
                await ws.send_json(error("server_busy", e.detail))
                await ws.close(1013)
                return
            await ws.send_json(error("no_table"))
            await ws.close(4404)
            return
        conn = Conn(
            ws,
            rate=settings.ws_messages_per_second,
            burst=settings.ws_burst,
            queue=settings.send_queue,
        )
        writer = asyncio.create_task(conn.writer())
        try:
            while not conn.closed:
                if conn.seat is None and not conn.spectator:
                    # A socket must say who it is soon, or it gives up its slot.
                    try:
                        msg = await asyncio.wait_for(ws.receive(), settings.auth_timeout)
                    except TimeoutError:
                        break
                else:
                    msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if not conn.bucket.take():
                    conn.strikes += 1
                    conn.send(error("rate_limited"))
                elif text is None:
                    conn.strikes += 1
                    conn.send(error("bad_json", "binary frames are not accepted"))
                else:
                    parsed = parse_client_message(text)
                    if isinstance(parsed, dict):
                        conn.strikes += 1
                        conn.send(parsed)
                    else:
                        await service.handle(t, conn, parsed)
                if conn.strikes >= settings.ws_max_strikes:
                    conn.close()
        except WebSocketDisconnect:
            pass
        finally:
            service.leave(t, conn)
            conn.close()
            await writer

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
