"""The gambit sequence: setup, ante, rounds and turns, scoring, the hole, drawing.

Each phase is an interpreter step that schedules its successors, so the
whole game is one queue of small serialisable steps and a game paused in
any question can be cloned, saved or searched.  Rulebook references are to
the Legendary Edition (L) and the rulings of ``rules-notes.md`` (A-numbers).
"""

from __future__ import annotations

from dragonante.engine import hooks
from dragonante.engine.config import TRADITIONAL_SPECIALS
from dragonante.engine.core import (
    ANTE_AWARD,
    ANTE_FIRST_TURN,
    ANTE_REVEALED,
    ANTE_TRIGGERS,
    ANTE_WEAKEST_WINS,
    FINAL,
    MAX_QUESTIONS_PER_GAME,
    RESHAPING,
    RULES,
    STAKES,
    UNLESS_TIED,
    ante_hooks,
    ask,
    buy,
    clockwise,
    draw,
    end_gambit_if_stakes_empty,
    ev,
    forget_card,
    gain_gold,
    left_of,
    opponents_from_left,
    pay,
    players_in,
    push,
    resolver,
    rewards_skipped,
    right_of,
    step,
)
from dragonante.engine.decisions import ANTE, PICK_SPECIAL, PLAY
from dragonante.engine.decks import fixed_deck, original_colors
from dragonante.engine.effects import reset_gambit
from dragonante.engine.flights import (
    complete_unscored,
    completed_now,
    detect_flight_rewards,
    no_new_flight,
    queue_flight_rewards,
)
from dragonante.engine.state import ANTE_PHASE, OVER, PLAY_PHASE, GameState
from dragonante.engine.tables import (
    BLOCKED_BY,
    HAS_ANTE_EFFECT,
    IS_DRAGON,
    IS_EVIL,
    IS_GOOD,
    IS_MORTAL,
    KEY,
    N_CARDS,
    POWER,
    SET,
    STRENGTH,
)
from dragonante.kernel import RunawayGame, Step, rng
from dragonante.kernel.decisions import Decision

#: The registry's power table, bound once: :func:`_trigger` is on the hot path.
_POWERS = RULES.powers
_MAX_ANTE_REDOS = 50
#: Gold the Gold Monarch's player gives each opponent per trigger (its card text).
MONARCH_GIFT = 3

# --- setup ------------------------------------------------------------------


_SPECIALS = tuple(c for c in range(N_CARDS) if SET[c] in ("legendary-dragon", "legendary-mortal"))
_STANDARD = tuple(c for c in range(N_CARDS) if SET[c] == "legendary-standard")


def legendary_specials() -> list[int]:
    """The 30 Mortals and Legendary Dragons, by card number."""
    return list(_SPECIALS)


def _card_of_key(key: str) -> int:
    return KEY.index(key)


def _setup(s: GameState, st: Step) -> None:
    deck_opts = s.config.deck
    if deck_opts.preset != "legendary":
        s.queue.append(("finish_setup",))
        return
    forced = list(deck_opts.forced_includes)
    if deck_opts.selection == "druids_party" and "L-mor-druid" not in forced:
        forced.insert(0, "L-mor-druid")
    if deck_opts.selection == "traditional":
        forced = list(TRADITIONAL_SPECIALS)
    s.specials = [_card_of_key(k) for k in forced]
    if deck_opts.selection == "pick_em":
        push(s, ("pick_special", 0), ("finish_setup",))
    else:
        s.queue.append(("finish_setup",))


step("setup")(_setup)


@step("pick_special", "seat")
def _pick_special(s: GameState, st: Step) -> None:
    k = st[1]
    if k >= s.n:
        return
    s.queue.append(("pick_special", k + 1))
    taken = set(s.specials)
    options = tuple(c for c in legendary_specials() if c not in taken)
    ask(s, k, PICK_SPECIAL, options)


@resolver(PICK_SPECIAL)
def _resolve_pick(s: GameState, d: Decision, card: int) -> None:
    s.specials.append(card)
    vis = None if s.config.deck.reveal_specials else (d.seat,)
    ev(s, "pick_special", vis, seat=d.seat, card=card)


