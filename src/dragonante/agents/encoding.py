"""Fixed-size actions and observations for learning agents.

The engine asks one question at a time and accepts one integer answer whose
meaning depends on the question's kind (a card number, a seat, an ability,
a color, or a negative code).  Learning libraries want one fixed action
space and one fixed-length vector, whatever the question and the table
size; this module is that translation, and nothing else.

Action space: ``Discrete(N_ACTIONS)``, 219 actions
------------------------------------------------------

=========================  =====  ===============================================
actions                    count  meaning
=========================  =====  ===============================================
``0 .. 169``               170    a card, by its number in ``ALL_CARDS``
``170 .. 175``             6      a seat 0-5 (``choose_opponent``,
                                  ``adventurer_stack``, ``ability_seat``)
``176 .. 203``             28     a D&D ability by number (``use_ability``,
                                  ``draft_ability``)
``204 .. 213``             10     a dragon-ancestry color (``ancestry_color``)
``214 .. 215``             2      choice 0 / 1: ``blue_mode`` (0: each opponent
                                  gives you gold, 1: they pay the stakes),
                                  ``trigger_new`` (0: NO, 1: YES)
``216``                    1      PASS (decline, or pay instead)
``217``                    1      DONE (stop picking)
``218``                    1      ALL (Adventurer: discard the whole hand)
=========================  =====  ===============================================

Every kind of question draws its non-negative answers from exactly one of
these blocks (:func:`answer_block`), so within one question every legal
answer has its own action and :func:`to_answer` is the exact inverse of
:func:`to_action`.  The **action mask** (:func:`action_mask`) is an
``int8`` vector with 1 at the legal actions of the pending question.

Observation: ``Box(0, 1, (OBS_SIZE,), float32)``, 5,560 values
------------------------------------------------------------------

The vector encodes :func:`dragonante.engine.views.observe` for one seat and
nothing else: two states that differ only in what the seat cannot see give
the same vector.  Seats are absolute (seat 0 is always ``player_0``); the
slices for seats a smaller table does not have stay 0.  Cards are
multi-hot blocks of 170 over ``ALL_CARDS``; "P x" blocks repeat per seat
0-5.  Gold is divided by the game's total gold, counts by their maximum,
and everything is clipped to [0, 1].  :data:`SLICES` names every slice; in
order:

* ``hand`` (170): the seat's hand;
* ``flights`` (6 x 170): each seat's flight (order not encoded);
* ``round_card`` (6 x 170): the card each seat played this round;
* ``known_in_hands`` (6 x 170): cards of other hands the seat has seen;
* ``ante`` (170): the ante cards, face up;  ``my_ante`` (170): the seat's own
  face-down ante card;
* ``revealed`` (170): cards a power has revealed and not yet placed;
  ``private_look`` (170): the Silver Seer's private look;
* ``discard`` (170): the discard pile as the seat knows it;
* ``specials`` (170): the specials in the deck (only with "show 'em");
* ``question_source`` (170): the card whose power asks the pending question;
* ``is_me``, ``seated``, ``to_act``, ``leader``, ``ante_placed``, ``out``,
  ``winners``, ``gambit_winner`` (6 each): per-seat flags;
* ``hoards``, ``hole_owed``, ``debts_owed``, ``debts_due`` (6 each): gold per
  seat / total gold (``debts_due`` is owed *to* the seat);
* ``hand_sizes`` (6): / 10;
* ``collected_colors`` (6 x 21), ``collected_strengths`` (6 x 14): the special
  flights each seat has scored this gambit (Emperor's Gambit);
* ``globals`` (10): stakes, hole, debts to the stakes (/ total gold), deck
  size, discard size (/ 170), gambit, round (/ 50), players (/ 6), "show 'em",
  last gambit called;
* ``phase`` (4): setup, ante, play, over;
* ``question_kind`` (29): the pending question's kind as this seat may see it
  (``decisions.KINDS``, then ``private``: another seat's hidden ability
  question, then none: the game is over);
* ``ability_system`` (3): none, disks, skills;  ``abilities_public`` (1);
* ``ability_held`` (6 x 28): the abilities the seat knows each seat has;
* ``ability_counts`` (6): how many each seat has / 4;
* ``ancestry`` (6 x 10): known dragon ancestries;  ``ability_wins`` (6): / 10;
* ``disk_expended`` (6): Legendary disks;  ``ability_spent`` (6 x 28),
  ``diplomacy_used`` (6): Emperor's Gambit special abilities;
* then one slice per running effect a seat may see, named as the effect, in
  the order of :data:`dragonante.engine.effects.EFFECTS`, by its shape: a
  seat mask or a seat (6, one-hot), a count per seat (6, / 4), a card mask
  (170, multi-hot), a flag (1), an amount (1, / 50).  A new effect adds its
  slice here by itself.

Two encoders give this vector: :func:`encode`, from scratch, and
:class:`IncrementalEncoder`, which rewrites only the blocks whose fields
changed since the last view it encoded (what the learning environments use
at every step).  A new field of the view must be written by both, and by
``tests/agents/reference_encoding.py``: the tests compare all three byte for
byte along whole games.
"""

from __future__ import annotations

from operator import itemgetter
from struct import Struct
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from dragonante.cards import ALL_CARDS
from dragonante.engine import decisions as D
from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS
from dragonante.engine.abilities.table import PRIVATE_KIND
from dragonante.engine.decisions import Decision
from dragonante.engine.effects import AMOUNT, CARDS, COUNTS, FLAG, SEAT, SEATS, VISIBLE
from dragonante.engine.tables import COLORS, STRENGTH
from dragonante.engine.views import Observation

