"""The report's plots: PNG files drawn with matplotlib's Agg backend.

Agg draws without a display (servers, CI, worker processes), so it is
chosen explicitly before pyplot is imported.  Each function takes the
report dict of :mod:`dragonante.sim.analysis.report` and writes one file;
:func:`write_plots` writes them all and returns their file names, which
the HTML page links.  Labels come from the message catalog (``--lang``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from dragonante.i18n import t

#: How many cards the lift plot shows at each end.
TOP = 12
#: Cards played fewer times than this are left out of the lift plot (too noisy).
MIN_PLAYS = 30


def _save(fig: Figure, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def card_lift(report: dict[str, Any], path: Path, lang: str) -> None:
    """The cards whose plays go most and least with winning the gambit, with 95% intervals."""
    rows = [c for c in report["cards"] if c["plays"] >= MIN_PLAYS]
    rows.sort(key=lambda c: c["play_gambit"]["lift"])
    shown = rows if len(rows) <= 2 * TOP else rows[:TOP] + rows[-TOP:]
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.3 * len(shown) + 1)))
    names = [c["name"] for c in shown]
    lifts = [100 * c["play_gambit"]["lift"] for c in shown]
    low = [100 * (c["play_gambit"]["rate"] - c["play_gambit"]["ci_low"]) for c in shown]
    high = [100 * (c["play_gambit"]["ci_high"] - c["play_gambit"]["rate"]) for c in shown]
    colors = ["tab:green" if x >= 0 else "tab:red" for x in lifts]
    ax.barh(names, lifts, xerr=[low, high], color=colors, ecolor="gray", capsize=2)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(t("analyze.plot.lift_axis", lang))
    ax.set_title(t("analyze.plot.lift", lang))
    _save(fig, path)


def seats(report: dict[str, Any], path: Path, lang: str) -> None:
    """Game win rate by seat, with 95% intervals and the fair share 1/n."""
    fig, ax = plt.subplots(figsize=(6, 4))
    rows = report["seats"]
    xs = [str(r["seat"]) for r in rows]
    ys = [100 * r["game"]["rate"] for r in rows]
    err = [
        [100 * (r["game"]["rate"] - r["game"]["ci_low"]) for r in rows],
        [100 * (r["game"]["ci_high"] - r["game"]["rate"]) for r in rows],
    ]
    ax.bar(xs, ys, yerr=err, capsize=4, color="tab:blue")
    ax.axhline(100 / report["players"], color="black", linestyle="--", linewidth=0.8)
    ax.set_xlabel(t("analyze.col.seat", lang))
    ax.set_ylabel(t("analyze.plot.win_pct", lang))
    ax.set_title(t("analyze.plot.seats", lang))
    _save(fig, path)


def ante(report: dict[str, Any], path: Path, lang: str) -> None:
    """Gambit win rate by the ante card's strength and by its rank among the antes."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, label in (
        (left, "by_strength", "analyze.col.strength"),
        (right, "by_rank", "analyze.col.rank"),
    ):
        rows = report["ante"][key]
        field = "strength" if key == "by_strength" else "rank"
        xs = [r[field] for r in rows]
        ys = [100 * r["rate"] for r in rows]
        err = [
            [100 * (r["rate"] - r["ci_low"]) for r in rows],
            [100 * (r["ci_high"] - r["rate"]) for r in rows],
        ]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3)
        ax.axhline(100 / report["players"], color="black", linestyle="--", linewidth=0.8)
        ax.set_xlabel(t(label, lang))
        ax.set_ylabel(t("analyze.plot.gambit_win_pct", lang))
    fig.suptitle(t("analyze.plot.ante", lang))
    _save(fig, path)


def lengths(report: dict[str, Any], path: Path, lang: str) -> None:
    """Histograms: rounds per gambit, gambits per game, decisions per game."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    for ax, key in zip(axes, ("gambit_rounds", "game_gambits", "game_decisions"), strict=True):
        counts = report["lengths"][key]["counts"]
        xs = [int(k) for k in counts]
        ys = list(counts.values())
        if key == "game_decisions":
            ax.hist(xs, weights=ys, bins=30, color="tab:purple")
        else:
            ax.bar(xs, ys, color="tab:purple")
        ax.set_title(t(f"analyze.len.{key}", lang))
    fig.suptitle(t("analyze.plot.lengths", lang))
    _save(fig, path)


def flights(report: dict[str, Any], path: Path, lang: str) -> None:
    """Special flights per game by color and by strength, with their mean gold."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for ax, kind in ((left, "color"), (right, "strength")):
        by = report["flights"][kind]["by"]
        keys = sorted(by, key=lambda k: int(k)) if kind == "strength" else list(by)
        ax.bar(keys, [by[k]["per_game"] for k in keys], color="tab:orange")
        ax.set_ylabel(t("analyze.plot.per_game", lang))
        ax.set_title(t(f"analyze.flight.{kind}", lang))
        ax.tick_params(axis="x", labelrotation=45)
        for i, k in enumerate(keys):
            ax.annotate(f"{by[k]['gold_per_flight']:.1f}", (i, by[k]["per_game"]), ha="center")
    fig.suptitle(t("analyze.plot.flights", lang))
    _save(fig, path)


PLOTS = {
    "card_lift.png": card_lift,
    "seats.png": seats,
    "ante.png": ante,
    "lengths.png": lengths,
    "flights.png": flights,
}


def write_plots(report: dict[str, Any], out: Path, lang: str = "en") -> list[str]:
    """Draw every plot into ``out``; the file names, in the order the page shows them."""
    for name, draw in PLOTS.items():
        draw(report, out / name, lang)
    return list(PLOTS)


__all__ = ["PLOTS", "write_plots"]
