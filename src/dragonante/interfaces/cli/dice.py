"""``dragonante dice``: Three-Dragon Ante: Dice Gambit, the tavern variant played with dice.

* ``dice play`` - a table of people and bots in this terminal, seeded dice,
  every roll shown and every player's tracker sheet kept;
* ``dice track`` - a game-master's tracker for a table rolling real dice: it
  asks for each roll, applies the rules, asks the players' choices, keeps the
  sheets, and with ``--save`` writes the game after every step
  (``--resume FILE`` carries on);
* ``dice simulate`` - many bot games, checked, summarised (``--json``);
* ``dice settings`` - every setting with its default.

In a terminal, ``play`` and ``track`` open the full-screen table
(:mod:`dragonante.interfaces.tui.dice`); ``--plain``, pipes and scripts get
the prompts below.  People type their answers; a bad answer (or an impossible roll) is
explained on one line and asked again.  ``sheet`` shows the trackers,
``quit`` stops (the tracker's save file keeps the game), and in the tracker
``undo`` takes back the last answer; the Italian words (``scheda``, ``esci``,
``annulla``, ``aiuto``) work in either language.

Every sentence, help text included, comes from the message catalogs
(``dice.*`` keys) in the language of ``--lang`` or of the locale, resolved
the way the card game's commands do it (:func:`~dragonante.interfaces.cli.play.check_lang`).
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Annotated

import typer

from dragonante.bots.dice import BOTS, DiceBot, DiceSeatView, make_bot
from dragonante.dice import PHYSICAL, SEEDED, DiceConfig, IllegalAnswer
from dragonante.dice.config import ConfigError, parse_seats, parse_setting
from dragonante.dice.decisions import ROLL
from dragonante.dice.records import DiceRecord, Recorder, RecordError, loads
from dragonante.dice.views import tracker
from dragonante.i18n import error_reason, t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.local_plain import is_terminal
from dragonante.interfaces.cli.run_options import BOTS as BOTS_OPTION
from dragonante.interfaces.cli.run_options import (
    FIRST_SEED,
    GAMES,
    JSON,
    LANG,
    PLAIN,
    PLAYERS,
    SEED,
    FirstSeedOpt,
    GamesOpt,
    LangOpt,
    PlainOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import help_lang, helptext
from dragonante.interfaces.dice_render import (
    default_names,
    describe,
    parse_answer,
    question,
    shown_names,
    table_lines,
)
from dragonante.interfaces.narrate import table_names
from dragonante.sim.dice_selfplay import simulate

dice_app = typer.Typer(
    help=helptext("dice.cmd.group"),
    no_args_is_help=True,
)
app.add_typer(dice_app, name="dice")

HUMAN = "human"
#: What a person may type instead of an answer, in either language.
QUIT_WORDS = frozenset({"quit", "exit", "esci"})
SHEET_WORDS = frozenset({"sheet", "sheets", "tracker", "scheda", "schede"})
HELP_WORDS = frozenset({"help", "?", "aiuto"})
UNDO_WORDS = frozenset({"undo", "annulla"})

#: None: the Dice Gambit's default table (``DiceConfig``), not the card game's.
PlayersOpt = Annotated[int | None, PLAYERS.option()]
HoardOpt = Annotated[int | None, typer.Option("--hoard", help=helptext("dice.opt.hoard"))]
GambitsOpt = Annotated[int | None, typer.Option("--gambits", help=helptext("dice.opt.gambits"))]
GamingSetOpt = Annotated[
    str | None, typer.Option("--gaming-set", help=helptext("dice.opt.gaming_set"))
]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help=helptext("dice.opt.set"))]
NamesOpt = Annotated[str | None, typer.Option("--names", help=helptext("dice.opt.names"))]


def _config(
    players: int | None,
    hoard: int | None,
    gambits: int | None,
    gaming_set: str | None,
    settings: list[str] | None,
    lang: str,
    default_players: int = 4,
) -> DiceConfig:
    """The table's settings from the command line; ConfigError becomes a one-line error.

    The engine's reason stays in English (it names settings as typed); the
    sentence around it is in ``lang``.
    """
    try:
        config = DiceConfig(players=default_players)
        for text in settings or []:
            config = parse_setting(config, text)
        changes: dict[str, object] = {}
        if players is not None:
            changes["players"] = players
        if hoard is not None:
            changes["starting_hoard"] = hoard
        if gambits is not None:
            changes["gambits"] = gambits
        if gaming_set is not None:
            changes["gaming_set_owners"] = parse_seats(gaming_set, "--gaming-set")
        return replace(config, **changes).validate()  # type: ignore[arg-type]
    except ConfigError as e:
        raise UserError(t("dice.error.config", lang, reason=error_reason(e, lang))) from None


def _names(text: str | None, n: int, fallback: list[str], lang: str) -> list[str]:
    if text is None:
        return fallback
    names = [x.strip() for x in text.split(",")]
    if len(names) != n or not all(names):
        raise UserError(t("dice.error.names_count", lang, count=n))
    if len({x.lower() for x in names}) != n:
        raise UserError(t("dice.error.names_unique", lang))
    return names


class Table:
    """Drives one game in the terminal: prints events and sheets, asks people, lets bots play."""

    def __init__(
        self,
        rec: Recorder,
        names: list[str],
        bots: list[DiceBot | None],
        lang: str,
        save: Path | None = None,
        can_undo: bool = False,
    ) -> None:
        self.rec = rec
        self.lang = lang
        #: The names given (the record's); the one person against bots is shown as "You".
        self.names = names
        self.bots = bots
        people = [p for p, bot in enumerate(bots) if bot is None]
        self.me = people[0] if len(people) == 1 else None
        self.shown = shown_names(names, self.me, lang)
        self.save = save
        self.can_undo = can_undo
        self.printed = 0

    def echo_table(self) -> None:
        typer.echo("")
        for line in table_lines(tracker(self.rec.state), self.shown, self.lang, self.me):
            typer.echo(line)
        typer.echo("")

    def flush_events(self) -> None:
        log = self.rec.state.log or []
        for kind, data in log[self.printed :]:
            if kind in ("round_end", "gambit_end"):
                typer.echo("")
                lines = table_lines(data["tracker"], self.shown, self.lang, self.me)
                typer.echo("\n".join(lines))
                typer.echo("")
                continue
            text = describe((kind, data), self.shown, self.lang, self.me)
            if text is not None:
                typer.echo(text)
        self.printed = len(log)

    def write_save(self) -> None:
        if self.save is None:
            return
        tmp = self.save.with_name(self.save.name + ".tmp")
        try:
            tmp.write_text(self.rec.record.dumps() + "\n", encoding="utf-8")
            os.replace(tmp, self.save)
        except OSError as e:
            reason = e.strerror or str(e)
            raise UserError(
                t("dice.error.save", self.lang, path=str(self.save), reason=reason)
            ) from None

    def stopped(self, key: str) -> str:
        """The message ``key`` (``dice.table.eof`` ...), naming the save file if there is one."""
        if self.save is None:
            return t(key, self.lang)
        return t(key + "_saved", self.lang, path=str(self.save))

    def read(self, prompt: str) -> str:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            typer.echo("")
            raise UserError(self.stopped("dice.table.eof"))
        return line

    def ask_person(self) -> int | None:
        """A person's answer to the pending question; None if they undid a step."""
        s = self.rec.state
        d = s.pending
        assert d is not None
        if d.kind != ROLL:
            self.echo_table()
        prompt, choices = question(s, d, self.shown, self.lang, self.me)
        while True:
            text = self.read(prompt).strip()
            word = text.lower()
            if word in QUIT_WORDS:
                typer.echo(self.stopped("dice.table.stopped"))
                raise typer.Exit(0)
            if word in SHEET_WORDS:
                self.echo_table()
                continue
            if word in HELP_WORDS:
                typer.echo(
                    t("dice.table.help_undo" if self.can_undo else "dice.table.help", self.lang)
                )
                continue
            if word in UNDO_WORDS and self.can_undo:
                if not self.rec.undo():
                    typer.echo(t("dice.table.undo_none", self.lang))
                    continue
                self.printed = len(self.rec.state.log or [])
                self.write_save()
                typer.echo(t("dice.table.undone", self.lang))
                return None
            answer = parse_answer(d, text, choices, self.lang)
            if isinstance(answer, str):
                typer.echo(answer)
                continue
            return answer

    def run(self) -> None:
        self.write_save()
        while True:
            self.flush_events()
            s = self.rec.state
            if s.over:
                return
            d = s.pending
            assert d is not None
            bot = self.bots[d.seat]
            if bot is not None and d.kind != ROLL:
                # A bot answers from the legal options; an illegal one is a bug, not a user error.
                self.rec.answer(bot.choose(DiceSeatView(s, d.seat)), d.id)
            else:
                asked = self.ask_person()
                if asked is None:
                    continue
                try:
                    self.rec.answer(asked, d.id)
                except IllegalAnswer as e:  # parse_answer checks first; this is a safety net
                    typer.echo(str(e))
                    continue
            self.write_save()


