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

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from dragonante.cards import ALL_CARDS, CARD_TYPES, CardType
from dragonante.engine import decisions as D
from dragonante.engine.flow import scoring_totals, would_trigger
from dragonante.engine.state import GameState
from dragonante.engine.views import observe
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
    """Everything one seat (or a spectator, ``seat=None``) may see, ready to render."""

    seat: int | None
    obs: dict[str, Any]
    #: Each flight's strength as scored (Dragonrider, Dracolich... applied).
    totals: list[int]
    #: Cards of the seat's hand whose power would trigger if played now
    #: (only while it is this seat's turn to play).
    triggers: set[int] = field(default_factory=set)
    #: Whether the pending question is this seat's.
    my_question: bool = False


def table_view(state: GameState, seat: int | None, gm: bool = False) -> TableView:
    """Collect what ``seat`` may see of ``state`` (spectator: ``None``; ``gm``: a
    game-master, who also knows every character's D&D abilities)."""
    obs = observe(state, seat, gm)
    d = state.pending
    mine = seat is not None and d is not None and d.seat == seat
    triggers: set[int] = set()
    if mine and d is not None and d.kind == D.PLAY and seat is not None:
        triggers = {c for c in obs["hand"] if would_trigger(state, seat, c)}
    return TableView(seat, obs, scoring_totals(state), triggers, mine)


def table_lines(view: TableView, narrator: Narrator, show_hand: bool = True) -> list[str]:
    """The whole table: header, money and piles, ante, effects, every player's
    hoard, hand size and flight, the seat's own hand, and who decides what.

    ``show_hand=False`` leaves out the hand line (the prompt lists the hand).
    """
    obs = view.obs
    lang = narrator.lang
    lines: list[str] = []
    if obs["phase"] == "over":
        lines.append(t("table.header.over", lang))
    elif obs["gambit"] == 0:  # pick 'em: no cards dealt yet, nothing else to show
        lines.append(t("table.header.setup", lang))
        if obs["specials"]:
            lines.append(t("table.specials", lang, cards=cards_label(obs["specials"], lang)))
        return lines
    elif obs["phase"] == "ante":
        lines.append(t("table.header.ante", lang, gambit=obs["gambit"]))
    else:
        lines.append(t("table.header", lang, gambit=obs["gambit"], round=obs["round"]))
    lines.append(
        t(
            "table.summary",
            lang,
            stakes=gold(obs["stakes"], lang),
            hole=gold(obs["hole"], lang),
            deck=card_count(obs["deck_size"], lang),
            discard=card_count(obs["discard_size"], lang),
        )
    )
    if obs["ante"]:
        lines.append(t("table.ante", lang, cards=cards_label(obs["ante"], lang)))
    if obs["phase"] == "ante":
        anted = [p for p, placed in enumerate(obs["ante_placed"]) if placed]
        if anted:
            lines.append(t("table.anted", lang, seats=narrator.seats(anted)))
        if obs["my_ante"] >= 0:
            lines.append(t("table.my_ante", lang, card=card_label(obs["my_ante"], lang)))
    if obs["specials"]:
        lines.append(t("table.specials", lang, cards=cards_label(obs["specials"], lang)))
    effects = effect_notes(obs, narrator)
    if effects:
        lines.append(t("table.effects", lang, effects="; ".join(effects)))
    if obs["revealed"]:
        lines.append(t("table.revealed", lang, cards=cards_label(obs["revealed"], lang)))
    if obs["private_look"]:
        lines.append(t("table.look", lang, cards=cards_label(obs["private_look"], lang)))
    lines.extend(player_lines(view, narrator))
    lines.extend(ability_lines(view, narrator))
    for debtor, creditor, amount in obs["debts"]:
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
    if show_hand and view.seat is not None and obs["hand"] is not None:
        lines.append(hand_line(view, narrator))
    q = obs["question"]
    if q is not None and not view.my_question:
        lines.append(
            t(
                "table.deciding",
                lang,
                name=narrator.label(q["seat"]),
                question=narrator.question(q["kind"]),
            )
        )
    return lines


