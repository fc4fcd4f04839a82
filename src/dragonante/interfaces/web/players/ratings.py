"""Ratings: each player key's openskill rating, game by game, and the leaderboard.

The model is ``tournament``'s (``sim/tournament.py``): openskill
Plackett-Luce, seats ranked by final gold (equal gold, equal place), the
leaderboard sorted by ``ordinal = mu - 3 sigma``.  A finished game is rated
when at least one seat is held by a player key and the game ended by its
rules (a table ended early, idle or stopped, is not).  Every seat takes
part: a bot at its level's fixed rating (:data:`BOT_RATINGS`: bots do not
learn from people, so their ratings do not move), a person without a key
(a terminal, an old page) as a newcomer whose result is kept nowhere.

The ratings are derived data: :func:`rebuild` throws them away and rates
every finished game again, oldest first, from the stored records (config,
seed and answers replayed through the engine), so the same games give the
same ratings, whether rated as they finished or rebuilt later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from dragonante import RULES_VERSION
from dragonante.engine.config import config_from_dict
from dragonante.interfaces.web.storage.db import (
    PlayerRow,
    RatingRow,
    RatingStepRow,
    SeatRow,
    TableRow,
)
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.store import (
    BOT,
    FINISHED,
    HUMAN,
    SeatInfo,
    aware,
    load_table,
)

#: The bot levels' fixed ratings (mu, sigma).  ``random``, ``easy`` and
#: ``medium`` are ``tournament``'s openskill ratings from 4,000 games of
#: ``random,baseline,heuristic,heuristic`` (seed 11, seats rotated; the
#: command is in ``docs/web.md``, "Ratings").  ``hard`` (``ismcts``, about
#: 700 ms a decision: too slow to rate the same way here) is ``medium``
#: plus 9.2, the difference that makes a Plackett-Luce first place 48%
#: likely against three ``medium``, its measured win rate (``docs/bots.md``).
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (16.6, 1.7),
    "easy": (23.6, 1.6),
    "baseline": (23.6, 1.6),
    "medium": (35.2, 1.8),
    "heuristic": (35.2, 1.8),
    "hard": (44.4, 1.8),
    "ismcts": (44.4, 1.8),
}
#: Rows the leaderboard shows at most.
LEADERBOARD_SIZE = 100


def model() -> Any:
    """The rating model, ``tournament``'s (imported when first needed)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def places(hoards: Sequence[int]) -> list[int]:
    """Each seat's place: 1 + the seats with strictly more gold."""
    return [1 + sum(1 for other in hoards if other > mine) for mine in hoards]


def shares(winners: Sequence[int], seat: int) -> float:
    """The seat's share of the win (a win shared by k counts 1/k each)."""
    return 1.0 / len(winners) if seat in winners else 0.0


@dataclass(frozen=True, slots=True)
class Rated:
    """A person's rating after one game."""

    player_id: str
    place: int
    won: float
    mu: float
    sigma: float


def rate(
    current: dict[str, tuple[float, float]],
    seats: dict[int, SeatInfo],
    hoards: Sequence[int],
    winners: Sequence[int],
) -> list[Rated]:
    """The new ratings of the game's key holders (pure: ``current`` is read,
    not changed; a person absent from it is a newcomer)."""
    m = model()
    order = sorted(seats)
    teams = []
    for p in order:
        info = seats[p]
        if info.kind == HUMAN and info.player_id is not None and info.player_id in current:
            mu, sigma = current[info.player_id]
            teams.append([m.rating(mu=mu, sigma=sigma)])
        elif info.kind == BOT and info.bot in BOT_RATINGS:
            mu, sigma = BOT_RATINGS[info.bot]
            teams.append([m.rating(mu=mu, sigma=sigma)])
        else:
            teams.append([m.rating()])
    place = places(hoards)
    new = m.rate(teams, ranks=[place[p] for p in order])
    out = []
    for p, team in zip(order, new, strict=True):
        info = seats[p]
        if info.kind == HUMAN and info.player_id is not None:
            r = team[0]
            out.append(
                Rated(info.player_id, place[p], shares(winners, p), float(r.mu), float(r.sigma))
            )
    return out


