"""Reading and writing tables, seats and answers (plain synchronous SQLAlchemy).

Every function takes an open :class:`~sqlalchemy.orm.Session` and leaves the
commit to its caller: the server's :class:`~dragonante.interfaces.web.storage.writer.Writer`
runs many of them in one transaction (group commit) and acknowledges nothing
until that transaction is committed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from dragonante import RULES_VERSION
from dragonante.interfaces.web.storage.db import (
    AnswerRow,
    BanRow,
    ChatRow,
    MuteRow,
    PlayerRow,
    SeatRow,
    TableRow,
)
from dragonante.interfaces.web.storage.writer import INSERT_ANSWERS, Batch

OPEN = "open"
PLAYING = "playing"
FINISHED = "finished"
#: An open table whose game never started within the server's time limit:
#: kept in the database (its code stays taken), never loaded again.
EXPIRED = "expired"
STATUSES = (OPEN, PLAYING, FINISHED, EXPIRED)

HUMAN = "human"
BOT = "bot"


def now() -> datetime:
    return datetime.now(UTC)


def hash_token(token: str) -> str:
    """What the database keeps of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class SeatInfo:
    """Who sits in a seat."""

    seat: int
    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    #: The person's public player id and the hash of their player key
    #: (``players/``): the key opens the seat like its token does.
    player_id: str | None = None
    player_hash: str | None = None

    def opens(self, secret_hash: str) -> bool:
        """Whether a secret hashing to ``secret_hash`` opens the seat: its seat
        token or its person's player key, each compared in constant time."""
        held = (self.token_hash, self.player_hash)
        return any(h is not None and hmac.compare_digest(h, secret_hash) for h in held)

    def public(self) -> dict[str, Any]:
        """What everyone at the table may know about the seat (never the token)."""
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "bot": self.bot}


@dataclass(slots=True)
class StoredTable:
    """A table as the database has it: enough to rebuild the game exactly."""

    code: str
    config: dict[str, Any]
    seed: int
    status: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    last_gambit_at: int | None = None
    final_digest: str | None = None
    winners: list[int] = field(default_factory=list)
    rules_version: int = RULES_VERSION
    host_hash: str | None = None
    #: The game-master token's hash (hidden D&D abilities), else None.
    gm_hash: str | None = None
    #: Seconds a person has for each decision (None: no turn timer).
    turn_seconds: float | None = None
    #: The rematch table's code (a finished table someone offered a rematch of).
    rematch: str | None = None
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    answers: list[int] = field(default_factory=list)
    decision_ids: list[int] = field(default_factory=list)
    #: When the last answer was stored (with the answers): since then the
    #: pending decision has waited, which a turn timer honours after a restart.
    last_answer_at: datetime | None = None
    #: Recent ``chat`` frames, oldest first, and the host's mutes as
    #: ``(kind, value)`` pairs (``seat``/``spectator``/``address``): loaded
    #: with the answers (a table being run), not for the lobby's lists.
    chat: list[dict[str, Any]] = field(default_factory=list)
    mutes: list[tuple[str, str]] = field(default_factory=list)
    #: Invite only: the lobby does not list it.
    unlisted: bool = False
    #: The host allows hints at a table with other people (``hints.py``).
    hints: bool = False
    #: Why the table ended before its game did (``"idle"``), else None.
    ended: str | None = None
    #: Who the host removed, as ``(kind, value)`` pairs (``name``/``address``).
    bans: list[tuple[str, str]] = field(default_factory=list)


def code_taken(s: Session, code: str) -> bool:
    return s.get(TableRow, code) is not None


def create_table(
    s: Session,
    code: str,
    config: dict[str, Any],
    seed: int,
    host_hash: str | None,
    gm_hash: str | None = None,
    turn_seconds: float | None = None,
    unlisted: bool = False,
    hints: bool = False,
) -> None:
    batch = Batch.of(s)
    if batch is not None:
        batch.made.add(code)  # the cluster's fence makes it this process's table
    s.add(
        TableRow(
            code=code,
            host_hash=host_hash,
            gm_hash=gm_hash,
            turn_seconds=turn_seconds,
            unlisted=unlisted,
            hints=hints,
            config=json.dumps(config, sort_keys=True),
            seed=seed,
            status=OPEN,
            rules_version=RULES_VERSION,
            created_at=now(),
        )
    )


def fenced(s: Session, code: str) -> None:
    """Mark ``code`` as written by this transaction: with several processes the
    cluster's fence lets the commit through only while this process owns it."""
    batch = Batch.of(s)
    if batch is not None:
        batch.touched.add(code)


def put_seat(s: Session, code: str, info: SeatInfo) -> None:
    fenced(s, code)  # only the table's owner seats people
    s.add(
        SeatRow(
            table_code=code,
            seat=info.seat,
            name=info.name,
            kind=info.kind,
            bot=info.bot,
            token_hash=info.token_hash,
            player_id=info.player_id,
        )
    )