def _choose_cards(s: GameState) -> None:
    """Fill ``s.deck`` (unshuffled), ``s.specials`` and ``s.aside`` from the deck options."""
    opts = s.config.deck
    if opts.preset == "legendary":
        chosen = s.specials
        pool = [c for c in _SPECIALS if c not in chosen] if chosen else list(_SPECIALS)
        s.rng = rng.shuffle(s.rng, pool)
        need = opts.special_count - len(s.specials)
        s.specials.extend(pool[:need])
        s.aside = sorted(pool[need:])
        s.specials.sort()
        s.deck = [*_STANDARD, *s.specials]
        return
    cards = fixed_deck(opts.preset, opts.custom)
    aside: list[int] = []
    if opts.original_colors_six_cards:
        # A53: the original edition had 6 dragons per color, Legendary has 7;
        # one of each original color is set aside unseen, at random.
        for key in original_colors(opts.preset):
            of_color = [c for c in cards if KEY[c] == key]
            s.rng, k = rng.below(s.rng, len(of_color))
            aside.append(of_color[k])
        cards = [c for c in cards if c not in aside]
    s.specials = []
    s.aside = sorted(aside)
    s.deck = cards


def _finish_setup(s: GameState, st: Step) -> None:
    cfg = s.config
    _choose_cards(s)
    s.universe = tuple(sorted([*s.deck, *s.aside]))
    s.has_ante_fx = any(c in HAS_ANTE_EFFECT for c in s.universe)
    s.rng = rng.shuffle(s.rng, s.deck)
    ev(s, "setup", players=s.n, gold=cfg.starting_gold, deck=len(s.deck))
    if cfg.deck.reveal_specials and s.specials:
        ev(s, "specials_shown", cards=list(s.specials))
    for p in range(s.n):
        draw(s, p, cfg.rules.starting_hand)
    s.queue.append(("begin_gambit", 0))


step("finish_setup")(_finish_setup)


# --- step 1: ante -----------------------------------------------------------


def _begin_gambit(s: GameState, st: Step) -> None:
    start = st[1]
    n = s.n
    if s.decision_count > MAX_QUESTIONS_PER_GAME:
        raise RunawayGame(
            f"the game asked {s.decision_count} questions, more than the engine's bound"
            f" of {MAX_QUESTIONS_PER_GAME} for one game",
            "questions",
            MAX_QUESTIONS_PER_GAME,
        )
    s.gambit += 1
    s.round = 0
    s.leader = start
    s.phase = ANTE_PHASE
    s.round_card = [-1] * n
    s.round_removed = [False] * n
    s.collected_colors = [0] * n
    s.collected_strengths = [0] * n
    reset_gambit(s, n)  # the running effects of last gambit's powers (engine/effects.py)
    s.stakes_emptied = False
    s.replaced = 0
    s.dirty = 0
    s.gambit_winner = -1
    s.ante_choice = [-1] * n
    if s.log is not None:
        ev(s, "gambit_start", gambit=s.gambit, stakes=s.stakes)
    s.queue.append(("ante_ask", start, 0, 0))


step("begin_gambit", "start")(_begin_gambit)


def _ante_ask(s: GameState, st: Step) -> None:
    _, start, k, redo = st
    if k >= s.n:
        s.queue.append(("ante_reveal", start, redo))
        return
    seat = (start + k) % s.n
    s.queue.append(("ante_ask", start, k + 1, redo))
    hand = s.hands[seat]
    if hand and not (s.out >> seat) & 1:
        ab = s.abilities
        if (
            ab is not None
            and (ab.window_seats >> seat) & 1
            and ab.window(s, seat, hooks.ANTE, ("ante_choose", seat))
        ):
            return
        ask(s, seat, ANTE, tuple(hand))


step("ante_ask", "start", "nth", "redo")(_ante_ask)


def _ante_choose(s: GameState, st: Step) -> None:
    """Ask for the ante card after an ability window (its hand may have changed)."""
    seat = st[1]
    hand = s.hands[seat]
    if hand:
        ask(s, seat, ANTE, tuple(hand))


step("ante_choose", "seat")(_ante_choose)


