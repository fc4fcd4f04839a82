"""Every player's tracker sheet at once: one row per player, in turn order.

The seed's Player Tracker (:func:`dragonante.dice.views.sheet`) as a table:
the turn mark, the name with its tags (first player, gaming set, withdrawn),
the hoard (and the combined hoard over several gambits), debts owed, the
dragons as colored badges with their strengths, the total strength and the
special flights earned.  A row per player rather than a box per sheet so
that six players still fit on an 80x24 screen with room for the question
and the log.  The Dice Gambit has no hidden information, so everyone sees
the same table.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from dragonante.dice.state import FLIGHTS, STAKES
from dragonante.dice.table import EMPTY, dragon
from dragonante.i18n import t
from dragonante.interfaces.dice_render import object_names, type_name
from dragonante.interfaces.tui.cards import BADGE, NEUTRAL, Flow

#: The mark before the player whose question it is.
TURN_MARK = "▶"
#: The two dragon gods' badges: Tiamat the five-colored queen of evil dragons
#: (purple), Bahamut the Platinum Dragon; every other dragon takes its metal's
#: or color's badge from the card table, so the two games look alike.
GOD_BADGE: dict[str, tuple[str, str]] = {
    "tiamat": ("#6a2c91", "#ffffff"),
    "bahamut": ("#d8e4ef", "#000000"),
}


def dragon_style(face: int) -> Style:
    """The badge style of a dragon by its d12 face (an empty slot is neutral)."""
    if face == EMPTY:
        bg, fg = NEUTRAL
    else:
        slug = dragon(face).name.lower()
        bg, fg = GOD_BADGE.get(slug) or BADGE.get(slug, NEUTRAL)
    return Style(color=fg, bgcolor=bg, bold=True)


def dragon_badge(row: dict[str, Any], lang: str) -> Text:
    """`` Green 6 ``: the type as the sheet names it and the strength rolled."""
    if row["pending"]:
        return Text(f" {type_name(EMPTY, lang)} ", style=dragon_style(EMPTY))
    return Text(
        f" {type_name(row['face'], lang)} {row['strength']} ", style=dragon_style(row["face"])
    )


def where_text(tr: dict[str, Any], lang: str) -> str:
    """``gambit 1 of 2, round 3 of 3`` (as the plain tracker's heading says it)."""
    if tr["gambits"] > 1:
        where = t("dice.sheet.where_of", lang, gambit=tr["gambit"], gambits=tr["gambits"])
    else:
        where = t("dice.sheet.where", lang, gambit=tr["gambit"])
    if tr["round"]:
        where += ", " + t("dice.sheet.where_round", lang, round=tr["round"], rounds=tr["rounds"])
    return where


def party(to: int, names: list[str], lang: str) -> str:
    """A creditor: a player's name or the stakes."""
    return t("dice.party.stakes", lang) if to == STAKES else names[to]


def player_cell(sh: dict[str, Any], tr: dict[str, Any], names: list[str], lang: str) -> Text:
    """The name in bold, then the sheet's tags in italics."""
    tags = []
    if sh["gaming_set"]:
        tags.append(t("dice.sheet.tag.gaming_set", lang))
    if not sh["in_session"]:
        tags.append(t("dice.sheet.tag.left", lang))
    elif sh["withdrawn"]:
        tags.append(t("dice.sheet.tag.withdrawn", lang))
    if sh["seat"] == tr["first"]:
        tags.append(t("dice.sheet.tag.first", lang))
    cell = Text(names[sh["seat"]], style="bold")
    if tags:
        cell.append(" (" + ", ".join(tags) + ")", style="italic")
    if sh["withdrawn"] or not sh["in_session"]:
        cell.stylize("dim")
    return cell


def sheets_table(
    tr: dict[str, Any], names: list[str], lang: str, deciding: int | None, me: int | None = None
) -> Table:
    """Every sheet of the tracker ``tr`` (:func:`dragonante.dice.views.tracker`) as rows
    (``me``: the seat a debt owed "to you" names so)."""
    owed_to = object_names(names, me, lang)
    table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column(t("tui.dice.col.player", lang), no_wrap=True, max_width=30)
    table.add_column(t("tui.dice.col.hoard", lang), justify="right", no_wrap=True)
    table.add_column(t("tui.dice.col.debts", lang), justify="right", no_wrap=True)
    table.add_column(t("tui.dice.col.dragons", lang), ratio=1)
    table.add_column(t("tui.dice.col.total", lang), justify="right", no_wrap=True)
    table.add_column(t("tui.dice.col.flights", lang), no_wrap=False)
    seats = tr["order"] or list(range(len(tr["sheets"])))
    for p in seats:
        sh = tr["sheets"][p]
        hoard = str(sh["hoard"])
        if tr["combined"]:
            hoard = t(
                "tui.dice.hoard_combined", lang, hoard=sh["hoard"], combined=sh["combined_hoard"]
            )
        notes = [
            t("dice.sheet.owes", lang, amount=d["amount"], party=party(d["to"], owed_to, lang))
            for d in sh["debts"]
        ]
        tail = Text("; ".join(notes), style="italic") if notes else None
        badges = [dragon_badge(row, lang) for row in sh["dragons"]]
        dragons: RenderableType = Flow(badges, tail) if badges or tail else Text("-")
        earned = [t(f"dice.flight_box.{f}", lang) for f in FLIGHTS if sh["flights"][f]]
        table.add_row(
            TURN_MARK if p == deciding else "",
            player_cell(sh, tr, names, lang),
            hoard,
            str(sh["debts_owed"]) if sh["debts_owed"] else "-",
            dragons,
            str(sh["total_strength"]),
            ", ".join(earned) or "-",
        )
    return table


class SheetsPanel(Static):
    """The heading (stakes, gambit, round, who is deciding) and every player's sheet."""

    def show(
        self,
        tr: dict[str, Any],
        names: list[str],
        lang: str,
        deciding: int | None,
        status: str,
        me: int | None = None,
    ) -> None:
        stakes = t("unit.gold", lang, n=tr["stakes"])
        head = Text(t("dice.sheet.stakes", lang, stakes=stakes, where=where_text(tr, lang)))
        head.stylize("bold")
        if status:
            head.append("   " + status, style="bold italic")
        self.update(Group(head, sheets_table(tr, names, lang, deciding, me)))
