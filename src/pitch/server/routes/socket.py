"""The table socket: admission per client, then one connection's message loop."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from pitch.server.errors import ServiceError
from pitch.server.live import Conn
from pitch.server.protocol import error, parse_client_message
from pitch.server.routes.deps import Client, Service
from pitch.server.service import TableService

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, svc: Service, who: Client) -> None:
    if not svc.conns.admit(who):
        await ws.close(1013, "too many connections from your address")
        return
    try:
        await _serve(ws, table_id, svc)
    finally:
        svc.conns.release(who)


async def _serve(ws: WebSocket, table_id: str, svc: TableService) -> None:
    settings = svc.settings
    await ws.accept()
    try:
        t = await svc.lifecycle.find(table_id[:33], live=True)
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
                    await svc.conns.handle(t, conn, parsed)
            if conn.strikes >= settings.ws_max_strikes:
                conn.close()
    except WebSocketDisconnect:
        pass
    finally:
        svc.conns.leave(t, conn)
        conn.close()
        await writer
