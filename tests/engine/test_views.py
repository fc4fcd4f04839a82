"""Hidden information is sacred: a seat's view and event log show nothing it may not see.

Two kinds of test.  *Indistinguishability*: two games that differ only in
what seat p cannot see (another hand, the deck order, a private look, a
random take's identity) give p identical observations and identical event
logs.  *Leak checks* over random games: every card a seat's view or events
show is public, its own, or a card the rules showed it.
"""

from __future__ import annotations

from typing import Any

import pytest

from dragonante.cards import card_number
from dragonante.engine import GameConfig, apply
from dragonante.engine.config import config_from_dict
from dragonante.engine.determinize import determinize
from dragonante.engine.position import Position, build_position
from dragonante.engine.state import GameState
from dragonante.engine.views import SEAT_KEYS, Observation, events_for, observe
from dragonante.sim.selfplay import play_random


def ids(*names: str) -> list[int]:
    return [card_number(n) for n in names]


def position(hand1: list[str], deck_top: list[str], **kw: Any) -> GameState:
    """Seat 0 to play a Red Dragon 12 / Silver Seer etc. at a 3-player table."""
    hands = kw.pop("hands0", ["L-std-red-12", "L-std-black-1"])
    pos = Position(
        hands=[ids(*hands), ids(*hand1), ids("L-std-white-1", "L-std-white-2")],
        flights=[[], ids("L-std-gold-13"), ids("L-std-white-3")],
        deck_top=ids(*deck_top),
        stakes=10,
        **kw,
    )
    return build_position(GameConfig(players=3), pos, seed=5)


def test_other_hands_and_deck_order_are_invisible() -> None:
    # Seat 1 holds Blue 1 + Green 2 in one game and Blue 1 + Green 4 in the other;
    # the Green 2/4 sit elsewhere in the deck.  Seat 0 and seat 2 cannot tell.
    a = position(["L-std-blue-1", "L-std-green-2"], ["L-std-gold-2", "L-std-green-4"])
    b = position(["L-std-blue-1", "L-std-green-4"], ["L-std-gold-2", "L-std-green-2"])
    for s in (a, b):
        apply(s, card_number("L-std-black-1"))  # seat 0: steal 3
        apply(s, card_number("L-std-blue-1"))  # seat 1 (triggers: 1 <= 1)
        apply(s, 0)  # blue mode: each opponent gives 1
    for seat in (0, 2, None):
        assert observe(a, seat) == observe(b, seat)
        assert a.log is not None and b.log is not None
        assert events_for(a.log, seat) == events_for(b.log, seat)
    assert observe(a, 1) != observe(b, 1)  # seat 1 does see its own hand


def test_random_take_is_seen_by_taker_and_victim_only() -> None:
    # Red Dragon 12 makes the strongest opponent (seat 1, Gold 13) pay 1 and lose a
    # random card.  Seat 1's hand differs between the games in its second card.
    a = position(["L-std-blue-2", "L-std-green-2"], ["L-std-gold-2", "L-std-green-4"])
    b = position(["L-std-blue-2", "L-std-green-4"], ["L-std-gold-2", "L-std-green-2"])
    for s in (a, b):
        apply(s, card_number("L-std-red-12"))
    assert a.log is not None and b.log is not None
    taken_a = [e for e in a.log if e[1] == "take_random_card"]
    assert len(taken_a) == 1
    assert taken_a[0][0] == (0, 1)  # visible to the taker and the victim only
    assert observe(a, 2) == observe(b, 2)
    assert events_for(a.log, 2) == events_for(b.log, 2)
    public = [e for e in events_for(a.log, 2) if e[1] == "take_random"]
    assert public and "card" not in public[0][2]


