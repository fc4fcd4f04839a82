"""``dragonante scenario run FILE...``: play rules scenarios and report pass/fail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.play import LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext
from dragonante.scenarios import ScenarioError, load, run

scenario_app = typer.Typer(
    help=helptext("cmd.scenario"),
    no_args_is_help=True,
)
app.add_typer(scenario_app, name="scenario")


def _expand(paths: list[Path], lang: str) -> list[Path]:
    """Files as given; directories contribute every ``*.toml`` below them, sorted."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(p.rglob("*.toml")))
        elif p.exists():
            out.append(p)
        else:
            raise UserError(t("scenario.error.no_file", lang, path=p))
    if not out:
        raise UserError(t("scenario.error.none", lang))
    return out


@scenario_app.command("run", help=helptext("cmd.scenario_run"))
def run_command(
    files: Annotated[list[Path], typer.Argument(help=helptext("opt.scenario_files"))],
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help=helptext("opt.scenario_verbose"))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=helptext("opt.scenario_json"))] = False,
    lang: LangOpt = None,
) -> None:
    """Run scenarios; prints PASS/FAIL per file and exits 0 only if all pass.

    Exit codes: 0 all passed, 1 some scenario failed, 2 some file could not be
    read or parsed (reported as one ERROR line each).
    """
    lang = check_lang(lang)
    failed = 0
    broken = 0
    paths = _expand(files, lang)
    for path in paths:
        try:
            result = run(load(path))
        except ScenarioError as e:
            broken += 1
            if as_json:
                typer.echo(json.dumps({"file": str(path), "passed": False, "error": str(e)}))
            else:
                typer.echo(t("scenario.error", lang, message=e), err=True)
            continue
        if not result.passed:
            failed += 1
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "file": str(path),
                        "title": result.scenario.title,
                        "passed": result.passed,
                        "failures": result.failures,
                    }
                )
            )
            continue
        mark = "scenario.pass" if result.passed else "scenario.fail"
        typer.echo(t(mark, lang, path=path, title=result.scenario.title))
        for f in result.failures:
            typer.echo(f"     - {f}")
        if verbose:
            for vis, kind, data in result.events:
                seats = ",".join(map(str, vis or ()))
                who = "" if vis is None else t("scenario.seen_by", lang, seats=seats)
                typer.echo(f"       {kind}{who}: {data}")
    if not as_json:
        passed = len(paths) - failed - broken
        if broken:
            summary = t(
                "scenario.summary_unreadable", lang, passed=passed, failed=failed, broken=broken
            )
        else:
            summary = t("scenario.summary", lang, passed=passed, failed=failed)
        typer.echo(summary)
    if broken:
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)
