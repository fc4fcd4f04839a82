"""``dragonante cards``: list the physical cards of a set.

The listing is for reading: a header, then each card's id, strength, name,
set, kind, alignment and colors on one line and its power (with a Dragon
God's ability and an ante effect) indented under it, every word in the
chosen language.  ``--json`` gives the same per card, ids kept, for scripts.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from dragonante.cards import ALL_CARDS, SET_GROUPS
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError, app
from dragonante.interfaces.cli.run_options import JSON, LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext


@app.command("cards", help=helptext("cmd.cards"))
def cards_command(
    set_: Annotated[str, typer.Option("--set", help=helptext("opt.cards_set"))] = "all",
    as_json: Annotated[bool, JSON.option("opt.cards_json")] = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """List every physical card: id, name, set, kind, alignment, colors, strength, power."""
    lang = check_lang(lang)
    if set_ != "all" and set_ not in SET_GROUPS:
        raise UserError(t("cli.error.cards_set", lang, set=set_))
    sets = SET_GROUPS.get(set_, tuple(s for group in SET_GROUPS.values() for s in group))
    if not as_json:
        typer.echo(
            f"{t('cards.col.id', lang):28} {t('cards.col.strength', lang):>3}  "
            f"{t('cards.col.name', lang)} ({t('cards.col.more', lang)})"
        )
        typer.echo(f"{'':4}{t('cards.col.power', lang)}")
    for c in ALL_CARDS:
        ty = c.type
        if ty.set not in sets:
            continue
        row = {
            "id": c.id,
            "number": c.index,
            "name": ty.name(lang),
            "set": ty.set,
            "kind": ty.kind,
            "alignment": ty.alignment,
            "colors": list(ty.colors),
            "strength": c.strength,
            "power": ty.text(lang),
            "dragon_god": ty.dragon_god_text(lang) or None,
            "ante_effect": ty.ante_effect_text(lang) or None,
        }
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
        else:
            # The listing is for reading, so words are translated; --json keeps the ids.
            colors = "/".join(t(f"color.{color}", lang) for color in ty.colors) or "-"
            alignment = t(f"card.alignment.{ty.alignment}", lang)
            kind = t(f"card.kind.{ty.kind}", lang)
            more = f"{ty.set}, {kind}, {alignment}, {colors}"
            typer.echo(f"{c.id:28} {c.strength:>3}  {ty.name(lang)} ({more})")
            typer.echo(f"{'':4}{row['power']}")
            if row["dragon_god"]:
                typer.echo(f"{'':4}" + t("cards.dragon_god", lang, text=row["dragon_god"]))
            if row["ante_effect"]:
                typer.echo(f"{'':4}" + t("cards.ante_effect", lang, text=row["ante_effect"]))
