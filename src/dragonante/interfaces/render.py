"""The table as one seat sees it, as plain text lines (terminal today, full screen later).

Rendering is split from input and from the game loop so that a later
full-screen interface can reuse it: :func:`table_view` collects what the
seat may see (``observe(state, seat)``, scored flight totals and the
would-trigger hints, all public facts), and the ``*_lines`` functions turn
that into lines of text in the chosen language without touching the game
state again.  Nothing here reads another seat's hand: the only hand in a
view is the observing seat's own.
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass

from dragonante.cards import ALL_CARDS, CARD_TYPES, CardType
from dragonante.engine.effects import AMOUNT, CARDS, FLAG, SEAT, VISIBLE, active, holders
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, observe
from dragonante.i18n import t
from dragonante.interfaces.narrate import (
    Narrator,
    Prompt,
    ability_name,
    ability_text,
    ancestry_label,
    card_count,
    card_label,
    cards_label,
    gold,
    hand_order,
)

#: The mark after a card whose power would trigger if played now.
TRIGGER_MARK = "*"


@dataclass(slots=True)
class TableView:
    """Everything one seat (or a spectator, ``seat=None``) may see, ready to render:
    the engine's :class:`~dragonante.engine.views.Observation` and who is asked."""

    seat: int | None
    obs: Observation
    #: Whether the pending question is this seat's.
    my_question: bool = False

    @property
    def totals(self) -> list[int]:
        """Each flight's strength as scored (Dragonrider, Dracolich... applied)."""
        return self.obs.totals

    @property
    def triggers(self) -> set[int]:
        """Cards of the seat's hand whose power would trigger if played now
        (only while the seat is asked what to play)."""
        return set(self.obs.hints)


def table_view(state: GameState, seat: int | None, gm: bool = False) -> TableView:
    """Collect what ``seat`` may see of ``state`` (spectator: ``None``; ``gm``: a
    game-master, who also knows every character's D&D abilities)."""
    return from_observation(observe(state, seat, gm))


def from_observation(obs: Observation) -> TableView:
    """The view to draw from an observation (made here or received as JSON)."""
    q = obs.question
    return TableView(obs.seat, obs, obs.seat is not None and q is not None and q.seat == obs.seat)


def table_lines(view: TableView, narrator: Narrator, show_hand: bool = True) -> list[str]:
    """The whole table: header, money and piles, ante, effects, every player's
    hoard, hand size and flight, the seat's own hand, and who decides what.

    ``show_hand=False`` leaves out the hand line (the prompt lists the hand).
    """
    obs = view.obs
    lang = narrator.lang
    lines: list[str] = []
    if obs.phase == "over":
        lines.append(t("table.header.over", lang))
    elif obs.gambit == 0:  # pick 'em: no cards dealt yet, nothing else to show
        lines.append(t("table.header.setup", lang))
        if obs.specials:
            lines.append(t("table.specials", lang, cards=cards_label(obs.specials, lang)))
        return lines
    elif obs.phase == "ante":
        lines.append(t("table.header.ante", lang, gambit=obs.gambit))
    else:
        lines.append(t("table.header", lang, gambit=obs.gambit, round=obs.round))
    lines.append(
        t(
            "table.summary",
            lang,
            stakes=gold(obs.stakes, lang),
            hole=gold(obs.hole, lang),
            deck=card_count(obs.deck_size, lang),
            discard=card_count(obs.discard_size, lang),
        )
    )
    if obs.ante:
        lines.append(t("table.ante", lang, cards=cards_label(obs.ante, lang)))
    if obs.phase == "ante":
        anted = [p for p, placed in enumerate(obs.ante_placed) if placed]
        if anted:
            lines.append(t("table.anted", lang, seats=narrator.seats(anted)))
        if obs.my_ante >= 0:
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
    lines.extend(player_lines(view, narrator))
    lines.extend(ability_lines(view, narrator))
    for debtor, creditor, amount in obs.debts:
        key = "table.debt" + (".stakes" if creditor == -1 else "")
        if debtor == view.seat:
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
    if show_hand and view.seat is not None and obs.hand is not None:
        lines.append(hand_line(view, narrator))
    q = obs.question
    if q is not None and not view.my_question:
        lines.append(
            t(
                "table.deciding",
                lang,
                name=narrator.label(q.seat),
                question=narrator.question(q.kind),
            )
        )
    return lines