def remove_seat(s: Session, code: str, seat: int) -> None:
    s.execute(delete(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat))


def set_seat_token(s: Session, code: str, seat: int, token_hash: str) -> None:
    """A seat's token changes (a rematch seat claimed with a fresh token)."""
    fenced(s, code)
    s.execute(
        update(SeatRow)
        .where(SeatRow.table_code == code, SeatRow.seat == seat)
        .values(token_hash=token_hash)
    )


def set_gm(s: Session, code: str, gm_hash: str | None) -> None:
    """Give a table a game-master token, or take it away (None: its creator sat down)."""
    fenced(s, code)
    s.execute(update(TableRow).where(TableRow.code == code).values(gm_hash=gm_hash))


def set_unlisted(s: Session, code: str, unlisted: bool) -> None:
    fenced(s, code)
    s.execute(update(TableRow).where(TableRow.code == code).values(unlisted=unlisted))


def set_hints(s: Session, code: str, hints: bool) -> None:
    fenced(s, code)
    s.execute(update(TableRow).where(TableRow.code == code).values(hints=hints))


def add_bans(s: Session, code: str, bans: list[tuple[str, str]]) -> None:
    """Remember who the host removed (idempotent)."""
    fenced(s, code)
    for kind, value in dict.fromkeys(bans):
        if s.get(BanRow, (code, kind, value)) is None:
            s.add(BanRow(table_code=code, kind=kind, value=value))


def clear_bans(s: Session, code: str) -> None:
    fenced(s, code)
    s.execute(delete(BanRow).where(BanRow.table_code == code))


def set_rematch(s: Session, code: str, rematch: str) -> None:
    """Link a finished table to its rematch (late visitors of the old table find it)."""
    s.execute(update(TableRow).where(TableRow.code == code).values(rematch=rematch))


def start_table(s: Session, code: str, at: datetime) -> None:
    s.execute(
        update(TableRow)
        .where(TableRow.code == code, TableRow.status == OPEN)
        .values(status=PLAYING, started_at=at)
    )


def expire_table(s: Session, code: str) -> None:
    """Mark an open table expired (a table that started meanwhile is left alone)."""
    s.execute(
        update(TableRow)
        .where(TableRow.code == code, TableRow.status == OPEN)
        .values(status=EXPIRED, finished_at=now())
    )


def add_answer(s: Session, code: str, n: int, decision_id: int, seat: int, answer: int) -> None:
    """Store the ``n``-th answer (0-based); the primary key refuses a second ``n``.

    In a writer transaction the row waits in its :class:`Batch` and goes in
    with the group's other answers (one ``executemany``, no ORM flush) right
    before the commit, after the fences: a job does not see its own answer.
    """
    row = {
        "table_code": code,
        "n": n,
        "decision_id": decision_id,
        "seat": seat,
        "answer": answer,
        "at": now(),
    }
    batch = Batch.of(s)
    if batch is None:
        s.execute(INSERT_ANSWERS, [row])
        return
    batch.answers.append(row)
    batch.touched.add(code)


def take_back_answers(s: Session, code: str, n: int, last_gambit_at: int | None) -> None:
    """Delete the answers from the ``n``-th on (a take-back, ``take_back.py``)
    and store when the game's time limit ran out, if it still has.  The
    table's lock is held: its earlier answers are committed, none waits in
    this transaction's batch."""
    fenced(s, code)
    s.execute(delete(AnswerRow).where(AnswerRow.table_code == code, AnswerRow.n >= n))
    s.execute(update(TableRow).where(TableRow.code == code).values(last_gambit_at=last_gambit_at))


def set_last_gambit(s: Session, code: str, n: int) -> None:
    s.execute(update(TableRow).where(TableRow.code == code).values(last_gambit_at=n))


def finish_table(
    s: Session, code: str, winners: list[int], digest: str, ended: str | None = None
) -> None:
    """The game is over (``ended``: why it ended before its game did, e.g. ``idle``)."""
    s.execute(
        update(TableRow)
        .where(TableRow.code == code)
        .values(
            status=FINISHED,
            finished_at=now(),
            winners=json.dumps(winners),
            final_digest=digest,
            ended=ended,
        )
    )


def add_chat(s: Session, code: str, msg: dict[str, Any], keep: int) -> None:
    """Store one ``chat`` frame; only the table's last ``keep`` messages stay."""
    fenced(s, code)
    s.add(ChatRow(table_code=code, id=msg["id"], body=json.dumps(msg, separators=(",", ":"))))
    s.execute(delete(ChatRow).where(ChatRow.table_code == code, ChatRow.id <= msg["id"] - keep))


