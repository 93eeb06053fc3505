"""Friends and safety (signed-in players only; 401 ``signed_out`` for a guest): the
lobby's overview, friend requests, blocks, invites to a table and reports (see
:mod:`pitch.server.social`). Each request counts as a read (``ReadLimit``, per address):
the lobby polls the overview, and every one is a few queries."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from fastapi import Path as PathParam

from pitch.server.api.deps import ERRORS, ReadLimit, Service, SignedIn
from pitch.server.kernel.text import NAME_INPUT
from pitch.server.social.schemas import (
    Created,
    FriendOut,
    FriendState,
    InviteIn,
    InviteOut,
    NameIn,
    ReportIn,
    SocialOut,
)

router = APIRouter(tags=["social"], responses={**ERRORS, 401: ERRORS[403]})

PlayerName = Annotated[str, PathParam(min_length=1, max_length=NAME_INPUT)]
InviteId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


@router.get("/api/social", response_model_by_alias=True)
async def overview(me: SignedIn, svc: Service, reads: ReadLimit) -> SocialOut:
    """My friends (online, and at which table in play), the friend requests each way,
    the players I block, and the invites to a table friends sent me (10 minutes)."""
    reads.take()
    o = await svc.social.overview(me)
    return SocialOut(
        friends=[FriendOut(name=f.name, online=f.online, table=f.table) for f in o.friends],
        incoming=o.incoming,
        outgoing=o.outgoing,
        blocked=o.blocked,
        invites=[
            InviteOut(id=i.id, sender=i.sender, table=i.table, sent=i.sent) for i in o.invites
        ],
    )


@router.post("/api/friends")
async def befriend(body: NameIn, me: SignedIn, svc: Service, reads: ReadLimit) -> FriendState:
    """Ask a player to be friends, or accept their request (``friends``). The same
    answer on a repeat. 404 ``no_such_player``; 409 ``blocked`` (either of you blocks
    the other), ``self``, ``social_limit``."""
    reads.take()
    return FriendState(state=await svc.social.befriend(me, body.name))  # type: ignore[arg-type]


@router.delete("/api/friends/{name}", status_code=204)
async def unfriend(name: PlayerName, me: SignedIn, svc: Service, reads: ReadLimit) -> Response:
    """Unfriend, decline their request, or withdraw mine."""
    reads.take()
    await svc.social.unfriend(me, name)
    return Response(status_code=204)


@router.post("/api/blocks")
async def block(body: NameIn, me: SignedIn, svc: Service, reads: ReadLimit) -> dict[str, bool]:
    """Block a player: friendship, requests and invites between you end; their chat
    is hidden from you (and yours from them); quick play never seats you together."""
    reads.take()
    other = await svc.social.block(me, body.name)
    svc.conns.blocks_changed(me.id, other, blocked=True)  # this process's open sockets
    return {"blocked": True}


@router.delete("/api/blocks/{name}", status_code=204)
async def unblock(name: PlayerName, me: SignedIn, svc: Service, reads: ReadLimit) -> Response:
    """Unblock a player (nothing that the block ended comes back)."""
    reads.take()
    other = await svc.social.unblock(me, name)
    svc.conns.blocks_changed(me.id, other, blocked=False)
    return Response(status_code=204)


@router.post("/api/invites", status_code=201)
async def invite(body: InviteIn, me: SignedIn, svc: Service, reads: ReadLimit) -> Created:
    """Invite a friend to a table that is not over (a notice in their lobby for 10
    minutes). 404 ``no_such_player``, ``no_table``; 409 ``not_friends``, ``blocked``,
    ``game_over``, ``social_limit``."""
    reads.take()
    return Created(id=await svc.social.invite(me, body.name, body.table))


@router.delete("/api/invites/{invite_id}", status_code=204)
async def drop_invite(
    invite_id: InviteId, me: SignedIn, svc: Service, reads: ReadLimit
) -> Response:
    """The receiver dismisses an invite, or its sender withdraws it. 404 ``no_invite``."""
    reads.take()
    await svc.social.drop_invite(me, invite_id)
    return Response(status_code=204)


@router.post("/api/reports", status_code=201)
async def report(body: ReportIn, me: SignedIn, svc: Service, reads: ReadLimit) -> Created:
    """Report a player (or one of their chat lines) to the operator; with ``table``,
    ``name`` is first a seat's name there (a guest's too), else an account's, and the
    game's record as it stands is kept with it. 20 a day. 404 ``no_such_player``,
    ``no_table``; 409 ``self``, ``social_limit``; 422 ``bad_text``."""
    reads.take()
    n = await svc.social.report(
        me, body.name, table_id=body.table, chat=body.chat, reason=body.reason, text=body.text
    )
    return Created(id=n)
