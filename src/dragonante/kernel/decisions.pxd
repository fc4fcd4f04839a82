# Cython declarations for decisions.py (the compiled engine, docs/engine.md): a
# Decision is an extension type, so compiled code reads its fields from the
# object itself instead of through Python's attribute lookup.  Every field
# stays a Python object: the class takes exactly what its source takes.

cdef class Decision:
    cdef public object ctx
    cdef public object id
    cdef public object kind
    cdef public object options
    cdef public object seat
    cdef public object source