def set_mutes(s: Session, code: str, kind: str, values: list[str], muted: bool) -> None:
    """Mute (or unmute) ``values`` of one ``kind`` at a table (idempotent)."""
    if not values:
        return
    fenced(s, code)
    s.execute(
        delete(MuteRow).where(
            MuteRow.table_code == code, MuteRow.kind == kind, MuteRow.value.in_(values)
        )
    )
    if muted:
        s.add_all(MuteRow(table_code=code, kind=kind, value=v) for v in dict.fromkeys(values))


def aware(at: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    if at is not None and at.tzinfo is None:
        return at.replace(tzinfo=UTC)
    return at


def _stored(row: TableRow) -> StoredTable:
    return StoredTable(
        code=row.code,
        config=json.loads(row.config),
        seed=row.seed,
        status=row.status,
        created_at=aware(row.created_at) or now(),
        started_at=aware(row.started_at),
        finished_at=aware(row.finished_at),
        last_gambit_at=row.last_gambit_at,
        final_digest=row.final_digest,
        winners=json.loads(row.winners) if row.winners else [],
        rules_version=row.rules_version,
        host_hash=row.host_hash,
        gm_hash=row.gm_hash,
        turn_seconds=row.turn_seconds,
        rematch=row.rematch,
        unlisted=bool(row.unlisted),
        hints=bool(row.hints),
        ended=row.ended,
    )


def _fill(s: Session, tables: list[StoredTable], with_answers: bool) -> None:
    if not tables:
        return
    by_code = {t.code: t for t in tables}
    codes = list(by_code)
    seats = s.execute(
        select(SeatRow, PlayerRow.key_hash)
        .outerjoin(PlayerRow, PlayerRow.id == SeatRow.player_id)
        .where(SeatRow.table_code.in_(codes))
    )
    for seat, key_hash in seats:
        by_code[seat.table_code].seats[seat.seat] = SeatInfo(
            seat.seat, seat.name, seat.kind, seat.bot, seat.token_hash, seat.player_id, key_hash
        )
    if with_answers:
        rows = s.execute(
            select(AnswerRow.table_code, AnswerRow.answer, AnswerRow.decision_id, AnswerRow.at)
            .where(AnswerRow.table_code.in_(codes))
            .order_by(AnswerRow.table_code, AnswerRow.n)
        )
        for code, answer, decision_id, at in rows:
            by_code[code].answers.append(answer)
            by_code[code].decision_ids.append(decision_id)
            by_code[code].last_answer_at = aware(at)
        chat = s.execute(
            select(ChatRow.table_code, ChatRow.body)
            .where(ChatRow.table_code.in_(codes))
            .order_by(ChatRow.table_code, ChatRow.id)
        )
        for code, body in chat:
            by_code[code].chat.append(json.loads(body))
        mutes = s.execute(
            select(MuteRow.table_code, MuteRow.kind, MuteRow.value).where(
                MuteRow.table_code.in_(codes)
            )
        )
        for code, kind, value in mutes:
            by_code[code].mutes.append((kind, value))
        bans = s.execute(
            select(BanRow.table_code, BanRow.kind, BanRow.value).where(BanRow.table_code.in_(codes))
        )
        for code, kind, value in bans:
            by_code[code].bans.append((kind, value))


def load_table(s: Session, code: str, with_answers: bool = True) -> StoredTable | None:
    row = s.get(TableRow, code)
    if row is None:
        return None
    table = _stored(row)
    _fill(s, [table], with_answers)
    return table


def load_live(s: Session) -> list[StoredTable]:
    """Every table still open or playing, with its answers: what a restart resumes."""
    rows = s.scalars(select(TableRow).where(TableRow.status.in_((OPEN, PLAYING))))
    tables = [_stored(r) for r in rows]
    # Chunks keep the IN lists well inside every database's parameter limit.
    for i in range(0, len(tables), 200):
        _fill(s, tables[i : i + 200], with_answers=True)
    return tables


def list_live(s: Session, status: str, limit: int = 100) -> list[StoredTable]:
    """The lobby's tables of one status (open or playing) of every process,
    newest first, with seats but without answers; never an invite-only one."""
    rows = s.scalars(
        select(TableRow)
        .where(TableRow.status == status, TableRow.unlisted.is_(False))
        .order_by(TableRow.created_at.desc())
        .limit(limit)
    )
    tables = [_stored(r) for r in rows]
    _fill(s, tables, with_answers=False)
    return tables


def list_finished(s: Session, limit: int = 50, offset: int = 0) -> list[StoredTable]:
    """Finished games, newest first, with seats but without answers."""
    rows = s.scalars(
        select(TableRow)
        .where(TableRow.status == FINISHED)
        .order_by(TableRow.finished_at.desc(), TableRow.code)
        .limit(limit)
        .offset(offset)
    )
    tables = [_stored(r) for r in rows]
    _fill(s, tables, with_answers=False)
    return tables


def count_answers(s: Session, code: str) -> int:
    return s.scalar(select(func.count()).where(AnswerRow.table_code == code)) or 0
