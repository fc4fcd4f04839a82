"""``dragonante tournament``: bots against bots, seats rotated, with statistics.

    dragonante tournament --seats ismcts,heuristic,heuristic,heuristic --games 200 --seed 1
    dragonante tournament --seats heuristic,baseline,baseline,baseline --games 1000 --json
    dragonante tournament --seats ismcts,baseline,baseline,baseline --games 400 --workers 2
    dragonante tournament --seats ismcts,baseline --games 400 --scheduler tcp://10.0.0.5:8786

Each entry of ``--seats`` is a bot spec, ``name[:setting=value...]`` (e.g.
``ismcts:iters=200``); entries with the same spec are pooled.  With
``--abilities`` an entry may carry its character's abilities after ``@``
(``heuristic@random``), which move with it as seats rotate.  See
:mod:`dragonante.sim.tournament` for how seats rotate and how ties count.
``--workers N`` plays on N local processes, ``--scheduler`` on a Dask cluster
(``docs/cluster.md``); only the decision timings depend on either.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dragonante.bots import BotSpecError
from dragonante.i18n import DEFAULT_LANG
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.parallel_options import (
    SchedulerOpt,
    WorkersOpt,
    backend_errors,
    make_backend,
)
from dragonante.interfaces.cli.table_options import (
    DEFAULT_TABLE,
    TableChoices,
    build_config,
    table_options,
)
from dragonante.sim.tournament import TournamentResult, check_seats, entry_parts, run_tournament


@app.command("tournament")
@table_options
def tournament_command(
    seats: Annotated[
        str,
        typer.Option(
            "--seats",
            help="Comma-separated bot specs, one per seat (2-6), e.g. "
            "ismcts,heuristic,heuristic,heuristic or ismcts:iters=200,baseline.",
        ),
    ],
    games: Annotated[int, typer.Option("--games", help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Tournament seed.")] = 0,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play bots against each other with seats rotated; report win rates with 95%
    Wilson intervals, mean gold, openskill ratings and decision times."""
    entries = [s.strip() for s in seats.split(",") if s.strip()]
    try:
        # The bots first (the abilities after @ are checked with the table's config).
        check_seats([entry_parts(e)[0] for e in entries])
    except (KeyError, BotSpecError, ValueError) as e:
        raise UserError(str(e.args[0]) if e.args else str(e)) from None
    if games < 1:
        raise UserError(f"--games must be at least 1, got {games}")
    # The tournament speaks English only (no --lang yet).
    backend = make_backend(workers, scheduler, DEFAULT_LANG)
    choices = replace(table, players=len(entries))
    config = build_config(choices)
    try:
        # Abilities named after @ must be ones this table's system has.
        check_seats(entries, config)
    except (KeyError, BotSpecError, ValueError) as e:
        raise UserError(str(e.args[0]) if e.args else str(e)) from None
    if as_json:
        with backend_errors(DEFAULT_LANG):
            result = run_tournament(entries, games, seed, backend, config)
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    console = Console(stderr=True)
    with (
        backend_errors(DEFAULT_LANG),
        Progress(
            TextColumn("[bold]tournament"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as bar,
    ):
        task = bar.add_task("games", total=games)
        result = run_tournament(
            entries, games, seed, backend, config, progress=lambda k: bar.advance(task, k)
        )
    _print_table(result)


def _print_table(result: TournamentResult) -> None:
    table = Table(
        title=f"{result.games} games, {result.players} players, seed {result.seed} "
        "(a shared win counts 1/k)"
    )
    table.add_column("bot", no_wrap=True)
    for col in ("games", "wins", "win", "95% CI", "gold", "rating μ±σ", "ms med, p95", "iter/s"):
        table.add_column(col, justify="right", no_wrap=True)
    for name, r in result.bots.items():
        d = r.to_dict()
        ms = d["decision_ms"]
        ips = d.get("iterations_per_second")
        table.add_row(
            name,
            str(d["games"]),
            f"{d['wins']:.1f}",
            f"{100 * d['win_rate']:.1f}%",
            f"{100 * d['ci_low']:.0f}-{100 * d['ci_high']:.0f}%",
            f"{d['mean_gold']:.1f}",
            f"{r.mu:.1f}±{r.sigma:.1f}",
            f"{ms['median']:.1f}, {ms['p95']:.1f}",
            f"{ips:,.0f}" if ips else "-",
        )
    out = Console()
    if not out.is_terminal:  # piped: don't squeeze the table into 80 columns
        out = Console(width=120)
    out.print(table)
    if result.unfinished:
        typer.echo(f"warning: {result.unfinished} game(s) did not finish", err=True)
