"""The table of events: every kind the engines log, with its fields, its audience and its rule.

The card engine logs ``(visibility, kind, data)`` and the Dice Gambit
``(kind, data)``; people read them as sentences (:mod:`.narrate`,
:mod:`.dice_render`) and may ask "why?" of any of them.  This module is the
one place that says, for each kind, what it carries (``fields``), whom it
concerns (``subject``: the field naming the seat it is about, the one a
sentence says "you" to; ``seen``: told to everyone, to the seats it names,
or either, by the table's options) and the rule behind it: a rule message
(``why.<rule>`` in the catalogues, one or two sentences in the project's
own words) and where the books say it (:class:`Ref`: a book and a section
heading as ``tools/extract_clauses.py`` cut them into
``scenarios/clauses.json``).

Many events are steps of something else: a triggered power steals, gives
cards and draws; an ability draws or makes someone pay.  Their row says so
(``cause``), and :func:`explain` then gives the power's card text (as the
``c`` card view shows it) or the ability's text instead of a generic rule,
from the ``power`` or ``ability_used`` event before them in the same run
(both public: nothing is looked up that the seat has not been told).  A why
depends only on the events handed over, which are already what the seat may
see (``events_for``), so it can never name a hidden card.

Adding an event kind is one :class:`EventKind` row here plus its
``why.<rule>`` message in each language (``docs/engine.md``, "An event's
rule"); ``tests/interfaces/test_events.py`` fails on a kind the engines
emit without a row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from dragonante.cards import ALL_CARDS
from dragonante.engine.abilities.catalog import ABILITIES, KEY
from dragonante.engine.config import GameConfig
from dragonante.engine.tables import ANTE_EFFECT
from dragonante.i18n import has, t

# --- the games ------------------------------------------------------------------

#: The card game's log (``dragonante.engine``), every ruleset, with the D&D abilities.
CARD: Final = "card"
#: The Dice Gambit's own log (``dragonante.dice``).
DICE: Final = "dice"
#: Gamblers Unleashed: one d20 check instead of a game (``skill-check``; one result, no log).
CHECK: Final = "check"
GAMES: Final = (CARD, DICE, CHECK)

# --- whom it is told to ------------------------------------------------------------

#: Everyone at the table (and spectators).
PUBLIC: Final = "public"
#: Only the seats it names (a card drawn, a hand looked at).
PRIVATE: Final = "private"
#: Public or private by the table's options (hidden or public abilities, pick 'em).
EITHER: Final = "either"
AUDIENCES: Final = (PUBLIC, PRIVATE, EITHER)

# --- what made it happen -----------------------------------------------------------

#: A rule of its own.
RULE: Final = "rule"
#: Always a step of the power or ability that is running (its text explains it).
PART: Final = "part"
#: A step of the running power or ability if one is running, else a rule of its own
#: (gold paid, cards drawn: powers, abilities and the gambit's steps all do that).
MAYBE: Final = "maybe"
#: A rule of its own that does not end the running power or ability (the deck
#: reshuffled while a power draws, an answer given for the only choice).
ASIDE: Final = "aside"
CAUSES: Final = (RULE, PART, MAYBE, ASIDE)

# --- the books, as clauses.json names them -----------------------------------------

LEGENDARY: Final = "Legendary"
EMPERORS_GAMBIT: Final = "Emperor's Gambit"
DICE_GAMBIT: Final = "Dice Gambit"
#: Each book's catalogue word (``why.book.<slug>``).
BOOK_SLUGS: Final = {
    LEGENDARY: "legendary",
    EMPERORS_GAMBIT: "emperors_gambit",
    DICE_GAMBIT: "dice",
}
#: Which book a ruleset follows first (the original edition's rules are read
#: from the Legendary book: Emperor's Gambit lists how it changed them).
RULESET_BOOKS: Final = {
    "legendary": LEGENDARY,
    "original": LEGENDARY,
    "emperors_gambit": EMPERORS_GAMBIT,
}
#: Which book an ability system comes from (``docs/abilities.md``).
SYSTEM_BOOKS: Final = {"disks": LEGENDARY, "skills": EMPERORS_GAMBIT}


@dataclass(frozen=True, slots=True)
class Ref:
    """Where a book says it: the book and the section heading, as printed."""

    book: str
    section: str


def L(section: str) -> Ref:  # a book's initial, as the docs cite it
    return Ref(LEGENDARY, section)


def EG(section: str) -> Ref:
    return Ref(EMPERORS_GAMBIT, section)


def DG(section: str) -> Ref:
    return Ref(DICE_GAMBIT, section)


#: The D&D ability rules' sections: the disks (Legendary Appendix 5) have one
#: section per ability, the skills (Emperor's Gambit Appendix 2) share one.
_DISK_CATEGORIES: Final = {
    "card_draw": "Card Draw",
    "ante_manipulation": "Ante Manipulation",
    "card_denial": "Card Denial",
}
_DISKS_RULE: Final = L("Both Games Together: 3DA with D&D")
_SKILLS_RULE: Final = EG("SPECIAL ABILITIES")


def ability_ref(key: str) -> Ref:
    """The section that gives one ability's rule."""
    info = ABILITIES[KEY.index(key)]
    if info.system == "disks":
        name = t(f"ability.{key}.name", "en")
        return L(f"{name} ({_DISK_CATEGORIES[info.kind]})")
    return _SKILLS_RULE


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of event: what it carries, whom it concerns, and the rule behind it."""

    kind: str
    game: str
    #: The data fields, every one of them (an event carries exactly these; the
    #: narrator may meet fewer in old records).
    fields: tuple[str, ...]
    #: The rule's message: ``why.<rule>`` (several kinds may share one rule).
    rule: str
    #: Where the books say it, in book order (the table's own book is cited first).
    refs: tuple[Ref, ...] = ()
    #: The field naming the seat it is about ("you" when it is the reader's).
    subject: str | None = None
    seen: str = PUBLIC
    cause: str = RULE
    #: The field naming the card whose text is the rule (a power, an ante effect).
    card: str = ""
    #: The ability whose text is the rule: a field naming it, or its key.
    ability: str = ""
    #: Its rule governs the gold and cards that move right after it (the
    #: ante's payments, a purchase's price and cards, a flight's reward).
    leads: bool = False
    #: Which variant of its ``event.<kind>`` message the narrator says, from its
    #: data: the suffix (``.triggered``, ``.stakes``...; "" for the plain one).
    variant: Callable[[dict[str, Any]], str] | None = None

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"event {self.kind}: unknown game {self.game!r}")
        if self.seen not in AUDIENCES:
            raise ValueError(f"event {self.kind}: unknown audience {self.seen!r}")
        if self.cause not in CAUSES:
            raise ValueError(f"event {self.kind}: unknown cause {self.cause!r}")
        for name in (self.subject, self.card):
            if name and name not in self.fields:
                raise ValueError(f"event {self.kind}: {name!r} is not one of its fields")

    @property
    def key(self) -> str:
        """The rule's catalogue key."""
        prefix = "why.dice." if self.game == DICE else "why."
        return prefix + self.rule


