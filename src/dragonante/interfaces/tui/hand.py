"""The viewer's own hand: colored cards, weakest first (``hand_order``, the order of
the answers too), with the trigger mark.

Only the seat at the keyboard's hand is ever drawn, and only from its own
view; behind the hot-seat cover (no viewer) the panel is empty.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.widgets import Static

from dragonante.i18n import t
from dragonante.interfaces.narrate import hand_order
from dragonante.interfaces.render import TRIGGER_MARK
from dragonante.interfaces.tui.cards import Flow, card_badges
from dragonante.interfaces.tui.snapshot import Snapshot


def hand_text(snap: Snapshot) -> RenderableType:
    """ "Your hand:" and the cards as badges; the legend when a card would trigger."""
    view = snap.view
    lang = snap.lang
    if view.seat is None or view.obs.hand is None:
        return Text("")
    hand = hand_order(view.obs.hand)
    if not hand:
        return Text(t("table.hand.empty", lang))
    title = Text(t("tui.hand", lang), style="bold")
    legend = None
    if view.triggers:
        legend = Text(t("prompt.trigger_legend", lang, mark=TRIGGER_MARK), style="italic")
    return Flow([title, *card_badges(hand, lang, view.triggers).items], legend)


class HandPanel(Static):
    """The viewer's hand, redrawn from each new snapshot."""

    def show(self, snap: Snapshot) -> None:
        self.update(hand_text(snap))