def player_lines(view: TableView, narrator: Narrator) -> list[str]:
    """One row per player: name (and marks), hoard, cards in hand, flight and its total."""
    obs = view.obs
    lang = narrator.lang
    n = obs["players"]
    names = [narrator.label(p) for p in range(n)]
    width = max(len(x) for x in [*names, t("table.col.player", lang)])
    gw = max(len(t("table.col.hoard", lang)), 5)
    hw = max(len(t("table.col.hand", lang)), 4)
    rows = [
        f"  {t('table.col.player', lang):<{width}}  {t('table.col.hoard', lang):>{gw}}  "
        f"{t('table.col.hand', lang):>{hw}}  {t('table.col.flight', lang)}"
    ]
    q = obs["question"]
    for p in range(n):
        flight = obs["flights"][p]
        shown = cards_label(flight, lang) if flight else "-"
        notes: list[str] = []
        if obs["phase"] == "play" and p == obs["leader"]:
            notes.append(t("table.leader", lang))
        if obs["hole_owed"][p]:
            notes.append(t("table.owes_hole", lang, amount=gold(obs["hole_owed"][p], lang)))
        known = obs["known_in_hands"].get(p)
        if known:
            notes.append(t("table.known", lang, cards=cards_label(known, lang)))
        turn = ">" if q is not None and q["seat"] == p else " "
        row = (
            f"{turn} {names[p]:<{width}}  {obs['hoards'][p]:>{gw}}  {obs['hand_sizes'][p]:>{hw}}  "
            f"{shown}"
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
    ab = view.obs.get("abilities")
    if not ab:
        return []
    lang = narrator.lang
    n = view.obs["players"]
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


def hand_line(view: TableView, narrator: Narrator) -> str:
    """The seat's own hand, strongest last, marking cards that would trigger now."""
    lang = narrator.lang
    hand = hand_order(view.obs["hand"] or [])
    if not hand:
        return t("table.hand.empty", lang)
    shown = ", ".join(
        card_label(c, lang) + (TRIGGER_MARK if c in view.triggers else "") for c in hand
    )
    key = "table.hand.marked" if view.triggers else "table.hand"
    return t(key, lang, cards=shown, mark=TRIGGER_MARK)


def effect_notes(obs: dict[str, Any], narrator: Narrator) -> list[str]:
    """Gambit-long effects of triggered powers, so nobody has to remember them."""
    lang = narrator.lang
    notes: list[str] = []
    if obs["druid"]:
        notes.append(t("effect.druid", lang))
    if obs["priest"]:
        notes.append(t("effect.priest", lang))
    if obs["merchant_prince"] >= 0:
        notes.append(t("effect.merchant_prince", lang, name=narrator.obj(obs["merchant_prince"])))
    if obs["archmage"]:
        notes.append(t("effect.archmage", lang, names=narrator.seats(obs["archmage"])))
    if obs["monarch"]:
        notes.append(t("effect.monarch", lang, names=narrator.seats(obs["monarch"])))
    if obs["warlord"]:
        notes.append(t("effect.warlord", lang, names=narrator.seats(obs["warlord"])))
    if any(obs["dracolich"]):
        holders = [p for p, k in enumerate(obs["dracolich"]) if k]
        notes.append(t("effect.dracolich", lang, names=narrator.seats(holders)))
    if obs["wild"]:
        notes.append(t("effect.wild", lang, cards=cards_label(obs["wild"], lang)))
    if obs["dragonrider"]:
        notes.append(t("effect.dragonrider", lang, cards=cards_label(obs["dragonrider"], lang)))
    if any(obs["emperor"]):
        holders = [p for p, k in enumerate(obs["emperor"]) if k]
        notes.append(t("effect.emperor", lang, names=narrator.seats(holders)))
    if obs["score_round"] > 3:
        notes.append(t("effect.score_round", lang, round=obs["score_round"]))
    if obs["mortal_flights"]:
        notes.append(t("effect.mortal_flights", lang, names=narrator.seats(obs["mortal_flights"])))
    if obs["out"]:
        notes.append(t("effect.out", lang, names=narrator.seats(obs["out"])))
    return notes


def prompt_lines(prompt: Prompt, narrator: Narrator) -> list[str]:
    """The question and its numbered choices ("  3) Red Dragon (12) *")."""
    lang = narrator.lang
    lines = [prompt.text]
    width = len(str(len(prompt.options)))
    for i, option in enumerate(prompt.options, 1):
        mark = f" {TRIGGER_MARK}" if option.triggers else ""
        lines.append(f"  {i:>{width}}) {option.label}{mark}")
        if option.detail:  # what the choice does: an ability's text, the flights a play completes
            lines.append(f"  {'':>{width}}  {option.detail}")
    if any(o.triggers for o in prompt.options):
        lines.append(t("prompt.trigger_legend", lang, mark=TRIGGER_MARK))
    return lines


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
    "card_help_lines",
    "card_type_lines",
    "effect_notes",
    "find_card_types",
    "hand_line",
    "player_lines",
    "prompt_lines",
    "table_lines",
    "table_view",
]
