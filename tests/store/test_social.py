"""The social store by the clock it is given: invites expire, presence is two minutes,
``blocked_with`` (what quick play asks) both ways and in a caller's session, caps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from pitch.store import Database
from pitch.store.accounts import AccountStore
from pitch.store.models import TableModel
from pitch.store.social import SocialCaps, SocialRefused, SocialStore, blocked_with
from tests.store.test_store import db  # noqa: F401  (the fixture: SQLite and PostgreSQL)

T0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def _people(db: Database, n: int) -> list[int]:  # noqa: F811
    accounts = AccountStore(db)
    return [accounts.create(f"P{i}", f"k{i}", f"s{i}", "h", T0) for i in range(n)]


def _table(db: Database, status: str = "playing") -> str:  # noqa: F811
    with db.sessions.begin() as s:
        s.add(
            TableModel(
                id=f"t{status}",
                created_at=T0,
                updated_at=T0,
                creator="c",
                rules={},
                options={},
                first_dealer=0,
                status=status,
            )
        )
    return f"t{status}"


def test_invites_expire_by_the_time_asked(db: Database) -> None:  # noqa: F811
    store = SocialStore(db, SocialCaps())
    ann, bob = _people(db, 2)
    table = _table(db)
    store.befriend(ann, bob, T0)
    store.befriend(bob, ann, T0)
    n = store.invite(ann, bob, table, T0, T0 - timedelta(minutes=10))
    shown = store.overview(bob, T0, T0 - timedelta(minutes=10))
    assert [(i.id, i.table) for i in shown.invites] == [(n, table)]
    just = T0 + timedelta(minutes=9, seconds=59)
    assert store.overview(bob, just, just - timedelta(minutes=10)).invites
    late = T0 + timedelta(minutes=10)
    assert store.overview(bob, late, late - timedelta(minutes=10)).invites == []
    # An expired invite does not count to the sender's cap, and is sent anew.
    again = store.invite(ann, bob, table, late, late - timedelta(minutes=10))
    assert [i.id for i in store.overview(bob, late, late - timedelta(minutes=10)).invites] == [
        again
    ]
    # A game that ended meanwhile: nothing to join, nothing shown.
    with db.sessions.begin() as s:
        s.execute(update(TableModel).where(TableModel.id == table).values(status="over"))
    assert store.overview(bob, late, late - timedelta(minutes=10)).invites == []


def test_presence_is_the_last_two_minutes(db: Database) -> None:  # noqa: F811
    store = SocialStore(db, SocialCaps())
    ann, bob = _people(db, 2)
    store.befriend(ann, bob, T0)
    store.befriend(bob, ann, T0)
    assert [f.online for f in store.overview(ann, T0, T0).friends] == [False]  # never seen
    store.seen(bob, T0, T0 - timedelta(minutes=1))
    store.seen(bob, T0 + timedelta(seconds=30), T0 - timedelta(seconds=30))  # not written
    at = T0 + timedelta(minutes=2)
    assert [f.online for f in store.overview(ann, at - timedelta(minutes=2), at).friends] == [True]
    at += timedelta(seconds=1)
    assert [f.online for f in store.overview(ann, at - timedelta(minutes=2), at).friends] == [False]


def test_blocked_with_is_both_ways(db: Database) -> None:  # noqa: F811
    store = SocialStore(db, SocialCaps())
    ann, bob, cy, dee = _people(db, 4)
    store.block(ann, bob, T0)
    store.block(cy, ann, T0)
    assert blocked_with(db, ann) == {bob, cy}
    assert blocked_with(db, bob) == {ann} and blocked_with(db, dee) == set()
    with db.sessions() as s:  # in the caller's transaction
        assert blocked_with(s, cy) == {ann}
    store.unblock(ann, bob)
    assert blocked_with(db, ann) == {cy} and blocked_with(db, bob) == set()


def test_caps(db: Database) -> None:  # noqa: F811
    store = SocialStore(db, SocialCaps(friends=2, outgoing=2, blocks=1, invites=1))
    me, a, b, c, d = _people(db, 5)
    store.befriend(me, a, T0)
    store.befriend(me, b, T0)
    with pytest.raises(SocialRefused) as e:
        store.befriend(me, c, T0)
    assert (e.value.code, e.value.limit) == ("social_limit", 2)
    for x in (a, b):
        assert store.befriend(x, me, T0) == "friends"
    store.befriend(c, me, T0)
    with pytest.raises(SocialRefused):  # a third friend is one too many
        store.befriend(me, c, T0)
    table = _table(db)
    store.invite(me, a, table, T0, T0 - timedelta(minutes=10))
    with pytest.raises(SocialRefused):
        store.invite(me, b, table, T0, T0 - timedelta(minutes=10))
    store.block(me, d, T0)
    with pytest.raises(SocialRefused):
        store.block(me, c, T0)
    over = _table(db, "over")
    with pytest.raises(SocialRefused) as e:
        store.invite(b, me, over, T0, T0 - timedelta(minutes=10))
    assert e.value.code == "game_over"