N_CARDS: Final = len(ALL_CARDS)
MAX_PLAYERS: Final = 6
N_ABILITIES: Final = len(ABILITIES)
N_COLORS: Final = len(ANCESTRY_COLORS)

# --- actions ---------------------------------------------------------------

CARD_ACTIONS: Final = 0
SEAT_ACTIONS: Final = CARD_ACTIONS + N_CARDS
ABILITY_ACTIONS: Final = SEAT_ACTIONS + MAX_PLAYERS
COLOR_ACTIONS: Final = ABILITY_ACTIONS + N_ABILITIES
CHOICE_ACTIONS: Final = COLOR_ACTIONS + N_COLORS
PASS_ACTION: Final = CHOICE_ACTIONS + 2
DONE_ACTION: Final = PASS_ACTION + 1
ALL_ACTION: Final = DONE_ACTION + 1
N_ACTIONS: Final = ALL_ACTION + 1

#: Negative answers (PASS -1, DONE -2, ALL -3) and their actions.
_CODE_ACTION: Final = {D.PASS: PASS_ACTION, D.DONE: DONE_ACTION, D.ALL: ALL_ACTION}
_ACTION_CODE: Final = {a: c for c, a in _CODE_ACTION.items()}

_BLOCKS: dict[str, tuple[int, int]] = {}
for _kind in D.KINDS:
    if _kind in D.SEAT_ANSWERS:
        _BLOCKS[_kind] = (SEAT_ACTIONS, MAX_PLAYERS)
    elif _kind in (D.USE_ABILITY, D.DRAFT_ABILITY):
        _BLOCKS[_kind] = (ABILITY_ACTIONS, N_ABILITIES)
    elif _kind == D.ANCESTRY_COLOR:
        _BLOCKS[_kind] = (COLOR_ACTIONS, N_COLORS)
    elif _kind in (D.BLUE_MODE, D.TRIGGER_NEW):
        _BLOCKS[_kind] = (CHOICE_ACTIONS, 2)
    else:
        _BLOCKS[_kind] = (CARD_ACTIONS, N_CARDS)


def answer_block(kind: str) -> tuple[int, int]:
    """The (first action, size) of the block that ``kind``'s non-negative answers use."""
    return _BLOCKS[kind]


def to_action(kind: str, answer: int) -> int:
    """The action index of the engine answer ``answer`` to a question of ``kind``."""
    if answer < 0:
        return _CODE_ACTION[answer]
    first, size = _BLOCKS[kind]
    if answer >= size:
        raise ValueError(f"answer {answer} is outside the {kind!r} block of {size}")
    return first + answer


def to_answer(kind: str, action: int) -> int:
    """The engine answer an action stands for in a question of ``kind``.

    Raises ``ValueError`` for an action no answer of that kind maps to (a
    legal-looking but wrong action is caught by the engine instead).
    """
    action = int(action)  # numpy integers from a sampler are fine too
    code = _ACTION_CODE.get(action)
    if code is not None:
        return code
    first, size = _BLOCKS[kind]
    if not first <= action < first + size:
        raise ValueError(f"action {action} is not an answer to a {kind!r} question")
    return action - first


def action_mask(d: Decision | None) -> npt.NDArray[np.int8]:
    """1 at the actions of ``d``'s legal answers (all 0 when nothing is asked)."""
    return np.frombuffer(mask_bytes(d), dtype=np.int8)


def mask_bytes(d: Decision | None) -> bytearray:
    """:func:`action_mask` as the bytes under it: ``mask_bytes(d)[action]`` is 1
    exactly for the legal actions (how the environments check an action in
    O(1) without numpy's indexing)."""
    # Filled as a bytearray and then viewed by numpy: about half the cost of
    # np.zeros plus a fancy assignment, on a path taken once per step.
    buf = bytearray(_EMPTY_MASK)
    if d is not None:
        first, _ = _BLOCKS[d.kind]
        codes = _CODE_ACTION
        for a in d.options:
            buf[codes[a] if a < 0 else first + a] = 1
    return buf


def legal_answer(d: Decision, legal: bytes | bytearray, action: Any) -> int | None:
    """The engine answer that ``action`` stands for, if ``legal = mask_bytes(d)``
    allows it, else None: the mask is the validation (one answer per action,
    ``tests/agents/test_encoding.py``), so the answer may go to the engine's
    unchecked ``advance``.  Like :func:`to_answer`, any integer-like action
    (a numpy integer from a sampler) is accepted."""
    try:
        a = int(action)
    except (TypeError, ValueError, OverflowError):
        return None
    if not 0 <= a < N_ACTIONS or not legal[a]:
        return None
    code = _ACTION_CODE.get(a)
    return code if code is not None else a - _BLOCKS[d.kind][0]


_EMPTY_MASK: Final = bytes(N_ACTIONS)


# --- observations --------------------------------------------------------------

PRIVATE: Final = PRIVATE_KIND
QUESTION_KINDS: Final = (*D.KINDS, PRIVATE, None)
_KIND_INDEX: dict[str | None, int] = {k: i for i, k in enumerate(QUESTION_KINDS)}
PHASES: Final = ("setup", "ante", "play", "over")
_PHASE_INDEX: dict[str, int] = {p: i for i, p in enumerate(PHASES)}
SYSTEMS: Final = (None, "disks", "skills")
N_FLIGHT_COLORS: Final = len(COLORS)
N_STRENGTHS: Final = max(STRENGTH) + 1

#: The slice size of an effect, by shape: a seat mask, a seat or a count per
#: seat take one entry per seat, a card mask one per card, a flag or an amount one.
_EFFECT_SIZE: Final = {
    SEATS: MAX_PLAYERS,
    SEAT: MAX_PLAYERS,
    COUNTS: MAX_PLAYERS,
    CARDS: N_CARDS,
    FLAG: 1,
    AMOUNT: 1,
}
#: What an effect's count or amount is divided by (clipped to 1).
EFFECT_SCALE: Final = {COUNTS: 4, AMOUNT: 50}

