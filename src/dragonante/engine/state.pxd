# Cython declarations for state.py (the compiled engine, docs/engine.md): the
# state is an extension type, so compiled rules read and write its fields
# directly instead of through Python's attribute lookup.  Every field stays a
# Python object (any value its source may hold); tests/test_compiled_engine.py
# keeps these fields equal to GameState.__slots__.

from dragonante.engine.effects cimport EffectSlots


cdef class GameState(EffectSlots):
    cdef public object abilities
    cdef public object ante
    cdef public object ante_choice
    cdef public object aside
    cdef public object collected_colors
    cdef public object collected_strengths
    cdef public object config
    cdef public object debts
    cdef public object decision_count
    cdef public object deck
    cdef public object dirty
    cdef public object discard
    cdef public object flights
    cdef public object gambit
    cdef public object gambit_winner
    cdef public object gold_total
    cdef public object hands
    cdef public object has_ante_fx
    cdef public object hoards
    cdef public object hole
    cdef public object hole_owed
    cdef public object known
    cdef public object last_gambit
    cdef public object leader
    cdef public object limbo
    cdef public object log
    cdef public object n
    cdef public object out
    cdef public object pending
    cdef public object phase
    cdef public object queue
    cdef public object replaced
    cdef public object rng
    cdef public object round
    cdef public object round_card
    cdef public object round_removed
    cdef public object seed
    cdef public object specials
    cdef public object stakes
    cdef public object stakes_emptied
    cdef public object universe
    cdef public object winners