def _resolve_ante(s: GameState, d: Decision, card: int) -> None:
    s.hands[d.seat].remove(card)
    s.ante_choice[d.seat] = card
    if s.log is not None:
        ev(s, "ante_chosen", (d.seat,), seat=d.seat, card=card)
        ev(s, "ante_placed", seat=d.seat)


resolver(ANTE)(_resolve_ante)


def strongest_untied(cards: list[int]) -> int:
    """Index into ``cards`` of the strongest card tied with no other (-1 if none).

    ``-1`` entries (no card) are ignored.  Used for the first leader (ante)
    and for each next round's leader.
    """
    counts = [0] * 16
    for c in cards:
        if c >= 0:
            counts[STRENGTH[c]] += 1
    best = -1
    best_i = -1
    for i, c in enumerate(cards):
        if c >= 0:
            st = STRENGTH[c]
            if st > best and counts[st] == 1:
                best = st
                best_i = i
    return best_i


def _ante_again(s: GameState, anted: list[int]) -> bool:
    """No ante card is untied: is the ante discarded and anted again?  Legendary:
    always ("all the ante cards are tied with at least one other"); Emperor's
    Gambit: only "If all the ante cards are tied for strongest" (5, 5, 3, 3 stays:
    "that strength number still determines how much the players pay")."""
    if s.config.rules.ante_redo == "no_untied_card":
        return True
    first = STRENGTH[anted[0]]
    return all(STRENGTH[c] == first for c in anted)


def _tied_ante_leader(s: GameState, start: int, choices: list[int]) -> int:
    """The first leader when no ante card is untied and the ante stands
    (``Rules.ante_tied_leader``; the book is silent, docs/rules.md)."""
    if s.config.rules.ante_tied_leader == "first_strongest":
        best = max((STRENGTH[c] for c in choices if c >= 0), default=-1)
        for p in clockwise(s, start):
            c = choices[p]
            if c >= 0 and STRENGTH[c] == best:
                return p
    return start


def _ante_reveal(s: GameState, st: Step) -> None:
    _, start, redo = st
    choices = s.ante_choice
    if s.log is not None:
        ev(s, "ante_reveal", cards=list(choices))
    for c in choices:
        if c >= 0:
            forget_card(s, c)
    ab = s.abilities
    if ab is not None:  # a window between the reveal and the ante's gold (Perception)
        s.queue.append(("ante_settle", start, redo))
        ab.ante_revealed(s)
        return
    _ante_settle(s, st)


step("ante_reveal", "start", "redo")(_ante_reveal)


def _ante_settle(s: GameState, st: Step) -> None:
    """Leader, ante gold and "when revealed" ante effects, or a redo if all tied."""
    _, start, redo = st
    n = s.n
    choices = s.ante_choice
    anted = [c for c in choices if c >= 0]
    lead = strongest_untied(choices)
    if lead < 0 and anted and redo < _MAX_ANTE_REDOS and _ante_again(s, anted):
        # L Step 1 "rare corner case" (D10, A24): every ante card is tied.
        ev(s, "ante_redo")
        s.discard.extend(anted)
        s.ante_choice = [-1] * n
        for p in clockwise(s, start):
            draw(s, p, 1)
        s.queue.append(("ante_ask", start, 0, redo + 1))
        return
    if lead < 0:  # nobody could ante, endless redos, or EG's 5, 5, 3, 3
        lead = _tied_ante_leader(s, start, choices)
    amount = max([STRENGTH[c] for c in anted], default=0)
    s.leader = lead
    s.ante = anted
    cards = choices
    s.ante_choice = [-1] * n
    if s.log is not None:
        ev(s, "ante_paid", leader=lead, amount=amount)
    for p in clockwise(s, lead):
        pay(s, p, amount, STAKES)
    # "When revealed" ante effects resolve after the normal ante, clockwise
    # from the first leader; ante cards of a redo never apply (A48).
    if s.has_ante_fx:
        for fn in ante_hooks(s, ANTE_REVEALED):
            fn(s, lead)
    s.phase = PLAY_PHASE
    s.queue.append(("round_start",))
    if s.abilities is not None:
        s.abilities.ante_paid(s, cards)


