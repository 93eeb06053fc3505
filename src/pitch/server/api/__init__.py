"""The HTTP API and the table socket, one router per domain (tables, quick play,
records, lobby, pages, the socket); :mod:`deps` holds what they share."""

from __future__ import annotations

from fastapi import APIRouter

from pitch.server.api import accounts, lobby, pages, quickplay, records, socket, tables

ROUTERS: tuple[APIRouter, ...] = (
    tables.router,
    quickplay.router,
    records.router,
    lobby.router,
    pages.router,
    socket.router,
    accounts.router,
)
