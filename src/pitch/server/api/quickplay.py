"""Quick play: find or start a table with open seats, and take one (see
:mod:`pitch.server.lobby.quickplay`)."""

from __future__ import annotations

from fastapi import APIRouter

from pitch.server.api.deps import (
    ERRORS,
    BaseUrl,
    Client,
    CreationLimit,
    MaybeSignedIn,
    SeatLimit,
    Service,
    TableId,
    ws_url,
)
from pitch.server.kernel.schemas import ClaimSeat, QuickPlay, QuickSeat, QuickTable

router = APIRouter(tags=["tables"], responses=ERRORS)


@router.post("/api/quickplay")
async def quick_play(
    body: QuickPlay, svc: Service, who: Client, limit: CreationLimit, account: MaybeSignedIn
) -> QuickTable:
    """Play now: an active quick-play table with these rules and bots of this level
    that has an open seat, or a new such table (seat 0 left for you, bots in the
    others, open to the next strangers). Take the seat with ``quickseat``. Counts
    as a table creation for the rate limit. Signed in: never a table with someone
    you blocked or who blocked you, and a rated game goes to the table nearest your
    rating whose window (widening while it waits for a stranger) reaches you."""
    limit.take()
    signed = None if account is None else account.id
    return QuickTable(table=await svc.quick.table(body, who, signed))


@router.post("/api/tables/{table_id}/quickseat")
async def quick_seat(
    table_id: TableId,
    body: ClaimSeat,
    svc: Service,
    base: BaseUrl,
    limit: SeatLimit,
    account: MaybeSignedIn,
    who: Client,
) -> QuickSeat:
    """Take a seat at a quick-play table: its free seat, or an open bot seat, which
    is yours when the hand in play ends (``waiting``; watch meanwhile). 409: no seat
    is open (someone was quicker: ask ``/api/quickplay`` again, avoiding it)."""
    limit.take()
    seat, token, joined = await svc.quick.seat(
        table_id, body.name, account=None if account is None else account.id
    )
    if account is not None:  # a signed-in player's seat is their account's too
        await svc.accounts.link_seats(account, [(table_id, token)], who)
    return QuickSeat(
        table=table_id,
        seat=seat,
        token=token,
        ws_url=ws_url(base, table_id),
        waiting=joined == "mid-hand",
        joined=joined,
    )
