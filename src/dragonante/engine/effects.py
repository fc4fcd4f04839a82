"""The running effects of triggered powers, declared once.

A triggered Bronze Warlord adds a fourth round to the gambit; a triggered
Druid makes the weakest flight win; an Emperor adds 4 to its owner's flight
at scoring.  Each such effect is a small piece of :class:`GameState` that
the power writes, a rule reads, and everything else only carries along:
cloning, the state's JSON (digests, saved positions), the reset at the next
gambit, each seat's view, the scenario keys that set and check it, the
table's effect line and the agents' observation vector.  This module is the
one place that lists them; every one of those derives from :data:`EFFECTS`.

Adding an effect is one :class:`Effect` entry here (plus its annotation in
:class:`EffectSlots`, which the type checker needs), its power, the rule
that reads it, and its ``effect.<name>`` message in each language
(``docs/engine.md``, "Adding a card effect", walks through an example).

Values are plain ints, bools and lists of ints, in the state's usual
encodings, so that a clone stays a handful of attribute copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

# --- shapes: how the value is stored in the state --------------------------

#: A bit mask of seats (bit p: seat p); seen as the sorted list of seats.
SEATS: Final = "seats"
#: One seat, or -1 for none.
SEAT: Final = "seat"
#: On or off.
FLAG: Final = "flag"
#: A bit mask of card numbers; seen as the sorted list of cards.
CARDS: Final = "cards"
#: A count per seat (a list of ``players`` ints).
COUNTS: Final = "counts"
#: One non-negative integer (0: not in effect).
AMOUNT: Final = "amount"
SHAPES: Final = (SEATS, SEAT, FLAG, CARDS, COUNTS, AMOUNT)

# --- when it ends ------------------------------------------------------------

#: Cleared when the next gambit begins (every card effect of the books so far).
GAMBIT: Final = "gambit"
#: Lasts the whole game.
GAME: Final = "game"
RESETS: Final = (GAMBIT, GAME)

# --- who may see it ----------------------------------------------------------

#: Every seat and spectator (the power that made it was played face up).
PUBLIC: Final = "public"
#: Only the seat it concerns (its own entry of a seat mask, seat or count).
OWNER: Final = "owner"
#: Nobody: a book-keeping figure another, public effect already shows.
INTERNAL: Final = "internal"
VISIBILITIES: Final = (PUBLIC, OWNER, INTERNAL)


@dataclass(frozen=True, slots=True)
class Effect:
    """One running effect: a named value of the state, its shape, its life, its audience.

    ``scenario``: the ``[table]`` key of a rules scenario that sets it (its
    own name by default; ``""``: none).  Two effects may read the same key:
    ``monarch`` (seats) and ``monarch_gifts`` (how often each seat is
    listed) both come from ``monarch = [1, 1]``.
    """

    name: str
    shape: str
    #: The card (or cards) whose power makes it, for docs and the scenario help.
    source: str
    reset: str = GAMBIT
    seen_by: str = PUBLIC
    scenario: str | None = None

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"effect {self.name}: unknown shape {self.shape!r}")
        if self.reset not in RESETS:
            raise ValueError(f"effect {self.name}: unknown reset {self.reset!r}")
        if self.seen_by not in VISIBILITIES:
            raise ValueError(f"effect {self.name}: unknown audience {self.seen_by!r}")
        if self.seen_by == OWNER and self.shape not in (SEATS, SEAT, COUNTS):
            raise ValueError(f"effect {self.name}: only a seat-shaped effect has an owner")

    @property
    def key(self) -> str:
        """The scenario ``[table]`` key it is read from ("" if none)."""
        return self.name if self.scenario is None else self.scenario

    def fresh(self, n: int) -> Any:
        """The value meaning "not in effect" at a table of ``n`` seats."""
        shape = self.shape
        if shape == COUNTS:
            return [0] * n
        if shape == SEAT:
            return -1
        if shape == FLAG:
            return False
        return 0

    def fresh_code(self) -> str:
        """:meth:`fresh` as a Python expression over ``n`` (for generated code)."""
        return {COUNTS: "[0] * n", SEAT: "-1", FLAG: "False"}.get(self.shape, "0")


#: Every running effect, in the order the table shows them.
EFFECTS: Final[tuple[Effect, ...]] = (
    Effect("archmage", SEATS, "Archmage"),
    Effect("merchant_prince", SEAT, "Merchant Prince"),
    Effect("druid", FLAG, "Druid"),
    Effect("priest", FLAG, "Priest"),
    Effect("monarch", SEATS, "Gold Monarch"),
    Effect("monarch_gifts", COUNTS, "Gold Monarch", seen_by=INTERNAL, scenario="monarch"),
    Effect("warlord", SEATS, "Bronze Warlord"),
    Effect("dracolich", COUNTS, "Dracolich"),
    Effect("wild", CARDS, "Wyrmpriest"),
    Effect("dragonrider", CARDS, "Dragonrider"),
    Effect("emperor", COUNTS, "Emperor"),
    Effect("score_round", AMOUNT, "Emperor"),
    Effect("mortal_flights", SEATS, "Wyrmpriest (Emperor's Gambit)"),
)

BY_NAME: Final = {e.name: e for e in EFFECTS}
#: The effects some seat may see, in table order (the view's ``effects``).
VISIBLE: Final = tuple(e for e in EFFECTS if e.seen_by != INTERNAL)
#: The scenario ``[table]`` keys that set effects, with their effects.
SCENARIO_KEYS: Final[dict[str, tuple[Effect, ...]]] = {}
for _e in EFFECTS:
    if _e.key:
        SCENARIO_KEYS[_e.key] = (*SCENARIO_KEYS.get(_e.key, ()), _e)


#: The slot of each effect, by name (computed outside the class body, which the
#: compiled engine's extension type cannot run a generator in).
_SLOTS: Final = tuple(e.name for e in EFFECTS)


class EffectSlots:
    """The effects' slots in :class:`GameState` (its base), typed for the checker.

    ``tests/engine/test_effects.py`` checks these annotations list exactly
    :data:`EFFECTS`, with the type of each shape.
    """

    __slots__ = _SLOTS

    archmage: int
    merchant_prince: int
    druid: bool
    priest: bool
    monarch: int
    monarch_gifts: list[int]
    warlord: int
    dracolich: list[int]
    wild: int
    dragonrider: int
    emperor: list[int]
    score_round: int
    mortal_flights: int


def compile_function(
    name: str, args: str, body: list[str], doc: str, scope: dict[str, Any] | None = None
) -> Callable[..., Any]:
    """A function made from lines of code generated from :data:`EFFECTS` (``scope``:
    the names the code uses).

    The state is cloned and reset on the search's hot path: generated
    straight-line code costs what the hand-written copies did, where a loop
    over the table with ``getattr``/``setattr`` would cost several times more.
    """
    src = f"def {name}({args}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    scope = dict(scope or {})
    exec(compile(src, f"<effects:{name}>", "exec"), scope)
    fn: Callable[..., Any] = scope[name]
    fn.__doc__ = doc
    return fn


def copy_code(src: str, dst: str) -> list[str]:
    """Lines copying every effect from ``src`` to ``dst`` (lists are copied, not shared)."""
    return [
        f"{dst}.{e.name} = {src}.{e.name}[:]"
        if e.shape == COUNTS
        else f"{dst}.{e.name} = {src}.{e.name}"
        for e in EFFECTS
    ]


def _reset_code(reset: str) -> list[str]:
    return [f"s.{e.name} = {e.fresh_code()}" for e in EFFECTS if e.reset == reset]


#: ``reset_gambit(s, n)``: clear the effects that end with the gambit.
reset_gambit: Callable[[EffectSlots, int], None] = compile_function(
    "reset_gambit", "s, n", _reset_code(GAMBIT), "Clear the effects that last one gambit."
)
#: ``init_effects(s, n)``: every effect off, for a new game.
init_effects: Callable[[EffectSlots, int], None] = compile_function(
    "init_effects",
    "s, n",
    [f"s.{e.name} = {e.fresh_code()}" for e in EFFECTS],
    "Every effect off (a new game).",
)


#: ``end_card_effects(s, card)``: ``card`` left its flight, so every effect bound
#: to that card (the :data:`CARDS`-shaped ones: "this card" is wild, counts as
#: another strength...) ends with it.  Cards move on the hot path: generated code.
end_card_effects: Callable[[EffectSlots, int], None] = compile_function(
    "end_card_effects",
    "s, card",
    ["mask = ~(1 << card)", *(f"s.{e.name} &= mask" for e in EFFECTS if e.shape == CARDS)],
    "End the effects bound to ``card``, which left its flight.",
)


def to_dict(s: EffectSlots) -> dict[str, Any]:
    """The effects as stored, for :meth:`GameState.to_dict` (digests: omniscient)."""
    return {e.name: getattr(s, e.name) for e in EFFECTS}


def _seen_code() -> list[str]:
    """``seen_effects``' body: for each visible effect, test it is in force and
    only then make its value as seen (one attribute test per effect, no call)."""
    lines = ["out = {}"]
    for i, e in enumerate(VISIBLE):
        v = f"s.{e.name}"
        if e.seen_by == OWNER:
            lines += [
                f"v = shown(EFFECTS_SEEN[{i}], {v}, n, seat)",
                f"if active(EFFECTS_SEEN[{i}], v): out[{e.name!r}] = v",
            ]
        elif e.shape == SEATS:
            lines.append(f"if {v}: out[{e.name!r}] = seat_bits({v}, n)")
        elif e.shape == CARDS:
            lines.append(f"if {v}: out[{e.name!r}] = bits({v})")
        elif e.shape == COUNTS:
            lines.append(f"if any({v}): out[{e.name!r}] = {v}[:]")
        elif e.shape == SEAT:
            lines.append(f"if {v} >= 0: out[{e.name!r}] = {v}")
        else:
            lines.append(f"if {v}: out[{e.name!r}] = {v}")
    return [*lines, "return out"]


def seat_bits(mask: int, n: int) -> list[int]:
    """The seats below ``n`` whose bit is set in ``mask`` (most masks are 0)."""
    return [p for p in range(n) if (mask >> p) & 1] if mask else []


def bits(mask: int) -> list[int]:
    """The positions of ``mask``'s set bits, lowest first."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def shown(e: Effect, value: Any, n: int, seat: int | None) -> Any:
    """``e``'s stored ``value`` as ``seat`` sees it (``None``: a spectator).

    Seat masks and card masks become sorted lists, counts a copied list; an
    owner-only effect shows ``seat`` its own entry and nobody else's.
    """
    shape = e.shape
    if shape == SEATS:
        if e.seen_by == OWNER:
            value = value & (1 << seat) if seat is not None else 0
        return seat_bits(value, n)
    if shape == CARDS:
        return bits(value)
    if shape == COUNTS:
        if e.seen_by == OWNER:
            return [v if p == seat else 0 for p, v in enumerate(value)]
        return list(value)
    if shape == SEAT and e.seen_by == OWNER and value != seat:
        return -1
    return value