step("ante_settle", "start", "redo")(_ante_settle)


# --- step 2: rounds and turns ----------------------------------------------


def _round_start(s: GameState, st: Step) -> None:
    ab = s.abilities
    if ab is not None and len(st) == 1 and ab.leader_window(s):
        return  # an ability may choose another leader; the round starts after it
    n = s.n
    s.round += 1
    s.round_card = [-1] * n
    s.round_removed = [False] * n
    if s.log is not None:
        ev(s, "round_start", round=s.round, leader=s.leader)
    _turn(s, ("turn", 0))


step("round_start", "*windowless")(_round_start)


def _turn(s: GameState, st: Step) -> None:
    k = st[1]
    if k >= s.n:
        s.queue.append(("round_end",))
        return
    seat = (s.leader + k) % s.n
    if s.out and (s.out >> seat) & 1:  # eliminated: no longer at the table
        s.queue.append(("turn", k + 1))
        return
    hand = s.hands[seat]
    if s.has_ante_fx and hand and max(s.round_card) < 0:
        # Before the first turn of a round (the Spy): the first turn actually
        # taken, as for triggering (a leader with no card to play takes none).
        for fn in ante_hooks(s, ANTE_FIRST_TURN):
            fn(s, seat)
    if len(hand) == 1:  # buying cards, first situation
        s.queue.append(("turn_play", k, 0))
        buy(s, seat)
        return
    _play_card(s, seat, k, False)


step("turn", "nth")(_turn)


def _turn_play(s: GameState, st: Step) -> None:
    """The k-th player of the round plays, after buying cards or an ability window
    (``st[2]``: the window was already held)."""
    _, k, windowed = st
    _play_card(s, (s.leader + k) % s.n, k, bool(windowed))


step("turn_play", "nth", "windowed")(_turn_play)


def _play_card(s: GameState, seat: int, k: int, windowed: bool) -> None:
    """Ask ``seat`` for its card (after an ability window, unless already held)."""
    hand = s.hands[seat]
    if not hand:  # nothing to play even after buying (deck and discard exhausted)
        ev(s, "turn_skipped", seat=seat)
        s.queue.append(("turn", k + 1))
        return
    ab = s.abilities
    if (
        ab is not None
        and not windowed
        and (ab.window_seats >> seat) & 1
        and ab.window(s, seat, hooks.TURN, ("turn_play", k, 1))
    ):
        return
    if len(hand) > 1 or not s.config.auto_single:  # inlined ask(): the hottest question
        s.decision_count += 1
        s.pending = Decision(s.decision_count, seat, PLAY, tuple(hand), -1, (k,))
    else:
        ask(s, seat, PLAY, tuple(hand), -1, (k,))


def triggers(s: GameState, seat: int, card: int) -> bool:
    """Does ``card`` trigger if ``seat`` plays it now?  The one trigger rule.

    L Triggering Powers: a card triggers if "the leader plays it as the first
    card of the round" or if its strength "is equal to or lower than the
    strength of the card just played by the player to your right".  The
    player to your right is the nearest one still in the game (eliminated
    players have left the table, ``players_remaining``); the first card of
    the round is the first card actually played (if the leader had no card
    to play, the next player's card triggers).  The Archmage makes every
    later card of its player trigger; the Exarch in the ante makes every card
    of strength 10 or more trigger (a card qualifying twice triggers once).

    The engine asks this before the card is recorded as played; the
    interfaces' hints and the bots ask it for the cards in hand.
    """
    played = s.round_card
    prev = played[right_of(s, seat)] if s.out else played[seat - 1]
    if prev >= 0:
        if STRENGTH[card] <= STRENGTH[prev]:
            return True
    elif max(played) < 0:  # nobody has played yet: the first card of the round
        return True
    if s.archmage and (s.archmage >> seat) & 1:
        return True
    if s.has_ante_fx:
        for fn in ante_hooks(s, ANTE_TRIGGERS):
            if fn(s, seat, card):
                return True
    return False


def would_trigger(s: GameState, seat: int, card: int) -> bool:
    """Would ``card`` trigger if ``seat`` played it now, in its turn of this round?

    The hint the interfaces show on each card in hand; it reads only public
    facts (the cards played this round, the Archmage, the ante).
    """
    return triggers(s, seat, card)


