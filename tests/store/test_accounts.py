"""The accounts store: the sign-in back-off's schedule (by the clock it is given),
unique names, sessions that expire and slide."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pitch.store import Database
from pitch.store.accounts import AccountStore, NameInUse
from tests.store.test_store import db  # noqa: F401  (the fixture: SQLite and PostgreSQL)

T0 = 1_800_000_000.0


def test_the_back_off_doubles_up_to_its_cap_and_forgets(db: Database) -> None:  # noqa: F811
    store = AccountStore(db)
    keys = [("n:x", 5, 300.0)]
    waits = []
    now = T0
    for _ in range(16):
        store.throttle_fail(keys, now, now - 3600, first=1.0)
        waits.append(round(store.throttle_waits(["n:x"], now).get("n:x", 0.0)))
    # Five free failures; the fifth sets the first wait; then doubling, then the cap.
    assert waits == [0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]
    assert store.throttle_waits(["n:x"], now + 301) == {}
    # An hour after the last failure they are forgotten: free failures again.
    later = now + 3601
    store.throttle_fail(keys, later, later - 3600, first=1.0)
    assert store.throttle_waits(["n:x"], later) == {}
    store.throttle_clear("n:x")
    store.throttle_fail([("n:x", 1, 10.0), ("a:y", 2, 10.0)], later, later - 3600, first=1.0)
    assert set(store.throttle_waits(["n:x", "a:y", "a:z"], later)) == {"n:x"}


def test_one_name_one_account(db: Database) -> None:  # noqa: F811
    store = AccountStore(db)
    now = datetime.now(UTC)
    store.create("Ann", "k1", "s1", "h", now)
    with pytest.raises(NameInUse):
        store.create("ann", "k1", "s2", "h", now)
    with pytest.raises(NameInUse):
        store.create("ΑΝΝ", "k2", "s1", "h", now)  # another key, the same skeleton
    assert store.create("Bo", "k3", "s3", "h", now) > 0


def test_sessions_expire_and_slide(db: Database) -> None:  # noqa: F811
    store = AccountStore(db)
    now = datetime(2027, 1, 1, tzinfo=UTC)
    a = store.create("Ann", "k1", "s1", "h", now)
    store.add_session("sid", a, now, now + timedelta(days=30))
    day = timedelta(days=1)
    seen = store.session("sid", now + 29 * day, touch_before=now + 29 * day, expires=now + 59 * day)
    assert seen is not None and seen.id == a
    # Seen on day 29, it lives to day 59; unseen, it ends then.
    assert store.session("sid", now + 58 * day, touch_before=now, expires=now) is not None
    assert store.session("sid", now + 59 * day, touch_before=now, expires=now) is None
    store.purge(now + 60 * day, 0.0)
    assert store.session("sid", now, touch_before=now, expires=now) is None
    store.add_session("s2", a, now, now + day)
    store.delete(a, now)
    assert store.session("s2", now, touch_before=now, expires=now + day) is None
    row = store.get(a)
    assert row is not None and row.deleted and row.name == f"deleted player {a}"
    assert row.password_hash is None


def test_a_seat_is_linked_once(db: Database) -> None:  # noqa: F811
    from pitch.store import TableRepo

    repo = TableRepo(db)
    store = AccountStore(db)
    now = datetime.now(UTC)
    a, b = store.create("Ann", "k1", "s1", "h", now), store.create("Bo", "k2", "s2", "h", now)
    seats = [("human", None), ("human", None)]
    repo.create(
        table_id="t1", creator="c", rules={"players": 2}, options={}, first_dealer=0, seats=seats
    )
    repo.claim("t1", 0, name="Ann", token_hash="th0")
    assert store.link_seats(a, [("t1", "th0"), ("t1", "nope"), ("t2", "th0")]) == 1
    assert store.link_seats(b, [("t1", "th0")]) == 0
    assert [s["seat"] for s in store.export(a)["seats"]] == [0]
    assert store.export(b)["seats"] == []
