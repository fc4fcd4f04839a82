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

from dragonante.bots import BotSpecError, bot_names, parse_spec
from dragonante.bots.budget import Budget
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.parallel_options import (
    SchedulerOpt,
    WorkersOpt,
    backend_errors,
    make_backend,
)
from dragonante.interfaces.cli.run_options import (
    FIRST_SEED,
    GAMES,
    JSON,
    LANG,
    SCHEDULER,
    WORKERS,
    LangOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import (
    DEFAULT_TABLE,
    TableChoices,
    build_config,
    helptext,
    table_options,
)
from dragonante.sim.tournament import TournamentResult, check_seats, entry_parts, run_tournament

#: The numeric columns of the results table (``tournament.col.*`` in the catalogs).
COLUMNS = ("games", "wins", "win", "ci", "gold", "rating", "ms", "ips", "budget")


@app.command("tournament", help=helptext("cmd.tournament"))
@table_options
def tournament_command(
    seats: Annotated[str, typer.Option("--seats", help=helptext("opt.tournament_seats"))],
    games: Annotated[int, GAMES.option(short=False)] = GAMES.default,
    seed: Annotated[int, FIRST_SEED.option("opt.tournament_seed")] = FIRST_SEED.default,
    workers: WorkersOpt = WORKERS.default,
    scheduler: SchedulerOpt = SCHEDULER.default,
    as_json: Annotated[bool, JSON.option("opt.tournament_json")] = JSON.default,
    lang: LangOpt = LANG.default,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play bots against each other with seats rotated; report win rates with 95%
    Wilson intervals, mean gold, openskill ratings and decision times."""
    lang = check_lang(lang)
    entries = [s.strip() for s in seats.split(",") if s.strip()]
    _check_bots(entries, lang)
    if games < 1:
        raise UserError(t("cli.error.games", lang, games=games))
    backend = make_backend(workers, scheduler, lang)
    choices = replace(table, players=len(entries))
    config = build_config(choices, lang)
    if not config.abilities.enabled and any(entry_parts(e)[1] is not None for e in entries):
        raise UserError(t("cli.error.seats_abilities", lang))
    try:
        # Abilities named after @ must be ones this table's system has.
        check_seats(entries, config)
    except (KeyError, BotSpecError, ValueError) as e:
        raise UserError(str(e.args[0]) if e.args else str(e)) from None
    if as_json:
        with backend_errors(lang):
            result = run_tournament(entries, games, seed, backend, config)
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    console = Console(stderr=True)
    with (
        backend_errors(lang),
        Progress(
            TextColumn(f"[bold]{t('tournament.progress', lang)}"),
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
    _print_table(result, lang)


def _check_bots(entries: list[str], lang: str) -> None:
    """The seat count and the bot of each entry, in the user's language.

    The abilities after ``@`` wait for the table's config (``check_seats``);
    a bad setting of a known bot keeps the bot module's own message.
    """
    if not 2 <= len(entries) <= 6:
        raise UserError(t("cli.error.seats", lang, seats=len(entries)))
    for entry in entries:
        spec = entry_parts(entry)[0]
        try:
            parse_spec(spec)
        except KeyError:
            name = spec.split(":")[0]
            raise UserError(
                t("cli.error.bot", lang, name=name, choices=", ".join(bot_names()))
            ) from None
        except BotSpecError as e:
            raise UserError(str(e)) from None


def _budget_text(budget: Budget | None, lang: str) -> str:
    """A search budget in a few words (``-`` for a bot that does not search)."""
    if budget is None:
        return "-"
    if budget.seconds is None:
        return t("tournament.budget.iters", lang, iters=budget.iters)
    if budget.iters is None:
        return t("tournament.budget.seconds", lang, seconds=f"{budget.seconds:g}")
    return t("tournament.budget.both", lang, iters=budget.iters, seconds=f"{budget.seconds:g}")


def _print_table(result: TournamentResult, lang: str) -> None:
    table = Table(
        title=t(
            "tournament.title", lang, games=result.games, players=result.players, seed=result.seed
        )
    )
    table.add_column(t("tournament.col.bot", lang), no_wrap=True)
    for col in COLUMNS:
        table.add_column(t(f"tournament.col.{col}", lang), justify="right", no_wrap=True)
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
            _budget_text(r.budget, lang),
        )
    out = Console()
    if not out.is_terminal:  # piped: don't squeeze the table into 80 columns
        out = Console(width=120)
    out.print(table)
    clocked = [name for name, r in result.bots.items() if r.budget and not r.budget.reproducible]
    if clocked:
        typer.echo(t("tournament.clock_budget", lang, bots=", ".join(clocked)), err=True)
    if result.unfinished:
        typer.echo(t("tournament.unfinished", lang, n=result.unfinished), err=True)