def full_screen_wanted(plain: bool) -> bool:
    """The full-screen table unless ``--plain``, and only when both ends are a terminal
    (scripts, pipes and tests keep the prompts)."""
    return not plain and is_terminal(sys.stdin) and is_terminal(sys.stdout)


def run_full_screen(table: Table) -> None:
    """The game at the full-screen table (imported here: plain runs never load Textual).

    After the screen closes, a game left unfinished says, as the prompts do,
    where it is saved (the tracker's ``--save``) or that it stopped.
    """
    from dragonante.interfaces.tui.dice import DiceApp, DiceTableGame

    game = DiceTableGame(table.rec, table.names, table.bots, table.save)
    app = DiceApp(game, table.lang)
    app.run()
    if app.save_failed is not None:
        raise UserError(app.save_failed)
    if not game.over:
        typer.echo(table.stopped("dice.table.stopped"))
        return
    for line in table_lines(tracker(game.state), table.shown, table.lang, table.me):
        typer.echo(line)


def _run_table(table: Table, full_screen: bool = False) -> None:
    if full_screen:
        run_full_screen(table)
        return
    try:
        table.run()
    except KeyboardInterrupt:
        typer.echo("")
        raise UserError(table.stopped("dice.table.interrupted")) from None


@dice_app.command("play", help=helptext("dice.cmd.play"))
def play_command(
    players: PlayersOpt = None,
    humans: Annotated[
        int | None, typer.Option("--humans", help=helptext("dice.opt.humans"))
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option("--seats", help=t("dice.opt.seats", help_lang(), bots=", ".join(BOTS))),
    ] = None,
    bot: Annotated[str, typer.Option("--bot", help=helptext("dice.opt.bot"))] = "basic",
    seed: Annotated[int | None, SEED.option("dice.opt.seed")] = SEED.default,
    names: NamesOpt = None,
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
    lang: LangOpt = LANG.default,
    plain: PlainOpt = PLAIN.default,
) -> None:
    """Play Dice Gambit in the terminal against bots (or friends at the same keyboard)."""
    lang = check_lang(lang)
    if seats is not None and humans is not None:
        raise UserError(t("dice.error.seats_and_humans", lang))
    if seats is not None:
        kinds = [x.strip().lower() for x in seats.split(",")]
    else:
        n = players if players is not None else 4
        h = 1 if humans is None else humans
        if not 0 <= h <= n:
            raise UserError(t("dice.error.humans", lang, players=n, humans=h))
        kinds = [HUMAN] * h + [bot] * (n - h)
    if players is not None and players != len(kinds):
        raise UserError(t("dice.error.players_seats", lang, players=players, seats=len(kinds)))
    for k in kinds:
        if k != HUMAN and k not in BOTS:
            raise UserError(t("dice.error.seat", lang, seat=k, choices=", ".join(BOTS)))
    config = _config(len(kinds), hoard, gambits, gaming_set, settings, lang)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    # counted as at the card table: "Player 1"... among the people, "Bot 1"... among the bots
    fallback = table_names(len(kinds), [p for p, k in enumerate(kinds) if k == HUMAN], lang)
    chosen = _names(names, config.players, fallback, lang)
    bots = [None if k == HUMAN else make_bot(k, seed * 7 + p) for p, k in enumerate(kinds)]
    full_screen = full_screen_wanted(plain)
    if not full_screen:
        typer.echo(t("dice.play.intro", lang, players=config.players, seed=seed))
    table = Table(Recorder.start(config, seed, SEEDED, chosen), chosen, bots, lang)
    _run_table(table, full_screen)


