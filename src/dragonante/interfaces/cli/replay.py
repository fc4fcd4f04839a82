"""``dragonante replay``: a saved game told again, as one seat or a spectator saw it.

    dragonante replay game.json               # what the whole table saw
    dragonante replay game.json --seat 0      # what seat 0 saw (its hand, its draws)
    dragonante replay game.json --omniscient  # everything, every hand
    dragonante replay game.json --gm          # a game-master: every D&D ability, no hand
    dragonante replay game.json --why         # each event followed by the rule behind it
    dragonante replay game.json --json        # the events as JSON, each with its rule
    dragonante replay game.json --screen      # stepped through at the full-screen table

The record (from ``play --record`` or the web server) is replayed answer by
answer in a fresh game, through the table source every front end draws
(:class:`~dragonante.interfaces.replay_source.ReplaySource`: the seat's,
spectator's or game-master's events and table, as at a live table); a
record whose final digest does not match - made by another rules version,
or edited - is refused rather than narrated wrongly.  An unreadable or
malformed file is a one-line error, exit 2.
A record saved by the terminal tables says who sat where, and the replay
calls everyone by the names the table used ("Player 1", "Bot 2", the names
typed in at a hot-seat table); others name the seats by number.

``--why`` follows each narrated line with its rule (the table of events,
:mod:`dragonante.interfaces.events`: the rule in the project's words, the
book and section, a power's or ability's own text); ``--json`` prints the
events the view may see, each with its sentence and a ``why`` object
(``rule``, ``book``, ``section``, ``text``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from dragonante.engine.records import GameRecord, RecordError, loads, replay
from dragonante.engine.state import Event, GameState
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import JSON, LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext
from dragonante.interfaces.events import Explainer, Table
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.render import table_lines
from dragonante.interfaces.replay_source import ReplaySource
from dragonante.interfaces.table_record import names_of, read_seating

#: Records larger than this are refused before parsing (no game is that long).
MAX_RECORD_BYTES = 20_000_000


@app.command("replay", help=helptext("cmd.replay"))
def replay_command(
    file: Annotated[Path, typer.Argument(help=helptext("opt.file"))],
    seat: Annotated[int | None, typer.Option("--seat", help=helptext("opt.replay_seat"))] = None,
    omniscient: Annotated[
        bool, typer.Option("--omniscient", help=helptext("opt.omniscient"))
    ] = False,
    gm: Annotated[bool, typer.Option("--gm", help=helptext("opt.replay_gm"))] = False,
    why: Annotated[bool, typer.Option("--why", help=helptext("opt.replay_why"))] = False,
    as_json: Annotated[bool, JSON.option("opt.replay_json")] = JSON.default,
    screen: Annotated[bool, typer.Option("--screen", help=helptext("opt.replay_screen"))] = False,
    lang: LangOpt = LANG.default,
) -> None:
    """Replay a saved game, checking it, and narrate it for a seat or a spectator."""
    lang = check_lang(lang)
    if sum((seat is not None, omniscient, gm)) > 1:
        raise UserError(t("cli.error.replay_view", lang))
    if screen and (as_json or why or not sys.stdout.isatty()):
        raise UserError(t("cli.error.replay_screen", lang))
    text, record, _ = read_record(file, lang)
    players = record.config.players
    if seat is not None and not 0 <= seat < players:
        raise UserError(
            t("cli.error.replay_seat", lang, seat=seat, last=players - 1, players=players)
        )
    try:
        seating = read_seating(text, players)
    except RecordError as e:
        raise UserError(t("cli.error.record", lang, path=str(file), reason=str(e))) from None
    names = names_of(seating, players, lang) if seating else default_names(players, lang, me=None)
    narrator = Narrator(names, lang, me=seat, debt_model=record.config.rules.debt_model)
    if omniscient:
        view = t("replay.view.omniscient", lang)
    elif gm:
        view = t("replay.view.gm", lang)
    elif seat is None:
        view = t("replay.view.spectator", lang)
    else:
        view = t("replay.view.seat", lang, name=names[seat])
    source = ReplaySource(record, narrator, seat, gm=gm, omniscient=omniscient)
    table = Table(record.config.rules.ruleset, record.config.abilities.system)
    if screen:
        from dragonante.interfaces.tui.source_app import ReplayApp  # Textual: only if asked

        ReplayApp(source, table).run()
        return
    source.to_end()
    events = source.all_events()
    explainer = Explainer(table, lang)
    if as_json:
        typer.echo(json.dumps(_as_json(record, source.state, view, events, narrator, explainer)))
        return
    verified = "replay.verified" if record.final_digest is not None else "replay.unverified"
    typer.echo(
        t(
            "replay.header",
            lang,
            players=players,
            seed=record.seed,
            answers=len(record.answers),
            view=view,
        )
    )
    typer.echo(t(verified, lang))
    if why:
        for line, rule in explainer.lines(narrator.told(events), events):
            typer.echo(f"  {line}")
            for part in rule.lines(lang) if rule is not None else [t("why.none", lang)]:
                typer.echo(f"      {part}")
    else:
        for line in narrator.events(events):
            typer.echo(f"  {line}")
    if not source.finished:
        typer.echo()
        typer.echo(t("replay.unfinished", lang))
        for line in table_lines(source.view(), narrator):
            typer.echo(line)


def _as_json(
    record: GameRecord,
    state: GameState,
    view: str,
    events: list[Event],
    narrator: Narrator,
    explainer: Explainer,
) -> dict[str, Any]:
    """``--json``: the record's facts and the view's events, each with its
    sentence (the narrator's, event by event) and its ``why``."""
    out: list[dict[str, Any]] = []
    for e, rule in zip(events, map(explainer.why, events), strict=True):
        vis, kind, data = e
        item: dict[str, Any] = {"kind": kind, "data": data, "text": narrator.event(e)}
        if vis is not None:
            item["seen_by"] = list(vis)
        item["why"] = None if rule is None else rule.to_dict()
        out.append(item)
    return {
        "players": record.config.players,
        "seed": record.seed,
        "answers": len(record.answers),
        "view": view,
        "verified": record.final_digest is not None,
        "over": state.over,
        "events": out,
    }


def read_record(file: Path, lang: str) -> tuple[str, GameRecord, GameState]:
    """A record file read and replayed (its digest checked): its text, the record
    and the game it replays to; a one-line :class:`UserError` if it cannot be."""
    try:
        size = file.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise UserError(
                t("cli.error.record", lang, path=str(file), reason=t("replay.too_large", lang))
            )
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(
            t("cli.error.record", lang, path=str(file), reason=t("replay.not_text", lang))
        ) from None
    except OSError as e:
        reason = e.strerror or str(e)
        raise UserError(t("cli.error.read", lang, path=str(file), reason=reason)) from None
    try:
        record = loads(text)
        state = replay(record)
    except RecordError as e:
        raise UserError(t("cli.error.record", lang, path=str(file), reason=str(e))) from None
    return text, record, state
