"""Tournaments: many games between bots, with seats rotated, in parallel.

``run_tournament(seats, games, seed)`` plays ``games`` games at a table of
``len(seats)`` players.  Game ``g`` is deal number ``g // n`` (its seed from
:func:`dragonante.engine.series.game_seed`) played with the entries rotated
``g % n`` places, so over every ``n`` consecutive games each entry sits in
every seat of the same deal once: no bot keeps a seat advantage, and the
luck of the deal cancels out between bots (duplicate-style).  Use a multiple
of ``n`` games for a perfectly balanced table.

Results are pooled by bot spec (the text given in ``seats``): three seats of
``heuristic`` add up to one ``heuristic`` row with three seat-games per game.

**D&D abilities belong to the player, not the chair.**  An entry may name its
character's abilities after an ``@``: ``heuristic@random`` (as many random
abilities as the table's ``abilities.per_character``), ``heuristic@random+random``,
``heuristic@fast-hands+cutting-words``.  They move with the entry as seats
rotate, so ``heuristic@random,heuristic,heuristic,heuristic`` with a table
that uses ability disks measures what the abilities are worth.  Entries
without ``@`` have none (unless no entry names any: then the table's own
``abilities.assign`` deals every seat as usual).

* **Wins.**  A game won alone counts 1; a win shared by ``k`` tied players
  counts ``1/k`` to each of them, so the wins of every game add up to 1 and
  the win rates of a table add up to 100% (per seat).
* **Win rate and CI.**  ``win_rate = wins / games`` (seat-games) with a 95%
  Wilson score interval.  Seats of the same bot in one game are not
  independent, so for a pooled bot the interval is a little optimistic.
* **Rating.**  An openskill Plackett-Luce rating per bot, updated game by
  game in order: seats are ranked by final gold (equal gold, equal rank) and
  each bot's place is the mean place of its seats.
* **Speed.**  Each bot's decision times (median, 95th percentile) and, for
  searching bots, iterations per second.
* **Budget.**  Each searching bot's budget (iterations, wall-clock cap):
  a figure is reproducible only if no clock limited the search.

Everything except the timings is a pure function of (seats, games, seed,
config): the backend of :mod:`dragonante.sim.parallel` (this process, local
worker processes or a Dask cluster) changes nothing else.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dragonante.bots import make_bot, parse_spec
from dragonante.bots.base import SeatView
from dragonante.bots.budget import Budget, budget_of
from dragonante.engine.config import ConfigError, GameConfig
from dragonante.engine.game import apply, new_game
from dragonante.engine.series import game_seed
from dragonante.sim.parallel import Backend, run_chunks, split

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: A game that asks more questions than this is abandoned as stuck.
MAX_DECISIONS = 100_000
#: Most games per chunk: bot games are slow (search bots take seconds), so
#: chunks stay small enough for the progress bar and the load to even out.
LARGEST_CHUNK = 25


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    center = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes <= 0 else max(0.0, center - half)
    high = 1.0 if successes >= trials else min(1.0, center + half)
    return (low, high)


def entry_parts(entry: str, config: GameConfig | None = None) -> tuple[str, tuple[str, ...] | None]:
    """Split ``bot[:settings][@ability+ability...]`` into the bot spec and the
    ability keys (None when the entry names none; ``random`` alone means the
    table's number of random abilities)."""
    spec, sep, rest = entry.partition("@")
    if not sep:
        return spec.strip(), None
    keys = tuple(k.strip().lower().replace("-", "_") for k in rest.split("+") if k.strip())
    if keys == ("random",) and config is not None and config.abilities.enabled:
        keys = ("random",) * config.abilities.count
    return spec.strip(), keys


def game_config(config: GameConfig, seats: Sequence[str]) -> GameConfig:
    """The table's config for one seating: abilities follow the entries (fixed lists)."""
    parts = [entry_parts(e, config)[1] for e in seats]
    if all(p is None for p in parts):
        return config
    lists = tuple(p or () for p in parts)
    return config.with_(abilities=replace(config.abilities, assign="fixed", seats=lists))


def seating(entries: Sequence[str], game: int) -> list[str]:
    """Who sits where in game ``game``: the entries rotated ``game % n`` places."""
    n = len(entries)
    r = game % n
    return [entries[(p - r) % n] for p in range(n)]


@dataclass(slots=True)
class GameOutcome:
    """One finished game: who sat where and how it ended."""

    index: int
    seats: list[str]
    winners: list[int]
    hoards: list[int]
    decisions: int
    #: Per seat: seconds each decision took.
    times: list[list[float]]
    #: Per seat: search iterations done (0 for bots that do not search).
    iterations: list[int]
    completed: bool = True


def play_game(
    config: GameConfig, seats: Sequence[str], seed: int, bot_seed: int, index: int = 0
) -> GameOutcome:
    """Play one game with the bots ``seats`` (entries: specs, with abilities after ``@``)."""
    n = len(seats)
    s = new_game(game_config(config.with_(players=n), seats), seed)
    bots = [make_bot(entry_parts(e)[0], bot_seed * 101 + p) for p, e in enumerate(seats)]
    times: list[list[float]] = [[] for _ in range(n)]
    iterations = [0] * n
    decisions = 0
    clock = time.perf_counter
    while not s.over and decisions < MAX_DECISIONS:
        d = s.pending
        assert d is not None
        bot = bots[d.seat]
        t0 = clock()
        answer = bot.choose(SeatView(s, d.seat))
        times[d.seat].append(clock() - t0)
        stats = getattr(bot, "last", None)
        if stats is not None and len(d.options) > 1:
            iterations[d.seat] += int(getattr(stats, "iterations", 0))
        apply(s, answer, d.id)
        decisions += 1
    return GameOutcome(
        index=index,
        seats=list(seats),
        winners=list(s.winners),
        hoards=list(s.hoards),
        decisions=decisions,
        times=times,
        iterations=iterations,
        completed=s.over,
    )


def play_chunk(
    config: GameConfig, entries: list[str], seed: int, first: int, count: int
) -> list[GameOutcome]:
    """Chunk function (any process, any machine): play games ``first ..
    first + count - 1`` of the tournament ``seed``."""
    n = len(entries)
    return [
        play_game(config, seating(entries, g), game_seed(seed, g // n), game_seed(seed, g), g)
        for g in range(first, first + count)
    ]


@dataclass(slots=True)
class BotResult:
    """Pooled results of one bot spec."""

    name: str
    games: int = 0
    wins: float = 0.0
    gold: int = 0
    times: list[float] = field(default_factory=list)
    iterations: int = 0
    search_seconds: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    #: The search budget the spec runs with (None: the bot does not search).
    budget: Budget | None = None

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.games)
        ordered = sorted(self.times)
        out: dict[str, Any] = {
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": self.wins / self.games if self.games else 0.0,
            "ci_low": low,
            "ci_high": high,
            "mean_gold": self.gold / self.games if self.games else 0.0,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.mu - 3 * self.sigma},
            "decision_ms": {
                "count": len(ordered),
                "median": 1000 * statistics.median(ordered) if ordered else 0.0,
                "p95": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
                if ordered
                else 0.0,
            },
        }
        if self.iterations:
            out["iterations_per_second"] = self.iterations / max(self.search_seconds, 1e-9)
        out["budget"] = None if self.budget is None else self.budget.to_dict()
        return out


@dataclass(slots=True)
class TournamentResult:
    seats: list[str]
    games: int
    seed: int
    players: int
    bots: dict[str, BotResult]
    unfinished: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "unfinished": self.unfinished,
            "win_credit": "a win shared by k tied players counts 1/k",
            "bots": {name: r.to_dict() for name, r in self.bots.items()},
        }


