"""``dragonante analyze``: a balance report over many games, with plots.

    dragonante analyze --games 10000 --players 4 --workers 2 --out analysis
    dragonante analyze --games 2000 --players 3 --bots heuristic --json
    dragonante analyze --games 1000 --ruleset emperors-gambit --deck emperors-gambit --lang it
    dragonante analyze --games 100000 --bots baseline --scheduler tcp://10.0.0.5:8786

Plays games with seeds ``--seed`` .. ``--seed + --games - 1`` (the bots of
``--bots``, default uniform random), then writes ``report.json``, the PNG
plots and ``report.html`` into ``--out`` and prints a short summary, or
the whole report as JSON with ``--json``.  The numbers do not depend on
``--workers`` (local processes) or ``--scheduler`` (a Dask cluster,
``docs/cluster.md``).  What each number means: ``docs/analysis.md``; how it is
computed: :mod:`dragonante.sim.analysis`.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from dragonante.engine.config import GameConfig
from dragonante.extras import require
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.parallel_options import (
    SchedulerOpt,
    WorkersOpt,
    backend_errors,
    make_backend,
)
from dragonante.interfaces.cli.play import parse_opponents
from dragonante.interfaces.cli.run_options import (
    BOTS,
    FIRST_SEED,
    JSON,
    LANG,
    OUT,
    PLAYERS,
    SCHEDULER,
    WORKERS,
    FirstSeedOpt,
    GamesOpt,
    JsonOpt,
    LangOpt,
    OutOpt,
    PlayersOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import (
    DEFAULT_TABLE,
    TableChoices,
    build_config,
    helptext,
    table_options,
)
from dragonante.sim.parallel import Backend

if TYPE_CHECKING:
    # numpy and matplotlib are the 'analysis' extra: imported when the command
    # runs, after the check that names the extra if it is missing.
    from dragonante.sim.analysis.summary import Summary

#: Show a progress bar from this many games on (shorter runs finish at once).
PROGRESS_FROM = 1000
#: Cards named at each end in the text summary.
TEXT_TOP = 5


@app.command("analyze", help=helptext("cmd.analyze"))
@table_options
def analyze_command(
    players: PlayersOpt = PLAYERS.default,
    games: GamesOpt = 1000,
    seed: FirstSeedOpt = FIRST_SEED.default,
    workers: WorkersOpt = WORKERS.default,
    scheduler: SchedulerOpt = SCHEDULER.default,
    out: OutOpt = OUT.default,
    as_json: JsonOpt = JSON.default,
    bots: Annotated[str, BOTS.option()] = "random",
    lang: LangOpt = LANG.default,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play many games and report card, seat, ante, length and flight statistics."""
    lang = check_lang(lang)
    require("analysis", "dragonante analyze")
    from dragonante.sim.analysis.output import write_report

    if games < 1:
        raise UserError(t("cli.error.games", lang, games=games))
    backend = make_backend(workers, scheduler, lang)
    choices = table
    config = build_config(choices, lang)
    specs = parse_opponents(bots, players, lang, count_error="cli.error.bots_count")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(t("cli.error.out", lang, path=out, error=e.strerror or e)) from None
    run = {
        "seed": seed,
        "seeds": [seed, seed + games - 1],
        "bots": specs,
        "ruleset": table.ruleset,
        "deck": table.deck,
        "lang": lang,
    }
    with backend_errors(lang):
        summary = _run(config, specs, games, seed, backend, as_json, lang)
    report, plots = write_report(summary, run, out, lang)
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    for line in summary_lines(report, lang):
        typer.echo(line)
    typer.echo(t("analyze.written", lang, path=out, plots=len(plots)))


def _run(
    config: GameConfig,
    specs: list[str],
    games: int,
    seed: int,
    backend: Backend,
    quiet: bool,
    lang: str,
) -> Summary:
    """Play the games, with a progress bar (on stderr) on long runs in a terminal."""
    from dragonante.sim.analysis.run import run_analysis

    if quiet or games < PROGRESS_FROM or not sys.stderr.isatty():
        return run_analysis(config, specs, games, seed, backend)
    with Progress(
        TextColumn(t("analyze.progress", lang)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)
        return run_analysis(
            config, specs, games, seed, backend, progress=lambda k: bar.advance(task, k)
        )


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_lines(report: dict[str, Any], lang: str) -> list[str]:
    """The headline numbers for people; the rest is in the files."""
    run = report["run"]
    lines = [
        t(
            "analyze.summary",
            lang,
            games=report["games"],
            players=report["players"],
            first=run["seeds"][0],
            last=run["seeds"][1],
            gambits=report["gambits"],
        )
    ]
    for s in report["seats"]:
        g = s["game"]
        lines.append(
            t(
                "analyze.seat_line",
                lang,
                seat=s["seat"],
                rate=_pct(g["rate"]),
                low=_pct(g["ci_low"]),
                high=_pct(g["ci_high"]),
                gambit=_pct(s["gambit"]["rate"]),
            )
        )
    cards = sorted(report["cards"], key=lambda c: -c["play_gambit"]["lift"])
    lines.append(t("analyze.h.top", lang) + ":")
    lines.extend(_card_line(c, lang) for c in cards[:TEXT_TOP])
    lines.append(t("analyze.h.bottom", lang) + ":")
    lines.extend(_card_line(c, lang) for c in cards[-TEXT_TOP:][::-1])
    ranks = report["ante"]["by_rank"]
    if ranks:
        lines.append(
            t(
                "analyze.ante_line",
                lang,
                rate=_pct(ranks[0]["rate"]),
                weakest=_pct(ranks[-1]["rate"]),
            )
        )
    lengths = report["lengths"]
    lines.append(
        t(
            "analyze.length_line",
            lang,
            rounds=f"{lengths['gambit_rounds']['mean']:.2f}",
            gambits=f"{lengths['game_gambits']['mean']:.2f}",
            decisions=f"{lengths['game_decisions']['mean']:.1f}",
        )
    )
    f = report["flights"]
    lines.append(
        t(
            "analyze.flight_line",
            lang,
            color=f"{f['color']['per_game']:.3f}",
            color_gold=f"{f['color']['gold_per_flight']:.1f}",
            strength=f"{f['strength']['per_game']:.3f}",
            strength_gold=f"{f['strength']['gold_per_flight']:.1f}",
        )
    )
    return lines


def _card_line(c: dict[str, Any], lang: str) -> str:
    r = c["play_gambit"]
    return t(
        "analyze.card_line",
        lang,
        name=c["name"],
        plays=c["plays"],
        rate=_pct(r["rate"]),
        low=_pct(r["ci_low"]),
        high=_pct(r["ci_high"]),
        lift=f"{100 * r['lift']:+.1f}",
    )
