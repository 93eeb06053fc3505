"""SQLAlchemy 2 models. The schema is created by the Alembic migrations in
``migrations/``; keep the two in step (a test compares them)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import LargeBinary


class Base(DeclarativeBase):
    pass


class TableModel(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator: Mapped[str] = mapped_column(String(64), index=True)
    """A hash of the creating client's address (for the tables-per-client limit)."""
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    options: Mapped[dict[str, object]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (seats open), ``playing`` or ``over``."""
    seq: Mapped[int] = mapped_column(Integer, default=0)
    """Number of events stored; the next event gets this number."""
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The server process (``--instance``) that last stored an event or a claim of the
    table: the one that serves it, and restores it after a restart."""
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table where this finished game's players play again (same seats and rules)."""


class SeatModel(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """sha256 of the seat token; the token itself is never stored."""
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id"), nullable=True, index=True
    )
    """The signed-in player who took the seat (``None``: a guest, or a bot)."""
    network_hash: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The keyed hash of the client network (the per-client limits' key: an IPv4
    address, an IPv6 /64) the signed-in player took the seat from, never the address:
    the ratings room flags a game two of whose rated seats share one."""


class EventModel(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``deal`` (``deal`` holds the masks) or ``action`` (``seat`` and ``action``)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deal: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Space-separated hex card masks, one per seat."""
    by: Mapped[str] = mapped_column(String(12))
    """Who chose it: ``player``, ``bot``, ``substitute`` (grace period) or ``timer``."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatModel(Base):
    __tablename__ = "chat"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that wrote it (``None``: a spectator)."""
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    phrase: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A quick phrase's index (``pitch.server.tables.chat.PHRASES``), or ``None`` for text."""
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InstanceModel(Base):
    """A server process's lease (docs/deploy.md): it owns its tables while
    ``expires_at`` (seconds since the epoch, by the database's clock) is ahead."""

    __tablename__ = "instances"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    token: Mapped[str] = mapped_column(String(32))
    """Changes each time the lease is taken anew: a process that lost its lease and
    came back cannot renew the newer holder's."""
    expires_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float] = mapped_column(Float)


class HandoffModel(Base):
    """A live process asks the live owner of a table for it (the proxy now routes
    the table to the asker); the owner lets go at its next heartbeat."""

    __tablename__ = "handoffs"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    wanted_by: Mapped[str] = mapped_column(String(64))
    asked_at: Mapped[float] = mapped_column(Float)


