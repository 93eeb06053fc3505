"""What the lobby reads: bots and levels, chat phrases, presets and table options, the
server's health."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pitch.bots.registry import ALIASES, BOTS, levels
from pitch.engine import PRESETS
from pitch.engine.rules import OPTIONS
from pitch.server.api.deps import Service
from pitch.server.tables.chat import MAX_TEXT, PHRASES

router = APIRouter(tags=["lobby"])


@router.get("/api/bots")
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


@router.get("/api/chat")
async def chat() -> dict[str, Any]:
    """The quick phrases (their index is what a ``chat`` message sends; the English
    text is what clients translate) and the longest free-text line."""
    return {"phrases": list(PHRASES), "max_text": MAX_TEXT}


@router.get("/api/presets")
async def presets() -> dict[str, dict[str, Any]]:
    return {k: v.to_dict() for k, v in PRESETS.items()}


@router.get("/api/rules/options")
async def rule_options(svc: Service) -> list[dict[str, Any]]:
    """The table options, described once in the engine (the lobby's form reads
    them): key, type, default (this server's, ``pitch serve --rule``), choices or
    range, rule id, label and help keys."""
    defaults = svc.settings.rules
    return [{**o.public(), "default": getattr(defaults, o.key)} for o in OPTIONS]


@router.get("/api/health")
async def health(svc: Service, request: Request) -> JSONResponse:
    """Readiness, for a proxy or a supervisor: 503 while this process does not
    hold its lease (it serves no table then; docs/deploy.md)."""
    lease = svc.owners.state()
    body = {
        "ok": lease["held"],
        "instance": svc.settings.instance,
        "tables": len(svc.tables),
        "cached": len(svc.cache),
        "lease": lease,
        "appended": svc.repo.writer.appended,
        "bot_workers": {
            "ready": svc.bots.ready(),
            "wanted": svc.bots.workers + svc.bots.quick,
            "waiting": svc.bots.waiting(),
        },
        "analyses": svc.analyses.state(),
        "sockets": svc.sockets.public(),
        "record_checks": request.app.state.record_checks.state(),
    }
    return JSONResponse(body, status_code=200 if lease["held"] else 503)