def player_lines(view: TableView, narrator: Narrator) -> list[str]:
    """One row per player: name (and marks), hoard, cards in hand, flight and its total."""
    obs = view.obs
    lang = narrator.lang
    n = obs.players
    names = [narrator.label(p) for p in range(n)]
    width = max(len(x) for x in [*names, t("table.col.player", lang)])
    gw = max(len(t("table.col.hoard", lang)), 5)
    hw = max(len(t("table.col.hand", lang)), 4)
    rows = [
        f"  {t('table.col.player', lang):<{width}}  {t('table.col.hoard', lang):>{gw}}  "
        f"{t('table.col.hand', lang):>{hw}}  {t('table.col.flight', lang)}"
    ]
    q = obs.question
    for p in range(n):
        flight = obs.flights[p]
        shown = cards_label(flight, lang) if flight else "-"
        notes: list[str] = []
        if obs.phase == "play" and p == obs.leader:
            notes.append(t("table.leader", lang))
        if obs.hole_owed[p]:
            notes.append(t("table.owes_hole", lang, amount=gold(obs.hole_owed[p], lang)))
        known = obs.known_in_hands.get(p)
        if known:
            notes.append(t("table.known", lang, cards=cards_label(known, lang)))
        turn = ">" if q is not None and q.seat == p else " "
        row = (
            f"{turn} {names[p]:<{width}}  {obs.hoards[p]:>{gw}}  {obs.hand_sizes[p]:>{hw}}  {shown}"
        )
        if flight:
            row += " " + t("table.total", lang, total=view.totals[p])
        if notes:
            row += "  (" + "; ".join(notes) + ")"
        rows.append(row)
    return rows


def ability_lines(view: TableView, narrator: Narrator) -> list[str]:
    """The D&D abilities as the seat may know them: one row per character with its
    known abilities (spent ones marked), how many are still unknown, its dragon
    ancestry, its disk's side (Legendary) or Diplomacy used (Emperor's Gambit)."""
    ab = view.obs.abilities
    if not ab:
        return []
    lang = narrator.lang
    n = view.obs.players
    system = t(f"ability.system.{ab['system']}.short", lang)
    lines = [
        t("table.abilities" if ab["public"] else "table.abilities.hidden", lang, system=system)
    ]
    spent: list[list[int]] = ab.get("spent") or [[] for _ in range(n)]
    for p in range(n):
        known: list[int] = ab["held"][p]
        names = [
            t("table.abilities.spent", lang, name=ability_name(a, lang))
            if a in spent[p]
            else ability_name(a, lang)
            for a in known
        ]
        unknown = ab["counts"][p] - len(known)
        if unknown == 1:
            names.append(t("table.abilities.unknown.one", lang))
        elif unknown > 1:
            names.append(t("table.abilities.unknown", lang, count=unknown))
        notes: list[str] = []
        if ab["ancestry"][p]:
            notes.append(
                t("table.abilities.ancestry", lang, color=ancestry_label(ab["ancestry"][p], lang))
            )
        if "disks" in ab:
            side = t(f"ability.disk.{ab['disks'][p]}", lang)
            notes.append(t("table.abilities.disk", lang, side=side))
        if ab.get("diplomacy_used") and ab["diplomacy_used"][p]:
            notes.append(t("table.abilities.diplomacy_used", lang))
        text = ", ".join(names) or t("table.abilities.none", lang)
        row = t("table.abilities.row", lang, name=narrator.label(p), abilities=text)
        if notes:
            row += "  (" + "; ".join(notes) + ")"
        lines.append(row)
    return lines


def ability_help_lines(abilities: list[int], lang: str) -> list[str]:
    """Each ability's name and full text (the seat's own, or a choice's)."""
    lines: list[str] = []
    for a in abilities:
        lines.append(ability_name(a, lang))
        lines.append("  " + ability_text(a, lang))
    return lines


def ability_page_lines(view: TableView, narrator: Narrator) -> list[str]:
    """The ``a`` key's page: the table's ability rows, then every ability this seat
    knows with its full text, its own first, then each opponent's known ones in
    seat order (spent ones too: a disk recharges), each named once.  A name
    alone does not say what an opponent can do to you; the rows say who holds
    which."""
    ab = view.obs.abilities
    if not ab or view.seat is None:
        return []
    players = view.obs.players
    seats = [view.seat, *(p for p in range(players) if p != view.seat)]
    known: list[int] = []
    for p in seats:
        known.extend(a for a in ab["held"][p] if a not in known)
    return ability_lines(view, narrator) + ability_help_lines(known, narrator.lang)


def hand_line(view: TableView, narrator: Narrator) -> str:
    """The seat's own hand, strongest last, marking cards that would trigger now."""
    lang = narrator.lang
    hand = hand_order(view.obs.hand or [])
    if not hand:
        return t("table.hand.empty", lang)
    shown = ", ".join(
        card_label(c, lang) + (TRIGGER_MARK if c in view.triggers else "") for c in hand
    )
    key = "table.hand.marked" if view.triggers else "table.hand"
    return t(key, lang, cards=shown, mark=TRIGGER_MARK)


