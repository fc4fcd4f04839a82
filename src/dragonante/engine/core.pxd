# Cython declarations for core.py (the compiled engine, docs/engine.md, "The compiled
# engine"): its functions on the bench's path are C functions that take the state as
# the extension type GameState (state.pxd), so they read its fields directly and call
# each other without Python's call protocol; every other argument stays a Python
# object, as in the source.  Decorated functions cannot be declared here: the steps
# and resolvers listed are registered by a call after their definition instead.

from dragonante.engine.state cimport GameState


cpdef ante_hooks(GameState s, hook)
cpdef ask(GameState s, seat, kind, options, source=*, ctx=*)
cpdef opponents_from_left(GameState s, seat)
cpdef clockwise(GameState s, start)
cpdef left_of(GameState s, seat)
cpdef right_of(GameState s, seat)
cpdef players_in(GameState s)
cpdef pay(GameState s, payer, amount, to)
cpdef gain_gold(GameState s, seat, amount)
cpdef steal(GameState s, seat, amount, by_power=*)
cpdef rewards_skipped(GameState s)
cpdef end_gambit_if_stakes_empty(GameState s)
cpdef trigger_each(GameState s, seat, cards, text, kind)
cpdef top_card(GameState s, reshuffle=*)
cpdef reshuffle_if_empty(GameState s)
cpdef _reshuffle(GameState s)
cpdef draw(GameState s, seat, count)
cpdef power_draw(GameState s, seat, count)
cpdef buy(GameState s, seat)
cpdef pay_for_cards(GameState s, seat, card)
cpdef fill_hand(GameState s, seat, size)
cpdef take_random(GameState s, taker, victim)
cpdef reveal_known(GameState s, card)
cpdef forget_card(GameState s, card)
cpdef flight_total(GameState s, seat)
cpdef discard_from_flight(GameState s, seat, card)
cpdef replace_from_deck(GameState s, seat, old)
cpdef repeats(GameState s, card)
cpdef replace_in_flight(GameState s, seat, old, new)
cpdef put_into_ante(GameState s, card, seat, active)
cpdef put_cards_into_ante(GameState s, cards, seat, active, effects=*)
