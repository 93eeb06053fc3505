"""The HTTP API, one router per domain (tables, quick play, records, analyses, lobby, pages),
and the table socket (:mod:`socket`, let in by ``PitchApp`` before the routers);
:mod:`deps` holds what they share."""

from __future__ import annotations

from fastapi import APIRouter

from pitch.server.api import (
    accounts,
    analysis,
    lobby,
    pages,
    players,
    quickplay,
    records,
    tables,
)

ROUTERS: tuple[APIRouter, ...] = (
    tables.router,
    quickplay.router,
    records.router,
    analysis.router,
    lobby.router,
    pages.router,
    accounts.router,
    players.router,
)