_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", N_CARDS),
    ("flights", MAX_PLAYERS * N_CARDS),
    ("round_card", MAX_PLAYERS * N_CARDS),
    ("known_in_hands", MAX_PLAYERS * N_CARDS),
    ("ante", N_CARDS),
    ("my_ante", N_CARDS),
    ("revealed", N_CARDS),
    ("private_look", N_CARDS),
    ("discard", N_CARDS),
    ("specials", N_CARDS),
    ("question_source", N_CARDS),
    ("is_me", MAX_PLAYERS),
    ("seated", MAX_PLAYERS),
    ("to_act", MAX_PLAYERS),
    ("leader", MAX_PLAYERS),
    ("ante_placed", MAX_PLAYERS),
    ("out", MAX_PLAYERS),
    ("winners", MAX_PLAYERS),
    ("gambit_winner", MAX_PLAYERS),
    ("hoards", MAX_PLAYERS),
    ("hole_owed", MAX_PLAYERS),
    ("debts_owed", MAX_PLAYERS),
    ("debts_due", MAX_PLAYERS),
    ("hand_sizes", MAX_PLAYERS),
    ("collected_colors", MAX_PLAYERS * N_FLIGHT_COLORS),
    ("collected_strengths", MAX_PLAYERS * N_STRENGTHS),
    ("globals", 10),
    ("phase", len(PHASES)),
    ("question_kind", len(QUESTION_KINDS)),
    ("ability_system", len(SYSTEMS)),
    ("abilities_public", 1),
    ("ability_held", MAX_PLAYERS * N_ABILITIES),
    ("ability_counts", MAX_PLAYERS),
    ("ancestry", MAX_PLAYERS * N_COLORS),
    ("ability_wins", MAX_PLAYERS),
    ("disk_expended", MAX_PLAYERS),
    ("ability_spent", MAX_PLAYERS * N_ABILITIES),
    ("diplomacy_used", MAX_PLAYERS),
    # The running effects some seat may see, one slice each (engine/effects.py).
    *((e.name, _EFFECT_SIZE[e.shape]) for e in VISIBLE),
)


def _slices() -> dict[str, slice]:
    out: dict[str, slice] = {}
    start = 0
    for name, size in _LAYOUT:
        out[name] = slice(start, start + size)
        start += size
    return out


#: Every named slice of the observation vector.
SLICES: Final = _slices()
OBS_SIZE: Final = sum(size for _, size in _LAYOUT)
_O = {name: s.start for name, s in SLICES.items()}
_ANCESTRY_INDEX = {c: i for i, c in enumerate(ANCESTRY_COLORS)}


# Precomputed offsets, so that the encoder below does no arithmetic on layout.
_HAND = _O["hand"]
_FLIGHTS = tuple(_O["flights"] + p * N_CARDS for p in range(MAX_PLAYERS))
_ROUND_CARD = tuple(_O["round_card"] + p * N_CARDS for p in range(MAX_PLAYERS))
_KNOWN = tuple(_O["known_in_hands"] + p * N_CARDS for p in range(MAX_PLAYERS))
_COLLECTED_COLORS = tuple(_O["collected_colors"] + p * N_FLIGHT_COLORS for p in range(MAX_PLAYERS))
_COLLECTED_STRENGTHS = tuple(
    _O["collected_strengths"] + p * N_STRENGTHS for p in range(MAX_PLAYERS)
)
_HELD = tuple(_O["ability_held"] + p * N_ABILITIES for p in range(MAX_PLAYERS))
_SPENT = tuple(_O["ability_spent"] + p * N_ABILITIES for p in range(MAX_PLAYERS))
_ANCESTRY = tuple(_O["ancestry"] + p * N_COLORS for p in range(MAX_PLAYERS))
_SEATED = tuple(tuple(range(_O["seated"], _O["seated"] + n)) for n in range(MAX_PLAYERS + 1))
_PRIVATE_KIND = _O["question_kind"] + _KIND_INDEX[PRIVATE]
_KIND_AT = {k: _O["question_kind"] + i for k, i in _KIND_INDEX.items()}
_PHASE_AT = {p: _O["phase"] + i for p, i in _PHASE_INDEX.items()}
_SYSTEM_AT = {s: _O["ability_system"] + i for i, s in enumerate(SYSTEMS)}
_COUNT_TOP: Final = EFFECT_SCALE[COUNTS]
_AMOUNT_TOP: Final = EFFECT_SCALE[AMOUNT]
#: Per visible effect: its first entry and how it is written (0: one-hot
#: entries, 1: one seat, 2: a flag, 3: counts per seat, 4: an amount).
_EFFECT_AT: Final = {
    e.name: (_O[e.name], {SEATS: 0, CARDS: 0, SEAT: 1, FLAG: 2, COUNTS: 3, AMOUNT: 4}[e.shape])
    for e in VISIBLE
}
_NO_DEBTS = [0.0] * (2 * MAX_PLAYERS)
_PAD = [0.0] * MAX_PLAYERS

