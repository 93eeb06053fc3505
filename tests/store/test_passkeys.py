"""The passkeys store: a challenge is taken once, only for its purpose and binding,
and never after it expired (by the clock it is given); the count per account holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pitch.store import Database
from pitch.store.accounts import AccountStore
from pitch.store.passkeys import PasskeyRefused, PasskeyStore
from tests.store.test_store import db  # noqa: F401  (the fixture: SQLite and PostgreSQL)

NOW = datetime(2026, 12, 7, 3, 0, tzinfo=UTC)


def test_a_challenge_is_taken_once_and_dies(db: Database) -> None:  # noqa: F811
    store = PasskeyStore(db)
    later = NOW + timedelta(minutes=5)
    store.add_challenge("c1", "sign_in", "b1", later, NOW)
    assert not store.take_challenge("c1", "register", "b1", NOW)  # another purpose
    assert not store.take_challenge("c1", "sign_in", "b2", NOW)  # another browser
    assert store.take_challenge("c1", "sign_in", "b1", NOW)
    assert not store.take_challenge("c1", "sign_in", "b1", NOW)  # used
    store.add_challenge("c2", "sign_in", "b1", later, NOW)
    assert not store.take_challenge("c2", "sign_in", "b1", later)  # expired
    store.add_challenge("c3", "sign_in", "b1", later, NOW)
    store.add_challenge("c4", "sign_in", "b1", later + timedelta(minutes=5), later)
    assert not store.take_challenge("c3", "sign_in", "b1", NOW)  # purged with the next one


def test_ten_passkeys_an_account_and_one_account_a_credential(db: Database) -> None:  # noqa: F811
    accounts, store = AccountStore(db), PasskeyStore(db)
    a = accounts.create("Ann", "k1", "s1", "h", NOW)
    b = accounts.create("Bo", "k2", "s2", "h", NOW)
    for n in range(3):
        store.add(a, f"cred{n}", b"key", 0, ["internal"], "", NOW, 3)
    with pytest.raises(PasskeyRefused, match="too many"):
        store.add(a, "cred9", b"key", 0, [], "", NOW, 3)
    with pytest.raises(PasskeyRefused, match="known"):
        store.add(b, "cred0", b"key", 0, [], "", NOW, 3)
    assert store.by_credential("cred0") is not None
    accounts.delete(a, NOW)
    assert store.by_credential("cred0") is None and store.of_account(a) == []