def _resolve_play(s: GameState, d: Decision, card: int) -> None:
    seat = d.seat
    k = d.ctx[0]
    fired = triggers(s, seat, card)  # before the card counts as played this round
    s.hands[seat].remove(card)
    flight = s.flights[seat]
    flight.append(card)
    s.round_card[seat] = card
    s.dirty |= 1 << seat
    if s.known:
        forget_card(s, card)
    if s.log is not None:
        ev(s, "play", seat=seat, card=card, triggered=fired)
    ab = s.abilities
    if ab is not None and not (ab.play_seats >> seat) & 1:
        ab = None
    if fired:
        s.replaced = 0  # a new turn's replacements (powers.replace_from_deck)
        q = s.queue
        if POWER[card] in RESHAPING and len(flight) >= 3 and not no_new_flight(s, flight):
            # The card completed a special flight: if its power changes the
            # flight, the flight still counts (L Special Flights).
            done = completed_now(s, seat)
            q.append(("end_turn", seat, k, card, *done) if done else ("end_turn", seat, k))
        else:
            q.append(("end_turn", seat, k))
        if ab is not None:  # runs after the power, before flights are collected
            ab.played(s, seat, card)
        q.append(("trigger", seat, card, card))
    elif ab is not None:
        s.queue.append(("end_turn", seat, k))
        ab.played(s, seat, card)
    else:
        _end_turn(s, ("end_turn", seat, k))


resolver(PLAY)(_resolve_play)


def _trigger(s: GameState, st: Step) -> None:
    _, seat, text, this = st
    if s.stakes_emptied and rewards_skipped(s):  # (the check first: the hot path)
        return
    pid = POWER[text]
    if not pid:
        return
    fn = _POWERS.get(pid)
    if fn is None:  # a card of a set this engine version does not implement
        ev(s, "power_unsupported", seat=seat, card=text)
        return
    if s.log is not None:
        ev(s, "power", seat=seat, card=text, this=this)
    fn(s, seat, text, this)


step("trigger", "seat", "text", "this")(_trigger)


def _in_a_flight(s: GameState, card: int) -> bool:
    """Is ``card`` in some flight (not discarded by its own power)?"""
    for flight in s.flights:  # noqa: SIM110 (any() of a generator: a closure, flow.pxd)
        if card in flight:
            return True
    return False


def _end_turn(s: GameState, st: Step) -> None:
    """All triggered powers are done: collect special flights, then buy cards.

    ``st[3:]``, when present: the card just played and the special flights it
    completed when played (:func:`completed_now`).  They are collected even if
    its power then changed the flight, unless the card discarded itself (L
    Copper Dragon, Sorcerer: it "doesn't complete a color flight or strength
    flight before it's discarded").
    """
    seat = st[1]
    k = st[2]
    kept: tuple[int, ...] = ()
    if len(st) > 4:
        if not s.stakes_emptied and _in_a_flight(s, st[3]):
            kept = tuple(st[4:])  # the card was not discarded by its own power
    else:
        flight = s.flights[seat]
        if s.dirty == 1 << seat and (len(flight) < 3 or no_new_flight(s, flight)):
            s.dirty = 0  # fast path: only the active flight gained a card, and no triple
            _after_rewards(s, ("after_rewards", seat, k))
            return
    if not s.stakes_emptied:
        rewards = detect_flight_rewards(s, seat, None, kept)
        if rewards:
            s.queue.append(("after_rewards", seat, k))
            push(s, *rewards)
            return
    else:
        complete_unscored(s, seat)
    _after_rewards(s, ("after_rewards", seat, k))


step("end_turn", "seat", "nth", "*completed")(_end_turn)


def _after_rewards(s: GameState, st: Step) -> None:
    """Buying cards, second situation, for every player (A41); then the next turn."""
    _, seat, k = st
    if s.stakes_emptied and end_gambit_if_stakes_empty(s):  # (the check first: hot path)
        return
    hands = s.hands
    if not all(hands):
        s.queue.append(("turn", k + 1))
        push(s, *[("buy_empty", p) for p in clockwise(s, seat) if not hands[p]])
        return
    _turn(s, ("turn", k + 1))