# The scalar entries, always written as whole blocks (entries of absent seats
# and of absent debts are written as 0.0, which is what they would be anyway):
# hoards, hole owed, debts owed, debts due and hand sizes are consecutive in
# the layout, then the 10 globals, then (with D&D abilities) the ability
# counts and wins.
assert [name for name, _ in _LAYOUT].index("hand_sizes") - [name for name, _ in _LAYOUT].index(
    "hoards"
) == 4
_SCALARS = np.r_[
    _O["hoards"] : _O["hoards"] + 5 * MAX_PLAYERS, _O["globals"] : _O["globals"] + 10
].astype(np.intp)
_SCALARS_ABILITIES = np.r_[
    _SCALARS,
    _O["ability_counts"] : _O["ability_counts"] + MAX_PLAYERS,
    _O["ability_wins"] : _O["ability_wins"] + MAX_PLAYERS,
].astype(np.intp)
_BITS: dict[int, tuple[int, ...]] = {0: ()}


def _bit_indices(mask: int) -> tuple[int, ...]:
    """The positions of ``mask``'s set bits (memoised: few masks ever occur)."""
    bits = _BITS.get(mask)
    if bits is None:
        bits = _BITS[mask] = tuple(i for i in range(mask.bit_length()) if (mask >> i) & 1)
    return bits


def _collected_hot(n: int, colors: list[int], strengths: list[int]) -> list[int]:
    """The entries of the special flights each of ``n`` seats has scored this
    gambit (Emperor's Gambit): bit masks of colors and of strengths per seat."""
    hot: list[int] = []
    for p in range(n):
        if colors[p]:
            b = _COLLECTED_COLORS[p]
            hot += [b + i for i in _bit_indices(colors[p])]
        if strengths[p]:
            b = _COLLECTED_STRENGTHS[p]
            hot += [b + i for i in _bit_indices(strengths[p])]
    return hot


def _scaled(values: list[int], top: int) -> list[float]:
    """``values`` each clipped to ``top`` and divided by it, padded to ``MAX_PLAYERS``.

    (``x / top if x < top else 1.0`` is ``min(x, top) / top`` without a call.)
    """
    out = [x / top if x < top else 1.0 for x in values]
    return out + _PAD[len(out) :] if len(out) < MAX_PLAYERS else out


def _abilities_hot(ab: dict[str, Any], hot: list[int]) -> None:
    """Append the one-hot indices of the D&D abilities view ``ab`` (system,
    public, held, ancestry, expended disks, spent abilities, Diplomacy used):
    shared by :func:`encode` and the :class:`IncrementalEncoder`."""
    o = _O
    hot.append(_SYSTEM_AT[ab["system"]])
    if ab["public"]:
        hot.append(o["abilities_public"])
    for b, held in zip(_HELD, ab["held"], strict=False):
        if held:
            hot += [b + a for a in held]
    for b, color in zip(_ANCESTRY, ab["ancestry"], strict=False):
        if color is not None:
            hot.append(b + _ANCESTRY_INDEX[color])
    b = o["disk_expended"]
    hot += [b + p for p, side in enumerate(ab.get("disks", ())) if side == "expended"]
    for b, spent in zip(_SPENT, ab.get("spent", ()), strict=False):
        if spent:
            hot += [b + a for a in spent]
    b = o["diplomacy_used"]
    hot += [b + p for p, used in enumerate(ab.get("diplomacy_used", ())) if used]


def encode(obs: Observation) -> npt.NDArray[np.float32]:
    """The observation vector of one seat's view ``obs`` (``observe(state, seat)``).

    It reads ``obs`` only, so it cannot encode anything the seat may not see.

    Speed matters here (issue 14: a learning loop encodes every step), so the
    multi-hot entries are gathered by list comprehensions over precomputed
    offsets and set by one numpy fancy assignment, and the scalars go in as
    whole blocks through one more.  ``tests/agents/reference_encoding.py``
    keeps the first, plainer encoder; the two must agree byte for byte.
    """
    n = obs.players
    hoards = obs.hoards
    total = max(1, sum(hoards) + obs.stakes + obs.hole)
    o = _O

    hand = obs.hand
    hot = [_HAND + c for c in hand if c >= 0] if hand else []
    for b, f in zip(_FLIGHTS, obs.flights, strict=False):
        if f:
            hot += [b + c for c in f]
    hot += [b + c for b, c in zip(_ROUND_CARD, obs.round_card, strict=False) if c >= 0]
    for p, cs in obs.known_in_hands.items():
        b = _KNOWN[p]
        hot += [b + c for c in cs]
    for b, cs in (
        (o["ante"], obs.ante),
        (o["revealed"], obs.revealed),
        (o["private_look"], obs.private_look),
        (o["discard"], obs.discard),
    ):
        if cs:
            hot += [b + c for c in cs if c >= 0]
    if obs.my_ante >= 0:
        hot.append(o["my_ante"] + obs.my_ante)
    specials = obs.specials
    if specials:
        b = o["specials"]
        hot += [b + c for c in specials if c >= 0]
    q = obs.question
    if q is not None:
        if q.source >= 0:
            hot.append(o["question_source"] + q.source)
        hot.append(o["to_act"] + q.seat)
        hot.append(_KIND_AT.get(q.kind, _PRIVATE_KIND))
    else:
        hot.append(_KIND_AT[None])
    seat = obs.seat
    if seat is not None:
        hot.append(o["is_me"] + seat)
    hot += _SEATED[n]
    hot.append(o["leader"] + obs.leader)
    b = o["ante_placed"]
    hot += [b + p for p, placed in enumerate(obs.ante_placed) if placed]
    for b, ps in ((o["out"], obs.out), (o["winners"], obs.winners)):
        if ps:
            hot += [b + p for p in ps if p >= 0]
    if obs.gambit_winner >= 0:
        hot.append(o["gambit_winner"] + obs.gambit_winner)
    hot.append(_PHASE_AT[obs.phase])
    hot += _collected_hot(n, obs.collected_colors, obs.collected_strengths)
    # The running effects in force (none in almost every state): one-hot ones
    # here, the rest written once the vector exists.
    later: list[tuple[int, int, Any]] = []
    effects = obs.effects
    if effects:
        for name, value in effects.items():
            b, how = _EFFECT_AT[name]
            if how == 0:
                hot += [b + x for x in value]
            elif how == 1:
                hot.append(b + value)
            else:
                later.append((b, how, value))

    to_stakes = 0
    debts = obs.debts
    if debts:
        owed = [0] * MAX_PLAYERS
        due = [0] * MAX_PLAYERS
        for debtor, creditor, amount in debts:
            owed[debtor] += amount
            if creditor >= 0:
                due[creditor] += amount
            else:
                to_stakes += amount
        debt_values = _scaled(owed, total) + _scaled(due, total)
    else:
        debt_values = _NO_DEBTS
    values = [
        *_scaled(hoards, total),
        *_scaled(obs.hole_owed, total),
        *debt_values,
        *_scaled(obs.hand_sizes, 10),
        min(obs.stakes, total) / total,
        min(obs.hole, total) / total,
        min(to_stakes, total) / total,
        min(obs.deck_size, N_CARDS) / N_CARDS,
        min(obs.discard_size, N_CARDS) / N_CARDS,
        min(obs.gambit, 50) / 50,
        min(obs.round, 50) / 50,
        n / MAX_PLAYERS,
        float(specials is not None),
        float(bool(obs.last_gambit)),
    ]

    ab = obs.abilities
    if ab is None:
        hot.append(_SYSTEM_AT[None])
        scalar_index = _SCALARS
    else:
        _abilities_hot(ab, hot)
        values += _scaled(ab["counts"], 4)
        values += _scaled(ab["wins"], 10)
        scalar_index = _SCALARS_ABILITIES

    v = np.zeros(OBS_SIZE, dtype=np.float32)
    v[np.fromiter(hot, np.intp, len(hot))] = 1.0
    v[scalar_index] = values
    for b, how, value in later:  # nothing to write in almost every state
        if how == 2:
            v[b] = 1.0
        elif how == 3:
            v[b : b + MAX_PLAYERS] = _scaled(value, _COUNT_TOP)
        else:
            v[b] = min(value, _AMOUNT_TOP) / _AMOUNT_TOP
    return v


