"""The table socket: admission per client, then one connection's message loop."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from pitch.server.errors import ServiceError
from pitch.server.live import Conn
from pitch.server.protocol import Auth, Spectate, error, parse_client_message
from pitch.server.routes.deps import Client, Limit, ReadLimit, Service
from pitch.server.service import TableService

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    ws: WebSocket, table_id: str, svc: Service, who: Client, reads: ReadLimit
) -> None:
    if not svc.conns.admit(who):
        await ws.close(1013, "too many connections from your address")
        return
    try:
        await _serve(ws, table_id, svc, who, reads)
    finally:
        svc.conns.release(who)


async def _serve(ws: WebSocket, table_id: str, svc: TableService, who: str, reads: Limit) -> None:
    settings = svc.settings
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
                    if isinstance(parsed, Auth | Spectate) and svc.tables.get(t.id) is not t:
                        # The table left memory while this socket had not said who it is
                        # (it counted for nobody): join the live table, not that copy.
                        try:
                            t = await svc.lifecycle.find(t.id, live=True)
                        except ServiceError as e:
                            conn.send(_not_found(e)[0])
                            break
                    await svc.conns.handle(t, conn, parsed)
            if conn.strikes >= settings.ws_max_strikes:
                conn.close()
    except WebSocketDisconnect:
        pass
    finally:
        svc.conns.leave(t, conn)
        conn.close()
        await writer


def _not_found(e: ServiceError) -> tuple[dict[str, object], int]:
    """The message and close code for a socket whose table cannot be live here."""
    if e.status == 503:  # full, or the table is on its way here: come back
        return error("server_busy", e.detail), 1013
    return error("no_table"), 4404
