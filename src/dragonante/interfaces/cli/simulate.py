"""``dragonante simulate``: many random games, every one checked.

    dragonante simulate --players 4 --games 1000 --seed 1
    dragonante simulate --players 3 --games 200 --check-every-step --json
    dragonante simulate --players 4 --games 100 --bots heuristic,baseline,random,ismcts:iters=50
    dragonante simulate --players 4 --games 100000 --workers 2
    dragonante simulate --players 4 --games 100000 --scheduler tcp://10.0.0.5:8786

Plays games with seeds ``--seed`` .. ``--seed + --games - 1``, catches any
exception (reported with the seed that caused it), checks the game's
conservation laws at the end of each game (or after every answer with
``--check-every-step``), and prints a summary, or JSON with ``--json``.
``--workers N`` plays chunks of seeds on N local processes and
``--scheduler`` on a Dask cluster (``docs/cluster.md``); the report is the
same either way, apart from the timing.  Exit code 0 when every game
finished cleanly, 1 when some game raised, stalled or broke an invariant
(so CI can run it), 2 for bad options.
See :mod:`dragonante.sim.simulate`.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from dragonante.engine.config import GameConfig
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
    GAMES,
    JSON,
    LANG,
    PLAYERS,
    SCHEDULER,
    WORKERS,
    BotsOpt,
    FirstSeedOpt,
    GamesOpt,
    JsonOpt,
    LangOpt,
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
from dragonante.sim.simulate import SimulationReport, simulate

#: Show a progress bar from this many games on (shorter runs finish at once).
PROGRESS_FROM = 200


@app.command("simulate", help=helptext("cmd.simulate"))
@table_options
def simulate_command(
    players: PlayersOpt = PLAYERS.default,
    games: GamesOpt = GAMES.default,
    seed: FirstSeedOpt = FIRST_SEED.default,
    check_every_step: Annotated[
        bool, typer.Option("--check-every-step", help=helptext("opt.check_every_step"))
    ] = False,
    as_json: JsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
    bots: BotsOpt = BOTS.default,
    workers: WorkersOpt = WORKERS.default,
    scheduler: SchedulerOpt = SCHEDULER.default,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play random games, check every one, and report errors, invariants and statistics."""
    lang = check_lang(lang)
    choices = table
    config = build_config(choices, lang)
    specs = None
    if bots is not None:
        specs = parse_opponents(bots, players, lang, count_error="cli.error.bots_count")
    if games < 1:
        raise UserError(t("cli.error.games", lang, games=games))
    backend = make_backend(workers, scheduler, lang)
    with backend_errors(lang):
        report = _run(config, games, seed, check_every_step, specs, backend, as_json, lang)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    else:
        for line in summary_lines(report, lang):
            typer.echo(line)
    if not report.ok:
        raise typer.Exit(1)


def _run(
    config: GameConfig,
    games: int,
    seed: int,
    check_every_step: bool,
    specs: list[str] | None,
    backend: Backend,
    quiet: bool,
    lang: str,
) -> SimulationReport:
    """Play the games, with a progress bar on long runs in a terminal."""
    if quiet or games < PROGRESS_FROM or not sys.stdout.isatty():
        return simulate(config, games, seed, check_every_step, bots=specs, workers=backend)
    with Progress(
        TextColumn(t("sim.progress", lang)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)
        return simulate(
            config,
            games,
            seed,
            check_every_step,
            bots=specs,
            progress=lambda k: bar.advance(task, k),
            workers=backend,
        )


def summary_lines(report: SimulationReport, lang: str) -> list[str]:
    """The report for people: totals, speed, winners by seat, then every problem."""
    d = report.to_dict()
    lines = [
        t(
            "sim.summary",
            lang,
            games=d["games"],
            players=d["players"],
            first=d["seeds"][0],
            last=d["seeds"][1],
            completed=d["completed"],
        ),
        t(
            "sim.stats",
            lang,
            gambits=f"{report.mean_gambits:.2f}",
            low=d["min_gambits"],
            high=d["max_gambits"],
            decisions=f"{report.mean_decisions:.1f}",
        ),
        t(
            "sim.speed",
            lang,
            seconds=f"{report.seconds:.2f}",
            rate=f"{report.games_per_second:,.0f}",
        ),
        t(
            "sim.wins",
            lang,
            wins=", ".join(f"{p}: {w}" for p, w in enumerate(report.wins_by_seat)),
        ),
    ]
    if report.ok:
        checked = "sim.ok.every_step" if report.check_every_step else "sim.ok"
        lines.append(t(checked, lang))
    for e in report.errors:
        lines.append(t("sim.error", lang, seed=e.seed, error=e.error, where=e.where))
    for v in report.invariant_violations:
        lines.append(t("sim.violation", lang, seed=v.seed, problems="; ".join(v.violations)))
    for seed in report.stuck:
        lines.append(t("sim.stuck", lang, seed=seed))
    return lines
