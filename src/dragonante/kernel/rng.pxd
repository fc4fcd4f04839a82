# Cython declarations for rng.py (the compiled engine, docs/engine.md, "The compiled
# engine"): the shuffle's stream state and mixing are unsigned 64-bit C integers,
# whose wrap-around is exactly the source's "& (2**64 - 1)"; a state outside
# 0 .. 2**64 - 1 (never made by seed_state or the stream) is refused.

import cython


@cython.locals(
    gamma=cython.ulonglong,
    mask=cython.ulonglong,
    mix1=cython.ulonglong,
    mix2=cython.ulonglong,
    refill=cython.ulonglong,
    z=cython.ulonglong,
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
)
cpdef shuffle(unsigned long long state, list items)
