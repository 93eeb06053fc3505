"""The table socket: admission per client, then one connection's message loop.

Not a route: :class:`pitch.server.app.PitchApp` hands ``/ws/tables/{table_id}`` to
:func:`socket_entry` past FastAPI's middleware and router, after the same client and
Origin checks (issue 43: what an idle socket holds)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from pitch.server.api.deps import (
    SESSION_COOKIE,
    Limit,
    get_client,
    get_networks,
    get_service,
    get_site,
    read_limit,
)
from pitch.server.kernel.errors import ServiceError
from pitch.server.realtime.sockets import MAX_UNSENT, WIRE
from pitch.server.tables.live import Conn, LiveTable, SocketAccount
from pitch.server.tables.protocol import Auth, Spectate, error, parse_client_message
from pitch.server.wiring import TableService

log = logging.getLogger("pitch.server")


async def table_socket(ws: WebSocket) -> None:
    # Its few dependencies called here: FastAPI's dependency machinery (three exit
    # stacks and their frames) would live as long as the socket, 4 KiB an idle one
    # (docs/benchmarks.md, "Idle sockets").
    table_id = str(ws.path_params["table_id"])
    svc, who = get_service(ws), get_client(ws)
    reads = read_limit(ws, get_networks(ws))
    site = get_site(ws)
    if not svc.conns.admit(who):
        await ws.close(1013, "too many connections from your address")
        return
    try:
        await _serve(ws, table_id, svc, who, site, reads)
    finally:
        svc.conns.release(who)


SOCKET_PATH = "/ws/tables/"


def socket_table_id(path: str) -> str | None:
    """The table of a table socket's path (``/ws/tables/{table_id}``), else ``None``."""
    if not path.startswith(SOCKET_PATH):
        return None
    rest = path[len(SOCKET_PATH) :]
    return rest if rest and "/" not in rest else None


async def socket_entry(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The table socket as a bare ASGI app, for :class:`pitch.server.app.PitchApp` to
    call past FastAPI's middleware stack and router: their two dozen coroutine frames
    would live as long as the socket (docs/benchmarks.md, "Idle sockets")."""
    scope["path_params"] = {"table_id": socket_table_id(scope["path"])}
    await table_socket(WebSocket(scope, receive, send))


async def _serve(
    ws: WebSocket, table_id: str, svc: TableService, who: str, site: str, reads: Limit
) -> None:
    settings = svc.settings
    # Read before the handshake ends: the headers are let go then (realtime.sockets).
    sid = ws.cookies.get(SESSION_COOKIE)
    await ws.accept()
    try:
        # Opening a table reads it (from the store, if it is not in memory), like a GET:
        # the same allowance, so guessed ids and reconnect loops are bounded too.
        reads.take()
    except ServiceError:
        await ws.send_json(error("too_many_requests"))
        await ws.close(1013)
        return
    try:
        t = await svc.lifecycle.find(table_id[:33], live=True)
    except ServiceError as e:
        refusal, code = _not_found(e)
        await ws.send_json(refusal)
        await ws.close(code)
        return
    conn = Conn(
        ws,
        rate=settings.ws_messages_per_second,
        burst=settings.ws_burst,
        queue=settings.send_queue,
        client=who,
        site=site,
        wire=ws.scope.get("extensions", {}).get(WIRE),
        max_unsent=MAX_UNSENT,
        slow_seconds=settings.slow_reader_seconds,
    )
    if sid is not None:  # a guest's socket reads nothing more
        conn.account = await _signed(svc, sid, t.id)
    writer = asyncio.create_task(conn.writer())
    try:
        while not conn.closed:
            if conn.seat is None and not conn.spectator:
                # A socket must say who it is soon, or it gives up its slot.
                try:
                    msg = await asyncio.wait_for(ws.receive(), settings.auth_timeout)
                except TimeoutError:
                    break
            elif conn.spectator and conn.waiting is None:
                watched = await _watch(ws, t, settings.spectator_idle_seconds)
                if watched is None:
                    break  # a forgotten spectator: its descriptor is worth more
                msg = watched
                del watched
            else:
                msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if conn.account is not None:  # presence: a write at most once a minute
                await svc.social.seen(conn.account.account_id)
            # In a call of its own, so that the message and what it was parsed into
            # are not kept while the socket waits for the next (an idle socket's life).
            found = await _handle(msg, conn, t, svc)
            del msg
            if found is None:
                break
            t = found
            if conn.strikes >= settings.ws_max_strikes:
                conn.close()
    except WebSocketDisconnect:
        pass
    finally:
        svc.conns.leave(t, conn)
        conn.close()
        await writer


async def _signed(svc: TableService, sid: str, table_id: str) -> SocketAccount | None:
    """A signed-in player's socket: their account, seen now, and whose chat they are
    not sent (the accounts they block or are blocked by, at this table's seats)."""
    try:
        account = await svc.accounts.signed_in(sid)
        if account is None:
            return None
        await svc.social.seen(account.id)
        blocked = frozenset(await svc.social.blocked_with(account.id))
        hidden: set[int] = set()
        if blocked:
            owners = await svc.run_db(svc.accounts.store.seat_accounts, table_id)
            hidden = {s for s, a in owners.items() if a in blocked}
    except Exception:  # the store is away: the socket works as a guest's
        log.exception("could not read the account of a table socket")
        return None
    return SocketAccount(account.id, blocked, hidden)


async def _handle(msg: Any, conn: Conn, t: LiveTable, svc: TableService) -> LiveTable | None:
    """Answer one message: the table the socket is at now, or ``None`` to close it."""
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
            if isinstance(parsed, Auth | Spectate) and svc.tables.get(t.id) is not t:
                # The table left memory while this socket had not said who it is
                # (it counted for nobody): join the live table, not that copy.
                try:
                    t = await svc.lifecycle.find(t.id, live=True)
                except ServiceError as e:
                    conn.send(_not_found(e)[0])
                    return None
            await svc.conns.handle(t, conn, parsed)
    return t


async def _watch(ws: WebSocket, t: LiveTable, idle: float) -> dict[str, Any] | None:
    """A spectator's next message, or ``None`` once neither it sent anything nor its
    table changed for ``idle`` seconds (someone watching a game in play is never idle)."""
    heard = time.monotonic()
    while True:
        quiet = time.monotonic() - max(heard, t.changed)
        if quiet >= idle:
            return None
        try:
            return dict(await asyncio.wait_for(ws.receive(), idle - quiet))
        except TimeoutError:
            pass


def _not_found(e: ServiceError) -> tuple[dict[str, object], int]:
    """The message and close code for a socket whose table cannot be live here."""
    if e.status == 503:  # full, or the table is on its way here: come back
        return error("server_busy", e.detail), 1013
    return error("no_table"), 4404