step("after_rewards", "seat", "nth")(_after_rewards)


def _buy_empty(s: GameState, st: Step) -> None:
    """Buying cards, second situation: a player whose hand is empty buys."""
    p = st[1]
    if not s.hands[p]:
        buy(s, p)


step("buy_empty", "seat")(_buy_empty)


def scoring_round(s: GameState) -> int:
    """The round after which the gambit is scored if no tie breaks it: the
    ruleset's (three, A20), or later while an Emperor's Gambit Emperor says so."""
    return max(s.config.rules.min_rounds, s.score_round)


def _round_end(s: GameState, st: Step) -> None:
    cards = [c if not s.round_removed[p] else -1 for p, c in enumerate(s.round_card)]
    best = strongest_untied(cards)
    led = s.leader  # who led this round: Step 5 starts with them if nobody wins (A25)
    if best >= 0:
        s.leader = best
    if s.log is not None:
        ev(s, "round_end", round=s.round, leader=s.leader)
    if max(s.round_card) < 0:
        # Nobody could play: ties can never break, so score what there is.
        s.queue.append(("scoring_check", FINAL, led))
    elif s.round >= scoring_round(s):
        s.queue.append(("scoring_check", UNLESS_TIED, led))
    else:
        s.queue.append(("round_start",))


step("round_end")(_round_end)


# --- step 3: scoring ---------------------------------------------------------


def dragonrider_strengths(s: GameState) -> dict[int, int]:
    """Scoring strength of each triggered Dragonrider: the weakest dragon in its flight."""
    out: dict[int, int] = {}
    mask = s.dragonrider
    if not mask:
        return out
    for flight in s.flights:
        for c in flight:
            if (mask >> c) & 1:
                out[c] = min([STRENGTH[x] for x in flight if IS_DRAGON[x]], default=0)
    return out


def scoring_totals(s: GameState) -> list[int]:
    """Flight strengths as scored: Dragonrider, Dracolich and Emperor apply (A31)."""
    rider = dragonrider_strengths(s)
    totals = []
    for p, flight in enumerate(s.flights):
        total = 0
        evil = 0
        for c in flight:
            total += rider.get(c, STRENGTH[c]) if rider else STRENGTH[c]
            if IS_EVIL[c]:
                evil += 1
        total += 2 * evil * s.dracolich[p] + 4 * s.emperor[p]
        totals.append(total)
    return totals


_BLOCKING = {"evil": IS_EVIL, "good": IS_GOOD, "mortal": IS_MORTAL}


def may_win(s: GameState, seat: int) -> bool:
    """Dragon-god abilities: Bahamut with an evil dragon, Tiamat with a good one,
    Io with a mortal in the same flight can't win the gambit."""
    flight = s.flights[seat]
    for c in flight:
        blocked = BLOCKED_BY[c]
        if blocked:
            table = _BLOCKING[blocked]
            for x in flight:
                if table[x]:
                    return False
    return True


def weakest_wins(s: GameState) -> bool:
    """The Druid's power or the Hatchling's ante effect: the weakest flight wins (A29)."""
    if s.druid:
        return True
    for fn in ante_hooks(s, ANTE_WEAKEST_WINS):  # noqa: SIM110 (a loop: flow.pxd)
        if fn(s):
            return True
    return False


def gambit_leaders(s: GameState) -> tuple[list[int], list[int]]:
    """(eligible seats with the best scored flight, scored totals)."""
    totals = scoring_totals(s)
    eligible = [p for p in range(s.n) if not (s.out >> p) & 1 and may_win(s, p)]
    if not eligible:
        return [], totals
    pick = min if weakest_wins(s) else max
    best = pick([totals[p] for p in eligible])
    return [p for p in eligible if totals[p] == best], totals


def _scoring_check(s: GameState, st: Step) -> None:
    final = st[1]
    s.queue.append(("decide_winner", final, *st[2:]))
    rider = dragonrider_strengths(s)
    if rider and not s.stakes_emptied:
        queue_flight_rewards(s, s.leader, rider)