def test_silver_seer_look_is_private() -> None:
    # Seat 0's Silver Seer looks at the top three cards.  The two games differ in
    # which three; the other seats must see no difference until the discard.
    kw: dict[str, Any] = {"hands0": ["L-leg-silver-seer", "L-std-black-1"]}
    a = position(
        ["L-std-blue-2", "L-std-green-2"],
        ["L-std-gold-2", "L-std-gold-4", "L-std-gold-6", "L-std-gold-8"],
        **kw,
    )
    b = position(
        ["L-std-blue-2", "L-std-green-2"],
        ["L-std-gold-2", "L-std-gold-4", "L-std-gold-8", "L-std-gold-6"],
        **kw,
    )
    for s in (a, b):
        apply(s, card_number("L-leg-silver-seer"))
    # Silver part: seat 0 (good dragon in flight) draws the Gold 2, seat 1 (Gold 13)
    # the Gold 4; then the Seer looks at Gold 6, Gold 8 and the next card.
    assert a.pending is not None and a.pending.kind == "seer_keep"
    for seat in (1, 2, None):
        assert observe(a, seat) == observe(b, seat)
        assert a.log is not None and b.log is not None
        assert events_for(a.log, seat) == events_for(b.log, seat)
    assert set(observe(a, 0).private_look) == set(a.pending.options)
    q = observe(a, 1).question
    assert q is not None and q.options is None


def test_ante_choice_is_secret_until_revealed() -> None:
    s = build_position(
        GameConfig(players=3),
        Position(
            hands=[
                ids("L-std-red-12", "L-std-black-1"),
                ids("L-std-blue-2", "L-std-green-2"),
                ids("L-std-white-1", "L-std-white-2"),
            ],
            start="ante",
        ),
    )
    apply(s, card_number("L-std-red-12"))  # seat 0 antes
    assert s.log is not None
    for seat in (1, 2, None):
        view = observe(s, seat)
        assert card_number("L-std-red-12") not in view.ante
        assert view.my_ante == -1 or seat is None
        assert all("card" not in e[2] for e in events_for(s.log, seat) if e[1].startswith("ante"))
    assert observe(s, 0).my_ante == card_number("L-std-red-12")


def _hidden_from(s: GameState, seat: int) -> set[int]:
    """Cards ``seat`` may not know the place of: other hands (unless known), the deck,
    the cards set aside, and other seats' unrevealed ante choices."""
    out = set(s.deck) | set(s.aside)
    for p in range(s.n):
        if p == seat:
            continue
        for c in [*s.hands[p], s.ante_choice[p]]:
            if c >= 0 and not (s.known.get(c, 0) >> seat) & 1:
                out.add(c)
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_views_of_random_games_show_only_what_a_seat_may_see(players: int) -> None:
    def check(s: GameState) -> None:
        for seat in range(players):
            v = observe(s, seat)
            assert v.hand == s.hands[seat]
            hidden = _hidden_from(s, seat)
            for p, cards in v.known_in_hands.items():
                assert set(cards) <= set(s.hands[p]) | {s.ante_choice[p]}
            shown = {c for f in v.flights for c in f} | set(v.ante) | set(v.discard)
            shown |= set(v.revealed)
            assert not (shown & hidden)
            q = v.question
            if q is not None and q.seat != seat:
                assert q.options is None and q.ctx is None

    for seed in range(6):
        play_random(GameConfig(players=players), seed, on_step=check)


def test_private_events_name_their_seats() -> None:
    """Every event carrying a hidden card is addressed to the seats allowed to see it."""
    private_kinds = {"draw_card", "ante_chosen", "seer_look", "seer_keep", "take_random_card"}
    s, _ = play_random(GameConfig(players=4), 11, log=True)
    assert s.log is not None
    kinds = {e[1] for e in s.log}
    assert "draw_card" in kinds
    for vis, kind, _data in s.log:
        if kind in private_kinds:
            assert vis is not None and len(vis) <= 2


def test_determinized_states_look_the_same_to_the_seat() -> None:
    """determinize re-deals only what the seat cannot see: its view is unchanged."""
    seen = 0

    def check(s: GameState) -> None:
        nonlocal seen
        d = s.pending
        if d is None:
            return
        seen += 1
        t = determinize(s, d.seat, seen)
        assert observe(t, d.seat) == observe(s, d.seat)

    for seed in range(4):
        play_random(GameConfig(players=4), seed, on_step=check)
    assert seen > 100


def test_silver_seer_discards_face_down() -> None:
    kw: dict[str, Any] = {"hands0": ["L-leg-silver-seer", "L-std-black-1"]}
    s = position(
        ["L-std-blue-2", "L-std-green-2"],
        ["L-std-gold-2", "L-std-gold-4", "L-std-gold-6", "L-std-gold-8", "L-std-red-2"],
        **kw,
    )
    apply(s, card_number("L-leg-silver-seer"))
    d = s.pending
    assert d is not None and d.kind == "seer_keep"
    apply(s, card_number("L-std-gold-6"))
    gone = {card_number("L-std-gold-8"), card_number("L-std-red-2")}
    assert gone <= set(s.discard)
    assert gone <= set(observe(s, 0).discard)  # the Seer's player saw them
    for seat in (1, 2, None):
        view = observe(s, seat)
        assert not gone & set(view.discard)
        assert view.discard_size == len(s.discard)
    # A re-deal for another seat may put other cards there: it cannot know.
    t = determinize(s, 1, 3)
    assert observe(t, 1) == observe(s, 1)