def effect_notes(obs: Observation, narrator: Narrator) -> list[str]:
    """The running effects of triggered powers, so nobody has to remember them:
    one note per effect in force (``effect.<name>``, the effects table's order),
    then the eliminated seats."""
    if not obs.effects and not obs.out:
        return []  # the usual case, and the web server asks after every answer
    lang = narrator.lang
    notes: list[str] = []
    for e in VISIBLE:
        value = obs.effects.get(e.name)
        if value is None or not active(e, value):
            continue
        key = f"effect.{e.name}"
        if e.shape == CARDS:
            notes.append(t(key, lang, cards=cards_label(value, lang)))
        elif e.shape == SEAT:
            notes.append(t(key, lang, name=narrator.obj(value)))
        elif e.shape == AMOUNT:
            notes.append(t(key, lang, amount=value))
        elif e.shape == FLAG:
            notes.append(t(key, lang))
        else:
            notes.append(t(key, lang, names=narrator.seats(holders(e, value))))
    if obs.out:
        notes.append(t("effect.out", lang, names=narrator.seats(obs.out)))
    return notes


def prompt_lines(prompt: Prompt, narrator: Narrator, width: int | None = None) -> list[str]:
    """The question and its numbered choices ("  3) Red Dragon (12) *"), each
    with what it does and, for a card to play, why it would trigger or not.

    With ``width`` (a terminal's), a long label, text or why wraps under its
    own first word; a terminal's own wrap would go back to column 0 (the D&D
    table's ability texts).  Without it (a pipe, a program reading), one line
    each."""
    lang = narrator.lang
    lines = [prompt.text]
    digits = len(str(len(prompt.options)))
    under = " " * (digits + 4)  # under the label, past "  3) "
    for i, option in enumerate(prompt.options, 1):
        mark = f" {TRIGGER_MARK}" if option.triggers else ""
        lines.extend(_hang(f"  {i:>{digits}}) ", f"{option.label}{mark}", under, width))
        if option.detail:  # what the choice does: an ability's text, the flights a play completes
            lines.extend(_hang(under, option.detail, under, width))
        if option.why:  # why this card would trigger or not (the trigger rule, in words)
            lines.extend(_hang(under, option.why, under, width))
    if any(o.triggers for o in prompt.options):
        lines.append(t("prompt.trigger_legend", lang, mark=TRIGGER_MARK))
    return lines


def _hang(first: str, text: str, under: str, width: int | None) -> list[str]:
    """``first`` + ``text``, wrapped at ``width`` with the lines after the first
    starting at ``under`` (one line when ``width`` is None)."""
    if width is None:
        return [first + text]
    # a word longer than the line stays whole (a card's name is never cut)
    wrapped = textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=under,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return wrapped or [first.rstrip()]


def card_help_lines(card: int, lang: str) -> list[str]:
    """A physical card's full text: name, strength, type, power, god and ante
    abilities, and the rulebook's explanations."""
    c = ALL_CARDS[card]
    lines = [t("help.card.title", lang, label=card_label(card, lang), type=c.type.type_line(lang))]
    lines.extend(type_text_lines(c.type, lang))
    return lines


def type_text_lines(ct: CardType, lang: str) -> list[str]:
    """The texts of a card type (shared by every card of that name)."""
    lines: list[str] = []
    if ct.text(lang):
        lines.append(t("help.card.power", lang, text=ct.text(lang)))
    else:
        lines.append(t("help.card.no_power", lang))
    if ct.dragon_god_text(lang):
        lines.append(t("help.card.dragon_god", lang, text=ct.dragon_god_text(lang)))
    if ct.ante_effect_text(lang):
        lines.append(t("help.card.ante_effect", lang, text=ct.ante_effect_text(lang)))
    for note in ct.explanations.get(lang) or ct.explanations.get("en") or []:
        lines.append(t("help.card.explanation", lang, text=note))
    return lines


def _fold(text: str) -> str:
    """Lower case without accents, so "drago d'oro" finds "Drago d'Oro" and "e" finds "è"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def find_card_types(query: str, lang: str) -> list[CardType]:
    """Card types whose name (in ``lang`` or English) contains ``query``.

    A rules reference, not game information: any card may be looked up.
    """
    q = _fold(query.strip())
    if not q:
        return []
    found = [
        ct for ct in CARD_TYPES.values() if q in _fold(ct.name(lang)) or q in _fold(ct.name("en"))
    ]
    exact = [ct for ct in found if _fold(ct.name(lang)) == q or _fold(ct.name("en")) == q]
    return exact or found


def card_type_lines(ct: CardType, lang: str) -> list[str]:
    """A card type's name, strengths, type and texts (for looking a card up by name)."""
    strengths = ", ".join(str(s) for s in ct.strengths)
    lines = [
        t("help.type.title", lang, name=ct.name(lang), strengths=strengths, type=ct.type_line(lang))
    ]
    lines.extend(type_text_lines(ct, lang))
    return lines


__all__ = [
    "TRIGGER_MARK",
    "TableView",
    "ability_help_lines",
    "ability_lines",
    "ability_page_lines",
    "card_help_lines",
    "card_type_lines",
    "effect_notes",
    "find_card_types",
    "from_observation",
    "hand_line",
    "player_lines",
    "prompt_lines",
    "table_lines",
    "table_view",
]