def _card(kind: str, fields: str, rule: str, *refs: Ref, **kw: Any) -> EventKind:
    return EventKind(kind, CARD, tuple(fields.split()), rule, refs, **kw)


def _dice(kind: str, fields: str, rule: str, *refs: Ref, **kw: Any) -> EventKind:
    return EventKind(kind, DICE, tuple(fields.split()), rule, refs, **kw)


_ANTE = (L("Step 1: Ante"), EG("1. ANTE"))
_PLAY = (L("Step 2: Play Cards"), EG("2. PLAY CARDS"))
_TRIGGER = (L("Triggering Powers"), EG("TRIGGERING POWERS"))
_WINNER = (L("Step 3: Determine Gambit Winner"), EG("3. DETERMINE GAMBIT WINNER"))
_HOLE = (L("Step 4: Pay Into the Hole and Check for Game End"),)
_DEBTS = (EG("4. SETTLE DEBTS AND CHECK FOR GAME END"), EG("GOING INTO DEBT"))
_REWARDS = (L("Special-Flight Rewards"), EG("SPECIAL-FLIGHT REWARDS"))
_STAKES = (L("No Gold in the Stakes"), EG("NO GOLD IN THE STAKES"))
_DRAW = (L("Step 5: Draw Cards"), EG("5. DRAW CARDS"))
_WIN = (L("WINNING THE GAME"), EG("WINNING THE GAME"))
_ENDINGS = (EG("OPTIONAL RULES"),)
_OPTIONS = (L("In-World Options"),)
_ABILITIES = (_DISKS_RULE, _SKILLS_RULE)
_PAY = (L("Losing Your Hoard"), EG("GOING INTO DEBT"))


def _to(d: dict[str, Any]) -> str:
    return ".stakes" if d["to"] == -1 else ".seat"


def _buy(d: dict[str, Any]) -> str:
    if d["card"] < 0:
        return ".none"
    return ".self" if d["to"] == d["seat"] else _to(d)


def _dealt(d: dict[str, Any]) -> str:
    if not d["abilities"]:
        return ".none"
    return ".color" if d.get("color") else ""


_REPLACED = {"copper": ".deck", "trickster": ".deck", "wyrmling": ".hand"}

