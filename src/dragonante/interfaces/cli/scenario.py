"""``dragonante scenario run FILE...``: play rules scenarios and report pass/fail;
``dragonante scenario coverage``: which card texts (or, with ``--rules``, which rules
clauses) of the books no scenario quotes yet."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from dragonante.cards import CARD_TYPES
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import JSON, LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext
from dragonante.scenarios import ScenarioError, load, run
from dragonante.scenarios.coverage import (
    Clause,
    Coverage,
    CoverageError,
    Paragraph,
    Q,
    all_paragraphs,
    coverage,
    rule_clauses,
    scenario_rules,
    table_quotes,
)

scenario_app = typer.Typer(
    help=helptext("cmd.scenario"),
    no_args_is_help=True,
)
app.add_typer(scenario_app, name="scenario")

#: Both scenario commands print one JSON object per line.
ScenarioJsonOpt = Annotated[bool, JSON.option("opt.scenario_json")]


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
    as_json: ScenarioJsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
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


def _card_keys(cards: list[str], lang: str) -> set[str]:
    """Card type keys from keys or English names, case-insensitively."""
    by_name = {k.lower(): k for k in CARD_TYPES}
    by_name.update({t.name("en").lower(): k for k, t in CARD_TYPES.items()})
    keys: set[str] = set()
    for c in cards:
        key = by_name.get(c.strip().lower())
        if key is None:
            raise UserError(t("scenario.coverage.card_unknown", lang, card=c))
        keys.add(key)
    return keys


@scenario_app.command("coverage", help=helptext("cmd.scenario_coverage"))
def coverage_command(
    paths: Annotated[list[Path] | None, typer.Argument(help=helptext("opt.coverage_paths"))] = None,
    cards: Annotated[
        list[str] | None, typer.Option("--card", help=helptext("opt.coverage_card"))
    ] = None,
    show_all: Annotated[bool, typer.Option("--all", help=helptext("opt.coverage_all"))] = False,
    strict: Annotated[bool, typer.Option("--strict", help=helptext("opt.coverage_strict"))] = False,
    rules_clauses: Annotated[
        bool, typer.Option("--rules", help=helptext("opt.coverage_rules"))
    ] = False,
    as_json: ScenarioJsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """Every paragraph of every card's book entry that no scenario's ``rule`` quotes.

    Reads only the ``rule`` fields (default folder: ``tests/scenarios``); the
    matching rule is :mod:`dragonante.scenarios.coverage`'s.  Exit code 0, or
    1 with ``--strict`` when anything is not covered.  ``--rules``: the books'
    rules clauses instead (:func:`_rules_coverage`).
    """
    lang = check_lang(lang)
    if rules_clauses:
        if cards:
            raise UserError(t("scenario.coverage.rules_and_card", lang))
        _rules_coverage(paths, show_all, strict, as_json, lang)
        return
    files = _expand(paths or [Path("tests/scenarios")], lang)
    try:
        rules = scenario_rules(files)
    except CoverageError as e:
        raise UserError(t("scenario.error", lang, message=e)) from e
    wanted = _card_keys(cards, lang) if cards else None
    paragraphs = [p for p in all_paragraphs() if wanted is None or p.card in wanted]
    result = coverage(rules, paragraphs)

    def card_fields(p: Paragraph) -> tuple[dict[str, Any], dict[str, Any]]:
        kind, _, n = p.part.partition(" ")
        if kind == "explanation":  # "explanation 2"
            part = t("scenario.coverage.part.explanation", lang, n=n)
        else:  # power, dragon god, ante effect
            part = t(f"scenario.coverage.part.{p.part.replace(' ', '_')}", lang)
        shown = {"card": p.card, "name": p.name, "book": p.book}
        return {**shown, "part": p.part}, {**shown, "part": part}

    _report(result, card_fields, "scenario.coverage.", show_all, strict, as_json, lang)


def _rules_coverage(
    paths: list[Path] | None, show_all: bool, strict: bool, as_json: bool, lang: str
) -> None:
    """``scenario coverage --rules``: the rules clauses of the books no scenario quotes.

    The quotes are the scenario files' ``rule`` fields and the strings of the
    Python rules tables (the Dice Gambit's, and ``tests/engine/test_endings.py``
    for a series of games) under the paths given (default: ``tests/scenarios``,
    ``tests/dice`` and ``tests/engine``).
    """
    default = (Path("tests/scenarios"), Path("tests/dice"), Path("tests/engine"))
    given = paths or [p for p in default if p.exists()]
    for p in given:
        if not p.exists():
            raise UserError(t("scenario.error.no_file", lang, path=p))
    try:
        quotes = scenario_rules([p for p in given if p.is_dir() or p.suffix == ".toml"])
        quotes += table_quotes([p for p in given if p.is_dir() or p.suffix == ".py"])
    except CoverageError as e:
        raise UserError(t("scenario.error", lang, message=e)) from e
    result = coverage(quotes, rule_clauses())

    def clause_fields(c: Clause) -> tuple[dict[str, Any], dict[str, Any]]:
        shown = {"book": c.book, "section": c.section}
        return shown, shown

    _report(result, clause_fields, "scenario.coverage.rule_", show_all, strict, as_json, lang)


def _report(
    result: Coverage[Q],
    fields: Callable[[Q], tuple[dict[str, Any], dict[str, Any]]],
    messages: str,
    show_all: bool,
    strict: bool,
    as_json: bool,
    lang: str,
) -> None:
    """Print each paragraph not covered (all of them with ``show_all``), as JSON lines
    or sentences, then the summary; exit 1 under ``strict`` if any is missing.

    ``fields(item)``: the item's JSON fields and its message's parameters;
    ``messages``: the catalog prefix of the ``missing``/``covered``/``summary``
    sentences (``scenario.coverage.`` for card text, ``scenario.coverage.rule_``).
    """
    for item, q in result.quoted.items():
        record, params = fields(item)
        if as_json:
            if q.covered and not show_all:
                continue
            record = {**record, "covered": q.covered, "share": round(q.share, 3)}
            record.update(files=list(q.files), text=item.text)
            typer.echo(json.dumps(record, ensure_ascii=False))
        elif not q.covered or show_all:
            text = item.text if len(item.text) <= 100 else item.text[:97] + "..."
            extra = {"text": text} if not q.covered else {"files": ", ".join(q.files)}
            key = "missing" if not q.covered else "covered"
            share = round(100 * q.share)
            typer.echo(t(f"{messages}{key}", lang, share=share, **params, **extra))
    missing = result.total - result.covered
    if not as_json:
        percent = f"{100 * result.covered / result.total:.1f}" if result.total else "100.0"
        typer.echo(
            t(
                f"{messages}summary",
                lang,
                covered=result.covered,
                total=result.total,
                percent=percent,
                missing=missing,
            )
        )
    if strict and missing:
        raise typer.Exit(1)
