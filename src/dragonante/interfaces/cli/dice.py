"""``dragonante dice``: Three-Dragon Ante: Dice Gambit, the tavern variant played with dice.

* ``dice play`` - a table of people and bots in this terminal, seeded dice,
  every roll shown and every player's tracker sheet kept;
* ``dice track`` - a game-master's tracker for a table rolling real dice: it
  asks for each roll, applies the rules, asks the players' choices, keeps the
  sheets, and with ``--save`` writes the game after every step
  (``--resume FILE`` carries on);
* ``dice simulate`` - many bot games, checked, summarised (``--json``);
* ``dice settings`` - every setting with its default.

People type their answers; a bad answer (or an impossible roll) is
explained on one line and asked again.  ``sheet`` shows the trackers,
``quit`` stops (the tracker's save file keeps the game), and in the tracker
``undo`` takes back the last answer.
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

from dragonante.dice import PHYSICAL, SEEDED, DiceConfig, IllegalAnswer
from dragonante.dice.bots import BOTS, DiceBot, DiceSeatView, make_bot
from dragonante.dice.config import ConfigError, parse_seats, parse_setting
from dragonante.dice.decisions import ROLL
from dragonante.dice.records import Recorder, RecordError, loads
from dragonante.dice.selfplay import simulate
from dragonante.dice.views import tracker
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.dice_render import (
    default_names,
    describe,
    parse_answer,
    question,
    table_lines,
)

dice_app = typer.Typer(
    help="Three-Dragon Ante: Dice Gambit - the tavern variant played with polyhedral dice.",
    no_args_is_help=True,
)
app.add_typer(dice_app, name="dice")

HUMAN = "human"

PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-p", help="Players at the table (2-6).")
]
HoardOpt = Annotated[
    int | None, typer.Option("--hoard", help="Starting dragon hoard (default 50 gold).")
]
GambitsOpt = Annotated[
    int | None, typer.Option("--gambits", help="Gambits to play (more than 1: multi-gambit).")
]
GamingSetOpt = Annotated[
    str | None,
    typer.Option(
        "--gaming-set", help="Seats (from 1) that own a gaming set and roll with advantage: 1,3."
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="Any setting as KEY=VALUE (see 'dragonante dice settings'); repeatable."
    ),
]
NamesOpt = Annotated[
    str | None, typer.Option("--names", help="Players' names in seat order: Ann,Bo,Cy.")
]


def _config(
    players: int | None,
    hoard: int | None,
    gambits: int | None,
    gaming_set: str | None,
    settings: list[str] | None,
    default_players: int = 4,
) -> DiceConfig:
    """The table's settings from the command line; ConfigError becomes a one-line error."""
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
        raise UserError(str(e)) from None


def _names(text: str | None, n: int, fallback: list[str]) -> list[str]:
    if text is None:
        return fallback
    names = [x.strip() for x in text.split(",")]
    if len(names) != n or not all(names):
        raise UserError(f"--names needs {n} non-empty names separated by commas")
    if len({x.lower() for x in names}) != n:
        raise UserError("--names: every player needs a different name")
    return names


class Table:
    """Drives one game in the terminal: prints events and sheets, asks people, lets bots play."""

    def __init__(
        self,
        rec: Recorder,
        names: list[str],
        bots: list[DiceBot | None],
        save: Path | None = None,
        can_undo: bool = False,
    ) -> None:
        self.rec = rec
        self.names = names
        self.bots = bots
        self.save = save
        self.can_undo = can_undo
        self.printed = 0

    def echo_table(self) -> None:
        typer.echo("")
        for line in table_lines(tracker(self.rec.state), self.names):
            typer.echo(line)
        typer.echo("")

    def flush_events(self) -> None:
        log = self.rec.state.log or []
        for kind, data in log[self.printed :]:
            if kind in ("round_end", "gambit_end"):
                typer.echo("")
                typer.echo("\n".join(table_lines(data["tracker"], self.names)))
                typer.echo("")
                continue
            text = describe((kind, data), self.names)
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
            raise UserError(f"cannot save to {self.save}: {e.strerror or e}") from None

    def stop_hint(self) -> str:
        if self.save is None:
            return ""
        return f"; the game is saved: dragonante dice track --resume {self.save}"

    def read(self, prompt: str) -> str:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            typer.echo("")
            raise UserError("input ended before the game finished" + self.stop_hint())
        return line

    def ask_person(self) -> int | None:
        """A person's answer to the pending question; None if they undid a step."""
        s = self.rec.state
        d = s.pending
        assert d is not None
        if d.kind != ROLL:
            self.echo_table()
        prompt, choices = question(s, d, self.names)
        while True:
            text = self.read(prompt).strip()
            word = text.lower()
            if word in ("quit", "exit"):
                typer.echo("Stopped" + self.stop_hint().replace("; the", ". The", 1) + ".")
                raise typer.Exit(0)
            if word in ("sheet", "sheets", "tracker"):
                self.echo_table()
                continue
            if word in ("help", "?"):
                extra = ", undo (take back the last answer)" if self.can_undo else ""
                typer.echo(f"Answer the question, or type: sheet, quit{extra}.")
                continue
            if word == "undo" and self.can_undo:
                if not self.rec.undo():
                    typer.echo("Nothing to undo yet.")
                    continue
                self.printed = len(self.rec.state.log or [])
                self.write_save()
                typer.echo("Undone: the last answer is taken back.")
                return None
            answer = parse_answer(d, text, choices)
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


def _run_table(table: Table) -> None:
    try:
        table.run()
    except KeyboardInterrupt:
        typer.echo("")
        raise UserError("interrupted" + table.stop_hint()) from None


