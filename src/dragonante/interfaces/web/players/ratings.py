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

This module computes; it keeps nothing itself.  The rows (a rating now, its
steps, the leaderboard) are read and written through the storage protocol's
transaction (``storage/players.py`` in SQL, ``storage/memory_players.py`` in
memory), so a hub on either storage rates its games the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dragonante import RULES_VERSION
from dragonante.engine.config import config_from_dict
from dragonante.interfaces.web.storage.interface import Transaction
from dragonante.interfaces.web.storage.players import Rated
from dragonante.interfaces.web.storage.store import BOT, HUMAN, SeatInfo

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
    tx: Transaction,
    code: str,
    seats: dict[int, SeatInfo],
    hoards: Sequence[int],
    winners: Sequence[int],
    at: datetime | None = None,
) -> int:
    """Rate one finished game into storage; the people rated (0: none holds a
    key, or this game was rated already).  The answer pipeline calls it in
    the transaction that stores the game's end (the rater the hub hands
    ``Answers``); a game no seat of which holds a key touches no row, so it
    costs the pipeline nothing."""
    keyed = {i.player_id for i in seats.values() if i.kind == HUMAN and i.player_id is not None}
    if not keyed or len(keyed) < sum(1 for i in seats.values() if i.player_id is not None):
        return 0  # no key here, or one key in two seats (never seated so; not rated)
    if tx.is_rated(code):
        return 0
    rated = rate(tx.ratings_now(keyed), seats, hoards, winners)
    tx.add_ratings(code, rated, at or datetime.now(UTC))
    return len(rated)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What :func:`rebuild` did: games rated, people rated, games it could not replay."""

    games: int
    people: int
    skipped: list[str]


def rebuild(tx: Transaction) -> Rebuilt:
    """Every rating again from the stored finished games, oldest first.

    A game stored under another ``RULES_VERSION`` cannot be replayed by this
    engine (it would silently play another game): it is skipped and named.
    ``dragonante ratings rebuild`` runs it on a session of its own, wrapped
    as a :class:`~dragonante.interfaces.web.storage.sql.SqlTransaction`.
    """
    from dragonante.interfaces.web.tables.live import replay_state

    tx.clear_ratings()
    games = people = 0
    skipped: list[str] = []
    for code in tx.rateable():
        stored = tx.load_table(code)
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
        n = rate_table(tx, code, stored.seats, state.hoards, state.winners, stored.finished_at)
        tx.flush()
        games += 1 if n else 0
        people += n
    return Rebuilt(games, people, skipped)
