"""The ratings' rows (``pitch.store.models``: ``ratings``, ``rating_history``,
``rated_games``). Every function here runs in the database's threads (``run_db``).

Exactly once: a game's ratings change in one transaction with its ``rated_games`` row,
whose key is the table id, written first. A second rating of the same game (the sweep
at start-up racing the live handler, two processes of a cluster) finds the row, or
fails on its key and rolls back everything it changed. The ratings it changes are read
after that write, ``FOR UPDATE`` on PostgreSQL, in account order (on SQLite the write
holds the one write lock), so that two games at once never both start from the same
rating.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pitch.server.ratings.rate import Current, rate_game, rated_accounts
from pitch.server.ratings.scale import (
    BASE,
    BOT_RATINGS,
    PROVISIONAL_GAMES,
    bot_mu,
    provisional,
    shown,
)
from pitch.server.tables.events import GameFinished
from pitch.store import Database
from pitch.store.models import (
    AccountModel,
    RatedGameModel,
    RatingHistoryModel,
    RatingModel,
    TableModel,
)

log = logging.getLogger("pitch.server")

SeatAccounts = Callable[[str], Mapping[int, int]]
"""A table's seats held (or left) by signed-in players: seat to account id. Run in the
database's threads; the accounts room reads ``seats.account_id``."""

SeatNetworks = Callable[[str], Mapping[int, str]]
"""A table's seats held by signed-in players: seat to the keyed hash of the client
network each was taken from (``seats.network_hash``; never the address)."""


def no_networks(_table_id: str) -> dict[int, str]:
    """No seat's network is known (a server without accounts)."""
    return {}


