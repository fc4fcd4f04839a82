"""``dragonante play``: you against bots at a plain terminal table.

    dragonante play --players 4 --seed 7
    dragonante play --players 2 --lang it --opponents heuristic --record game.json

Before each of your questions the command prints what happened since the
last one (only what your seat may see), the table (stakes, hole, ante,
every hoard, hand size and flight with its total, your hand with ``*`` on
the cards whose power would trigger now) and the question with numbered
choices.  Type a number to answer; ``?N`` shows the full text of the card
in choice N, ``?name`` looks a card up by name, ``t`` shows the table
again, ``l`` the whole log, ``hint`` what the hard bot would answer and
why (:mod:`dragonante.interfaces.hint_words`), ``h`` the help and ``q`` quits.  A bad answer is
explained and asked again.

Exit codes: 0 when the game ends, when you quit with ``q`` and when the
input ends (Ctrl-D, or the end of a piped script); 130 on Ctrl-C; 2 for bad
options.  With ``--record FILE`` the game record is rewritten after every
answer you give, so even an abandoned game can be replayed
(``dragonante replay FILE``) or continued (``dragonante play --resume FILE``).
The record says who sat where (people, bots, names), so a resumed game
has the same seats and bots and a replay the same names.

The default opponents are the ``medium`` bot (a one-move lookahead), not
random moves: a first game should be a game.

The deck and table options are shared with ``simulate`` and ``bench``
(:func:`build_config`).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dragonante.bots import BotSpecError, bot_names, parse_spec
from dragonante.engine.config import GameConfig
from dragonante.engine.records import GameRecord, RecordError
from dragonante.engine.series import game_seed as series_game_seed
from dragonante.engine.state import GameState
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.local_plain import PlaySession, is_terminal
from dragonante.interfaces.cli.run_options import (
    LANG,
    PLAIN,
    PLAYERS,
    SEED,
    LangOpt,
    PlainOpt,
    PlayersOpt,
    SeedOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import (
    DEFAULT_TABLE,
    TableChoices,
    build_config,
    helptext,
    table_options,
)
from dragonante.interfaces.launch import command
from dragonante.interfaces.narrate import Narrator, gold, table_names
from dragonante.interfaces.session import LocalGame, replay_record
from dragonante.interfaces.table_record import TableSeats, names_of, read_seating

if TYPE_CHECKING:
    from dragonante.interfaces.tui.lobby import Seating

#: The longest name a person may type for the hot-seat table.
MAX_NAME = 24
#: The bots a game is played against unless ``--opponents`` says otherwise.
DEFAULT_OPPONENTS = "medium"


def parse_opponents(
    opponents: str, count: int, lang: str, count_error: str = "cli.error.opponents_count"
) -> list[str]:
    """``count`` bot specs from a comma list: a single spec fills every seat.

    ``count_error`` is the message for a wrong number of specs (each option
    that takes bots names itself).
    """
    specs = [s.strip() for s in opponents.split(",")]
    if not all(specs):
        raise UserError(t("cli.error.opponents_empty", lang))
    if len(specs) == 1:
        specs = specs * count
    if len(specs) != count:
        raise UserError(t(count_error, lang, count=count, given=len(specs)))
    for spec in specs:
        try:
            parse_spec(spec)
        except KeyError:
            name = spec.split(":")[0]
            raise UserError(
                t("cli.error.bot", lang, name=name, choices=", ".join(bot_names()))
            ) from None
        except BotSpecError as e:
            raise UserError(str(e)) from None
    return specs


@app.command("play", help=helptext("cmd.play"))
@table_options
def play_command(
    seed: SeedOpt = SEED.default,
    players: PlayersOpt = PLAYERS.default,
    seat: Annotated[int, typer.Option("--seat", help=helptext("opt.seat"))] = 0,
    lang: LangOpt = LANG.default,
    opponents: Annotated[
        str, typer.Option("--opponents", help=helptext("opt.opponents"))
    ] = DEFAULT_OPPONENTS,
    time_limit: Annotated[int, typer.Option("--time-limit", help=helptext("opt.time_limit"))] = 0,
    series: Annotated[int, typer.Option("--series", help=helptext("opt.series"))] = 0,
    record: Annotated[Path | None, typer.Option("--record", help=helptext("opt.record"))] = None,
    plain: PlainOpt = PLAIN.default,
    humans: Annotated[str, typer.Option("--humans", help=helptext("opt.humans"))] = "",
    join: Annotated[str | None, typer.Option("--join", help=helptext("opt.join"))] = None,
    name: Annotated[str, typer.Option("--name", help=helptext("opt.name"))] = "",
    server: Annotated[str | None, typer.Option("--server", help=helptext("opt.server"))] = None,
    create: Annotated[bool, typer.Option("--create", help=helptext("opt.create"))] = False,
    bot_level: Annotated[
        str, typer.Option("--bot-level", help=helptext("opt.join_bots"))
    ] = "medium",
    resume: Annotated[Path | None, typer.Option("--resume", help=helptext("opt.resume"))] = None,
    table: TableChoices = DEFAULT_TABLE,
) -> None:
    """Play Three-Dragon Ante against bots in this terminal."""
    lang = check_lang(lang)
    check_record_path(record, lang)
    if resume is not None:
        if seed is not None or humans or series or join is not None or create:
            raise UserError(t("cli.error.resume_options", lang))
        raise typer.Exit(resume_game(resume, seat, opponents, lang, plain, record, time_limit))
    choices = replace(table, time_limit_minutes=time_limit, series_games=series)
    config = build_config(choices, lang)
    if join is not None or create:
        online_config = config if create else None
        raise typer.Exit(play_online(join, name, server, online_config, lang, bot_level, plain))
    if not 0 <= seat < players:
        raise UserError(t("cli.error.seat", lang, seat=seat, last=players - 1))
    if not humans:  # the first play at a terminal offers the tutorial, once
        from dragonante.interfaces.cli.learn import offer_tutorial, run_tutorial

        if offer_tutorial(lang):
            raise typer.Exit(run_tutorial(lang, plain))
    people = parse_humans(humans, players, lang) if humans else (seat,)
    seat = people[0] if humans else seat
    full_screen = not plain and is_terminal(sys.stdin) and is_terminal(sys.stdout)
    if len(people) > 1 and not full_screen:
        raise UserError(t("cli.error.humans_plain", lang))
    specs = parse_opponents(opponents, players - len(people), lang)
    # Bots sit clockwise from the person's left.
    order = [(seat + i) % players for i in range(1, players) if (seat + i) % players not in people]
    by_seat = dict(zip(order, specs, strict=True))
    specs_by_seat = [by_seat[p] for p in sorted(by_seat)]
    if seed is None:
        seed = secrets.randbelow(2**31)
    typed = ask_names(people, lang) if len(people) > 1 else ()
    # only names typed in are kept with the record; the table's own are made in its language
    names = table_names(players, people, lang, typed) if typed else None
    if full_screen and series > 1:
        raise typer.Exit(
            play_series_full_screen(
                config, seed, series, people, by_seat, lang, record, time_limit, names
            )
        )
    if full_screen:
        raise typer.Exit(
            play_full_screen(config, seed, people, by_seat, lang, record, time_limit, names)
        )
    narrator = Narrator(
        table_names(players, people, lang), lang, me=seat, debt_model=config.rules.debt_model
    )
    typer.echo(t("play.intro", lang, seed=seed, players=players, seat=seat))
    for p in sorted(by_seat):
        typer.echo(t("play.opponent", lang, name=narrator.label(p), bot=by_seat[p]))
    typer.echo(t("play.help_hint", lang))
    count = max(1, series)
    totals = [0] * players
    for index in range(count):
        game_seed = seed if count == 1 else series_game_seed(seed, index)
        game = LocalGame(config, game_seed, seat, specs_by_seat)
        path = record if count == 1 else series_record_path(record, index)
        if count > 1:
            typer.echo()
            typer.echo(t("play.series_game", lang, game=index + 1, games=count, seed=game_seed))
        session = PlaySession(game, narrator, path, sys.stdin, time_limit_minutes=time_limit)
        session.seating = TableSeats((seat,), by_seat, ())
        session.save()
        code = session.run()
        if not game.over:
            raise typer.Exit(code)
        for p, gold_left in enumerate(game.state.hoards):
            totals[p] += gold_left
        if count > 1:
            typer.echo(t("play.series_totals", lang, totals=narrator.hoards(totals)))
    if count > 1:
        best = max(totals)
        winners = [p for p in range(players) if totals[p] == best]
        typer.echo(
            t("play.series_over", lang, names=narrator.seats(winners), gold=gold(best, lang))
        )
    raise typer.Exit(0)


def parse_humans(text: str, players: int, lang: str) -> tuple[int, ...]:
    """The seats of ``--humans 0,2``: distinct numbers of seats at this table."""
    try:
        seats = [int(part) for part in text.split(",")]
    except ValueError:
        seats = []
    if not seats or len(set(seats)) != len(seats) or not all(0 <= p < players for p in seats):
        raise UserError(t("cli.error.humans", lang, last=players - 1, given=text))
    return tuple(seats)


def ask_names(people: tuple[int, ...], lang: str) -> tuple[str, ...]:
    """Hot-seat: each person's name, asked at the terminal before the table opens.

    Enter keeps the table's own "Player N" (counted from 1), and so does the
    end of the input; empty when nobody typed a name (the record then keeps
    none, and a replay names the seats in its own language).
    """
    names: list[str] = []
    for k, p in enumerate(people, start=1):
        default = t("seat.player", lang, seat=k)
        typer.echo(t("play.name_prompt", lang, seat=p, default=default), nl=False)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            typer.echo()
        names.append(" ".join(line.split())[:MAX_NAME])
    return tuple(names) if any(names) else ()


def resume_game(
    path: Path,
    seat: int,
    opponents: str,
    lang: str,
    plain: bool,
    record_path: Path | None,
    time_limit: int,
) -> int:
    """``play --resume FILE``: the saved game's answers given again, then play on.

    The seats, bots and names are the record's own when it has them (records
    the terminal tables save); a record without them (the web server's, the
    engine's) is continued with ``--seat`` and ``--opponents``, as a new game
    would be.  The game keeps being saved in FILE (or ``--record``).
    """
    from dragonante.interfaces.cli.replay import read_record

    text, record, state = read_record(path, lang)
    if state.over:
        raise UserError(
            t("cli.error.resume_over", lang, path=str(path), command=command("replay", str(path)))
        )
    players = record.config.players
    try:
        seating = read_seating(text, players)
    except RecordError as e:
        raise UserError(t("cli.error.record", lang, path=str(path), reason=str(e))) from None
    if seating is None:
        if not 0 <= seat < players:
            raise UserError(t("cli.error.seat", lang, seat=seat, last=players - 1))
        specs = parse_opponents(opponents, players - 1, lang)
        order = [(seat + i) % players for i in range(1, players)]
        seating = TableSeats((seat,), dict(zip(order, specs, strict=True)), ())
    else:
        for spec in seating.bots.values():
            parse_opponents(spec, 1, lang)  # a bot this version does not know: one line
    people = seating.humans
    full_screen = not plain and is_terminal(sys.stdin) and is_terminal(sys.stdout)
    if len(people) > 1 and not full_screen:
        raise UserError(t("cli.error.humans_plain", lang))
    names = names_of(seating, players, lang)
    save_to = record_path or path
    typer.echo(t("play.resumed", lang, path=str(path), answers=len(record.answers)))
    if full_screen:
        code, _ = run_full_screen(
            record.config,
            record.seed,
            people,
            seating.bots,
            lang,
            save_to,
            time_limit,
            names=seating.names,
            resume=record,
        )
        return code
    me = people[0]
    game = LocalGame(
        record.config, record.seed, me, [seating.bots[p] for p in sorted(seating.bots)]
    )
    try:
        replay_record(game, record)
    except RecordError as e:
        raise UserError(t("cli.error.record", lang, path=str(path), reason=str(e))) from None
    narrator = Narrator(names, lang, me=me, debt_model=record.config.rules.debt_model)
    session = PlaySession(game, narrator, save_to, sys.stdin, time_limit_minutes=time_limit)
    session.seating = seating
    session.save()
    return session.run()


def play_online(
    target: str | None,
    name: str,
    server: str | None,
    config: GameConfig | None,
    lang: str,
    bot_level: str,
    plain: bool = False,
) -> int:
    """``--join`` (or ``--create``): take a seat at a server's table and play it
    full-screen, or with ``--plain`` at the numbered prompts (terminal or not).

    The seat is taken before the table opens, so a refusal (no server, no
    such table, a full table, a name taken, another protocol) is one line.
    """
    from dragonante.engine.config import config_to_dict
    from dragonante.interfaces.tui.lobby import (
        DEFAULT_SERVER,
        JoinError,
        check_server,
        create_and_join,
        join,
        parse_target,
    )

    if target is not None and config is not None:
        raise UserError(t("join.error.both", lang))
    if not plain and not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        raise UserError(t("join.error.terminal", lang))
    server = server or DEFAULT_SERVER
    try:
        if config is not None:
            if not name:
                raise JoinError("join.error.name_needed")
            seating = create_and_join(check_server(server), config_to_dict(config), name)
        else:
            assert target is not None
            seating = join(parse_target(target, server), name)
    except JoinError as e:
        raise UserError(e.message(lang)) from None
    if plain:
        return run_online_plain(seating, lang, bot_level)
    return run_online(seating, lang, bot_level)


def run_online_plain(seating: Seating, lang: str, bot_level: str) -> int:
    """The plain prompts for one seat on a server (the same loop as a local
    ``--plain``, drawing the seat's frames); the line to come back after leaving."""
    from dragonante.interfaces.cli.join_plain import JoinPlainTable
    from dragonante.interfaces.online_source import OnlineSource

    return JoinPlainTable(OnlineSource(seating, lang), sys.stdin, bot_level).run()


def run_online(seating: Seating, lang: str, bot_level: str) -> int:
    """The full-screen table for one seat on a server; the line to come back after leaving."""
    from dragonante.interfaces.tui.online import OnlineTableApp

    app = OnlineTableApp(seating, lang, bot_level)
    app.run()
    if app.failure is not None:
        raise UserError(app.failure)
    if not app.source.over:
        typer.echo(t("join.resume", lang, code=seating.code, url=seating.resume_url))
    return 0


def play_full_screen(
    config: GameConfig,
    seed: int,
    people: tuple[int, ...],
    bots: dict[int, str],
    lang: str,
    record: Path | None,
    time_limit: int,
    names: list[str] | None = None,
) -> int:
    """One game at the full-screen table; its exit code."""
    code, _ = run_full_screen(config, seed, people, bots, lang, record, time_limit, names=names)
    return code


def run_full_screen(
    config: GameConfig,
    seed: int,
    people: tuple[int, ...],
    bots: dict[int, str],
    lang: str,
    record: Path | None,
    time_limit: int,
    series_lines: Callable[[GameState], list[str]] | None = None,
    names: list[str] | tuple[str, ...] | None = None,
    resume: GameRecord | None = None,
) -> tuple[int, list[int] | None]:
    """Run one game at the full-screen table: (exit code, final hoards, or None
    if the person left before the end).  Textual is imported here, so plain
    runs never load it.  ``resume``: the record of the game to continue."""
    from dragonante.interfaces.tui import TableApp, TableGame

    if resume is not None:
        try:
            game = TableGame.resume(resume, people, bots, names or ())
        except RecordError as e:
            raise UserError(str(e)) from None
    else:
        game = TableGame(config, seed, people, bots, names or ())
    app = TableApp(game, lang, record, time_limit, series_lines=series_lines)
    code = app.run()
    saved = app.saved_to
    if saved is not None:
        typer.echo(
            t("play.record_saved", lang, path=str(saved), command=command("replay", str(saved)))
        )
        if not game.over:
            typer.echo(t("play.resume_hint", lang, command=command("play", "--resume", str(saved))))
    hoards = list(game.state.hoards) if game.over else None
    return (code if isinstance(code, int) else 0), hoards


def play_series_full_screen(
    config: GameConfig,
    seed: int,
    count: int,
    people: tuple[int, ...],
    bots: dict[int, str],
    lang: str,
    record: Path | None,
    time_limit: int,
    names: list[str] | None = None,
) -> int:
    """A ``--series`` at the full-screen table: one table per game, each game's
    seed and record as the plain prompts make them; each game-over screen adds
    the series so far, and the series result is printed at the end.  Leaving a
    game before its end ends the series."""
    players = config.players
    me = people[0] if len(people) == 1 else None
    narrator = Narrator(names or table_names(players, people, lang), lang, me=me)
    totals = [0] * players
    for index in range(count):
        game_seed = series_game_seed(seed, index)
        so_far = list(totals)

        def series_lines(
            state: GameState,
            index: int = index,
            game_seed: int = game_seed,
            so_far: list[int] = so_far,
        ) -> list[str]:
            after = [a + b for a, b in zip(so_far, state.hoards, strict=True)]
            return [
                t("play.series_game", lang, game=index + 1, games=count, seed=game_seed),
                t("play.series_totals", lang, totals=narrator.hoards(after)),
            ]

        path = series_record_path(record, index)
        code, hoards = run_full_screen(
            config, game_seed, people, bots, lang, path, time_limit, series_lines, names
        )
        if hoards is None:
            return code
        totals = [a + b for a, b in zip(totals, hoards, strict=True)]
    best = max(totals)
    winners = [p for p in range(players) if totals[p] == best]
    typer.echo(t("play.series_totals", lang, totals=narrator.hoards(totals)))
    typer.echo(t("play.series_over", lang, names=narrator.seats(winners), gold=gold(best, lang)))
    return 0


def check_record_path(path: Path | None, lang: str) -> None:
    """``--record FILE``: refuse a file that cannot be written before the game
    starts, not at the first answer (issue 32, section 6)."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    reason = ""
    if path.is_dir():
        reason = t("cli.error.record_is_folder", lang)
    elif not folder.is_dir():
        reason = t("cli.error.record_no_folder", lang, folder=str(folder))
    elif not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        reason = t("cli.error.record_read_only", lang)
    if reason:
        raise UserError(t("cli.error.record_write", lang, path=str(path), reason=reason))


def series_record_path(record: Path | None, index: int) -> Path | None:
    """Game ``index`` of a series is saved beside ``record``: ``game.json`` ->
    ``game.2.json`` (the first keeps ``game.1.json``), one record per game."""
    if record is None:
        return None
    return record.with_name(f"{record.stem}.{index + 1}{record.suffix}")