# --- the incremental encoder ---------------------------------------------------

#: The hot (multi-hot or one-hot) groups of the vector, each the entries that
#: one or a few fields of the view write; they never share an entry.
(
    _G_HAND,
    _G_ROUND_CARD,  # unused: the round cards are kept seat by seat
    _G_KNOWN,
    _G_ANTE,
    _G_REVEALED,
    _G_LOOK,
    _G_DISCARD,
    _G_MY_ANTE,
    _G_SPECIALS,
    _G_QUESTION,
    _G_SEAT,
    _G_LEADER,
    _G_ANTE_PLACED,
    _G_OUT,
    _G_WINNERS,
    _G_GAMBIT_WINNER,
    _G_PHASE,
    _G_COLLECTED,
    _G_EFFECTS,
    _G_ABILITIES,
    _G_SEATED,
    _G_FLIGHT,  # then one group per seat's flight
) = range(22)
_N_GROUPS = _G_FLIGHT + MAX_PLAYERS
_GOLD = _O["hoards"]
_HOLE_OWED = _O["hole_owed"]
_DEBTS_OWED = _O["debts_owed"]
_DEBTS_DUE = _O["debts_due"]
_HAND_SIZES = _O["hand_sizes"]
_GLOBALS = _O["globals"]
_ABILITY_COUNTS = _O["ability_counts"]
_ABILITY_WINS = _O["ability_wins"]
_IS_ME = _O["is_me"]
_TO_ACT = _O["to_act"]
_QUESTION_SOURCE = _O["question_source"]
#: The fields of the view that change at most steps, compared one by one
#: (:meth:`_LastVector.update`), and those the vector does not encode (the
#: hints for people: ``observe(..., hints=False)`` leaves them empty).
_FREQUENT: Final = (
    "seat",
    "hand",
    "known_in_hands",
    "question",
    "hand_sizes",
    "round_card",
    "flights",
    "hoards",
)
_NOT_ENCODED: Final = ("totals", "hints", "completes")
#: The fields that change with the ante, the round's end and the draws
#: (about one step in three), compared at once: ``_ROUND(obs)`` is their tuple.
_ROUND_FIELDS: Final = (
    "phase",
    "round",
    "leader",
    "stakes",
    "ante",
    "ante_placed",
    "my_ante",
    "deck_size",
    "discard",
    "discard_size",
)
_ROUND: Final = itemgetter(*(Observation._fields.index(f) for f in _ROUND_FIELDS))
#: The view's other fields (about one step in twelve), compared at once too.
_RARE_FIELDS: Final = tuple(
    f
    for f in Observation._fields
    if f not in _FREQUENT and f not in _ROUND_FIELDS and f not in _NOT_ENCODED
)
_RARE: Final = itemgetter(*(Observation._fields.index(f) for f in _RARE_FIELDS))


#: ``struct`` packers of 1 to 30 float32 entries, by count.
_PACK: Final = [Struct(f"{k}f").pack_into for k in range(31)]
_FLOATS6: Final = Struct(f"{MAX_PLAYERS}f").pack
#: The hand sizes block's bytes, by the sizes (:meth:`_LastVector._hand_sizes`).
_HAND_SIZE_BYTES: dict[tuple[int, ...], bytes] = {}


