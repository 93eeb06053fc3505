"""Leaderboards and players' profiles: public data, read from the ratings room (the
accounts room finds the player by name). Each is one read counted like the lobby's."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam

from pitch.server.api.deps import ERRORS, MaybeSignedIn, ReadLimit, Service
from pitch.server.kernel.errors import ServiceError
from pitch.server.kernel.text import NAME_INPUT
from pitch.server.ratings import PROVISIONAL_GAMES, HistoryPoint
from pitch.server.ratings.schemas import (
    BoardOut,
    BoardRow,
    Kind,
    MyPlace,
    ProfileOut,
    ProfileRating,
    RatedGame,
)

router = APIRouter(tags=["players"], responses=ERRORS)

PlayerName = Annotated[str, PathParam(min_length=1, max_length=NAME_INPUT)]


@router.get("/api/leaderboard/{kind}")
async def leaderboard(kind: Kind, svc: Service, reads: ReadLimit, me: MaybeSignedIn) -> BoardOut:
    """The best 100 established ratings of a kind of table, our bots among them
    (marked, at their fixed ratings), and, for a signed-in player, their place."""
    reads.take()
    board = await svc.ratings.leaderboard(kind, None if me is None else me.id)
    mine = None
    if me is not None:
        own = next((r for r in await svc.ratings.ratings_of(me.id) if r.kind == kind), None)
        mine = MyPlace(
            place=board.place,
            rating=None if own is None else own.rating,
            provisional=True if own is None else own.provisional,
            games=0 if own is None else own.games,
        )
    return BoardOut(
        kind=kind,
        provisional_games=PROVISIONAL_GAMES,
        rows=[
            BoardRow(
                place=r.place,
                rating=r.rating,
                name=r.name,
                bot=r.bot,
                games=r.games,
                me=me is not None and r.account_id == me.id,
            )
            for r in board.rows
        ],
        me=mine,
    )


def _game(p: HistoryPoint) -> RatedGame:
    return RatedGame(
        table=p.table_id,
        kind=p.kind,  # type: ignore[arg-type]
        at=p.at,
        before=p.before,
        after=p.after,
        outcome=p.outcome,  # type: ignore[arg-type]
        left=p.left,
        place=p.place,
        sides=p.sides,
    )


@router.get("/api/players/{name}")
async def player(name: PlayerName, svc: Service, reads: ReadLimit) -> ProfileOut:
    """A player's profile: ratings per kind of table, the rating after each rated
    game (the chart), the last 20 rated games (their records are replays). The name
    is matched as sign-in matches it (case and width folded); 404 ``no_player`` for
    a name nobody has, or a deleted account's."""
    reads.take()
    account = await svc.accounts.by_name(name)
    if account is None:
        raise ServiceError(404, "no player goes by that name", "no_player")
    p = await svc.ratings.profile(account.id)
    return ProfileOut(
        name=account.name,
        member_since=account.created_at,
        provisional_games=PROVISIONAL_GAMES,
        ratings={
            r.kind: ProfileRating(
                rating=r.rating,
                provisional=r.provisional,
                games=r.games,
                wins=r.wins,
                left=r.left,
                pitched=r.pitched,
                set_back=r.set_back,
            )
            for r in p.ratings
        },
        history=[_game(h) for h in p.history],
        recent=[_game(h) for h in p.recent],
    )