@dice_app.command("play")
def play_command(
    players: PlayersOpt = None,
    humans: Annotated[
        int | None, typer.Option("--humans", help="People at the table (the rest are bots).")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option("--seats", help=f"Who sits where: human or a bot ({', '.join(BOTS)})."),
    ] = None,
    bot: Annotated[str, typer.Option("--bot", help="Bot for the seats --humans leaves.")] = "basic",
    seed: Annotated[int | None, typer.Option("--seed", help="Dice seed (default: random).")] = None,
    names: NamesOpt = None,
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
) -> None:
    """Play Dice Gambit in the terminal against bots (or friends at the same keyboard)."""
    if seats is not None and humans is not None:
        raise UserError("give --seats or --humans, not both")
    if seats is not None:
        kinds = [x.strip().lower() for x in seats.split(",")]
    else:
        n = players if players is not None else 4
        h = 1 if humans is None else humans
        if not 0 <= h <= n:
            raise UserError(f"--humans must be 0-{n}, got {h}")
        kinds = [HUMAN] * h + [bot] * (n - h)
    if players is not None and players != len(kinds):
        raise UserError(f"--players {players} but --seats names {len(kinds)} seats")
    for k in kinds:
        if k != HUMAN and k not in BOTS:
            raise UserError(f"unknown seat {k!r}; choose human or a bot: {', '.join(BOTS)}")
    config = _config(len(kinds), hoard, gambits, gaming_set, settings)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    fallback = [f"Player {p + 1}" if k == HUMAN else f"Bot {p + 1}" for p, k in enumerate(kinds)]
    table_names = _names(names, config.players, fallback)
    bots = [None if k == HUMAN else make_bot(k, seed * 7 + p) for p, k in enumerate(kinds)]
    typer.echo(f"Dice Gambit, {config.players} players, seed {seed}.")
    table = Table(Recorder.start(config, seed, SEEDED, table_names), table_names, bots)
    _run_table(table)


@dice_app.command("track")
def track_command(
    players: PlayersOpt = None,
    names: NamesOpt = None,
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Save the game to FILE after every step.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Carry on a game saved with --save (saves back to it)."),
    ] = None,
) -> None:
    """Game-master's tracker for a table rolling real dice: it asks for every roll."""
    if resume is not None:
        if any(x is not None for x in (players, hoard, gambits, gaming_set, settings, names)):
            raise UserError("--resume takes the table's settings and names from the save file")
        try:
            text = resume.read_text(encoding="utf-8")
        except OSError as e:
            raise UserError(f"cannot read {resume}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise UserError(f"{resume}: not a Dice Gambit save file (not text)") from None
        try:
            record = loads(text)
            if record.dice != PHYSICAL:
                raise RecordError("this game was played with seeded dice, not tracked")
            rec = Recorder(record)
        except RecordError as e:
            raise UserError(f"{resume}: {e}") from None
        table_names = record.names or default_names(record.config.players)
        target = save or resume
        typer.echo(
            f"Resuming the game in {resume}: {len(record.answers)} answers so far "
            f"(gambit {rec.state.gambit}, round {rec.state.round})."
        )
        table = Table(rec, table_names, [None] * record.config.players, target, can_undo=True)
        table.printed = len(rec.state.log or [])
        if rec.state.over:
            typer.echo("That game is already over.")
            for line in table_lines(tracker(rec.state), table_names):
                typer.echo(line)
            return
    else:
        config = _config(players, hoard, gambits, gaming_set, settings)
        table_names = _names(names, config.players, default_names(config.players))
        rec = Recorder.start(config, 0, PHYSICAL, table_names)
        table = Table(rec, table_names, [None] * config.players, save, can_undo=True)
        typer.echo(
            f"Dice Gambit tracker, {config.players} players. Type the value each die shows; "
            "'undo' takes back an answer, 'sheet' shows the trackers, 'quit' stops."
        )
    _run_table(table)


@dice_app.command("simulate")
def simulate_command(
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    bots: Annotated[
        str, typer.Option("--bots", help=f"Bots cycled over the seats ({', '.join(BOTS)}).")
    ] = "random",
    hoard: HoardOpt = None,
    gambits: GambitsOpt = None,
    gaming_set: GamingSetOpt = None,
    settings: SetOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play many bot games with seeded dice, checking every invariant; summarise them."""
    if games < 1:
        raise UserError(f"--games must be positive, got {games}")
    names = [b.strip() for b in bots.split(",")]
    for b in names:
        if b not in BOTS:
            raise UserError(f"unknown bot {b!r}; choose from {', '.join(BOTS)}")
    config = _config(players, hoard, gambits, gaming_set, settings)
    summary = simulate(config, games, seed, names)
    if as_json:
        typer.echo(json.dumps(summary))
        if not summary["ok"]:
            raise typer.Exit(1)
        return
    typer.echo(
        f"{summary['games']} games, {config.players} players, bots {', '.join(names)}, "
        f"seed {seed}: {summary['completed']} completed, {len(summary['errors'])} errors, "
        f"{len(summary['invariant_violations'])} with invariant violations, "
        f"{len(summary['stuck'])} stuck"
    )
    typer.echo(
        f"mean gambits {summary['mean_gambits']:.2f}, "
        f"mean decisions {summary['mean_decisions']:.1f}"
    )
    wins = summary["wins_by_seat"]
    typer.echo("wins by seat: " + ", ".join(f"{p + 1}: {w}" for p, w in enumerate(wins)))
    if summary["first_problem"]:
        typer.echo(f"first problem: {summary['first_problem']}")
    if not summary["ok"]:
        raise typer.Exit(1)


@dice_app.command("settings")
def settings_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the defaults as JSON.")] = False,
) -> None:
    """List every Dice Gambit setting and its default (change them with --set KEY=VALUE)."""
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
