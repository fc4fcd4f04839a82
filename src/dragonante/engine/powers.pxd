# Cython declarations for powers.py (the compiled engine, docs/engine.md, "The compiled
# engine"): its functions on the bench's path are C functions that take the state as
# the extension type GameState (state.pxd), so they read its fields directly and call
# each other without Python's call protocol; every other argument stays a Python
# object, as in the source.  Decorated functions cannot be declared here: the steps
# and resolvers listed are registered by a call after their definition instead.

from dragonante.engine.state cimport GameState
from dragonante.engine.core cimport ask, clockwise, discard_from_flight, flight_total, forget_card, left_of, opponents_from_left, pay, power_draw, put_cards_into_ante, repeats, replace_from_deck, replace_in_flight, reveal_known, rewards_skipped, right_of, steal, take_random, top_card, trigger_each

cpdef black(GameState s, seat, text, this)
cpdef blue(GameState s, seat, text, this)
cpdef _blue_mode(GameState s, d, mode)
cpdef brass(GameState s, seat, text, this)
cpdef green(GameState s, seat, text, this)
cpdef _give_or_pay(GameState s, st)
cpdef _resolve_give_or_pay(GameState s, d, card)
cpdef take_two_weakest(GameState s, seat, source)
cpdef bronze(GameState s, seat, text, this)
cpdef copper(GameState s, seat, text, this)
cpdef gold(GameState s, seat, text, this)
cpdef silver_draws(GameState s, seat)
cpdef silver(GameState s, seat, text, this)
cpdef choose_among(GameState s, seat, text, seats, then, extra=*)
cpdef _choose_opponent(GameState s, d, target)
cpdef strongest_opponents(GameState s, seat)
cpdef red(GameState s, seat, text, this)
cpdef _red_hit(GameState s, st)
cpdef white(GameState s, seat, text, this)
cpdef _white_hit(GameState s, st)