step("scoring_check", "final", "*led")(_scoring_check)


def _decide_winner(s: GameState, st: Step) -> None:
    final = bool(st[1]) or s.stakes_emptied
    best, totals = gambit_leaders(s)
    if s.log is not None:
        ev(s, "scoring", totals=totals, round=s.round)
    if not final:
        if len(best) > 1:
            if s.log is not None:
                ev(s, "tie", seats=best)
            s.queue.append(("round_start",))
            return
        if s.round == 3 and s.warlord:
            winner = best[0] if best else -1
            if s.warlord & ~(1 << winner if winner >= 0 else 0):  # another seat's Warlord
                ev(s, "warlord_round")
                s.queue.append(("round_start",))
                return
    winner = best[0] if len(best) == 1 else -1
    s.queue.append(("award", winner, *st[2:]))


step("decide_winner", "final", "*led")(_decide_winner)


def _award(s: GameState, st: Step) -> None:
    """Step 3: the winner takes the stakes (shared by the Adventurer and Priest)."""
    winner = st[1]
    s.gambit_winner = winner
    s.queue.append(("end_gambit", winner, *st[2:]))
    if winner < 0:
        ev(s, "no_winner", stakes=s.stakes)
        return
    if s.abilities is not None:  # its steps run after the stakes are shared out
        s.abilities.gambit_won(s, winner)
    if s.has_ante_fx:  # an ante effect may share the stakes out (the Adventurer)
        for fn in ante_hooks(s, ANTE_AWARD):
            if fn(s, winner):
                return
    amount = s.stakes
    s.stakes = 0
    winner_share(s, winner, amount)


step("award", "winner", "*led")(_award)


def winner_share(s: GameState, winner: int, amount: int) -> None:
    """The winner's gold from the stakes: the Priest splits it, the Monarch gives
    (also each Adventurer stack the winner keeps)."""
    if s.priest:
        share = amount // 2
        partner = left_of(s, winner)
        if s.log is not None:
            ev(s, "priest_split", winner=winner, partner=partner, amount=amount, share=share)
            ev(s, "gambit_won", winner=winner, amount=amount)
        gain_gold(s, winner, amount - share)
        gain_gold(s, partner, share)
    else:
        if s.log is not None:
            ev(s, "gambit_won", winner=winner, amount=amount)
        gain_gold(s, winner, amount)
    # Gold Monarch: "if you win this gambit, gift each opponent with 3 gold",
    # once per time its power triggered (the Princess can trigger it twice).
    for _ in range(s.monarch_gifts[winner]):
        ev(s, "monarch_gift", seat=winner, gift=MONARCH_GIFT)
        for o in opponents_from_left(s, winner):
            pay(s, winner, MONARCH_GIFT, o)


def _end_gambit(s: GameState, st: Step) -> None:
    """Discard flights and ante; Step 4 (hole or debts, game end); Step 5 (draw)."""
    winner = st[1]
    ab = s.abilities
    if ab is not None and st[0] == "end_gambit" and ab.before_step4(s, ("step4", *st[1:])):
        return
    n = s.n
    for flight in s.flights:
        s.discard.extend(flight)
        flight.clear()
    s.discard.extend(s.ante)
    s.ante.clear()
    s.round_card = [-1] * n
    # Step 4: pay into the hole (L) or settle debts (EG).
    for p in range(n):
        owed = s.hole_owed[p]
        if owed:
            paid = owed if s.hoards[p] >= owed else s.hoards[p]
            s.hoards[p] -= paid
            s.hole += paid
            s.hole_owed[p] = 0
            ev(s, "hole_paid", seat=p, owed=owed, paid=paid)
    if s.debts:
        settle_debts(s, winner)
    if _game_ends(s):
        _finish_game(s)
        return
    # Step 5: draw two apiece, winner first (A25: else whoever led the last
    # round played; st[2] when the gambit ended at a round's end, else s.leader).
    start = winner if winner >= 0 else (st[2] if len(st) > 2 else s.leader)
    if (s.out >> start) & 1:
        start = left_of(s, start)
    if ab is not None:  # abilities act between Step 4 and Step 5 (Desperation, Insight)
        s.queue.append(("step5", start))
        ab.after_step4(s)
        return
    _step5(s, ("step5", start))