def check_seats(seats: Sequence[str], config: GameConfig | None = None) -> None:
    """Validate the entries (2-6 known bot specs, abilities the table can use);
    raises ValueError/KeyError."""
    if not 2 <= len(seats) <= 6:
        raise ValueError(f"a table has 2-6 seats, got {len(seats)}")
    named = False
    for entry in seats:
        spec, keys = entry_parts(entry)
        parse_spec(spec)
        named = named or keys is not None
    if named:
        cfg = config or GameConfig()
        if not cfg.abilities.enabled:
            raise ValueError("an entry names abilities (@...) but the table plays without them")
        try:
            game_config(cfg.with_(players=len(seats)), seats).validate()
        except ConfigError as e:
            raise ValueError(str(e)) from None


def run_tournament(
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int | Backend = 1,
    config: GameConfig | None = None,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play the tournament on ``workers`` (local processes, or a
    :class:`~dragonante.sim.parallel.Backend`); ``progress(k)`` is called as
    each batch of k games ends."""
    entries = [spec.strip() for spec in seats]
    check_seats(entries, (config or GameConfig()).with_(players=len(entries)))
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    backend = workers if isinstance(workers, Backend) else Backend(workers)
    n = len(entries)
    cfg = (config or GameConfig()).with_(players=n).validate()
    pieces = split(0, games, backend.parallelism, 1, LARGEST_CHUNK)
    outcomes: list[GameOutcome] = []
    for part in run_chunks(play_chunk, (cfg, entries, seed), pieces, backend, progress):
        outcomes.extend(part)
    return summarize(entries, outcomes, seed, n)


def _budget(entry: str) -> Budget | None:
    """The search budget of an entry's bot (None: it does not search, or is not a bot spec)."""
    try:
        return budget_of(make_bot(entry_parts(entry)[0]))
    except (KeyError, ValueError):
        return None


def summarize(
    entries: Sequence[str], outcomes: Sequence[GameOutcome], seed: int, players: int
) -> TournamentResult:
    """Pool game outcomes by bot spec: wins, gold, CIs, ratings, timings."""
    from openskill.models import PlackettLuce

    bots: dict[str, BotResult] = {
        name: BotResult(name, budget=_budget(name)) for name in dict.fromkeys(entries)
    }
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bots}
    unfinished = 0
    for o in outcomes:
        if not o.completed:
            unfinished += 1
            continue
        k = len(o.winners)
        places: dict[str, list[float]] = {}
        for p, name in enumerate(o.seats):
            r = bots[name]
            r.games += 1
            if p in o.winners:
                r.wins += 1.0 / k
            r.gold += o.hoards[p]
            r.times.extend(o.times[p])
            if o.iterations[p]:
                r.iterations += o.iterations[p]
                r.search_seconds += sum(o.times[p])
            # Place: 1 + number of seats with strictly more gold.
            place = 1 + sum(1 for h in o.hoards if h > o.hoards[p])
            places.setdefault(name, []).append(place)
        if len(places) > 1:
            names = list(places)
            new = model.rate(
                [[ratings[name]] for name in names],
                ranks=[sum(places[name]) / len(places[name]) for name in names],
            )
            for name, team in zip(names, new, strict=True):
                ratings[name] = team[0]
    for name, r in bots.items():
        r.mu = float(ratings[name].mu)
        r.sigma = float(ratings[name].sigma)
    return TournamentResult(
        seats=list(entries),
        games=len(outcomes),
        seed=seed,
        players=players,
        bots=bots,
        unfinished=unfinished,
    )
