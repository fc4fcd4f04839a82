"""The top of the table: the gambit, the money and piles, and one row per seat.

Every seat's hoard, hand size, ante, flight (as colored cards, with its
scored total) and marks, the stakes, the hole, debts, deck and discard
counts, and whose turn it is with what they are deciding.  Another seat's
question is named only as the kind observe() lets the viewer know (a
hidden ability question reads as "deciding"), never with its answers.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from dragonante.i18n import t
from dragonante.interfaces.narrate import card_count, card_label, cards_label, gold
from dragonante.interfaces.render import ability_lines, effect_notes
from dragonante.interfaces.tui.cards import card_badges
from dragonante.interfaces.tui.snapshot import Snapshot

#: The mark before the seat whose turn it is.
TURN_MARK = "▶"


def header_text(snap: Snapshot) -> str:
    """Gambit and round, or the set-up or game-over title; then which bots play."""
    obs = snap.view.obs
    lang = snap.lang
    if obs.phase == "over":
        text = t("tui.header.over", lang)
    elif obs.gambit == 0:
        text = t("tui.header.setup", lang)
    elif obs.phase == "ante":
        text = t("tui.header.ante", lang, gambit=obs.gambit)
    else:
        text = t("tui.header", lang, gambit=obs.gambit, round=obs.round)
    if snap.opponents:
        text += " · " + t("tui.opponents", lang, bots=snap.opponents)
    return text


def info_lines(snap: Snapshot) -> list[str]:
    """Money and piles, the ante, gambit-long effects, debts and what is in view."""
    obs = snap.view.obs
    lang = snap.lang
    narrator = snap.narrator
    lines = [
        t(
            "table.summary",
            lang,
            stakes=gold(obs.stakes, lang),
            hole=gold(obs.hole, lang),
            deck=card_count(obs.deck_size, lang),
            discard=card_count(obs.discard_size, lang),
        )
    ]
    if obs.ante:
        lines.append(t("table.ante", lang, cards=cards_label(obs.ante, lang)))
    if obs.phase == "ante" and obs.my_ante >= 0:
        lines.append(t("table.my_ante", lang, card=card_label(obs.my_ante, lang)))
    if obs.specials:
        lines.append(t("table.specials", lang, cards=cards_label(obs.specials, lang)))
    effects = effect_notes(obs, narrator)
    if effects:
        lines.append(t("table.effects", lang, effects="; ".join(effects)))
    if obs.revealed:
        lines.append(t("table.revealed", lang, cards=cards_label(obs.revealed, lang)))
    if obs.private_look:
        lines.append(t("table.look", lang, cards=cards_label(obs.private_look, lang)))
    for debtor, creditor, amount in obs.debts:
        key = "table.debt" + (".stakes" if creditor == -1 else "")
        if debtor == snap.view.seat:
            key += ".you"
        lines.append(
            t(
                key,
                lang,
                debtor=narrator.label(debtor),
                creditor=narrator.obj(creditor),
                amount=gold(amount, lang),
            )
        )
    lines.extend(ability_lines(snap.view, narrator))
    return lines


def seat_notes(snap: Snapshot, p: int) -> list[str]:
    """What else to know about seat ``p``: leads, ante down, owes the hole, known cards."""
    obs = snap.view.obs
    lang = snap.lang
    notes: list[str] = []
    if obs.phase == "play" and p == obs.leader:
        notes.append(t("table.leader", lang))
    if obs.phase == "ante" and obs.ante_placed[p]:
        notes.append(t("tui.seat.anted", lang))
    if obs.hole_owed[p]:
        notes.append(t("table.owes_hole", lang, amount=gold(obs.hole_owed[p], lang)))
    if p in obs.out:
        notes.append(t("tui.seat.out", lang))
    known = obs.known_in_hands.get(p)
    if known:
        notes.append(t("table.known", lang, cards=cards_label(known, lang)))
    return notes


def turn_text(snap: Snapshot) -> str:
    """Who is deciding what: a bot "thinking", a person "deciding: play a card", or you."""
    q = snap.view.obs.question
    lang = snap.lang
    if q is None:
        return ""
    name = snap.narrator.label(q.seat)
    if snap.thinking == q.seat:
        return t("tui.thinking", lang, name=name)
    if snap.view.my_question:
        return t("tui.your_turn", lang)
    return t("table.deciding", lang, name=name, question=snap.narrator.question(q.kind))


def seats_table(snap: Snapshot) -> Table:
    """One row per seat; the flight is drawn as colored cards and wraps."""
    obs = snap.view.obs
    lang = snap.lang
    table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column(t("table.col.player", lang), no_wrap=True)
    table.add_column(t("table.col.hoard", lang), justify="right", no_wrap=True)
    table.add_column(t("table.col.hand", lang), justify="right", no_wrap=True)
    table.add_column(t("table.col.flight", lang), ratio=1)
    q = obs.question
    for p in range(obs.players):
        flight = obs.flights[p]
        tail = Text(t("table.total", lang, total=snap.view.totals[p]) if flight else "-")
        notes = seat_notes(snap, p)
        if notes:
            tail.append("  (" + "; ".join(notes) + ")", style="italic")
        cell = card_badges(flight, lang, tail=tail)
        mark = TURN_MARK if q is not None and q.seat == p else ""
        name = Text(snap.narrator.label(p), style="bold" if p == snap.view.seat else "")
        table.add_row(mark, name, str(obs.hoards[p]), str(obs.hand_sizes[p]), cell)
    return table


class SeatsPanel(Static):
    """The header, the piles and every seat, redrawn from each new snapshot."""

    def show(self, snap: Snapshot) -> None:
        parts: list[RenderableType] = [
            Text(header_text(snap) + "   " + turn_text(snap), style="bold"),
            *(Text(line) for line in info_lines(snap)),
            seats_table(snap),
        ]
        self.update(Group(*parts))