LEADERBOARD_SIZE = 100
HISTORY_LIMIT = 500
"""The most history points read at once (a profile's chart)."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    kind: str
    rating: int
    provisional: bool
    games: int
    wins: int
    left: int
    pitched: int = 0
    """Hands of these games the player pitched (won the bidding)."""
    set_back: int = 0
    """Of those, hands their side was set back."""


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    table_id: str
    kind: str
    at: datetime
    before: int
    after: int
    outcome: str
    left: bool
    place: int | None = None
    """1 first, equal sides sharing one (from the game's ``rated_games`` result)."""
    sides: int | None = None
    """How many sides played (a solo game's players)."""


@dataclass(frozen=True, slots=True)
class LeaderRow:
    place: int
    rating: int
    account_id: int | None
    """The player's account, or ``None`` for a bot."""
    bot: str | None
    """A bot's level (a bot's row: marked as a bot, its rating fixed)."""
    games: int | None
    name: str | None = None
    """The player's name (``None`` for a bot: its level names it)."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    kind: str
    rows: tuple[LeaderRow, ...]
    place: int | None
    """The given account's place (``None``: no account given, or its rating is
    provisional, or it has none of this kind)."""


@dataclass(frozen=True, slots=True)
class FlaggedGame:
    """A rated game two or more of whose rated seats were taken from one client
    network (the operator's list: ``pitch ratings flagged``)."""

    table_id: str
    kind: str
    rated_at: datetime
    names: tuple[str, ...]
    """The rated accounts' names, in account order."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    seat: int
    before: int
    after: int
    outcome: str
    left: bool


@dataclass(frozen=True, slots=True)
class TableRating:
    """A rated game's changes, by seat (public, as the game's record is)."""

    kind: str
    seats: tuple[SeatChange, ...]


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def applied(self, table_id: str) -> bool:
        with self.db.sessions() as s:
            return s.get(RatedGameModel, table_id) is not None

    def apply(
        self, ev: GameFinished, accounts: SeatAccounts, networks: SeatNetworks = no_networks
    ) -> bool:
        """Rate ``ev`` unless it was rated: True if it was rated now."""
        if not ev.rated or self.applied(ev.table_id):
            return False
        seat_accounts = dict(accounts(ev.table_id))
        seat_networks = dict(networks(ev.table_id))
        for _ in range(3):
            try:
                return self._apply(ev, seat_accounts, seat_networks)
            except IntegrityError:  # another process rated it, or made a rating row first
                log.info("rating of table %s met another; trying again", ev.table_id)
        return False

    def _apply(
        self, ev: GameFinished, accounts: Mapping[int, int], networks: Mapping[int, str]
    ) -> bool:
        now = datetime.now(UTC)
        seat_of = {a: i for i, a in rated_accounts(ev, accounts).items()}
        # Rated all the same (a household or a school plays from one address), but
        # flagged for the operator: one player may be feeding a second account.
        taken_from = [networks[i] for i in seat_of.values() if i in networks]
        shared = len(taken_from) > len(set(taken_from))
        ids = sorted(seat_of)
        by_seat = {s.seat: s for s in ev.seats}
        with self.db.sessions() as s, s.begin():
            if s.get(RatedGameModel, ev.table_id) is not None:
                return False
            # The game's key first: a second rating of it stops here (or waits for this
            # one, on PostgreSQL), and on SQLite this write takes the write lock, so
            # that the ratings read below cannot change before they are written.
            game = RatedGameModel(
                table_id=ev.table_id, kind=ev.kind, rated_at=now, result={}, shared_address=shared
            )
            s.add(game)
            s.flush()
            rows = {
                r.account_id: r
                for r in s.scalars(
                    select(RatingModel)
                    .where(RatingModel.account_id.in_(ids), RatingModel.kind == ev.kind)
                    .order_by(RatingModel.account_id)
                    .with_for_update()
                )
            }
            current = {a: Current(r.mu, r.sigma) for a, r in rows.items()}
            out = rate_game(ev, accounts, current)
            game.result = out.result
            for c in out.changes:
                row = rows.get(c.account_id)
                if row is None:
                    row = RatingModel(
                        account_id=c.account_id,
                        kind=ev.kind,
                        games=0,
                        wins=0,
                        left=0,
                        pitched=0,
                        set_back=0,
                    )
                    s.add(row)
                row.mu, row.sigma = c.after.mu, c.after.sigma
                row.games += 1
                row.wins += c.outcome == "win"
                row.left += c.left
                seat = by_seat[seat_of[c.account_id]]
                row.pitched += seat.pitched
                row.set_back += seat.set_back
                row.updated_at = now
                s.add(
                    RatingHistoryModel(
                        table_id=ev.table_id,
                        account_id=c.account_id,
                        kind=ev.kind,
                        at=now,
                        mu_before=c.before.mu,
                        sigma_before=c.before.sigma,
                        mu_after=c.after.mu,
                        sigma_after=c.after.sigma,
                        outcome=c.outcome,
                        left=c.left,
                    )
                )
        return True

    def unrated(self, limit: int = 10_000) -> list[str]:
        """Finished rated tables whose game has not been rated (a process stopped, or
        the database failed, between the game's end and its rating), oldest first."""
        with self.db.sessions() as s:
            q = (
                select(TableModel.id)
                .outerjoin(RatedGameModel, RatedGameModel.table_id == TableModel.id)
                .where(
                    TableModel.status == "over",
                    RatedGameModel.table_id.is_(None),
                    TableModel.options["rated"].as_boolean() == true(),
                )
                .order_by(TableModel.updated_at)
                .limit(limit)
            )
            return list(s.scalars(q))

    # ------------------------------------------------------------ reading

    def flagged(self, limit: int = 1000) -> list[FlaggedGame]:
        """The newest ``limit`` rated games flagged ``shared_address``, newest first."""
        with self.db.sessions() as s:
            games = list(
                s.scalars(
                    select(RatedGameModel)
                    .where(RatedGameModel.shared_address == true())
                    .order_by(RatedGameModel.rated_at.desc(), RatedGameModel.table_id)
                    .limit(limit)
                )
            )
            names: dict[str, list[str]] = {g.table_id: [] for g in games}
            rows = s.execute(
                select(RatingHistoryModel.table_id, AccountModel.name)
                .join(AccountModel, AccountModel.id == RatingHistoryModel.account_id)
                .where(RatingHistoryModel.table_id.in_(list(names)))
                .order_by(RatingHistoryModel.account_id)
            )
            for table_id, name in rows:
                names[table_id].append(name)
        return [
            FlaggedGame(g.table_id, g.kind, g.rated_at, tuple(names[g.table_id])) for g in games
        ]

    def ratings_of(self, account_id: int) -> list[PlayerRating]:
        """An account's ratings, one per kind it has played."""
        with self.db.sessions() as s:
            return self._ratings_of(s, account_id)

    def _ratings_of(self, s: Session, account_id: int) -> list[PlayerRating]:
        rows = s.scalars(select(RatingModel).where(RatingModel.account_id == account_id))
        return sorted(
            (
                PlayerRating(
                    r.kind,
                    shown(r.mu),
                    provisional(r.games),
                    r.games,
                    r.wins,
                    r.left,
                    r.pitched,
                    r.set_back,
                )
                for r in rows
            ),
            key=lambda p: p.kind,
        )

    def shown_of(self, account_ids: Collection[int], kind: str) -> dict[int, int]:
        """These accounts' shown ratings of ``kind``; a newcomer's (1500) for an
        account with none (quick play by rating matches on them)."""
        ids = list(account_ids)[:1000]
        with self.db.sessions() as s:
            rows = s.execute(
                select(RatingModel.account_id, RatingModel.mu).where(
                    RatingModel.account_id.in_(ids), RatingModel.kind == kind
                )
            )
            found = {a: shown(mu) for a, mu in rows}
        return {a: found.get(a, BASE) for a in ids}

    def history(
        self, account_id: int, kind: str | None = None, limit: int = HISTORY_LIMIT
    ) -> list[HistoryPoint]:
        """An account's rated games, the most recent ``limit``, oldest first."""
        with self.db.sessions() as s:
            return self._history(s, account_id, kind, limit)

    def profile(self, account_id: int) -> tuple[list[PlayerRating], list[HistoryPoint]]:
        """An account's ratings and history read from one snapshot: a game's rating
        commit shows in both or in neither (a profile's games count always matches the
        games its history lists)."""
        with self.db.snapshot() as s:
            return self._ratings_of(s, account_id), self._history(s, account_id)

    def _history(
        self, s: Session, account_id: int, kind: str | None = None, limit: int = HISTORY_LIMIT
    ) -> list[HistoryPoint]:
        q = select(RatingHistoryModel).where(RatingHistoryModel.account_id == account_id)
        if kind is not None:
            q = q.where(RatingHistoryModel.kind == kind)
        q = q.order_by(RatingHistoryModel.at.desc()).limit(min(limit, HISTORY_LIMIT))
        rows = list(s.scalars(q))
        games = s.scalars(
            select(RatedGameModel).where(RatedGameModel.table_id.in_({h.table_id for h in rows}))
        )
        placed = {g.table_id: _placed(g.result, account_id) for g in games}
        return [
            HistoryPoint(
                h.table_id,
                h.kind,
                h.at,
                shown(h.mu_before),
                shown(h.mu_after),
                h.outcome,
                h.left,
                *placed.get(h.table_id, (None, None)),
            )
            for h in reversed(rows)
        ]

    def of_table(self, table_id: str) -> TableRating | None:
        """The rating changes a table's game made, by seat (its ``rated_games`` row and
        history rows); ``None`` until it is rated (or when it never is)."""
        with self.db.sessions() as s:
            game = s.get(RatedGameModel, table_id)
            if game is None:
                return None
            rows = {
                h.account_id: h
                for h in s.scalars(
                    select(RatingHistoryModel).where(RatingHistoryModel.table_id == table_id)
                )
            }
        seats = game.result.get("seats") if isinstance(game.result, dict) else None
        out = []
        for e in seats if isinstance(seats, list) else []:
            account = e.get("account") if isinstance(e, dict) else None
            h = rows.get(account) if isinstance(account, int) else None
            if h is not None:
                out.append(
                    SeatChange(
                        int(e["seat"]), shown(h.mu_before), shown(h.mu_after), h.outcome, h.left
                    )
                )
        return TableRating(game.kind, tuple(out))

    def leaderboard(
        self, kind: str, account_id: int | None = None, limit: int = LEADERBOARD_SIZE
    ) -> Leaderboard:
        """The best established ratings of ``kind`` with the bots among them, and
        ``account_id``'s place."""
        limit = min(limit, LEADERBOARD_SIZE)
        # A deleted account's rating stays stored but leaves the board (its profile is
        # gone too): only live accounts are ranked.
        established = (
            RatingModel.kind == kind,
            RatingModel.games >= PROVISIONAL_GAMES,
            AccountModel.deleted_at.is_(None),
        )
        ranked = select(RatingModel).outerjoin(
            AccountModel, AccountModel.id == RatingModel.account_id
        )
        with self.db.sessions() as s:
            top = list(
                s.execute(
                    select(RatingModel, AccountModel.name)
                    .outerjoin(AccountModel, AccountModel.id == RatingModel.account_id)
                    .where(*established)
                    .order_by(RatingModel.mu.desc(), RatingModel.account_id)
                    .limit(limit)
                )
            )
            mine = None
            if account_id is not None:
                me = s.get(RatingModel, (account_id, kind))
                if me is not None and not provisional(me.games):
                    above = s.scalar(
                        select(func.count()).select_from(
                            ranked.where(*established, RatingModel.mu > me.mu).subquery()
                        )
                    )
                    mine = (me.mu, int(above or 0))
        entries: list[tuple[float, int, int | None, str | None, int | None, str | None]] = [
            (r.mu, 0, r.account_id, None, r.games, name) for r, name in top
        ]
        entries += [(bot_mu(lv), 1, None, lv, None, None) for lv in BOT_RATINGS]
        ordered = sorted(entries, key=lambda e: (-e[0], e[1]))[:limit]
        rows = tuple(
            LeaderRow(n + 1, shown(mu), acc, bot, games, name)
            for n, (mu, _, acc, bot, games, name) in enumerate(ordered)
        )
        place = None
        if mine is not None:
            mu, above = mine
            place = above + sum(bot_mu(lv) > mu for lv in BOT_RATINGS) + 1
        return Leaderboard(kind, rows, place)


def _placed(result: object, account_id: int) -> tuple[int | None, int | None]:
    """The account's place (1 first) in a rated game's result, and how many sides."""
    if not isinstance(result, dict):
        return None, None
    seats, scores = result.get("seats"), result.get("scores")
    sides = len(scores) if isinstance(scores, list) else None
    for e in seats if isinstance(seats, list) else []:
        if isinstance(e, dict) and e.get("account") == account_id:
            place = e.get("place")
            return (place + 1 if isinstance(place, int) else None), sides
    return None, sides