step("end_gambit", "winner", "*led")(_end_gambit)
step("step4", "winner", "*led")(_end_gambit)


def _step5(s: GameState, st: Step) -> None:
    """Step 5: everyone draws, clockwise from ``start``; the next gambit begins."""
    start = st[1]
    per = s.config.rules.draw_per_gambit
    for p in clockwise(s, start):
        draw(s, p, per)
    s.queue.append(("begin_gambit", start))


step("step5", "start")(_step5)


def _game_ends(s: GameState) -> bool:
    """Step 4's game-end check, with the optional endings (EG optional rules).

    Normally the game ends as soon as a hoard is empty.  With
    ``players_remaining`` an empty hoard eliminates its player instead (the
    hand is discarded) until that many players remain (options.md §4).
    """
    end = s.config.ending
    broke = [p for p in range(s.n) if s.hoards[p] == 0 and not (s.out >> p) & 1]
    if broke and end.players_remaining:
        if players_in(s) - len(broke) > end.players_remaining:
            for p in broke:
                s.out |= 1 << p
                for c in s.hands[p]:  # discarded unseen: only its owner knows them
                    s.known[c] = 1 << p
                s.discard.extend(s.hands[p])
                s.hands[p].clear()
                ev(s, "eliminated", seat=p)
            broke = []
        else:
            return True
    if broke:
        return True
    if end.target_gold and max(s.hoards) >= end.target_gold:
        ev(s, "target_reached", target=end.target_gold)
        return True
    if end.gambits and s.gambit >= end.gambits:
        return True
    return bool(s.last_gambit and s.gambit >= s.last_gambit)


def settle_debts(s: GameState, winner: int) -> None:
    """EG Step 4: debtors repay as much as they can, in the order the debts arose.

    The gambit winner ignores its debts to the stakes; by now the stakes have
    gone to the winner, so a repaid stake-debt goes to the winner, or to the
    next gambit's stakes when there was no winner (A39,
    ``stake_debt_recipient``).
    """
    to_winner = s.config.rules.stake_debt_recipient == "winner" and winner >= 0
    for debtor, creditor, owed in list(s.debts):  # (gain_gold may repay others)
        if creditor == STAKES and debtor == winner:
            ev(s, "debt_waived", seat=debtor, owed=owed)
            continue
        paid = owed if s.hoards[debtor] >= owed else s.hoards[debtor]
        s.hoards[debtor] -= paid
        to = creditor
        if creditor == STAKES:
            to = winner if to_winner else STAKES
        ev(s, "debt_paid", seat=debtor, to=to, owed=owed, paid=paid)
        if to == STAKES:
            s.stakes += paid
        else:
            gain_gold(s, to, paid)
    s.debts.clear()


def _finish_game(s: GameState) -> None:
    n = s.n
    top = max(s.hoards)
    winners = [p for p in range(n) if s.hoards[p] == top]
    s.winners = tuple(winners)
    if s.config.rules.hole_recipient == "game_winner" and s.hole:
        hole = s.hole
        share, rest = divmod(hole, len(winners))
        for w in winners:
            gain_gold(s, w, share)
        if rest:
            # A52: odd coins to the non-winner with the least gold, first
            # clockwise from the last gambit winner; else to winners in turn.
            start = s.gambit_winner if s.gambit_winner >= 0 else s.leader
            order = [(start + i) % n for i in range(n)]
            losers = [p for p in order if p not in winners]
            if losers:
                poorest = min(s.hoards[p] for p in losers)
                gain_gold(s, next(p for p in losers if s.hoards[p] == poorest), rest)
            else:
                for i in range(rest):
                    gain_gold(s, [p for p in order if p in winners][i % len(winners)], 1)
        s.hole = 0
        ev(s, "hole_won", seats=winners, amount=hole)
    s.phase = OVER
    s.pending = None
    s.queue.clear()
    ev(s, "game_over", winners=winners, hoards=list(s.hoards))


__all__ = ["IS_GOOD", "gambit_leaders", "may_win", "scoring_totals", "strongest_untied"]
