# Cython declarations for flights.py (the compiled engine, docs/engine.md, "The compiled
# engine"): its functions on the bench's path are C functions that take the state as
# the extension type GameState (state.pxd), so they read its fields directly and call
# each other without Python's call protocol; every other argument stays a Python
# object, as in the source.  Decorated functions cannot be declared here: the steps
# and resolvers listed are registered by a call after their definition instead.

from dragonante.engine.state cimport GameState
from dragonante.engine.core cimport ask, opponents_from_left, pay, reveal_known, rewards_skipped, steal

cpdef completed_colors(GameState s, seat, flight=*)
cpdef completed_strengths(GameState s, seat, override=*, flight=*)
cpdef completed_by(GameState s, seat, card)
cpdef completed_now(GameState s, seat)
cpdef detect_flight_rewards(GameState s, first, override=*, kept=*)
cpdef queue_flight_rewards(GameState s, first, override=*)
cpdef _flight_done(GameState s, p)
cpdef _flight_unscored(GameState s, p)
cpdef complete_unscored(GameState s, first)
cpdef _take_ante(GameState s, st)
cpdef _resolve_take_ante(GameState s, d, card)
cpdef no_new_flight(GameState s, flight)
