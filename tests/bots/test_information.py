"""Bots see only what their seat sees.

Two states that differ only in what seat p cannot see - a card swapped
between another player's hand and the deck, the deck's order, another
character's D&D abilities not yet used - must give
p's bot identical inputs (observation, event log, the "would trigger"
hints, the re-deals it searches) and therefore identical choices, for
every bot.  Each check first proves the two states really differ.
"""

from __future__ import annotations

import random

import pytest

from dragonante.bots import make_bot
from dragonante.bots.base import SeatView
from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.abilities.catalog import of_system
from dragonante.engine.abilities.skills import SkillTable
from dragonante.engine.abilities.table import AbilityTable
from dragonante.engine.decisions import ABILITY_KINDS, ANTE, PLAY
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from tests.bots.conftest import BOT_SPECS


def _hidden_twin(s: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A copy of ``s`` with a card of another hand swapped with a deck card and the
    deck reordered: nothing ``seat`` can see changes."""
    t = s.clone()
    t.log = list(s.log) if s.log is not None else None
    for o in rng.sample(range(s.n), s.n):
        if o == seat or not t.hands[o]:
            continue
        if any((t.known.get(c, 0) >> seat) & 1 for c in [*t.hands[o], t.ante_choice[o]]):
            continue  # keep the test about cards seat knows nothing of
        if len(t.deck) < 2:
            return None
        i = rng.randrange(len(t.hands[o]))
        j = rng.randrange(len(t.deck))
        t.hands[o][i], t.deck[j] = t.deck[j], t.hands[o][i]
        t.deck.reverse()
        return t
    return None


def _positions(players: int, seed: int, kinds: tuple[str, ...]) -> list[tuple[GameState, int]]:
    """Real mid-game states (random play) waiting on a question of ``kinds``."""
    s = new_game(GameConfig(players=players), seed)
    rng = random.Random(seed)
    out: list[tuple[GameState, int]] = []
    while not s.over and len(out) < 4:
        d = s.pending
        assert d is not None
        if d.kind in kinds and rng.random() < 0.3:
            out.append((s.clone(keep_log=False), d.seat))
            out[-1][0].log = list(s.log or [])
        apply(s, rng.choice(d.options))
    return out


def _assert_same_inputs(a: GameState, b: GameState, seat: int, spec: str) -> None:
    va, vb = SeatView(a, seat), SeatView(b, seat)
    assert va.observation() == vb.observation()
    assert va.events() == vb.events()
    assert va.decision.to_dict() == vb.decision.to_dict()
    for card in a.hands[seat]:
        assert va.would_trigger(card) == vb.would_trigger(card)
    for x in (1, 2, 99):
        assert va.determinize(x).to_dict() == vb.determinize(x).to_dict()
    assert make_bot(spec, 11).choose(va) == make_bot(spec, 11).choose(vb)


@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_hidden_cards_never_change_a_bots_inputs_or_choice(spec: str, players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        for a, seat in _positions(players, 40 * players + seed, (ANTE, PLAY)):
            b = _hidden_twin(a, seat, rng)
            if b is None:
                continue
            assert a.to_dict() != b.to_dict()  # the states really differ
            other = next(o for o in range(a.n) if a.hands[o] != b.hands[o])
            assert SeatView(a, other).observation() != SeatView(b, other).observation()
            _assert_same_inputs(a, b, seat, spec)
            checked += 1
    assert checked >= 3


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_built_positions_differing_in_an_opponents_hand(spec: str) -> None:
    # Seat 1 holds Blue 1 + Green 2 in one table and Blue 1 + Green 4 in the other
    # (the other Green sits on the deck); seat 0 must play the same either way.
    def table(hand1: list[str], top: list[str]) -> GameState:
        pos = Position(
            hands=[
                ids("L-std-red-12", "L-std-black-1", "L-std-gold-6"),
                ids(*hand1),
                ids("L-std-white-1", "L-std-white-2"),
            ],
            flights=[[], ids("L-std-gold-13"), ids("L-std-white-3")],
            deck_top=ids(*top),
            stakes=10,
        )
        return build_position(GameConfig(players=3), pos, seed=5)

    a = table(["L-std-blue-1", "L-std-green-2"], ["L-std-gold-2", "L-std-green-4"])
    b = table(["L-std-blue-1", "L-std-green-4"], ["L-std-gold-2", "L-std-green-2"])
    assert a.hands[1] != b.hands[1]
    _assert_same_inputs(a, b, 0, spec)


# --- hidden D&D abilities ----------------------------------------------------------


def _ability_positions(players: int, seed: int, system: str) -> list[tuple[GameState, int]]:
    """Mid-game states of a table with hidden abilities, waiting on any question."""
    config = GameConfig(
        players=players,
        abilities=AbilityOptions(system=system, visibility="hidden", per_character=2),
    )
    s = new_game(config, seed)
    rng = random.Random(seed)
    out: list[tuple[GameState, int]] = []
    while not s.over and len(out) < 6:
        d = s.pending
        assert d is not None
        if rng.random() < 0.15 or (d.kind in ABILITY_KINDS and rng.random() < 0.7):
            out.append((s.clone(keep_log=False), d.seat))
            out[-1][0].log = list(s.log or [])
        apply(s, rng.choice(d.options))
    return out


def _ability_twin(s: GameState, seat: int) -> GameState | None:
    """A copy of ``s`` in which another seat secretly holds other unused abilities."""
    tbl = s.abilities
    assert isinstance(tbl, AbilityTable)
    for o in range(s.n):
        if o == seat or tbl.revealed[o] or not tbl.held[o]:
            continue
        pool = [a.id for a in of_system(tbl.system) if a.id not in tbl.held[o]]
        if isinstance(tbl, SkillTable):  # exclusive: not held by anyone
            pool = [a for a in pool if all(a not in h for h in tbl.held)]
        t = s.clone()
        t.log = list(s.log) if s.log is not None else None
        twin = t.abilities
        assert isinstance(twin, AbilityTable)
        twin.give(o, tuple(pool[: len(tbl.held[o])]))
        return t
    return None


@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("system", ["disks", "skills"])
def test_hidden_abilities_never_change_a_bots_inputs_or_choice(spec: str, system: str) -> None:
    checked = kinds = 0
    for players in (2, 4, 6):
        for a, seat in _ability_positions(players, 7 * players, system):
            b = _ability_twin(a, seat)
            if b is None:
                continue
            assert a.to_dict() != b.to_dict()
            _assert_same_inputs(a, b, seat, spec)
            assert SeatView(a, seat).config == SeatView(b, seat).config
            checked += 1
            kinds += a.pending is not None and a.pending.kind in ABILITY_KINDS
    assert checked >= 6 and kinds >= 1