class _Unseen:
    """A field value no view's equals: the fields of the view before the first."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True


_UNSEEN: Any = _Unseen()
_NEVER_SEEN = Observation(*[_UNSEEN] * len(Observation._fields))


class _LastVector:
    """The last view encoded and its vector, kept up to date block by block."""

    __slots__ = (
        "debts",
        "effect_scalars",
        "flights",
        "hot",
        "mv",
        "prev",
        "rare",
        "raw",
        "round_cards",
        "round_level",
        "v",
    )

    def __init__(self) -> None:
        self.v: npt.NDArray[np.float32] = np.zeros(OBS_SIZE, dtype=np.float32)
        #: A typed view of ``v``: writing one entry through it costs about a
        #: third of ``v[i] = x``.
        #: (``Any``: typeshed's memoryview takes ints only, a float32 one takes floats.)
        self.mv: Any = memoryview(self.v)  # type: ignore[arg-type]  # numpy arrays are buffers
        #: Its bytes, for writing several entries at once.
        self.raw = self.mv.cast("B")
        #: The last view encoded; at first one that no view equals.
        self.prev: Observation = _NEVER_SEEN
        #: ``_RARE(prev)``: at first a value no tuple equals.
        self.rare: Any = _UNSEEN
        #: ``_ROUND(prev)``, the same way.
        self.round_level: Any = _UNSEEN
        #: Per hot group, the entries it set to 1.
        self.hot: list[list[int]] = [[] for _ in range(_N_GROUPS)]
        #: The scalar entries the effects in force wrote (flags, counts, amounts).
        self.effect_scalars: list[int] = []
        #: Whether the vector holds debts (the debt entries are not all 0).
        self.debts = False
        #: Each seat's flight as last encoded (views are never changed in place).
        self.flights: list[list[int]] = [[] for _ in range(MAX_PLAYERS)]
        #: Each seat's round card as last encoded (-1: none).
        self.round_cards: list[int] = [-1] * MAX_PLAYERS

    def _swap(self, group: int, new: list[int]) -> None:
        """Clear the entries ``group`` had set and set ``new`` instead."""
        mv = self.mv
        for i in self.hot[group]:
            mv[i] = 0.0
        for i in new:
            mv[i] = 1.0
        self.hot[group] = new

    def _grow(self, group: int, first: int, cards: list[int]) -> None:
        """:meth:`_swap` for a pile that mostly grows at its end (a flight, the
        discard pile): when the cards it had are still its first ones, only
        the new ones are set."""
        old = self.hot[group]
        k = len(old)
        new = [first + c for c in cards if c >= 0]
        if new[:k] == old:
            mv = self.mv
            for i in new[k:]:
                mv[i] = 1.0
            self.hot[group] = new
        else:
            self._swap(group, new)

    def _flights(self, flights: list[list[int]]) -> None:
        """Each seat's flight whose cards changed: a flight that only grew (a
        card played on it, the usual change) gets only its new cards.  Seats
        the table lacks were cleared by :meth:`_rare_fields` (the table size
        is one of the rare fields).  It keeps a copy of each flight that
        changed: :class:`~dragonante.agents.state_encoding.StateEncoder`
        passes the engine's own lists, which change in place."""
        last = self.flights
        for i, cards in enumerate(flights):
            old = last[i]
            if cards != old:
                k = len(old)
                if len(cards) > k and cards[:k] == old:
                    b = _FLIGHTS[i]
                    added = [b + c for c in cards[k:]]
                    mv = self.mv
                    for j in added:
                        mv[j] = 1.0
                    self.hot[_G_FLIGHT + i] += added
                else:
                    b = _FLIGHTS[i]
                    self._swap(_G_FLIGHT + i, [b + c for c in cards])
                last[i] = cards[:]

    def _round_cards(self, cards: list[int]) -> None:
        """The round's cards, seat by seat: a play changes one seat's card, so
        only that entry is cleared and set (seats the table lacks were cleared
        by :meth:`_rare_fields`)."""
        last = self.round_cards
        mv = self.mv
        for i, c in enumerate(cards):
            old = last[i]
            if c != old:
                if old >= 0:
                    mv[_ROUND_CARD[i] + old] = 0.0
                if c >= 0:
                    mv[_ROUND_CARD[i] + c] = 1.0
                last[i] = c

    def _hand_sizes(self, sizes: list[int]) -> None:
        """The hand sizes block, from a cache of its bytes by sizes (a few
        hundred tuples of sizes ever occur at a table)."""
        key = tuple(sizes)
        packed = _HAND_SIZE_BYTES.get(key)
        if packed is None:
            if len(_HAND_SIZE_BYTES) > 4096:
                _HAND_SIZE_BYTES.clear()
            packed = _HAND_SIZE_BYTES[key] = _FLOATS6(*_scaled(sizes, 10))
        self.raw[4 * _HAND_SIZES : 4 * _HAND_SIZES + 4 * MAX_PLAYERS] = packed

    def _write(self, first: int, values: list[float]) -> None:
        """Write ``values`` from entry ``first`` on, in one call (``struct``
        rounds each to float32 as numpy does)."""
        _PACK[len(values)](self.raw, 4 * first, *values)

    def update(self, obs: Observation) -> None:
        """Rewrite the blocks whose fields differ from the last view's.

        Each block is written exactly as :func:`encode` writes it, so the
        vector stays equal to ``encode(obs)`` (``tests/agents`` checks it
        against the reference encoder along whole games).

        Between two steps about eight of the view's fields change, nearly
        always among the same few (the seat, its hand and question, the hand
        sizes, the round's cards, the flights, the known cards, the hoards).
        Those are compared one by one; the other 26 in two tuples, each
        compared at once (one comparison in C) and field by field only when
        it differs: :data:`_ROUND`, the ten that change with the ante, the
        draws and the round's end (about one step in three), and
        :data:`_RARE`, the rest (about one step in twelve).
        """
        p = self.prev
        swap = self._swap
        # ``(x := a) is not (y := b) and x != y``: a field that is the very
        # same object (views made with ``observe(..., public=)`` share their
        # lists) is not even compared.
        x: Any
        y: Any

        rare = _RARE(obs)
        gold = False
        if rare != self.rare:
            gold = self._rare_fields(obs, p)
            self.rare = rare
        round_level = _ROUND(obs)
        if round_level != self.round_level:
            gold = self._round_fields(obs, p) or gold
            self.round_level = round_level
        if (me := obs.seat) != p.seat:
            swap(_G_SEAT, [] if me is None else [_IS_ME + me])
        if (x := obs.hand) is not (y := p.hand) and x != y:
            swap(_G_HAND, [_HAND + c for c in x if c >= 0] if x else [])
        if (x := obs.known_in_hands) is not (y := p.known_in_hands) and x != y:
            hot = []
            for seat, cs in x.items():
                b = _KNOWN[seat]
                hot += [b + c for c in cs]
            swap(_G_KNOWN, hot)
        q = obs.question
        if (x := q) is not (y := p.question) and x != y:
            if q is None:
                hot = [_KIND_AT[None]]
            else:
                hot = [_TO_ACT + q.seat, _KIND_AT.get(q.kind, _PRIVATE_KIND)]
                if q.source >= 0:
                    hot.append(_QUESTION_SOURCE + q.source)
            swap(_G_QUESTION, hot)
        if (x := obs.hand_sizes) is not (y := p.hand_sizes) and x != y:
            self._hand_sizes(x)
        if (x := obs.round_card) is not (y := p.round_card) and x != y:
            self._round_cards(x)
        if (x := obs.flights) is not (y := p.flights) and x != y:
            self._flights(x)
        if gold or ((x := obs.hoards) is not (y := p.hoards) and x != y):
            self._gold(obs)
        self.prev = obs

    def _round_fields(self, obs: Observation, p: Observation) -> bool:
        """:meth:`update` for the fields of :data:`_ROUND` that differ from
        ``p``'s; True when the gold block must be rewritten (the stakes changed)."""
        swap = self._swap
        mv = self.mv
        o = _O
        x: Any
        y: Any
        if (x := obs.ante) is not (y := p.ante) and x != y:
            b = o["ante"]
            swap(_G_ANTE, [b + c for c in x if c >= 0])
        if (x := obs.discard) is not (y := p.discard) and x != y:
            self._grow(_G_DISCARD, o["discard"], x)
        if obs.my_ante != p.my_ante:
            swap(_G_MY_ANTE, [o["my_ante"] + obs.my_ante] if obs.my_ante >= 0 else [])
        if obs.leader != p.leader:
            swap(_G_LEADER, [o["leader"] + obs.leader])
        if (x := obs.ante_placed) is not (y := p.ante_placed) and x != y:
            b = o["ante_placed"]
            swap(_G_ANTE_PLACED, [b + i for i, placed in enumerate(x) if placed])
        if obs.phase != p.phase:
            swap(_G_PHASE, [_PHASE_AT[obs.phase]])
        if obs.deck_size != p.deck_size:
            mv[_GLOBALS + 3] = min(obs.deck_size, N_CARDS) / N_CARDS
        if obs.discard_size != p.discard_size:
            mv[_GLOBALS + 4] = min(obs.discard_size, N_CARDS) / N_CARDS
        if obs.round != p.round:
            mv[_GLOBALS + 6] = min(obs.round, 50) / 50
        return obs.stakes != p.stakes

    def _rare_fields(self, obs: Observation, p: Observation) -> bool:
        """:meth:`update` for the fields of :data:`_RARE` that differ from ``p``'s;
        True when the gold block must be rewritten (a gold field other than
        the hoards and the stakes changed)."""
        swap = self._swap
        mv = self.mv
        o = _O
        x: Any
        y: Any
        if (x := obs.revealed) is not (y := p.revealed) and x != y:
            b = o["revealed"]
            swap(_G_REVEALED, [b + c for c in x if c >= 0])
        if (x := obs.private_look) is not (y := p.private_look) and x != y:
            b = o["private_look"]
            swap(_G_LOOK, [b + c for c in x if c >= 0])
        specials = obs.specials
        if (x := specials) is not (y := p.specials) and x != y:
            b = o["specials"]
            swap(_G_SPECIALS, [b + c for c in specials if c >= 0] if specials else [])
            mv[_GLOBALS + 8] = float(specials is not None)
        n = obs.players
        if n != p.players:
            swap(_G_SEATED, list(_SEATED[n]))
            mv[_GLOBALS + 7] = n / MAX_PLAYERS
            flights = self.flights
            round_cards = self.round_cards
            for i in range(n, MAX_PLAYERS):  # the seats this table lacks
                if flights[i]:
                    swap(_G_FLIGHT + i, [])
                    flights[i] = []
                if round_cards[i] >= 0:
                    mv[_ROUND_CARD[i] + round_cards[i]] = 0.0
                    round_cards[i] = -1
        if (x := obs.out) is not (y := p.out) and x != y:
            b = o["out"]
            swap(_G_OUT, [b + i for i in x if i >= 0])
        if (x := obs.winners) is not (y := p.winners) and x != y:
            b = o["winners"]
            swap(_G_WINNERS, [b + i for i in x if i >= 0])
        if obs.gambit_winner != p.gambit_winner:
            w = obs.gambit_winner
            swap(_G_GAMBIT_WINNER, [o["gambit_winner"] + w] if w >= 0 else [])
        colors, strengths = obs.collected_colors, obs.collected_strengths
        if ((x := colors) is not (y := p.collected_colors) and x != y) or (
            (x := strengths) is not (y := p.collected_strengths) and x != y
        ):
            hot = _collected_hot(n, colors, strengths)
            swap(_G_COLLECTED, hot)
        if (x := obs.effects) is not (y := p.effects) and x != y:
            self._effects(x)
        if (x := obs.abilities) is not (y := p.abilities) and x != y:
            self._abilities(x)
        if obs.gambit != p.gambit:
            mv[_GLOBALS + 5] = min(obs.gambit, 50) / 50
        if obs.last_gambit != p.last_gambit:
            mv[_GLOBALS + 9] = float(bool(obs.last_gambit))
        return (
            obs.hole != p.hole
            or ((x := obs.hole_owed) is not (y := p.hole_owed) and x != y)
            or ((x := obs.debts) is not (y := p.debts) and x != y)
        )

    def _gold(self, obs: Observation) -> None:
        """The gold block of ``obs`` (:meth:`gold`)."""
        self.gold(obs.hoards, obs.stakes, obs.hole, obs.hole_owed, obs.debts)

    def gold(
        self,
        hoards: list[int],
        stakes: int,
        hole: int,
        hole_owed: list[int],
        debts: list[Any],
    ) -> None:
        """The gold block: hoards, hole owed, debts, stakes, hole, debts to the stakes.

        Debts exist only in Emperor's Gambit: without any, the debt entries
        are zeros, written once when the last debt went.  (Also written
        straight from the engine state by
        :class:`dragonante.agents.state_encoding.StateEncoder`.)
        """
        total = max(1, sum(hoards) + stakes + hole)
        to_stakes = 0
        raw = self.raw
        values = _scaled(hoards, total) + _scaled(hole_owed, total)
        if debts or self.debts:
            owed = [0] * MAX_PLAYERS
            due = [0] * MAX_PLAYERS
            for debtor, creditor, amount in debts:
                owed[debtor] += amount
                if creditor >= 0:
                    due[creditor] += amount
                else:
                    to_stakes += amount
            values += _scaled(owed, total) + _scaled(due, total)
            self.debts = bool(debts)
        _PACK[len(values)](raw, 4 * _GOLD, *values)
        _PACK[3](
            raw,
            4 * _GLOBALS,
            stakes / total if stakes < total else 1.0,
            hole / total if hole < total else 1.0,
            to_stakes / total if to_stakes < total else 1.0,
        )

    def _effects(self, effects: dict[str, Any]) -> None:
        """The running effects' slices: one-hot entries and written values."""
        mv = self.mv
        for i in self.effect_scalars:
            mv[i] = 0.0
        hot: list[int] = []
        written: list[int] = []
        for name, value in effects.items():
            b, how = _EFFECT_AT[name]
            if how == 0:
                hot += [b + x for x in value]
            elif how == 1:
                hot.append(b + value)
            elif how == 2:
                written.append(b)
            elif how == 3:
                written += range(b, b + MAX_PLAYERS)
            else:
                written.append(b)
        self._swap(_G_EFFECTS, hot)
        for name, value in effects.items():
            b, how = _EFFECT_AT[name]
            if how == 2:
                mv[b] = 1.0
            elif how == 3:
                self._write(b, _scaled(value, _COUNT_TOP))
            elif how == 4:
                mv[b] = min(value, _AMOUNT_TOP) / _AMOUNT_TOP
        self.effect_scalars = written

    def _abilities(self, ab: dict[str, Any] | None) -> None:
        """The abilities' one-hot entries, counts and wins."""
        if ab is None:
            self._swap(_G_ABILITIES, [_SYSTEM_AT[None]])
            self._write(_ABILITY_COUNTS, _PAD)
            self._write(_ABILITY_WINS, _PAD)
            return
        hot: list[int] = []
        _abilities_hot(ab, hot)
        self._swap(_G_ABILITIES, hot)
        self._write(_ABILITY_COUNTS, _scaled(ab["counts"], 4))
        self._write(_ABILITY_WINS, _scaled(ab["wins"], 10))