#: The message variants, by kind: which ``event.<kind>...`` sentence the data calls for.
VARIANTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "play": lambda d: ".triggered" if d["triggered"] else "",
    "pay": _to,
    "buy": _buy,
    "draw": lambda d: ".short" if d["drawn"] < d["asked"] else "",
    "gambit_start": lambda d: ".carried" if d["stakes"] else "",
    "blue_mode": lambda d: f".{int(d['mode'])}",
    "replace": lambda d: _REPLACED.get(str(d.get("how")), ""),
    "ante_effect": lambda d: f".{d['effect']}",
    "debt_paid": _to,
    "game_over": lambda d: ".tie" if len(d["winners"]) > 1 else "",
    "hole_won": lambda d: ".shared" if len(d["seats"]) > 1 else "",
    "abilities_dealt": _dealt,
    "ability_used": lambda d: ".color" if d.get("color") else "",
}

#: Every kind of the card game's log (``ev(...)`` in ``dragonante.engine``).
_CARD_ROWS: Final[tuple[EventKind, ...]] = (
    # setting up and the ante
    _card("setup", "players gold deck", "setup", L("SETUP"), EG("SETUP"), leads=True),
    _card("specials_shown", "cards", "show_em", *_OPTIONS),
    _card("pick_special", "seat card", "pick_em", *_OPTIONS, subject="seat", seen=EITHER),
    _card("gambit_start", "gambit stakes", "gambit", L("Gambit Sequence"), EG("Gambit Sequence")),
    _card("ante_chosen", "seat card", "ante", *_ANTE, subject="seat", seen=PRIVATE),
    _card("ante_placed", "seat", "ante", *_ANTE, subject="seat"),
    _card("ante_reveal", "cards", "ante_reveal", *_ANTE),
    _card("ante_redo", "", "ante_redo", *_ANTE),
    _card("ante_paid", "leader amount", "ante_paid", *_ANTE, subject="leader", leads=True),
    _card(
        "ante_effect",
        "effect amount seat payment",
        "ante_effect",
        EG("ANTE EFFECTS"),
        subject="seat",
    ),
    # the rounds
    _card("round_start", "round leader", "round_start", *_PLAY, subject="leader"),
    _card("turn_skipped", "seat", "turn_skipped", *_PLAY, subject="seat"),
    _card("play", "seat card triggered", "play", *_TRIGGER, subject="seat"),
    _card("power", "seat card this", "power", *_TRIGGER, card="card"),
    _card("power_unsupported", "seat card", "power", *_TRIGGER, card="card"),
    _card("round_end", "round leader", "round_end", *_PLAY, subject="leader"),
    _card(
        "auto_answer",
        "seat question answer",
        "auto_answer",
        subject="seat",
        seen=PRIVATE,
        cause=ASIDE,
    ),
    # gold and cards, by whatever rule or power
    _card("pay", "payer to amount paid short", "pay", *_PAY, subject="payer", cause=MAYBE),
    _card("steal", "seat amount taken", "steal", *_STAKES, subject="seat", cause=MAYBE),
    _card("stakes_empty", "", "stakes_empty", *_STAKES),
    _card(
        "reshuffle", "size", "reshuffle", L("No Cards in Deck"), EG("NO CARDS IN DECK"), cause=ASIDE
    ),
    _card("draw_card", "seat card", "draw", *_DRAW, subject="seat", seen=PRIVATE, cause=MAYBE),
    _card("draw", "seat asked drawn", "draw", *_DRAW, subject="seat", cause=MAYBE),
    _card(
        "buy",
        "seat card price to",
        "buy",
        L("Buying Cards"),
        EG("BUYING CARDS"),
        subject="seat",
        leads=True,
    ),
    # the steps of triggered powers
    _card("take_random", "taker victim", "power_step", *_TRIGGER, subject="taker", cause=PART),
    _card(
        "take_random_card",
        "taker victim card",
        "power_step",
        *_TRIGGER,
        subject="taker",
        seen=PRIVATE,
        cause=PART,
    ),
    _card("take_random_none", "taker victim", "power_step", *_TRIGGER, subject="taker", cause=PART),
    _card("to_ante", "seat cards", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("replace", "seat old new how", "power_step", *_TRIGGER, subject="seat", cause=PART),
    # the project's ruling where the books never end a Copper chain (docs/rules.md)
    _card(
        "chain_ended",
        "seat card",
        "chain_ended",
        L("No Cards in Deck"),
        EG("NO CARDS IN DECK"),
        subject="seat",
        cause=PART,
    ),
    _card("discard_from_hand", "seat card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("copy", "seat card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("blue_mode", "seat mode", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("chose_pay", "seat to", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("gives_card", "seat to card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("gift_refused", "seat card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("swap", "seat other gave took", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("sorcerer_reveal", "seat cards", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card(
        "seer_look", "seat cards", "power_step", *_TRIGGER, subject="seat", seen=PRIVATE, cause=PART
    ),
    _card(
        "seer_keep", "seat card", "power_step", *_TRIGGER, subject="seat", seen=PRIVATE, cause=PART
    ),
    _card("seer_discard", "seat count", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card(
        "seer_discard_cards",
        "seat cards",
        "power_step",
        *_TRIGGER,
        subject="seat",
        seen=PRIVATE,
        cause=PART,
    ),
    _card("kobold_draw", "seat count", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("prophet_reveal", "seat card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    _card("slay", "seat owner card", "power_step", *_TRIGGER, subject="seat", cause=PART),
    # special flights
    _card(
        "color_flight", "seat color amount", "color_flight", *_REWARDS, subject="seat", leads=True
    ),
    _card(
        "strength_flight", "seat strength", "strength_flight", *_REWARDS, subject="seat", leads=True
    ),
    _card("take_ante", "seat card", "take_ante", *_REWARDS, subject="seat", cause=MAYBE),
    # the end of a gambit
    _card("scoring", "totals round", "scoring", *_WINNER),
    _card("tie", "seats", "tie", *_WINNER),
    _card("warlord_round", "", "warlord_round", *_WINNER),
    _card("no_winner", "stakes", "no_winner", *_WINNER),
    _card("gambit_won", "winner amount", "gambit_won", *_WINNER, subject="winner"),
    _card(
        "priest_split", "winner partner amount share", "priest_split", *_WINNER, subject="winner"
    ),
    _card("monarch_gift", "seat gift", "monarch_gift", *_WINNER, subject="seat"),
    _card(
        "adventurer_split",
        "winner seats amount",
        "adventurer_split",
        EG("ANTE EFFECTS"),
        subject="winner",
    ),
    _card("stack", "seat amount", "adventurer_split", EG("ANTE EFFECTS"), subject="seat"),
    _card("hole_paid", "seat owed paid", "hole_paid", *_HOLE, subject="seat"),
    _card("debt_paid", "seat to owed paid", "debt_paid", *_DEBTS, subject="seat", cause=MAYBE),
    _card("debt_waived", "seat owed", "debt_waived", *_DEBTS, subject="seat"),
    # the end of the game
    _card("eliminated", "seat", "eliminated", *_ENDINGS, subject="seat"),
    _card("target_reached", "target", "target_reached", *_ENDINGS),
    _card("last_gambit_called", "gambit", "last_gambit", *_ENDINGS),
    _card("hole_won", "seats amount", "hole_won", *_WIN),
    _card("game_over", "winners hoards", "game_over", *_WIN),
    # D&D abilities (docs/abilities.md)
    _card(
        "abilities_dealt",
        "seat abilities color",
        "abilities_dealt",
        *_ABILITIES,
        subject="seat",
        seen=EITHER,
    ),
    _card("insight_check", "seat roll modifier total", "draft", *_ABILITIES, subject="seat"),
    _card("insight_reroll", "seats rolls", "draft", *_ABILITIES),
    _card("draft_order", "seats", "draft", *_ABILITIES),
    _card("draft_pick", "seat ability", "draft", *_ABILITIES, subject="seat", seen=EITHER),
    _card(
        "ancestry_chosen",
        "seat color",
        "ancestry",
        L("Draconic Ancestry (Card Draw)"),
        subject="seat",
        seen=EITHER,
        ability="draconic_ancestry",
    ),
    _card(
        "ability_used",
        "seat ability color",
        "ability_used",
        *_ABILITIES,
        subject="seat",
        ability="ability",
    ),
    _card("abilities_ready", "seat abilities", "abilities_ready", _SKILLS_RULE, subject="seat"),
    _card("disk_ready", "seat", "disk_ready", _DISKS_RULE, subject="seat"),
    _card(
        "ability_dice", "seat dice amount", "ability_step", *_ABILITIES, subject="seat", cause=PART
    ),
    _card("buy_denied", "seat by size", "ability_step", *_ABILITIES, subject="seat", cause=PART),
    _card(
        "religion_keep",
        "seat card",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="religion",
    ),
    _card("heal_reveal", "seat card", "ability_step", _SKILLS_RULE, subject="seat", ability="heal"),
    _card(
        "insight_look",
        "seat winner cards",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        seen=PRIVATE,
        ability="insight",
    ),
    _card(
        "dungeoneering",
        "seat victim",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="dungeoneering",
    ),
    _card(
        "dungeoneering_look",
        "seat victim cards",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        seen=PRIVATE,
        ability="dungeoneering",
    ),
    _card(
        "dungeoneering_cards",
        "seat victim old new",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        seen=PRIVATE,
        ability="dungeoneering",
    ),
    _card(
        "perception_swap",
        "seat old new",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="perception",
    ),
    _card(
        "luck_redraw",
        "seat card",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="luck_domain",
    ),
    _card(
        "streetwise",
        "seat card amount",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="streetwise",
    ),
    _card(
        "diplomacy",
        "seat leader",
        "ability_step",
        _SKILLS_RULE,
        subject="seat",
        ability="diplomacy",
    ),
)

CARD_EVENTS: Final[tuple[EventKind, ...]] = tuple(
    replace(e, variant=VARIANTS[e.kind]) if e.kind in VARIANTS else e for e in _CARD_ROWS
)

_DICE_PLAY = (DG("PLAY A GAMBIT"),)
_DICE_TURNS = (DG("TURNS & STARTING ANTE"),)
_DICE_FLIGHTS = (DG("SPECIAL DRAGON FLIGHTS"),)
_DICE_DEBTS = (DG("SETTLE DEBTS"),)
_DICE_TIES = (DG("TIE BREAKERS"),)
_EVIL = DG("EVIL DRAGONS [REGULAR]")
_GOOD = DG("GOOD DRAGONS [REGULAR]")
_BAHAMUT = DG("BAHAMUT [DRAGON GOD]")

#: Every kind of the Dice Gambit's log (``emit(...)`` in ``dragonante.dice``).
DICE_EVENTS: Final[tuple[EventKind, ...]] = (
    _dice("too_few_players", "seats", "too_few_players", DG("THE GAMBIT")),
    _dice("gambit_start", "gambit hoards seats", "gambit_start", *_DICE_TURNS),
    _dice("turn_order", "first order rolls", "turn_order", *_DICE_TURNS),
    _dice("round_start", "round", "round", DG("THE GAMBIT")),
    _dice("round_end", "round tracker", "round", DG("THE GAMBIT")),
    _dice("turn", "seat round", "turn", *_DICE_PLAY, subject="seat"),
    _dice("roll", "seat sides purpose faces value", "roll", *_DICE_PLAY, subject="seat"),
    _dice(
        "dragon",
        "seat face strength full replacement",
        "dragon",
        DG("DRAGON CARDS"),
        subject="seat",
    ),
    _dice("withdraw", "seat session", "withdraw", *_DICE_PLAY, subject="seat"),
    _dice("last_in_gambit", "seat", "last_in_gambit", *_DICE_PLAY, subject="seat"),
    _dice("pay", "payer to amount paid debt reason", "pay", *_DICE_PLAY, subject="payer"),
    _dice("take", "seat amount taken reason", "take", _EVIL, subject="seat"),
    _dice("demand", "seat target amount", "demand", _GOOD, subject="seat"),
    _dice("demand_none", "seat amount", "demand", _GOOD, subject="seat"),
    _dice("demand_declined", "seat amount", "demand", _GOOD, subject="seat"),
    _dice("sacrifice", "seat target", "sacrifice", _BAHAMUT, subject="seat"),
    _dice("sacrifice_declined", "seat", "sacrifice", _BAHAMUT, subject="seat"),
    _dice("special_flights", "stakes", "special_flights", *_DICE_FLIGHTS),
    _dice("flight_earned", "seat flight amount", "flight_earned", *_DICE_FLIGHTS, subject="seat"),
    _dice("leader_flight", "seats weakest", "leader_flight", *_DICE_FLIGHTS),
    _dice("settle", "debts", "settle", *_DICE_DEBTS),
    _dice("debt_paid", "seat to owed paid reason", "debt_paid", *_DICE_DEBTS, subject="seat"),
    _dice("debt_cancelled", "seat to owed why", "debt_cancelled", *_DICE_DEBTS, subject="seat"),
    _dice("gambit_won", "gambit winner hoards", "gambit_won", DG("DETERMINE GAMBIT WINNER")),
    _dice(
        "gambit_end",
        "gambit winner hoards totals tracker",
        "gambit_end",
        DG("GAME ENDS OR REPEAT"),
    ),
    _dice("tie", "purpose seats", "tie", *_DICE_TIES),
    _dice("tie_broken", "purpose seat by", "tie", *_DICE_TIES, subject="seat"),
    _dice("roll_off", "purpose seats", "tie", *_DICE_TIES),
    _dice("game_over", "winners hoards totals", "game_over", DG("WINNING")),
)

#: Gamblers Unleashed's one result (``dragonante skill-check``): the book
#: section is not among the clauses (``extract_clauses.py`` leaves the d20
#: check out: it is not a game to play card by card).
SKILL_CHECK: Final = EventKind(
    "skill_check",
    CHECK,
    ("skill", "dc", "modifier", "rolls", "mode", "total", "success"),
    "skill_check",
    (L("Gamblers Unleashed: D20 Skill Checks"),),
)

EVENTS: Final[tuple[EventKind, ...]] = (*CARD_EVENTS, *DICE_EVENTS, SKILL_CHECK)
#: The card game's rows by kind (the narrator's and the front ends' table).
BY_KIND: Final = {e.kind: e for e in CARD_EVENTS}
DICE_BY_KIND: Final = {e.kind: e for e in DICE_EVENTS}
#: The card game's kinds by the field naming their subject (the narrator's ``.you``).
SUBJECTS: Final = {e.kind: e.subject for e in CARD_EVENTS if e.subject}


# --- the why of one event ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Why:
    """The rule behind one event, ready to show: the rule in words, where the book
    says it, and the card's or the ability's own text when one made it happen."""

    rule: str
    book: str
    section: str
    text: str = ""

    def to_dict(self) -> dict[str, str]:
        """JSON-ready (``replay --json``): ``book`` and ``section`` as clauses.json names them."""
        return {"rule": self.rule, "book": self.book, "section": self.section, "text": self.text}

    def lines(self, lang: str) -> list[str]:
        """The why as a few lines of text (the terminal's page, ``replay --why``)."""
        out = [self.rule]
        if self.text:
            out.append(t("why.text", lang, text=self.text))
        if self.book:
            section = section_name(self.book, self.section, lang)
            out.append(t("why.source", lang, book=book_name(self.book, lang), section=section))
        return out


def section_name(book: str, section: str, lang: str) -> str:
    """A section heading as the book in ``lang`` prints it: the Italian Legendary
    Edition's own headings (``why.section.legendary.*``); the books without an
    Italian edition keep their English headings."""
    slug = BOOK_SLUGS.get(book)
    key = f"why.section.{slug}.{re.sub(r'[^a-z0-9]+', '_', section.lower()).strip('_')}"
    return t(key, lang) if slug and has(key, lang) else section


def book_name(book: str, lang: str) -> str:
    """A book's title in ``lang`` (the Legendary Edition's Italian one is printed)."""
    slug = BOOK_SLUGS.get(book)
    return t(f"why.book.{slug}", lang) if slug else book


@dataclass(frozen=True, slots=True)
class Table:
    """What a why depends on besides the event: the table's ruleset and ability system
    (public: part of the table's configuration)."""

    ruleset: str = "legendary"
    system: str = ""

    def ref(self, row: EventKind) -> Ref | None:
        """The row's reference in the book this table follows (else its first)."""
        known = _TABLE_REFS.get((self, id(row)))
        if known is not None and known[0] is row:
            return known[1]
        ref = self._ref(row)
        _TABLE_REFS[self, id(row)] = (row, ref)
        return ref

    def _ref(self, row: EventKind) -> Ref | None:
        if not row.refs:
            return None
        family = (_DISKS_RULE, _SKILLS_RULE)
        if any(r in family for r in row.refs) and self.system in SYSTEM_BOOKS:
            book = SYSTEM_BOOKS[self.system]
        else:
            book = RULESET_BOOKS.get(self.ruleset, LEGENDARY)
        return next((r for r in row.refs if r.book == book), row.refs[0])


#: Each (table, row)'s :meth:`Table.ref`, found once (the row is kept: keyed by its id).
_TABLE_REFS: Final[dict[tuple[Table, int], tuple[EventKind, Ref | None]]] = {}


def table_of(config: GameConfig) -> Table:
    """The :class:`Table` of a game's configuration."""
    abilities = config.abilities
    return Table(config.rules.ruleset, abilities.system if abilities.enabled else "")


def _power_text(card: Any, lang: str) -> str:
    if not _is_card(card):
        return ""
    ty = ALL_CARDS[int(card)].type
    return ty.text(lang) or ty.dragon_god_text(lang)


def _is_card(card: Any) -> bool:
    return isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(ALL_CARDS)


def _ante_effect_card(effect: Any, ante: Sequence[int] = ()) -> int:
    """The card of the ante whose ante effect is ``effect`` (-1: none known).
    Only a card of the revealed ante is named: any other copy could be hidden."""
    return next((c for c in ante if _is_card(c) and ANTE_EFFECT[c] == effect), -1)


def _ante_effect_text(effect: Any, lang: str) -> str:
    """The text of the ante effect named ``effect`` (every card with it says the same)."""
    card = next((c.index for c in ALL_CARDS if ANTE_EFFECT[c.index] == effect), -1)
    return ALL_CARDS[card].type.ante_effect_text(lang) if card >= 0 else ""


def _ability_key(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(KEY):
        return KEY[value]
    return value if isinstance(value, str) and value in KEY else ""


#: What a citation's text is: a card's power, a card's ante effect, an ability's text.
POWER_TEXT: Final = "power"
ANTE_EFFECT_TEXT: Final = "ante_effect"
ABILITY_TEXT: Final = "ability"


@dataclass(frozen=True, slots=True)
class Cite:
    """The rule behind one event, in no language yet: the rule's message key, the
    book and section, and whose text explains it (a card's power or ante effect,
    by card number; an ability, by key).  The browser gets these (small, the same
    for every language) and words them from ``/api/rules`` and its card data."""

    rule: str
    book: str = ""
    section: str = ""
    #: ``power``, ``ante_effect`` or ``ability`` ("": no text of its own).
    kind: str = ""
    card: int = -1
    ability: str = ""

    def why(self, lang: str) -> Why:
        """The citation in ``lang``."""
        text = ""
        if self.kind == POWER_TEXT:
            text = _power_text(self.card, lang)
        elif self.kind == ANTE_EFFECT_TEXT and self.card >= 0:
            text = ALL_CARDS[self.card].type.ante_effect_text(lang)
        elif self.kind == ABILITY_TEXT:
            text = t(f"ability.{self.ability}.text", lang)
        return Why(t(self.rule, lang), self.book, self.section, text)

    @classmethod
    def from_dict(cls, data: Any) -> Cite | None:
        """A citation as a frame carries it (the terminal client); None if it is
        not one (a newer server, or nothing)."""
        if not isinstance(data, dict) or not isinstance(data.get("rule"), str):
            return None
        card = data.get("card", -1)
        at = data.get("ref", -1)
        ref = REFS[at] if isinstance(at, int) and 0 <= at < len(REFS) else Ref("", "")
        return cls(
            data["rule"],
            ref.book,
            ref.section,
            str(data.get("kind") or ""),
            card if _is_card(card) else -1,
            _ability_key(data.get("ability")),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and small, only what is set (a web frame carries one per
        event): the book and section as ``ref``, their place in :data:`REFS`
        (``/api/rules`` lists them).  Made once per citation (a few hundred
        exist) and copied: the web server gives every seat's events theirs."""
        made = _CITE_DICTS.get(self)
        if made is not None:
            return dict(made)
        out: dict[str, Any] = {"rule": self.rule}
        if self.book:
            out["ref"] = REF_INDEX[Ref(self.book, self.section)]
        if self.kind:
            out["kind"] = self.kind
        if self.card >= 0:
            out["card"] = self.card
        if self.ability:
            out["ability"] = self.ability
        _CITE_DICTS[self] = out
        return dict(out)


#: Each citation's :meth:`Cite.to_dict`, as made the first time.
_CITE_DICTS: Final[dict[Cite, dict[str, Any]]] = {}


#: Every book section a citation may name, in a fixed order (the rows' and the
#: abilities'): a web frame's citation names one by its place here.
REFS: Final[tuple[Ref, ...]] = tuple(
    dict.fromkeys([r for row in CARD_EVENTS for r in row.refs] + [ability_ref(k) for k in KEY])
)
REF_INDEX: Final = {r: i for i, r in enumerate(REFS)}


def _ability_cite(key: str, rule: str) -> Cite:
    ref = ability_ref(key)
    return Cite(rule, ref.book, ref.section, ABILITY_TEXT, ability=key)


def _own(row: EventKind, data: dict[str, Any], table: Table, ante: Sequence[int] = ()) -> Cite:
    """The row's own rule (no running power or ability involved)."""
    ability = _ability_key(data.get(row.ability)) or _ability_key(row.ability)
    if ability:
        return _ability_cite(ability, row.key)
    ref = table.ref(row)
    book, section = (ref.book, ref.section) if ref else ("", "")
    if row.card and _is_card(data.get(row.card)):
        return Cite(row.key, book, section, POWER_TEXT, data[row.card])
    if row.kind == "ante_effect":
        card = _ante_effect_card(data.get("effect"), ante)
        if card >= 0:
            return Cite(row.key, book, section, ANTE_EFFECT_TEXT, card)
    return Cite(row.key, book, section)


#: A running cause: ("power", card), ("ability", key) or ("rule", the leading row).
_Cause = tuple[str, Any]


class Explainer:
    """Gives the why of each card-game event of one reader's log, in order.

    A step of a power or of an ability takes its text from the ``power`` /
    ``ability_used`` event before it; any event with a rule of its own ends
    that.  It keeps the running cause between calls, so a front end that
    tells the log a few events at a time (after each answer) feeds it as it
    goes and a power's question in the middle does not lose the power.
    """

    def __init__(self, table: Table | None = None, lang: str = "en") -> None:
        self.table = table or Table()
        self.lang = lang
        self._cause: _Cause | None = None
        #: The ante cards revealed this gambit (an ante effect names its card).
        self._ante: list[int] = []

    def cite(self, event: tuple[Any, str, Any]) -> Cite | None:
        """The citation of the next event (None for a kind without a row)."""
        _vis, kind, data = event
        row = BY_KIND.get(kind)
        if row is None or not isinstance(data, dict):
            return None
        if kind == "ante_reveal":
            self._ante = [c for c in data.get("cards", ()) if _is_card(c)]
        if kind in ("power", "power_unsupported"):
            self._cause = ("power", data.get("card"))
        elif kind == "ability_used":
            self._cause = ("ability", _ability_key(data.get("ability")))
        elif row.leads:
            self._cause = ("rule", row)
        elif row.cause == RULE:
            self._cause = None
        cause = self._cause
        if row.cause in (PART, MAYBE) and cause is not None and not row.ability:
            return _caused(cause, self.table)
        return _own(row, data, self.table, self._ante)

    def why(self, event: tuple[Any, str, Any]) -> Why | None:
        """The why of the next event, in this explainer's language."""
        cite = self.cite(event)
        return None if cite is None else cite.why(self.lang)

    def resume(
        self, log: Sequence[tuple[Any, str, Any]], stop: int, seen: Callable[[Any], bool]
    ) -> None:
        """Pick up the cause running at ``log[stop]``, for a reader who is told the
        log from there (a web update): looks back, among the events ``seen`` by
        the reader, only as far as the last one that sets or ends a cause."""
        for i in range(min(stop, len(log)) - 1, -1, -1):
            e = log[i]
            row = BY_KIND.get(e[1])
            if row is None or not seen(e):
                continue
            if e[1] in ("power", "power_unsupported", "ability_used") or row.leads:
                self.cite(e)
                return
            if row.cause == RULE:
                return

    def lines(
        self, told: Sequence[tuple[str, tuple[Any, str, Any]]], events: Sequence[Any]
    ) -> list[tuple[str, Why | None]]:
        """Each narrated line (``Narrator.told(events)``) with the why of its event.

        Every event of ``events`` is explained in order (a merged or skipped
        one still sets or ends a cause); a line whose event the narrator made
        up (a drawn card told on its own) gets its kind's why.
        """
        whys = {id(e): self.why(e) for e in events}
        return [
            (text, whys[id(e)] if id(e) in whys else why_of(e, table=self.table, lang=self.lang))
            for text, e in told
        ]


def explain(
    events: Iterable[tuple[Any, str, Any]], table: Table | None = None, lang: str = "en"
) -> Iterator[Why | None]:
    """The why of each card-game event, in order (None for a kind without a row)."""
    explainer = Explainer(table, lang)
    for e in events:
        yield explainer.why(e)


def _caused(cause: _Cause, table: Table) -> Cite:
    what, value = cause
    if what == "rule":
        return _own(value, {}, table)
    if what == "ability" and value:
        return _ability_cite(value, "why.ability_step")
    ref = table.ref(BY_KIND["power"])
    assert ref is not None
    card = value if _is_card(value) else -1
    return Cite("why.power_step", ref.book, ref.section, POWER_TEXT if card >= 0 else "", card)


def why_of(
    event: tuple[Any, str, Any], before: Sequence[tuple[Any, str, Any]] = (), **kw: Any
) -> Why | None:
    """The why of one event, told after ``before`` (its run so far, for its cause)."""
    *_, last = explain([*before, event], **kw)
    return last


def dice_why(kind: str, lang: str = "en") -> Why | None:
    """The rule behind one Dice Gambit event (its one book, no cause to track)."""
    row = DICE_BY_KIND.get(kind)
    if row is None:
        return None
    ref = row.refs[0]
    return Why(t(row.key, lang), ref.book, ref.section)


def skill_check_why(lang: str = "en") -> Why:
    """The rule behind a Gamblers Unleashed check (``skill-check --json``)."""
    ref = SKILL_CHECK.refs[0]
    return Why(t(SKILL_CHECK.key, lang), ref.book, ref.section)


def rules_json(lang: str) -> dict[str, Any]:
    """Every card-game rule message and book title in ``lang`` (the browser's
    ``/api/rules``: it words the citations its frames carry)."""
    keys = sorted({row.key for row in CARD_EVENTS} | {"why.power_step", "why.ability_step"})
    return {
        "rules": {k: t(k, lang) for k in keys},
        "books": {book: book_name(book, lang) for book in BOOK_SLUGS},
        "words": {k: t(f"why.{k}", lang) for k in ("text", "none")},
        "refs": [[r.book, section_name(r.book, r.section, lang)] for r in REFS],
        "abilities": {
            k: {"name": t(f"ability.{k}.name", lang), "text": t(f"ability.{k}.text", lang)}
            for k in KEY
        },
    }


__all__ = [
    "BY_KIND",
    "CARD_EVENTS",
    "DICE_EVENTS",
    "EVENTS",
    "SKILL_CHECK",
    "SUBJECTS",
    "Cite",
    "EventKind",
    "Explainer",
    "Ref",
    "Table",
    "Why",
    "ability_ref",
    "book_name",
    "dice_why",
    "explain",
    "rules_json",
    "section_name",
    "skill_check_why",
    "table_of",
    "why_of",
]
