# Cython declarations for flow.py (the compiled engine, docs/engine.md, "The compiled
# engine"): its functions on the bench's path are C functions that take the state as
# the extension type GameState (state.pxd), so they read its fields directly and call
# each other without Python's call protocol; every other argument stays a Python
# object, as in the source.  Decorated functions cannot be declared here: the steps
# and resolvers listed are registered by a call after their definition instead.

from dragonante.engine.state cimport GameState
from dragonante.engine.core cimport ante_hooks, ask, buy, clockwise, draw, end_gambit_if_stakes_empty, forget_card, gain_gold, left_of, opponents_from_left, pay, players_in, rewards_skipped, right_of
from dragonante.engine.flights cimport complete_unscored, completed_now, detect_flight_rewards, no_new_flight, queue_flight_rewards
from dragonante.kernel.decisions cimport Decision

cpdef strongest_untied(cards)
cpdef _setup(GameState s, st)
cpdef _choose_cards(GameState s)
cpdef _begin_gambit(GameState s, st)
cpdef _ante_ask(GameState s, st)
cpdef _ante_choose(GameState s, st)
cpdef _resolve_ante(GameState s, Decision d, card)
cpdef _ante_reveal(GameState s, st)
cpdef _ante_settle(GameState s, st)
cpdef _round_start(GameState s, st)
cpdef _turn(GameState s, st)
cpdef _turn_play(GameState s, st)
cpdef _play_card(GameState s, seat, k, windowed)
cpdef triggers(GameState s, seat, card)
cpdef would_trigger(GameState s, seat, card)
cpdef _resolve_play(GameState s, Decision d, card)
cpdef _trigger(GameState s, st)
cpdef _in_a_flight(GameState s, card)
cpdef _end_turn(GameState s, st)
cpdef _after_rewards(GameState s, st)
cpdef _buy_empty(GameState s, st)
cpdef scoring_round(GameState s)
cpdef _round_end(GameState s, st)
cpdef dragonrider_strengths(GameState s)
cpdef scoring_totals(GameState s)
cpdef may_win(GameState s, seat)
cpdef weakest_wins(GameState s)
cpdef gambit_leaders(GameState s)
cpdef _scoring_check(GameState s, st)
cpdef _decide_winner(GameState s, st)
cpdef _award(GameState s, st)
cpdef winner_share(GameState s, winner, amount)
cpdef _end_gambit(GameState s, st)
cpdef _step5(GameState s, st)
cpdef _game_ends(GameState s)
cpdef settle_debts(GameState s, winner)