class IncrementalEncoder:
    """:func:`encode`, re-encoding only what changed since the last view.

    A learning loop encodes a view at every step, and between two steps
    only a few fields change (a card played, some gold, the question, and
    the seat's own fields when another seat is asked).  This keeps the last
    view encoded and its vector, and rewrites only the blocks whose fields
    differ (a flight or the discard pile that only grew: only its new
    cards).  It reads only the view, as :func:`encode` does, so it cannot
    encode anything the seat may not see.  The result is a fresh array (the
    caller may keep or change it), equal byte for byte to ``encode(obs)``;
    the views may come from any seat, game or table, so nothing needs
    resetting.  Keeping one vector for whichever seat was observed last,
    rather than one per seat, is what pays: between two views of one seat
    at a 4-player table the others have played and most blocks changed
    (``docs/agents.md``, "Speed").
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last = _LastVector()

    def encode(self, obs: Observation) -> npt.NDArray[np.float32]:
        """The vector of ``obs``, equal to ``encode(obs)`` (a fresh array)."""
        last = self._last
        last.update(obs)
        return last.v.copy()

    @property
    def last(self) -> Observation | None:
        """The last view encoded (None: none yet)."""
        prev = self._last.prev
        return None if prev is _NEVER_SEEN else prev


__all__ = [
    "ALL_ACTION",
    "DONE_ACTION",
    "MAX_PLAYERS",
    "N_ACTIONS",
    "N_CARDS",
    "OBS_SIZE",
    "PASS_ACTION",
    "QUESTION_KINDS",
    "SLICES",
    "IncrementalEncoder",
    "action_mask",
    "answer_block",
    "encode",
    "legal_answer",
    "mask_bytes",
    "to_action",
    "to_answer",
]
