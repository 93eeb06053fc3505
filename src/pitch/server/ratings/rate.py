"""Rate one finished game: who counts as what, each side's place, and the new ratings.

Pure: no database (``store`` reads the current ratings and writes what this returns).

- A seat is rated as its player's account (the seat-to-account map the room is given),
  a bot level's fixed rating (:data:`~pitch.server.ratings.scale.BOT_RATINGS`), or, for
  a guest, a stranger's bot spec, a newcomer's rating that is used and not stored. An
  account at two seats of one game is not rated (one person playing both sides of a
  game could hand one of them the win).
- A stranger who took a quick-play seat over from its bot after hands had been played
  is not rated: the seat counts as its bot (else joining a game about to be won would
  be a free win).
- Sides are placed by the game's end: the winner first, then by final score (equal
  scores share a place; at the hand limit there is no winner). A side all of whose
  players left is last.
- A player who left (resigned, and the stand-in bot finished the game) is rated as if
  their side had come last: whatever the bot made of the seat, for them it is a loss,
  and the record says so. Their partner keeps the side's real result.
- Solo games are free-for-all (each player a team of one, Plackett-Luce over the
  places); partnerships two teams.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from pitch.bots.registry import level_of
from pitch.server.ratings.scale import BOT_RATINGS, BOT_SIGMA, MU, SIGMA, bot_mu
from pitch.server.tables.events import GameFinished

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Current:
    """An account's rating of the game's kind before it (a newcomer's if none)."""

    mu: float = MU
    sigma: float = SIGMA


@dataclass(frozen=True, slots=True)
class Change:
    account_id: int
    before: Current
    after: Current
    outcome: str
    """``win``, ``loss`` or ``draw`` (no winner)."""
    left: bool


@dataclass(frozen=True, slots=True)
class Rated:
    changes: tuple[Change, ...]
    result: dict[str, Any]
    """The record of what was rated: per seat, as whom, the place and why not rated."""


def rated_accounts(ev: GameFinished, accounts: Mapping[int, int]) -> dict[int, int]:
    """The seats rated as accounts: a person's seat (held, or left) with an account that
    holds no other seat of the game, and which they did not join late."""
    held = {s.seat: accounts[s.seat] for s in ev.seats if s.human and s.seat in accounts}
    twice = {a for a, n in Counter(held.values()).items() if n > 1}
    late = {s.seat for s in ev.seats if s.late}
    return {i: a for i, a in held.items() if a not in twice and i not in late}


def places(ev: GameFinished) -> list[int]:
    """Each side's place (0 first; equal sides share one)."""
    left = {s.seat for s in ev.seats if s.left}

    def key(side: int) -> tuple[bool, bool, int]:
        gone = all(i in left for i in ev.sides[side])
        return gone, side not in ev.winners, -ev.scores[side]

    keys = [key(d) for d in range(len(ev.sides))]
    ordered = sorted(set(keys))
    return [ordered.index(k) for k in keys]


def rate_game(
    ev: GameFinished, accounts: Mapping[int, int], current: Mapping[int, Current]
) -> Rated:
    """The new ratings of the accounts at ``ev`` (``accounts``: seat to account, as the
    accounts room has it; ``current``: their ratings of this kind before the game)."""
    rated = rated_accounts(ev, accounts)
    place = places(ev)
    seats_out: list[dict[str, Any]] = []
    teams = []
    for members in ev.sides:
        team = []
        for i in members:
            s = ev.seats[i]
            entry: dict[str, Any] = {"seat": i, "side": s.side, "place": place[s.side]}
            if i in rated:
                cur = current.get(rated[i], Current())
                entry.update(account=rated[i], left=s.left)
                team.append(MODEL.rating(mu=cur.mu, sigma=cur.sigma))
            elif not s.human or s.late:
                level = level_of(s.bot) if s.bot else None
                if s.late:
                    entry["not_rated"] = "joined late"
                if level in BOT_RATINGS:
                    assert level is not None
                    entry["bot"] = level
                    team.append(MODEL.rating(mu=bot_mu(level), sigma=BOT_SIGMA))
                else:
                    entry["bot"] = s.bot
                    team.append(MODEL.rating())
            else:
                twice = s.seat in accounts
                entry["not_rated"] = "account at two seats" if twice else "guest"
                entry["left"] = s.left
                team.append(MODEL.rating())
            seats_out.append(entry)
        teams.append(team)
    result: dict[str, Any] = {
        "kind": ev.kind,
        "scores": list(ev.scores),
        "winners": list(ev.winners),
        "resigned": ev.resigned,
        "seats": sorted(seats_out, key=lambda e: e["seat"]),
    }
    if not rated:
        return Rated((), result)
    new = MODEL.rate(teams, ranks=[float(p) for p in place])
    worst = float(max(place) + 1)
    changes = []
    for i, account in sorted(rated.items()):
        s = ev.seats[i]
        side, k = s.side, ev.sides[s.side].index(i)
        after = new[side][k]
        if s.left:  # a loss for them, however the stand-in did
            lost = MODEL.rate(
                teams, ranks=[worst if d == side else float(p) for d, p in enumerate(place)]
            )
            after = lost[side][k]
            outcome = "loss"
        elif ev.winners:
            outcome = "win" if side in ev.winners else "loss"
        else:
            outcome = "draw"
        cur = current.get(account, Current())
        changes.append(
            Change(account, cur, Current(float(after.mu), float(after.sigma)), outcome, s.left)
        )
    return Rated(tuple(changes), result)
