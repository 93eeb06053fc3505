"""The ratings room: it rates each finished rated game once, from the ``GameFinished``
event (and, for games that ended while no process could rate them, a sweep at
start-up and at a finished table's adoption), and answers what the lobby and profiles
show. The database work runs in the store's threads."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pitch.server.ratings.store import (
    HistoryPoint,
    Leaderboard,
    PlayerRating,
    RatingStore,
    SeatAccounts,
    SeatNetworks,
    TableRating,
    no_networks,
)
from pitch.server.tables.events import GameFinished, TableAdopted, game_finished
from pitch.server.tables.live import LiveTable
from pitch.server.tables.store import RunDb
from pitch.store import Database, TableRepo

log = logging.getLogger("pitch.server")

RECENT_GAMES = 20
"""Rated games a profile lists (each links to its replay)."""


@dataclass(frozen=True, slots=True)
class Profile:
    ratings: tuple[PlayerRating, ...]
    history: tuple[HistoryPoint, ...]
    """The most recent rated games (at most ``HISTORY_LIMIT``), oldest first."""
    recent: tuple[HistoryPoint, ...]
    """The last :data:`RECENT_GAMES` of them, newest first."""


def no_accounts(_table_id: str) -> dict[int, int]:
    """No seat is an account's (a server without accounts): only bots and guests."""
    return {}


class Ratings:
    def __init__(
        self,
        db: Database,
        repo: TableRepo,
        run_db: RunDb,
        accounts: SeatAccounts,
        networks: SeatNetworks = no_networks,
    ) -> None:
        self.store = RatingStore(db)
        self.repo = repo
        self.run_db = run_db
        self.accounts = accounts
        self.networks = networks
        """Where each signed-in seat was taken from (keyed), for the shared-address flag."""

    async def game_finished(self, ev: GameFinished) -> None:
        """A game ended here: rate it (should this fail, the next sweep does)."""
        if ev.rated:
            await self.run_db(self.store.apply, ev, self.accounts, self.networks)

    async def table_adopted(self, ev: TableAdopted) -> None:
        """A finished rated table came to this process: the one that finished it may
        have stopped before rating it."""
        t = ev.table
        if t.status == "over" and t.options.rated and t.state is not None:
            await self.run_db(self.store.apply, game_finished(t), self.accounts, self.networks)

    async def sweep(self) -> int:
        """Rate every finished rated game not rated yet (a process stopped between a
        game's end and its rating); the number rated now."""
        done = 0
        for tid in await self.run_db(self.store.unrated):
            try:
                stored = await self.run_db(self.repo.load, tid)
                if stored is None:
                    continue
                t = LiveTable.from_stored(stored)
                if t.state is not None and await self.run_db(
                    self.store.apply, game_finished(t), self.accounts, self.networks
                ):
                    done += 1
            except Exception:  # one game's failure must not keep the others unrated
                log.exception("table %s could not be rated; the next sweep tries again", tid)
        if done:
            log.info("rated %d finished games left unrated", done)
        return done

    # ------------------------------------------------------------ reading

    async def ratings_of(self, account_id: int) -> list[PlayerRating]:
        return await self.run_db(self.store.ratings_of, account_id)

    async def history(self, account_id: int, kind: str | None = None) -> list[HistoryPoint]:
        return await self.run_db(self.store.history, account_id, kind)

    async def of_table(self, table_id: str) -> TableRating | None:
        return await self.run_db(self.store.of_table, table_id)

    async def leaderboard(self, kind: str, account_id: int | None = None) -> Leaderboard:
        return await self.run_db(self.store.leaderboard, kind, account_id)

    async def profile(self, account_id: int) -> Profile:
        """What a player's public page shows: ratings, the chart's points, the recent
        rated games (newest first)."""
        ratings, points = await self.run_db(self.store.profile, account_id)
        return Profile(tuple(ratings), tuple(points), tuple(reversed(points[-RECENT_GAMES:])))
