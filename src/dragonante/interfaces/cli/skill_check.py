"""``dragonante skill-check``: Gamblers Unleashed, one d20 check instead of a game.

    dragonante skill-check --skill persuasion --difficulty hard --modifier 5
    dragonante skill-check --dc 18 --modifier 3 --modifier 2 --roll 13
    dragonante skill-check --advantage --roll 4 --roll 17 --json --lang it

Legendary Appendix 5: "pick up the d20 instead of the cards".  The
character makes a Sleight of Hand or Persuasion check; the difficulty's DC
comes from the D&D 5e table (easy 10, medium 15, hard 20, harder 25) unless
``--dc`` says otherwise.  ``--modifier`` is repeatable and its values are
added (an ability modifier and a proficiency bonus, say).  The d20 is the
one the game-master typed in with ``--roll`` (twice with advantage or
disadvantage), or rolled here from ``--seed`` (a random seed, printed, if
none is given).  The rules are :mod:`dragonante.engine.skill_check`.
"""

from __future__ import annotations

import json
import secrets
from typing import Annotated

import typer

from dragonante.engine.skill_check import (
    ADVANTAGE,
    DEFAULT_DIFFICULTY,
    DIE,
    DIFFICULTIES,
    DISADVANTAGE,
    NORMAL,
    SKILLS,
    SkillCheck,
    dice_for,
    resolve,
    roll_d20s,
)
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import JSON, LANG, SEED, JsonOpt, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import cli_name, engine_name, helptext
from dragonante.interfaces.events import skill_check_why

#: Italian names typed on the command line mean the same skills and difficulties.
SKILL_ALIASES = {"rapidita_di_mano": "sleight_of_hand", "rapidità_di_mano": "sleight_of_hand"}
SKILL_ALIASES["persuasione"] = "persuasion"
DIFFICULTY_ALIASES = {
    "facile": "easy",
    "media": "medium",
    "difficile": "hard",
    "difficilissima": "harder",
}


@app.command("skill-check", help=helptext("skill_check.help"))
def skill_check_command(
    skill: Annotated[
        str, typer.Option("--skill", help=helptext("skill_check.opt.skill"))
    ] = "sleight-of-hand",
    difficulty: Annotated[
        str | None, typer.Option("--difficulty", help=helptext("skill_check.opt.difficulty"))
    ] = None,
    dc: Annotated[int | None, typer.Option("--dc", help=helptext("skill_check.opt.dc"))] = None,
    modifier: Annotated[
        list[int] | None, typer.Option("--modifier", help=helptext("skill_check.opt.modifier"))
    ] = None,
    roll: Annotated[
        list[int] | None, typer.Option("--roll", help=helptext("skill_check.opt.roll"))
    ] = None,
    seed: Annotated[int | None, SEED.option("skill_check.opt.seed")] = SEED.default,
    advantage: Annotated[
        bool, typer.Option("--advantage", help=helptext("skill_check.opt.advantage"))
    ] = False,
    disadvantage: Annotated[
        bool, typer.Option("--disadvantage", help=helptext("skill_check.opt.disadvantage"))
    ] = False,
    as_json: JsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """One d20 skill check instead of a game (Legendary Appendix 5)."""
    lang = check_lang(lang)
    skill_name = engine_name(skill)
    skill_name = SKILL_ALIASES.get(skill_name, skill_name)
    if skill_name not in SKILLS:
        choices = ", ".join(cli_name(s) for s in SKILLS)
        raise UserError(t("skill_check.error.skill", lang, skill=skill, choices=choices))
    level: str | None = None
    if difficulty is not None or dc is None:
        level = engine_name(difficulty or DEFAULT_DIFFICULTY)
        level = DIFFICULTY_ALIASES.get(level, level)
        if level not in DIFFICULTIES:
            choices = ", ".join(DIFFICULTIES)
            raise UserError(
                t("skill_check.error.difficulty", lang, difficulty=difficulty, choices=choices)
            )
    if dc is not None:
        if dc < 1:
            raise UserError(t("skill_check.error.dc", lang, dc=dc))
        level = None  # --dc overrides the difficulty's number
    target = dc if dc is not None else DIFFICULTIES[level or DEFAULT_DIFFICULTY]
    # 5e: advantage and disadvantage together cancel out.
    mode = NORMAL
    if advantage != disadvantage:
        mode = ADVANTAGE if advantage else DISADVANTAGE
    need = dice_for(mode)
    if roll:
        if seed is not None:
            raise UserError(t("skill_check.error.seed_and_roll", lang))
        for r in roll:
            if not 1 <= r <= DIE:
                raise UserError(t("skill_check.error.roll", lang, roll=r))
        if len(roll) != need:
            key = "skill_check.error.rolls_one" if need == 1 else "skill_check.error.rolls_two"
            raise UserError(t(key, lang, given=len(roll)))
        rolls = tuple(roll)
    else:
        if seed is None:
            seed = secrets.randbelow(2**31)
        rolls = roll_d20s(seed, mode)
    check = resolve(skill_name, target, sum(modifier or ()), rolls, mode)
    if as_json:
        data = {
            "skill": check.skill,
            "difficulty": level,
            "dc": check.dc,
            "modifiers": list(modifier or ()),
            "modifier": check.modifier,
            "mode": check.mode,
            "rolls": list(check.rolls),
            "roll": check.roll,
            "total": check.total,
            "success": check.success,
            # what it means at the table: the gambler wins the game and its gold, or not
            "wins_the_game": check.success,
            "rolled_by": "program" if not roll else "game_master",
            "seed": seed if not roll else None,
            # the rule behind it, as every event's (interfaces/events.py)
            "why": skill_check_why(lang).to_dict(),
        }
        typer.echo(json.dumps(data, indent=2))
        return
    for line in check_lines(check, level, None if roll else seed, lang):
        typer.echo(line)


def signed(n: int) -> str:
    """``+ 3`` or ``- 1``: the modifier as it is added."""
    return f"+ {n}" if n >= 0 else f"- {-n}"


def check_lines(check: SkillCheck, level: str | None, seed: int | None, lang: str) -> list[str]:
    """The check told in sentences: what was rolled against what, and the outcome."""
    skill = t(f"skill_check.skill.{check.skill}", lang)
    if level is not None:
        name = t(f"skill_check.difficulty.{level}", lang)
        lines = [t("skill_check.title", lang, skill=skill, dc=check.dc, difficulty=name)]
    else:
        lines = [t("skill_check.title_dc", lang, skill=skill, dc=check.dc)]
    if check.mode == NORMAL:
        lines.append(t("skill_check.roll", lang, roll=check.roll))
    else:
        first, second = check.rolls
        key = (
            "skill_check.roll.advantage"
            if check.mode == ADVANTAGE
            else "skill_check.roll.disadvantage"
        )
        lines.append(t(key, lang, first=first, second=second, roll=check.roll))
    if seed is None:
        lines.append(t("skill_check.rolled_by_gm", lang))
    else:
        lines.append(t("skill_check.rolled_by_program", lang, seed=seed))
    lines.append(
        t(
            "skill_check.total",
            lang,
            roll=check.roll,
            modifier=signed(check.modifier),
            total=check.total,
            dc=check.dc,
        )
    )
    outcome = "success" if check.success else "failure"
    lines.append(t(f"skill_check.{outcome}", lang))
    # Legendary Appendix 5: the check says whether the gambler "can manipulate their
    # way to victory": what it means for the game and its gold (docs/cli.md).
    lines.append(t(f"skill_check.outcome.{outcome}", lang))
    return lines
