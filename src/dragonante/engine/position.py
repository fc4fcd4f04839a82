"""Set up a game in the middle of a gambit, for rules scenarios and analysis.

``build_position`` places named cards in hands, flights, the ante and on top
of the deck, sets gold and the gambit's running effects, and leaves the game
waiting on the question the rules ask next (normally the current player's
``play``).  Every card of the Legendary pool that the position does not
mention goes under the stated deck top (standard dragons, shuffled by the
seed) or aside (specials), so card conservation still holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS, ID
from dragonante.engine.abilities.setup import place
from dragonante.engine.config import GameConfig
from dragonante.engine.decks import fixed_deck
from dragonante.engine.effects import SCENARIO_KEYS, from_position
from dragonante.engine.flow import legendary_specials
from dragonante.engine.game import run
from dragonante.engine.state import ANTE_PHASE, PLAY_PHASE, GameState
from dragonante.engine.tables import CARD_ID, HAS_ANTE_EFFECT, N_CARDS, SET
from dragonante.kernel import rng


class PositionError(ValueError):
    """A position the rules cannot reach or that breaks card/gold accounting."""


@dataclass(slots=True)
class Position:
    """A table mid-game.  Card lists hold card numbers; deck_top[0] is drawn first."""

    hands: list[list[int]]
    flights: list[list[int]] = field(default_factory=list)
    ante: list[int] = field(default_factory=list)
    deck_top: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    #: Specials shuffled into the deck below deck_top (the rest go aside).
    specials_in_deck: list[int] = field(default_factory=list)
    hoards: list[int] | None = None
    stakes: int = 0
    hole: int = 0
    hole_owed: list[int] | None = None
    gambit: int = 1
    round: int = 1
    leader: int = 0
    #: How many players have already played this round (the next to play is
    #: ``(leader + turn) % players``); ``start="ante"`` ignores it.
    turn: int = 0
    #: Card each seat played this round (-1: not yet); must be in its flight.
    round_cards: list[int] | None = None
    start: str = "turn"  # "turn" | "ante" | "round_end"
    #: The running effects of triggered powers, by scenario key
    #: (:data:`dragonante.engine.effects.SCENARIO_KEYS`), each in its shape's
    #: form (:func:`~dragonante.engine.effects.from_position`): seats, a seat,
    #: true/false, card numbers, seats listed once per trigger, an integer.
    effects: dict[str, object] = field(default_factory=dict)
    collected_colors: list[int] | None = None
    collected_strengths: list[int] | None = None
    #: Emperor's Gambit debts in the order incurred: (debtor, creditor seat
    #: or -1 for the stakes, amount).
    debts: list[tuple[int, int, int]] = field(default_factory=list)
    #: Seats eliminated (``players_remaining``): no cards, no turn, not chosen.
    eliminated: Sequence[int] = ()
    #: D&D abilities (a config with ``abilities.system``): each seat's ability
    #: numbers; None takes the config's fixed lists.
    abilities: list[list[int]] | None = None
    #: Draconic Ancestry color per seat (index into ANCESTRY_COLORS, -1 none).
    ancestry: list[int] = field(default_factory=list)
    #: Per seat, the abilities everyone already knows it has (None: all of them
    #: if abilities are public, else none).
    revealed: list[list[int]] | None = None
    #: Seats whose ability disk is Expended (Legendary disks).
    expended: Sequence[int] = ()
    #: Per seat, special abilities used and not yet recharged (Emperor's Gambit).
    spent: list[list[int]] = field(default_factory=list)
    #: Seats that used Diplomacy this gambit.
    diplomacy_used: Sequence[int] = ()
    #: Gambits each seat has won so far this game.
    gambits_won: list[int] = field(default_factory=list)
    #: Cards matching each seat's dragon ancestry already played this gambit.
    ancestry_plays: list[int] = field(default_factory=list)


def build_position(config: GameConfig, pos: Position, seed: int = 0, log: bool = True) -> GameState:
    config = config.validate()
    n = config.players
    s = GameState(config, seed)
    s.rng = rng.seed_state(seed)
    if log:
        s.log = []

    def seats(lst: list[list[int]] | None, what: str) -> list[list[int]]:
        lst = [list(x) for x in (lst or [])] + [[] for _ in range(n - len(lst or []))]
        if len(lst) != n:
            raise PositionError(f"{what} lists {len(lst)} seats for {n} players")
        return lst

    s.hands = seats(pos.hands, "hands")
    s.flights = seats(pos.flights, "flights")
    s.ante = list(pos.ante)
    s.discard = list(pos.discard)
    placed = [*s.ante, *s.discard, *pos.deck_top, *pos.specials_in_deck]
    for h in s.hands:
        placed.extend(h)
    for f in s.flights:
        placed.extend(f)
    preset = config.deck.preset
    pool = (
        frozenset(c for c in range(N_CARDS) if SET[c] != "emperors-gambit")
        if preset == "legendary"
        else frozenset(fixed_deck(preset, config.deck.custom))
    )
    seen: set[int] = set()
    for c in placed:
        if c not in pool:
            name = CARD_ID[c] if 0 <= c < N_CARDS else str(c)
            raise PositionError(f"card {name} is not in the {preset} deck")
        if c in seen:
            raise PositionError(f"card {CARD_ID[c]} is placed twice")
        seen.add(c)
    limit = config.rules.hand_limit
    for p, h in enumerate(s.hands):
        if len(h) > limit:
            raise PositionError(f"seat {p} holds {len(h)} cards (limit {limit})")
    if preset == "legendary":
        standard = [c for c in range(N_CARDS) if SET[c] == "legendary-standard" and c not in seen]
        s.rng = rng.shuffle(s.rng, standard)
        under = standard + list(pos.specials_in_deck)
        s.rng = rng.shuffle(s.rng, under) if pos.specials_in_deck else s.rng
        s.aside = [c for c in legendary_specials() if c not in seen]
        s.specials = sorted(c for c in seen if SET[c] != "legendary-standard")
    else:
        # A fixed deck: every card not placed is in the deck; nothing is aside.
        under = [c for c in sorted(pool) if c not in seen]
        s.rng = rng.shuffle(s.rng, under)
        s.aside = []
        s.specials = []
    s.deck = under + list(reversed(pos.deck_top))
    s.universe = tuple(
        sorted(
            [
                *s.deck,
                *s.aside,
                *(c for c in placed if c not in pos.deck_top and c not in pos.specials_in_deck),
            ]
        )
    )
    # As at setup: ante effects (EG) are checked only in games whose cards have them.
    s.has_ante_fx = any(c in HAS_ANTE_EFFECT for c in s.universe)
    if pos.hoards is not None:
        if len(pos.hoards) != n or any(h < 0 for h in pos.hoards):
            raise PositionError("hoards must give a non-negative amount for every seat")
        s.hoards = list(pos.hoards)
    s.stakes = pos.stakes
    s.hole = pos.hole
    if pos.hole_owed is not None:
        if len(pos.hole_owed) != n:
            raise PositionError("hole_owed must list every seat")
        s.hole_owed = list(pos.hole_owed)
    s.debts = list(pos.debts)
    # The gold in play is whatever the position holds; conservation checks against it.
    s.gold_total = sum(s.hoards) + s.stakes + s.hole
    s.gambit = pos.gambit
    s.round = pos.round
    if not 0 <= pos.leader < n:
        raise PositionError(f"leader must be a seat 0-{n - 1}")
    s.leader = pos.leader
    rc = list(pos.round_cards) if pos.round_cards is not None else [-1] * n
    if len(rc) != n:
        raise PositionError("round_cards must list every seat")
    for p, c in enumerate(rc):
        if c >= 0 and c not in s.flights[p]:
            raise PositionError(f"seat {p}'s round card {c} is not in its flight")
    s.round_card = rc
    _place_effects(s, pos.effects)
    if pos.collected_colors is not None:
        s.collected_colors = list(pos.collected_colors)
    if pos.collected_strengths is not None:
        s.collected_strengths = list(pos.collected_strengths)
    for p in pos.eliminated:
        if not 0 <= p < n:
            raise PositionError(f"eliminated seat {p} is not at the table")
        if s.hands[p] or s.flights[p]:
            raise PositionError(f"eliminated seat {p} holds cards")
        s.out |= 1 << p
    s.dirty = (1 << n) - 1
    if config.abilities.enabled:
        _place_abilities(s, pos)
    elif pos.abilities or pos.expended or pos.spent or pos.diplomacy_used:
        raise PositionError("the position gives abilities but the config has none")
    if pos.start == "turn":
        if not 0 <= pos.turn < n:
            raise PositionError(f"turn must be 0-{n - 1}")
        s.phase = PLAY_PHASE
        s.queue.append(("turn", pos.turn))
    elif pos.start == "ante":
        s.phase = ANTE_PHASE
        s.round = 0
        s.ante_choice = [-1] * n
        s.queue.append(("ante_ask", pos.leader, 0, 0))
    elif pos.start == "round_end":
        s.phase = PLAY_PHASE
        s.queue.append(("round_end",))
    else:
        raise PositionError(f"unknown start {pos.start!r}: use turn, ante or round_end")
    run(s)
    return s


def _place_effects(s: GameState, given: dict[str, object]) -> None:
    """Set the running effects a position names (the rest stay off)."""
    for key, value in given.items():
        effects = SCENARIO_KEYS.get(key)
        if effects is None:
            raise PositionError(f"unknown effect {key!r}; known: {', '.join(SCENARIO_KEYS)}")
        for e in effects:
            try:
                setattr(s, e.name, from_position(e, value, s.n))
            except ValueError as err:
                raise PositionError(str(err)) from None


def _ancestry(table: Sequence[int], config: Sequence[str], n: int) -> list[int]:
    """Each seat's Draconic Ancestry color index (-1: none): the position's
    ``ancestry``, else the config's ``abilities.ancestry`` (so a scenario's
    ``[config]`` is honoured, not silently ignored); the two may not disagree."""
    out = [-1] * n
    for p in range(n):
        here = table[p] if p < len(table) else -1
        name = config[p] if p < len(config) else ""
        given = ANCESTRY_COLORS.index(name) if name else -1
        if here >= 0 and given >= 0 and here != given:
            raise PositionError(
                f"seat {p}: the position's ancestry {ANCESTRY_COLORS[here]} contradicts "
                f"the config's abilities.ancestry {name}"
            )
        out[p] = here if here >= 0 else given
    return out


def _place_abilities(s: GameState, pos: Position) -> None:
    """The position's D&D abilities: who holds what, disks, spent abilities."""
    opts = s.config.abilities
    n = s.n
    if pos.abilities is not None:
        held = [list(h) for h in pos.abilities] + [[] for _ in range(n - len(pos.abilities))]
    elif opts.assign == "fixed" and not any("random" in k for k in opts.seats):
        held = [[ID[k] for k in opts.seat_list(p)] for p in range(n)]
    else:
        raise PositionError("a position with abilities lists each seat's abilities")
    if len(held) != n:
        raise PositionError(f"abilities lists {len(held)} seats for {n} players")
    for p, h in enumerate(held):
        for a in h:
            if not 0 <= a < len(ABILITIES) or ABILITIES[a].system != opts.system:
                raise PositionError(f"seat {p}: ability {a} is not one of the {opts.system}")
    revealed = None
    if pos.revealed is not None:
        revealed = [sum(1 << a for a in r) for r in pos.revealed]
    tbl = place(s, held, _ancestry(pos.ancestry, opts.ancestry, n), revealed)
    for p in range(min(n, len(pos.gambits_won))):
        tbl.wins[p] = pos.gambits_won[p]
    tbl.place_use(pos.gambit, pos.expended, pos.spent, pos.ancestry_plays, pos.diplomacy_used)
