"""From tallies to numbers people read: rates, 95% Wilson intervals, lifts.

:func:`build_report` turns a :class:`Summary` into the JSON-ready dict that
``report.json``, ``--json``, the plots and the HTML page all show.  It is a
pure function of the summary (and the run's description), so equal
summaries give byte-equal reports.

**Lift.**  A card played by a strong seat would look strong for the seat's
sake alone.  So each rate is compared with what the same seats win anyway:
``expected`` is the mean, over the card's plays (or antes), of the playing
seat's base rate (its share of all gambits won, or of all games won), and
``lift = rate - expected`` in probability (x100: percentage points).  A lift
says a card goes with winning, not that it causes it: a card played in the
gambits a seat was winning anyway (a strong hand) shares the credit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dragonante.cards import ALL_CARDS
from dragonante.sim.analysis.summary import WIN_UNIT, IntArray, Summary
from dragonante.sim.tournament import wilson_interval

#: Decimal places kept in the report (rates are probabilities).
DIGITS = 6


def _r(x: float) -> float:
    return round(float(x), DIGITS)


def rate(wins: float, trials: int) -> dict[str, float | int]:
    """A proportion with its 95% Wilson interval."""
    low, high = wilson_interval(wins, trials)
    return {
        "n": int(trials),
        "wins": _r(wins),
        "rate": _r(wins / trials) if trials else 0.0,
        "ci_low": _r(low),
        "ci_high": _r(high),
    }


def _lifted(wins: float, counts: IntArray, base: np.ndarray[Any, Any]) -> dict[str, float | int]:
    """A rate over plays by seat ``counts`` and its lift over those seats' ``base`` rates."""
    n = int(counts.sum())
    out = rate(wins, n)
    expected = float((counts * base).sum()) / n if n else 0.0
    out["expected"] = _r(expected)
    out["lift"] = _r(out["rate"] - expected) if n else 0.0
    return out


def _group_stats(
    s: Summary, rows: IntArray, gambit_base: np.ndarray[Any, Any], game_base: np.ndarray[Any, Any]
) -> dict[str, Any]:
    """Numbers for a set of physical cards (one card, a card type, a power family)."""
    played = s.played[rows].sum(axis=0)
    anted = s.anted[rows].sum(axis=0)
    in_deck = int(s.in_deck[rows].sum())
    return {
        "in_deck_games": in_deck,
        "plays": int(played.sum()),
        "plays_per_game": _r(played.sum() / s.games) if s.games else 0.0,
        "play_gambit": _lifted(float(s.played_gambit_won[rows].sum()), played, gambit_base),
        "play_game": _lifted(float(s.played_game_won[rows].sum()) / WIN_UNIT, played, game_base),
        "antes": int(anted.sum()),
        "ante_gambit": _lifted(float(s.anted_gambit_won[rows].sum()), anted, gambit_base),
    }


def _histogram(counter: dict[int, int]) -> dict[str, Any]:
    total = sum(counter.values())
    mean = sum(k * v for k, v in counter.items()) / total if total else 0.0
    return {
        "mean": _r(mean),
        "min": min(counter, default=0),
        "max": max(counter, default=0),
        "counts": {str(k): int(counter[k]) for k in sorted(counter)},
    }


def build_report(s: Summary, run: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """Every number of the analysis; ``run`` describes the run (seeds, bots, table)."""
    p = s.players
    games = s.games
    gambit_base = s.seat_gambit_wins / np.maximum(s.seat_gambits, 1)
    game_base = s.seat_game_wins / WIN_UNIT / max(games, 1)
    seats = [
        {
            "seat": k,
            "game": rate(int(s.seat_game_wins[k]) / WIN_UNIT, games),
            "gambit": rate(int(s.seat_gambit_wins[k]), int(s.seat_gambits[k])),
        }
        for k in range(p)
    ]
    cards = []
    by: dict[str, dict[str, list[int]]] = {"type": {}, "power": {}}
    for c in np.nonzero(s.in_deck)[0]:
        card = ALL_CARDS[int(c)]
        row = {
            "card": card.id,
            "name": f"{card.name(lang)} ({card.strength})",
            "type": card.type.key,
            "power": card.type.power or "none",
            "strength": card.strength,
        }
        row.update(_group_stats(s, np.array([c]), gambit_base, game_base))
        cards.append(row)
        by["type"].setdefault(card.type.key, []).append(int(c))
        by["power"].setdefault(card.type.power or "none", []).append(int(c))
    groups = {
        kind: [
            {
                "key": key,
                "cards": len(rows),
                **_group_stats(s, np.array(rows), gambit_base, game_base),
            }
            for key, rows in sorted(members.items())
        ]
        for kind, members in by.items()
    }
    ante_rank = [
        {"rank": r + 1, **rate(int(s.ante_rank_won[r]), int(s.ante_rank[r]))}
        for r in range(p)
        if s.ante_rank[r]
    ]
    ante_strength = [
        {"strength": st, **rate(int(s.ante_strength_won[st]), int(s.ante_strength[st]))}
        for st in range(len(s.ante_strength))
        if s.ante_strength[st]
    ]

    def flights(count: dict[Any, int], gold: dict[Any, int]) -> dict[str, Any]:
        n = sum(count.values())
        return {
            "count": n,
            "per_game": _r(n / games) if games else 0.0,
            "gold": int(sum(gold.values())),
            "gold_per_flight": _r(sum(gold.values()) / n) if n else 0.0,
            "by": {
                str(k): {
                    "count": int(count[k]),
                    "per_game": _r(count[k] / games) if games else 0.0,
                    "gold_per_flight": _r(gold.get(k, 0) / count[k]),
                }
                for k in sorted(count, key=lambda k: (-count[k], str(k)))
            },
        }

    return {
        "run": run,
        "games": games,
        "unfinished": s.unfinished,
        "players": p,
        "gambits": s.gambits,
        "gambits_without_winner": s.gambits_without_winner,
        "seats": seats,
        "cards": cards,
        "types": groups["type"],
        "powers": groups["power"],
        "ante": {"by_rank": ante_rank, "by_strength": ante_strength},
        "lengths": {
            "gambit_rounds": _histogram(s.gambit_rounds),
            "game_gambits": _histogram(s.game_gambits),
            "game_decisions": _histogram(s.game_decisions),
        },
        "flights": {
            "color": flights(s.color_flights, s.color_flight_gold),
            "strength": flights(s.strength_flights, s.strength_flight_gold),
        },
    }


__all__ = ["build_report", "rate"]
