"""``dragonante bench``: how many random games per second the engine plays on one core.

    dragonante bench --players 4 --seconds 20
    dragonante bench --players 6 --seconds 5 --json

See :mod:`dragonante.sim.bench`; ``docs/benchmarks.md`` keeps measured figures.
"""

from __future__ import annotations

import json
import math

import typer

from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import (
    FIRST_SEED,
    JSON,
    LANG,
    PLAYERS,
    SECONDS,
    FirstSeedOpt,
    JsonOpt,
    LangOpt,
    PlayersOpt,
    SecondsOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import (
    DEFAULT_TABLE,
    TableChoices,
    build_config,
    helptext,
    table_options,
)
from dragonante.sim.bench import BenchReport, bench


@app.command("bench", help=helptext("cmd.bench"))
@table_options
def bench_command(
    players: PlayersOpt = PLAYERS.default,
    seconds: SecondsOpt = SECONDS.default,
    seed: FirstSeedOpt = FIRST_SEED.default,
    as_json: JsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play random games on one core for a while; report games and decisions per second."""
    lang = check_lang(lang)
    choices = table
    config = build_config(choices, lang)
    if not (math.isfinite(seconds) and seconds > 0):
        raise UserError(t("cli.error.seconds", lang, seconds=seconds))
    report = bench(config, seconds, seed)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    for line in summary_lines(report, lang):
        typer.echo(line)


def summary_lines(report: BenchReport, lang: str) -> list[str]:
    d = report.to_dict()
    lines = [
        t(
            "bench.summary",
            lang,
            players=d["players"],
            games=d["games"],
            seconds=f"{report.seconds:.1f}",
            python=d["python"],
        ),
        t(
            "bench.rates",
            lang,
            games=f"{report.games_per_second:,.0f}",
            decisions=f"{report.decisions_per_second:,.0f}",
            per_game=f"{d['mean_decisions_per_game']:.1f}",
        ),
        t(
            "bench.cpu",
            lang,
            cpu=f"{report.cpu_seconds:.1f}",
            share=f"{100 * d['cpu_share']:.0f}",
            games=f"{report.games_per_cpu_second:,.0f}",
        ),
    ]
    c = report.clone
    if c is not None:
        lines.append(
            t(
                "bench.clone",
                lang,
                early=f"{c.early_microseconds:.1f}",
                early_gambit=c.early_gambit,
                early_events=c.early_log_events,
                late=f"{c.late_microseconds:.1f}",
                late_gambit=c.late_gambit,
                late_events=c.late_log_events,
            )
        )
    return lines
