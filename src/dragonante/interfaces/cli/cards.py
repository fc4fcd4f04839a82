"""``dragonante cards``: list the physical cards of a set."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from dragonante.cards import ALL_CARDS, SET_GROUPS
from dragonante.interfaces.cli.app import UserError, app


@app.command("cards")
def cards_command(
    set_: Annotated[
        str,
        typer.Option("--set", help="Card set: legendary, emperors-gambit or all."),
    ] = "all",
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per card, per line.")
    ] = False,
    lang: Annotated[
        str, typer.Option("--lang", help="Language of names and texts: en or it.")
    ] = "en",
) -> None:
    """List every physical card: id, name, set, kind, alignment, colors, strength, power."""
    if set_ != "all" and set_ not in SET_GROUPS:
        raise UserError(f"unknown set {set_!r}; choose from legendary, emperors-gambit, all")
    if lang not in ("en", "it"):
        raise UserError(f"unknown language {lang!r}; choose en or it")
    sets = SET_GROUPS.get(set_, tuple(s for group in SET_GROUPS.values() for s in group))
    for c in ALL_CARDS:
        t = c.type
        if t.set not in sets:
            continue
        row = {
            "id": c.id,
            "number": c.index,
            "name": t.name(lang),
            "set": t.set,
            "kind": t.kind,
            "alignment": t.alignment,
            "colors": list(t.colors),
            "strength": c.strength,
            "power": t.text(lang),
            "dragon_god": t.dragon_god_text(lang) or None,
            "ante_effect": t.ante_effect_text(lang) or None,
        }
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
        else:
            colors = "/".join(t.colors) or "-"
            typer.echo(f"{c.id:28} {c.strength:>2}  {t.name(lang):32} {t.alignment:9} {colors}")