FIELDS = Observation._fields


def _check_public_share(s: GameState, differing: set[str]) -> None:
    """``observe(s, seat, gm, public=observe(s, None))`` is ``observe(s, seat, gm)``
    (and ``to_dict(public=)`` its ``to_dict()``); notes which fields differ from the
    spectator's."""
    public = observe(s, None)
    for seat, gm in [(p, False) for p in range(s.n)] + [(None, False), (None, True)]:
        whole = observe(s, seat, gm)
        shared = observe(s, seat, gm, public)
        assert shared == whole
        # and so are their JSON dicts made from the spectator's (key order included)
        made, from_public = whole.to_dict(), shared.to_dict(public.to_dict())
        assert made == from_public and list(made) == list(from_public)
        differing.update(f for f in FIELDS if getattr(whole, f) != getattr(public, f))


@pytest.mark.parametrize(
    "config",
    [
        {"players": 4},
        {"players": 5, "rules": {"ruleset": "emperors_gambit"}, "deck": {"preset": "eg_full"}},
        {"players": 4, "abilities": {"system": "disks", "visibility": "hidden"}},
        {"players": 3, "abilities": {"system": "skills", "assign": "draft"}},
    ],
)
def test_views_from_the_public_one_equal_the_whole_ones(config: dict[str, Any]) -> None:
    """Views made from the spectator's (the web server's broadcast) equal the whole
    ones, and only the ``SEAT_KEYS`` entries ever differ from the spectator's (so
    sharing the others gives no seat more than a spectator)."""
    cfg = config_from_dict(config)
    differing: set[str] = set()
    for seed in range(4):
        play_random(cfg, seed, on_step=lambda s: _check_public_share(s, differing))
    assert not differing - set(SEAT_KEYS), differing
    # the games did show seat-dependent entries
    assert {"seat", "hand", "question", "my_ante", "known_in_hands"} <= differing
    if cfg.abilities.enabled and not cfg.abilities.public:
        assert "abilities" in differing


def test_views_from_the_public_one_with_the_silver_seer() -> None:
    """The Seer's private look and face-down discards (seat-only entries)."""
    kw: dict[str, Any] = {"hands0": ["L-leg-silver-seer", "L-std-black-1"]}
    s = position(
        ["L-std-blue-2", "L-std-green-2"],
        ["L-std-gold-2", "L-std-gold-4", "L-std-gold-6", "L-std-gold-8", "L-std-red-2"],
        **kw,
    )
    differing: set[str] = set()
    apply(s, card_number("L-leg-silver-seer"))
    _check_public_share(s, differing)
    apply(s, card_number("L-std-gold-6"))
    _check_public_share(s, differing)
    assert {"private_look", "discard"} <= differing <= set(SEAT_KEYS)


def test_hints_and_effects_tell_a_seat_nothing_it_may_not_see() -> None:
    """The typed view's hints (cards that would trigger, flights they would
    complete) name only the seat's own hand, only while it is asked to play;
    everyone else's view, a spectator's included, has none; and the effects
    are the same for every seat (all public)."""
    cfg = config_from_dict({"players": 4})
    asked_with_hints = 0

    def check(s: GameState) -> None:
        nonlocal asked_with_hints
        d = s.pending
        public = observe(s, None)
        assert public.hints == [] and public.completes == {}
        for seat in range(s.n):
            view = observe(s, seat)
            assert view.effects == public.effects and view.totals == public.totals
            if d is not None and d.seat == seat and d.kind == "play":
                assert set(view.hints) <= set(s.hands[seat])
                assert set(view.completes) <= set(s.hands[seat])
                asked_with_hints += bool(view.hints)
            else:
                assert view.hints == [] and view.completes == {}

    for seed in range(3):
        play_random(cfg, seed, on_step=check)
    assert asked_with_hints
