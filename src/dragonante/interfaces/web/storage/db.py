"""The web server's database: tables, seats and every accepted answer.

A game is stored as what reproduces it, never as a snapshot: its config,
its seed and the answers in the order they were accepted (plus the moment a
time limit called the last gambit).  Rebuilding a table after a restart is
then replaying those answers through the engine, which is also how a
finished game becomes a step-by-step replay.

SQLite is the default (one file, created on first run); PostgreSQL is used
when the server is given a ``postgresql://`` URL.  The schema is managed by
Alembic migrations (``migrations/`` beside this module) that
:func:`open_database` runs at start-up, so an old database file is upgraded
in place instead of being refused.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: PostgreSQL advisory lock key held while migrating (any fixed number of ours).
MIGRATION_LOCK = 0x64726167


class Base(DeclarativeBase):
    """Declarative base of the web server's tables."""


class TableRow(Base):
    """One game table: open for seating, playing, or finished."""

    __tablename__ = "game_tables"

    #: The short invite code, also the table's id in URLs.
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: ``config_to_dict`` JSON: with the seed and answers it rebuilds the game.
    config: Mapped[str] = mapped_column(Text)
    #: Secret while the game runs: seed + config reveal the deck order.
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    rules_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: SHA-256 of the host token (whoever created the table manages its seats).
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of the game-master token (tables with hidden D&D abilities only).
    gm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Answers accepted when the time limit called the last gambit (replayed there).
    last_gambit_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    final_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: JSON list of winning seats.
    winners: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The server process running the table (``web/cluster/member.py``); NULL with one process.
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    #: Seconds each person has for a decision before a bot answers it (NULL: no timer).
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The code of this finished table's rematch, once someone offered one.
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Invite only: the lobby's lists leave it out.
    unlisted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The host allows hints from the best bot at a table with other people (``hints.py``).
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: Why a finished table ended before its game did (``idle``), else NULL.
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatRow(Base):
    """A taken seat: a person (with the hash of their token) or a bot."""

    __tablename__ = "seats"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: ``human`` or ``bot``.
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: SHA-256 of the seat token: a stolen database does not hand out seats.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The player key's person holding the seat (``players.id``), NULL for a
    #: seat taken without a key (``players/``; the key itself opens it too).
    player_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)


class AnswerRow(Base):
    """The ``n``-th accepted answer of a table's game."""

    __tablename__ = "answers"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    decision_id: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    answer: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One of a table's recent chat messages (the last ``chat_history`` are kept).

    Stored so that the process that takes a table over (``web/cluster/member.py``)
    or a restarted server shows late joiners the same history.
    """

    __tablename__ = "chat_messages"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True
    )
    #: The message's number at its table (``chat`` frame ``id``).
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The ``chat`` frame as sent (JSON): already cleaned and limited.
    body: Mapped[str] = mapped_column(Text)


class MuteRow(Base):
    """A mute the host set: a seat, a spectator's number or a spectator's address."""

    __tablename__ = "chat_mutes"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True
    )
    #: ``seat``, ``spectator`` or ``address``.
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[str] = mapped_column(String(64), primary_key=True)


class BanRow(Base):
    """Someone the host removed from a table: a case-folded name or an address."""

    __tablename__ = "seat_bans"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True
    )
    #: ``name`` or ``address``.
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[str] = mapped_column(String(64), primary_key=True)


class PlayerRow(Base):
    """A person known by a player key (``players/``): no password, no e-mail.

    The key is a secret kept by its person's browser; the database keeps its
    SHA-256 only, so a stolen database opens no seat.  ``id`` is public: it
    names the person on the leaderboard and is what a host hands a seat to.
    """

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The name the person last sat down under (the leaderboard shows it).
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A person's openskill rating now (``players/ratings.py``): derived data,
    rebuilt from the finished games by ``dragonante ratings rebuild``."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: ``mu - 3 sigma``: what the leaderboard sorts by (a newcomer starts near 0).
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int] = mapped_column(Integer)
    #: Games won, a shared win counting 1/k (as in ``tournament``).
    wins: Mapped[float] = mapped_column(Float)


class RatingStepRow(Base):
    """A person's rating after one rated game: the player page's line over time."""

    __tablename__ = "rating_steps"

    player_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_code: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: 1 + the seats with strictly more gold at the end.
    place: Mapped[int] = mapped_column(Integer)
    #: The share of the win (1/k of k tied winners; 0: not a winner).
    won: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class ProcessRow(Base):
    """A server process of a cluster and its last heartbeat (``web/cluster/member.py``)."""

    __tablename__ = "server_processes"

    #: Random id; the process listens on the PostgreSQL channel named after it.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Database time of the last heartbeat: older than the lease means gone.
    beat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def default_sqlite_path() -> Path:
    """Where the SQLite file lives unless ``--db`` says otherwise (XDG data dir)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "dragonante" / "web.sqlite3"


def database_url(db: str | None) -> str:
    """Turn ``--db`` (a URL, a file path, or nothing) into an SQLAlchemy URL.

    ``postgresql://`` and ``postgres://`` URLs get the psycopg 3 driver, so
    people can paste the URL their hosting gives them.
    """
    db = (db or "").strip()
    if not db:
        path = default_sqlite_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if db.startswith(prefix):
            return "postgresql+psycopg://" + db[len(prefix) :]
    if "://" in db:
        return db
    path = Path(db).expanduser()
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path.resolve()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; FULL makes each commit durable
    on disk before the answer it stores is acknowledged."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for ``url`` with the pragmas SQLite needs."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (creating it on first run)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Several processes starting together on a fresh database would
            # otherwise race to create the same tables (``serve --workers``).
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def refuses_writes(engine: Engine) -> str | None:
    """Why the database refuses to be written, or None when it takes writes.

    A write nobody sees (an update of no row, rolled back), so that ``serve``
    finds a read-only database at its start rather than at the first answer
    (issue 32, hole 4): a SQLite file opened read-only or on a read-only
    disk, a PostgreSQL standby or read-only transaction, a role without the
    right to write.  Migrating an up-to-date schema writes nothing, so
    opening such a database succeeds.
    """
    try:
        with engine.connect() as connection, connection.begin() as transaction:
            connection.execute(text("UPDATE server_processes SET pid = pid WHERE 1 = 0"))
            transaction.rollback()
    except SQLAlchemyError as e:
        orig = getattr(e, "orig", None) or e
        lines = str(orig).strip().splitlines()
        return lines[0] if lines else type(orig).__name__
    return None


def open_database(db: str | None) -> Engine:
    """Connect to ``db`` and migrate it; the one way the server opens storage."""
    engine = make_engine(database_url(db))
    migrate(engine)
    return engine