def rate_table(
    s: Session,
    code: str,
    seats: dict[int, SeatInfo],
    hoards: Sequence[int],
    winners: Sequence[int],
    at: datetime | None = None,
) -> int:
    """Rate one finished game into the database; the people rated (0: none
    holds a key, or this game was rated already)."""
    keyed = {i.player_id for i in seats.values() if i.kind == HUMAN and i.player_id is not None}
    if not keyed or len(keyed) < sum(1 for i in seats.values() if i.player_id is not None):
        return 0  # no key here, or one key in two seats (never seated so; not rated)
    done = s.scalar(select(RatingStepRow.player_id).where(RatingStepRow.table_code == code))
    if done is not None:
        return 0
    rows = {
        r.player_id: r for r in s.scalars(select(RatingRow).where(RatingRow.player_id.in_(keyed)))
    }
    current = {pid: (r.mu, r.sigma) for pid, r in rows.items()}
    when = at or datetime.now(UTC)
    rated = rate(current, seats, hoards, winners)
    for r in rated:
        row = rows.get(r.player_id)
        if row is None:
            row = RatingRow(player_id=r.player_id, games=0, wins=0.0)
            s.add(row)
        row.mu, row.sigma, row.ordinal = r.mu, r.sigma, r.mu - 3 * r.sigma
        row.games = (row.games or 0) + 1
        row.wins = (row.wins or 0.0) + r.won
        s.add(
            RatingStepRow(
                player_id=r.player_id,
                table_code=code,
                at=when,
                place=r.place,
                won=r.won,
                mu=r.mu,
                sigma=r.sigma,
            )
        )
    return len(rated)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What :func:`rebuild` did: games rated, people rated, games it could not replay."""

    games: int
    people: int
    skipped: list[str]


def rate_finished(
    tx: Transaction,
    code: str,
    seats: dict[int, SeatInfo],
    hoards: Sequence[int],
    winners: Sequence[int],
) -> int:
    """:func:`rate_table` in the answer pipeline's transaction (the rater the
    hub hands ``Answers``).  A game no seat of which holds a key rates
    nobody, as in :func:`rate_table`, without asking for the session: so a
    hub on the in-memory storage, which keeps no players' rows, finishes it."""
    if all(i.player_id is None for i in seats.values()):
        return 0
    return rate_table(tx.sql(), code, seats, hoards, winners)


def rebuild(s: Session) -> Rebuilt:
    """Every rating again from the stored finished games, oldest first.

    A game stored under another ``RULES_VERSION`` cannot be replayed by this
    engine (it would silently play another game): it is skipped and named.
    """
    from dragonante.interfaces.web.tables.live import replay_state

    s.execute(delete(RatingStepRow))
    s.execute(delete(RatingRow))
    s.flush()
    codes = s.scalars(
        select(TableRow.code)
        .where(
            TableRow.status == FINISHED,
            TableRow.ended.is_(None),
            TableRow.code.in_(select(SeatRow.table_code).where(SeatRow.player_id.is_not(None))),
        )
        .order_by(TableRow.finished_at, TableRow.code)
    ).all()
    games = people = 0
    skipped: list[str] = []
    for code in codes:
        stored = load_table(s, code)
        if stored is None:
            continue
        if stored.rules_version != RULES_VERSION:
            skipped.append(code)
            continue
        state = replay_state(
            config_from_dict(stored.config), stored.seed, stored.answers, stored.last_gambit_at
        )
        if not state.over:
            skipped.append(code)
            continue
        n = rate_table(s, code, stored.seats, state.hoards, state.winners, stored.finished_at)
        s.flush()
        games += 1 if n else 0
        people += n
    return Rebuilt(games, people, skipped)


def leaderboard(s: Session, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The rated people, best ordinal first, with their last names."""
    rows = s.execute(
        select(RatingRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
        .order_by(RatingRow.ordinal.desc(), RatingRow.player_id)
        .limit(limit)
    )
    return [
        {
            "rank": i + 1,
            "id": r.player_id,
            "name": name,
            **rating_dict(r),
        }
        for i, (r, name) in enumerate(rows)
    ]


def rating_dict(r: RatingRow) -> dict[str, Any]:
    return {
        "mu": round(r.mu, 2),
        "sigma": round(r.sigma, 2),
        "ordinal": round(r.ordinal, 2),
        "games": r.games,
        "wins": round(r.wins, 2),
    }


def rating_of(s: Session, pid: str) -> dict[str, Any] | None:
    row = s.get(RatingRow, pid)
    return None if row is None else rating_dict(row)


def history(s: Session, pid: str) -> list[dict[str, Any]]:
    """A person's rating after each rated game, oldest first."""
    steps = s.scalars(
        select(RatingStepRow)
        .where(RatingStepRow.player_id == pid)
        .order_by(RatingStepRow.at, RatingStepRow.table_code)
    )
    return [
        {
            "code": st.table_code,
            "at": (aware(st.at) or datetime.now(UTC)).isoformat(),
            "place": st.place,
            "won": st.won,
            "mu": round(st.mu, 2),
            "sigma": round(st.sigma, 2),
            "ordinal": round(st.mu - 3 * st.sigma, 2),
        }
        for st in steps
    ]