#: ``seen_effects(s, n, seat)``: the effects in force that ``seat`` may see, as
#: it sees them (:func:`shown`), by name; an effect not in force is left out.
seen_effects: Callable[[EffectSlots, int, int | None], dict[str, Any]] = compile_function(
    "seen_effects",
    "s, n, seat",
    _seen_code(),
    "The effects in force that ``seat`` may see, as it sees them, by name.",
    {"seat_bits": seat_bits, "bits": bits, "shown": shown, "EFFECTS_SEEN": VISIBLE},
)


def active(e: Effect, value: Any) -> bool:
    """Whether a shown value means the effect is in force (worth a line on the table)."""
    if e.shape == COUNTS:
        return any(value)
    if e.shape == SEAT:
        return bool(value >= 0)
    return bool(value)


def holders(e: Effect, value: Any) -> list[int]:
    """The seats a shown seat-shaped value names (counts: the seats above 0)."""
    if e.shape == COUNTS:
        return [p for p, k in enumerate(value) if k]
    if e.shape == SEAT:
        return [value] if value >= 0 else []
    return list(value)


def from_position(e: Effect, given: Any, n: int) -> Any:
    """The stored value of ``e`` from a position's entry (seats, a seat, cards...).

    A seat or card list becomes a mask; a count per seat is how often the
    seat is listed (``monarch = [1, 1]``: seat 1's Gold Monarch triggered twice).
    """
    shape = e.shape
    if shape == SEATS:
        return sum(1 << p for p in set(_ints(given, e, n)))
    if shape == CARDS:
        return sum(1 << c for c in set(_ints(given, e, None)))
    if shape == COUNTS:
        listed = _ints(given, e, n)
        return [listed.count(p) for p in range(n)]
    if shape == FLAG:
        if not isinstance(given, bool):
            raise ValueError(f"{e.key}: expected true or false")
        return given
    if isinstance(given, bool) or not isinstance(given, int):
        raise ValueError(f"{e.key}: expected an integer")
    if shape == SEAT and not -1 <= given < n:
        raise ValueError(f"{e.key}: seat {given} is not at the table")
    if shape == AMOUNT and given < 0:
        raise ValueError(f"{e.key}: expected a non-negative integer")
    return given


def _ints(given: Any, e: Effect, n: int | None) -> list[int]:
    if not isinstance(given, Sequence) or isinstance(given, str):
        raise ValueError(f"{e.key}: expected a list")
    out = []
    for x in given:
        if isinstance(x, bool) or not isinstance(x, int) or x < 0 or (n is not None and x >= n):
            what = "a seat" if n is not None else "a card number"
            raise ValueError(f"{e.key}: {x!r} is not {what}")
        out.append(x)
    return out


#: What a scenario's ``[table]`` entry holds, per shape (the format's key help).
SCENARIO_HELP: Final = {
    SEATS: "seats",
    SEAT: "seat",
    FLAG: "boolean",
    CARDS: "card ids",
    COUNTS: "seats (a seat listed twice: triggered twice)",
    AMOUNT: "integer",
}


def scenario_help(key: str) -> str:
    """The help text of the scenario key ``key`` (which card's effect it sets)."""
    effects = SCENARIO_KEYS[key]
    first = effects[0]
    return f"{SCENARIO_HELP[first.shape]}: triggered {first.source}"
