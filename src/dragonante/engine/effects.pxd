# Cython declarations for effects.py (the compiled engine, docs/engine.md): the
# effects' slots become fields of an extension type, GameState's base.  Every
# field stays a Python object, as in the source.

cdef class EffectSlots:
    cdef public object archmage
    cdef public object merchant_prince
    cdef public object druid
    cdef public object priest
    cdef public object monarch
    cdef public object monarch_gifts
    cdef public object warlord
    cdef public object dracolich
    cdef public object wild
    cdef public object dragonrider
    cdef public object emperor
    cdef public object score_round
    cdef public object mortal_flights
