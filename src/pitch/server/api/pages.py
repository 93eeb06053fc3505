"""Pages outside the API: the API docs, the fairness note, and the web client's
own paths (an invite link, the rules)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from pitch.server.api.fairness import FAIRNESS_HTML
from pitch.web import ROOT

STATIC = ROOT

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def docs() -> FileResponse:
    """Swagger UI, from the files of the fastapi-offline package (no CDN)."""
    return FileResponse(STATIC / "docs.html")


@router.get("/fairness", response_class=HTMLResponse)
async def fairness() -> str:
    return FAIRNESS_HTML


@router.get("/t/{table_id}")
async def invite(table_id: str) -> FileResponse:
    """Invite links open the web client, which reads the table id from the path (and
    says so, in the reader's language, when no table has it: not a bare 422)."""
    return FileResponse(STATIC / "index.html")


@router.get("/rules")
async def rules_page() -> FileResponse:
    """The rules are a page of the web client too (its router shows them)."""
    return FileResponse(STATIC / "index.html")


@router.get("/account")
async def account_page() -> FileResponse:
    """My account is a page of the web client (it asks GET /api/account itself)."""
    return FileResponse(STATIC / "index.html")


@router.get("/leaderboard")
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/players/{name}")
async def player_page(name: str) -> FileResponse:
    """A profile page; the client reads the name from the path."""
    return FileResponse(STATIC / "index.html")