class SecretModel(Base):
    """A value made once per database and shared by every server process, such as
    the key of the hash that stands for a client's address (``client_key``)."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class AccountModel(Base):
    """A player's account (docs/server.md, "Accounts"). Deleting one keeps the row
    (its games and, later, its ratings name it): the name becomes "deleted player N"
    and the password hash and sessions go."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    """The name as the player typed it (after the name rule: NFKC, spaces folded)."""
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    """sha256 of the case-folded NFKC name: no two accounts differ only in case."""
    name_skeleton: Mapped[str] = mapped_column(String(64), unique=True)
    """sha256 of the UTS #39 confusable skeleton: no two accounts look alike. Both keys
    stay when the account is deleted, so nobody can take the name of someone gone."""
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    """Argon2id (argon2-cffi's encoded form); ``None`` once deleted."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the player was last seen (a request or a table socket), written at most once
    a minute: their friends see them online for two minutes after (0012)."""


class SessionModel(Base):
    """A signed-in browser: the cookie holds the session id, the store only its hash."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LoginThrottleModel(Base):
    """Failed sign-ins counted by name and by address (keyed hashes), shared by every
    server process: the back-off holds through whichever one a guess reaches."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[float] = mapped_column(Float)
    """When the last failure was (seconds since the epoch)."""
    next_at: Mapped[float] = mapped_column(Float)
    """No sign-in under this key is tried before then."""


class PasskeyModel(Base):
    """A passkey (a WebAuthn credential) that signs in to an account: its public key
    only; the private key never leaves the player's authenticator."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    """The credential id, base64url (at most 1,023 bytes: WebAuthn's own bound)."""
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The COSE public key, as the authenticator gave it."""
    sign_count: Mapped[int] = mapped_column(Integer)
    transports: Mapped[str] = mapped_column(String(200))
    """The transports the browser named at registration, comma-separated."""
    label: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallengeModel(Base):
    """A WebAuthn challenge handed out and not yet answered: kept in the database (any
    process may get the answer), used once, short-lived."""

    __tablename__ = "passkey_challenges"

    challenge_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` (adding a passkey) or ``sign_in``."""
    binding: Mapped[str] = mapped_column(String(64))
    """What the answer must come with: the session's hash (register) or the hash of the
    browser's one-time cookie (sign-in)."""
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingModel(Base):
    """An account's rating at one kind of table (``pitch.server.ratings``): Weng-Lin's
    ``mu`` and ``sigma``, and its counts."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_kind_mu", "kind", "mu"),)

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``headsup``, ``solo`` or ``partnership``."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    left: Mapped[int] = mapped_column(Integer)
    """Games the player left, that the stand-in bot finished (each a loss)."""
    pitched: Mapped[int] = mapped_column(Integer, server_default="0")
    """Hands of these games the player won the bidding and pitched (0011)."""
    set_back: Mapped[int] = mapped_column(Integer, server_default="0")
    """Of those, hands their side was set back."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGameModel(Base):
    """A finished rated game whose ratings changed: one row per table, written in the
    same transaction as the changes, so that a game is rated exactly once."""

    __tablename__ = "rated_games"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    result: Mapped[dict[str, object]] = mapped_column(JSON)
    """Who was rated as what, seat by seat, and why a seat was not (the record)."""
    shared_address: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Two or more of the rated seats were taken from one client network (one player
    with two accounts, or a household): rated all the same, flagged for the operator
    (``pitch ratings flagged``)."""


class RatingHistoryModel(Base):
    """One account's rating before and after one game (the profile's chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_account_at", "account_id", "at"),)

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    outcome: Mapped[str] = mapped_column(String(8))
    """``win``, ``loss`` or ``draw`` (no winner: the hand limit)."""
    left: Mapped[bool] = mapped_column(Boolean)
    """The player left the game and the stand-in bot finished it: a loss."""


class AnalysisModel(Base):
    """A finished game's analysis (``pitch.server.analysis``), as ``pitch analyze
    --json`` writes it, kept under a hash of its canonical record, the game's index and
    the analysis settings: the second request for it is answered from here."""

    __tablename__ = "analyses"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table whose game it is, if it was asked for by table."""
    game: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    result: Mapped[str] = mapped_column(Text)
    """The JSON text (docs/bots.md, format version 1), sent as it is."""


class FriendLinkModel(Base):
    """One account asked another to be friends (``pitch.server.social``): a link both
    ways is a friendship, one way a pending request (0012)."""

    __tablename__ = "friend_links"

    from_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    to_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockModel(Base):
    """One account blocks another: no friendship, requests, invites or chat between
    them, and quick play never seats them together (0012)."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InviteModel(Base):
    """A friend's invitation to a table, shown in the receiver's lobby until it expires
    (``invite_seconds``) or is dismissed (0012)."""

    __tablename__ = "invites"
    __table_args__ = (
        UniqueConstraint("from_id", "to_id", "table_id", name="uq_invites_from_to_table"),
        Index("ix_invites_to_id_sent_at", "to_id", "sent_at"),
        Index("ix_invites_from_id_sent_at", "from_id", "sent_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    table_id: Mapped[str] = mapped_column(String(32))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportModel(Base):
    """A player reported for the operator (``pitch reports list``), with a copy of the
    game's record as it stood then (0012)."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_reporter_id_created_at", "reporter_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    """``None`` once the reporter deleted their account (the report stays, anonymised)."""
    reported_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    """The reported player's account; ``None``: a guest's seat (no account)."""
    reported_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat at ``table_id`` reported by its name (``None``: by account name)."""
    reported_name: Mapped[str] = mapped_column(String(64))
    """The name as the reporter saw it then: the seat's, else the account's."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The chat line reported, as the reporter saw it."""
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    record: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    """The table's game record and chat as they stood when the report was made (a copy:
    the game may go on, or be deleted, after it)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