@dice_app.command("track", help=helptext("dice.cmd.track"))
def track_command(
    players: PlayersOpt = None,
    names: NamesOpt = None,
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
    save: Annotated[Path | None, typer.Option("--save", help=helptext("dice.opt.save"))] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help=helptext("dice.opt.resume"))
    ] = None,
    lang: LangOpt = LANG.default,
    plain: PlainOpt = PLAIN.default,
) -> None:
    """Game-master's tracker for a table rolling real dice: it asks for every roll."""
    lang = check_lang(lang)
    full_screen = full_screen_wanted(plain)
    if resume is not None:
        if any(x is not None for x in (players, hoard, gambits, gaming_set, settings, names)):
            raise UserError(t("dice.error.resume_options", lang))
        try:
            text = resume.read_text(encoding="utf-8")
        except OSError as e:
            reason = e.strerror or str(e)
            raise UserError(t("cli.error.read", lang, path=str(resume), reason=reason)) from None
        except UnicodeDecodeError:
            raise UserError(t("dice.error.not_text", lang, path=str(resume))) from None
        if (record := _load_record(resume, text, lang)).dice != PHYSICAL:
            raise UserError(t("dice.error.not_tracked", lang, path=str(resume)))
        try:
            rec = Recorder(record)
        except RecordError as e:
            raise UserError(t("cli.error.record", lang, path=str(resume), reason=str(e))) from None
        table_names = record.names or default_names(record.config.players, lang)
        target = save or resume
        typer.echo(
            t(
                "dice.track.resuming",
                lang,
                path=str(resume),
                answers=len(record.answers),
                gambit=rec.state.gambit,
                round=rec.state.round,
            )
        )
        seats = record.config.players
        table = Table(rec, table_names, [None] * seats, lang, target, can_undo=True)
        table.printed = len(rec.state.log or [])
        if rec.state.over:
            typer.echo(t("dice.track.over", lang))
            for line in table_lines(tracker(rec.state), table_names, lang):
                typer.echo(line)
            return
    else:
        config = _config(players, hoard, gambits, gaming_set, settings, lang)
        table_names = _names(names, config.players, default_names(config.players, lang), lang)
        rec = Recorder.start(config, 0, PHYSICAL, table_names)
        table = Table(rec, table_names, [None] * config.players, lang, save, can_undo=True)
        if not full_screen:
            typer.echo(t("dice.track.intro", lang, players=config.players))
    _run_table(table, full_screen)


