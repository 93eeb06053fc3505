"""Tables: create one, read it, claim and leave its seats, play it again."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from fastapi import Path as PathParam

from pitch.server.api.deps import (
    ERRORS,
    BaseUrl,
    Client,
    CreationLimit,
    MaybeSignedIn,
    ReadLimit,
    SeatLimit,
    Service,
    TableId,
    ws_url,
)
from pitch.server.kernel.schemas import (
    Claimed,
    ClaimSeat,
    CreateTable,
    LeaveTable,
    LeftTable,
    Rematch,
    SeatInfo,
    TableInfo,
)
from pitch.server.ratings.schemas import TableRatings
from pitch.server.tables.live import LiveTable
from pitch.server.tables.table_json import seat_list, state_message
from pitch.server.tables.view_json import hand_results

router = APIRouter(tags=["tables"], responses=ERRORS)


def _info(t: LiveTable, base: str) -> TableInfo:
    return TableInfo(
        id=t.id,
        status=t.status,  # type: ignore[arg-type]
        rules=t.rules.to_dict(),
        options=t.options,
        seats=[SeatInfo(**s) for s in seat_list(t)],
        seq=t.seq,
        winner=t.state.winner if t.state is not None else None,
        invite_url=f"{base}/t/{t.id}",
        created_at=t.created_at,
        rematch=t.rematch,
    )


@router.post("/api/tables", status_code=201)
async def create_table(
    svc: Service,
    who: Client,
    limit: CreationLimit,
    base: BaseUrl,
    body: Annotated[CreateTable, Body()] | None = None,
) -> TableInfo:
    """Create a table: rules (a preset and/or fields), seat plan, options."""
    limit.take()
    t = await svc.lifecycle.create(body or CreateTable(), who)
    return _info(t, base)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: TableId, svc: Service, base: BaseUrl, reads: ReadLimit) -> TableInfo:
    """Public information about a table (also what an invite link resolves to)."""
    reads.take()
    return _info(await svc.lifecycle.find(table_id), base)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def claim_seat(
    table_id: TableId,
    seat: Annotated[int, PathParam(ge=0, le=6)],
    body: ClaimSeat,
    svc: Service,
    base: BaseUrl,
    limit: SeatLimit,
    account: MaybeSignedIn,
    who: Client,
) -> Claimed:
    """Take an open human seat. The answer's ``token`` is the only key to the seat;
    a signed-in player's seat is also their account's."""
    limit.take()
    token = await svc.seats.claim(table_id, seat, body.name)
    if account is not None:
        await svc.accounts.link_seats(account, [(table_id, token)], who)
    return Claimed(table=table_id, seat=seat, token=token, ws_url=ws_url(base, table_id))


@router.post("/api/tables/{table_id}/leave")
async def leave_table(
    table_id: TableId, body: LeaveTable, svc: Service, who: Client, limit: SeatLimit
) -> LeftTable:
    """Leave the seat that ``token`` holds. At a table still waiting for players the
    seat is open again; in a game under way the player resigns and the table's
    ``substitute`` bot plays the seat to the end. The table no longer counts to
    your unfinished tables. If no player holds a seat any more, the table is
    abandoned: deleted (``status: abandoned``). 403: the token holds no seat here;
    409: the game is over."""
    limit.take()
    return await svc.seats.leave(table_id, body.token, who)


@router.post("/api/tables/{table_id}/rematch")
async def rematch(
    table_id: TableId,
    body: Rematch,
    svc: Service,
    who: Client,
    base: BaseUrl,
    limit: CreationLimit,
    account: MaybeSignedIn,
) -> Claimed:
    """Play again at a finished table: same rules, options and seats, the deal passed
    on to the next seat. The first player to ask makes the rematch (the others see
    its id as ``rematch`` in the table's state); each takes their own seat in it with
    this call and gets its new token. 403: the token holds no seat here; 409: the
    game is not over, or the seat in the rematch is taken already; 429: the asker who
    would make it has made its most tables a minute, or has its most unfinished."""
    new, seat, token = await svc.rematches.rematch(table_id, body.token, who, limit.take)
    if account is not None:
        await svc.accounts.link_seats(account, [(new, token)], who)
    return Claimed(table=new, seat=seat, token=token, ws_url=ws_url(base, new))


@router.get("/api/tables/{table_id}/state")
async def public_state(table_id: TableId, svc: Service, reads: ReadLimit) -> dict[str, Any]:
    """The spectators' ``state`` message (public information only)."""
    reads.take()
    return state_message(await svc.lifecycle.find(table_id), None)


@router.get("/api/tables/{table_id}/ratings")
async def table_ratings(table_id: TableId, svc: Service, reads: ReadLimit) -> TableRatings:
    """A rated game's rating changes by seat (before, after), once the ratings room has
    written them: ``rated`` false until then (and for a casual table). Public, as the
    game's record is."""
    reads.take()
    return TableRatings.of(await svc.ratings.of_table(table_id))


HANDS_PAGE = 200
"""Hands one ``/hands`` answer holds at most: a game has no cap on its hands, so an
answer for all of them would grow with the game."""


@router.get("/api/tables/{table_id}/hands")
async def hands(
    table_id: TableId,
    svc: Service,
    reads: ReadLimit,
    start: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=HANDS_PAGE)] = HANDS_PAGE,
) -> list[dict[str, Any]]:
    """Results of the finished hands so far, each like the state's ``last_hand``:
    ``limit`` of them (at most 200) from hand ``start`` (0 is the first). Fewer than
    ``limit`` means there are no more."""
    reads.take()
    t = await svc.lifecycle.find(table_id)
    return hand_results(t.state.history[start : start + limit]) if t.state is not None else []