def _load_record(path: Path, text: str, lang: str) -> DiceRecord:
    """The saved game in ``text``; a broken file is a one-line error naming ``path``."""
    try:
        return loads(text)
    except RecordError as e:
        raise UserError(t("cli.error.record", lang, path=str(path), reason=str(e))) from None


@dice_app.command("simulate", help=helptext("dice.cmd.simulate"))
def simulate_command(
    players: PlayersOpt = None,
    games: GamesOpt = GAMES.default,
    seed: FirstSeedOpt = FIRST_SEED.default,
    bots: Annotated[
        str, BOTS_OPTION.option("dice.opt.bots", params={"bots": ", ".join(BOTS)})
    ] = "random",
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
    as_json: Annotated[bool, JSON.option("dice.opt.json_summary")] = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """Play many bot games with seeded dice, checking every invariant; summarise them."""
    lang = check_lang(lang)
    if games < 1:
        raise UserError(t("dice.error.games", lang, games=games))
    names = [b.strip() for b in bots.split(",")]
    for b in names:
        if b not in BOTS:
            raise UserError(t("dice.error.bot", lang, bot=b, choices=", ".join(BOTS)))
    config = _config(players, hoard, gambits, gaming_set, settings, lang)
    summary = simulate(config, games, seed, names)
    if as_json:
        typer.echo(json.dumps(summary))
        if not summary["ok"]:
            raise typer.Exit(1)
        return
    typer.echo(
        t(
            "dice.simulate.summary",
            lang,
            games=summary["games"],
            players=config.players,
            bots=", ".join(names),
            seed=seed,
            completed=summary["completed"],
            errors=len(summary["errors"]),
            violations=len(summary["invariant_violations"]),
            stuck=len(summary["stuck"]),
        )
    )
    typer.echo(
        t(
            "dice.simulate.means",
            lang,
            gambits=f"{summary['mean_gambits']:.2f}",
            decisions=f"{summary['mean_decisions']:.1f}",
        )
    )
    wins = ", ".join(f"{p + 1}: {w}" for p, w in enumerate(summary["wins_by_seat"]))
    typer.echo(t("dice.simulate.wins", lang, wins=wins))
    if summary["first_problem"]:
        typer.echo(t("dice.simulate.problem", lang, problem=summary["first_problem"]))
    if not summary["ok"]:
        raise typer.Exit(1)


@dice_app.command("settings", help=helptext("dice.cmd.settings"))
def settings_command(
    as_json: Annotated[bool, JSON.option("dice.opt.json_settings")] = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """List every Dice Gambit setting and its default (change them with --set KEY=VALUE).

    The list is ``key = value`` as typed after ``--set``, the same in every
    language; ``--lang`` is accepted (and checked) like on every dice command.
    """
    check_lang(lang)
    config = DiceConfig()
    if as_json:
        data = {f.name: getattr(config, f.name) for f in fields(config)}
        data["gaming_set_owners"] = list(config.gaming_set_owners)
        typer.echo(json.dumps(data))
        return
    for f in fields(config):
        value = getattr(config, f.name)
        if isinstance(value, tuple):  # seats, shown from 1 as typed on the command line
            shown = ",".join(str(p + 1) for p in value) or "none"
        else:
            shown = value
        typer.echo(f"{f.name} = {str(shown).lower() if isinstance(value, bool) else shown}")
