/*
 * dragonante.agents._fastobs: a seat's observation vector, encoded in C
 * straight from the engine state (issue 24).
 *
 * Why this exists: a learning loop observes a seat at every step, and in
 * Python building the seat's view and encoding it costs more than the
 * engine's own work for the step (docs/agents.md, "Speed").  This module
 * writes the same 5,560 floats as
 *
 *     dragonante.agents.encoding.encode(observe(state, seat, hints=False))
 *
 * byte for byte, reading the GameState's zones directly, in about a
 * microsecond.  It is optional: dragonante.agents.state_encoding uses it
 * when it was built and is current (dragonante.agents.compiled) and falls
 * back to the pure-Python StateEncoder otherwise.  It covers the tables
 * without D&D abilities and without owner-only running effects; the
 * Python side sends the others through the view.
 *
 * What a seat may see follows dragonante.engine.views.observe exactly: its
 * own hand and face-down ante card, the Silver Seer's private look when it
 * is asked to keep, the cards of other hands it knows (state.known), the
 * discard pile without the cards discarded face down that it did not see,
 * and the public zones.  tests/agents/test_state_encoding.py compares this
 * module's vectors with the reference encoder's for every seat in every
 * state of whole games, and checks hidden cards change nothing.
 *
 * The layout (every offset), the question kinds, the phases and the
 * running effects are not written here: setup() receives them from
 * dragonante.agents.encoding at import, so the Python layout stays the
 * only one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <structmember.h>

#ifndef FASTOBS_SOURCE_SHA256
#error "FASTOBS_SOURCE_SHA256 must be defined (the sha256 of this file; see hatch_build.py)"
#endif

#define MAX_PLAYERS 6
/* More cards than any zone can hold (a deck has at most 170 cards). */
#define MAX_ZONE 256
#define MAX_EFFECTS 32

/* The effects' shapes, as setup() numbers them. */
enum { SHAPE_SEATS = 0, SHAPE_SEAT = 1, SHAPE_FLAG = 2, SHAPE_CARDS = 3, SHAPE_COUNTS = 4, SHAPE_AMOUNT = 5 };

/* One attribute read, found once by setup(); the objects' types are checked
   at every call.  In the pure-Python engine every attribute is a __slots__
   entry, read at its offset in the object (what the slot's descriptor does).
   In the Cython-compiled engine the classes are extension types whose
   attributes are C getters (getset descriptors): the getter is called
   directly, without the attribute lookup. */
typedef struct {
    PyObject *name; /* interned */
    Py_ssize_t offset;
    getter read;   /* the compiled class's getter, or NULL: read at offset */
    void *closure; /* its closure */
} slot_t;

typedef struct {
    slot_t slot; /* its slot in the state */
    int shape;
    Py_ssize_t at; /* first entry of its slice */
} effect_spec;

/* The layout, filled by setup(). */
static int ready = 0;
static Py_ssize_t obs_size, n_cards, n_flight_colors, n_strengths;
static Py_ssize_t o_hand, o_flights, o_round_card, o_known, o_ante, o_my_ante, o_revealed,
    o_private_look, o_discard, o_specials, o_question_source, o_is_me, o_seated, o_to_act,
    o_leader, o_ante_placed, o_out, o_winners, o_gambit_winner, o_hoards, o_hole_owed,
    o_debts_owed, o_debts_due, o_hand_sizes, o_collected_colors, o_collected_strengths,
    o_globals, o_no_question, o_private_kind, o_system_none;
static PyObject *kind_at;  /* dict: question kind -> entry */
static PyObject *phase_at; /* dict: phase -> entry */
static PyObject *seer_keep; /* the Silver Seer's "keep" question kind */
/* The action mask: each kind's first action, the negative answers' actions. */
#define MAX_CODES 8
static Py_ssize_t n_actions;
static PyObject *first_action; /* dict: question kind -> its block's first action */
static Py_ssize_t code_action[MAX_CODES + 1]; /* answer -c -> action, -1: none */
static effect_spec effects[MAX_EFFECTS];
static int n_effects = 0;

/* The attributes read, of the state, its question, its config and deck options. */
static slot_t a_n, a_phase, a_gambit, a_round, a_leader, a_hoards, a_stakes, a_hole,
    a_hole_owed, a_debts, a_hands, a_known, a_flights, a_ante, a_ante_choice, a_limbo, a_deck,
    a_discard, a_specials, a_round_card, a_collected_colors, a_collected_strengths,
    a_gambit_winner, a_pending, a_winners, a_out, a_last_gambit, a_config, a_deck_options, a_reveal_specials, a_seat, a_kind, a_source, a_options;
static PyTypeObject *state_type, *decision_type, *config_type, *deck_type;

/* --- small readers: each sets a Python exception and returns -1 on error --- */

static int as_long(PyObject *o, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* The ints of a list or tuple, into cards[] (at most MAX_ZONE). */
static Py_ssize_t read_ints(PyObject *seq, long *cards, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > MAX_ZONE) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd entries, more than %d", what, k, MAX_ZONE);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < k; i++) {
        if (as_long(items[i], &cards[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return k;
}

/* A new reference to a slot's value (AttributeError when it is not set). */
static PyObject *get(PyObject *obj, const slot_t *a) {
    if (a->read != NULL) return a->read(obj, a->closure);
    PyObject *o = *(PyObject **)((char *)obj + a->offset);
    if (o == NULL) {
        PyErr_Format(PyExc_AttributeError, "%U is not set", a->name);
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

/* A slot's value as a C long. */
static int attr_long(PyObject *s, const slot_t *a, long *out) {
    PyObject *o = get(s, a);
    if (o == NULL) return -1;
    int r = as_long(o, out);
    Py_DECREF(o);
    return r;
}

/* A slot's value read by read_ints. */
static Py_ssize_t attr_ints(PyObject *s, const slot_t *a, long *cards) {
    PyObject *o = get(s, a);
    if (o == NULL) return -1;
    Py_ssize_t k = read_ints(o, cards, PyUnicode_AsUTF8(a->name));
    Py_DECREF(o);
    return k;
}

static inline float scaled(long x, long top) {
    /* Python's ``x / top if x < top else 1.0``, then rounded to float32. */
    return x < top ? (float)((double)x / (double)top) : 1.0f;
}

static int contains(const long *cards, Py_ssize_t k, long c) {
    for (Py_ssize_t i = 0; i < k; i++)
        if (cards[i] == c) return 1;
    return 0;
}

/* The entry a dict maps ``key`` to (a Python int), or -1 with no error if absent. */
static Py_ssize_t lookup(PyObject *table, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(table, key);
    if (v == NULL) return PyErr_Occurred() ? -2 : -1;
    return PyLong_AsSsize_t(v);
}

/* --- encode ------------------------------------------------------------------ */

/* Write one entry, refusing any index outside the vector (a corrupt state must
   raise, never write past the buffer). */
#define PUT(index, value)                                                              \
    do {                                                                               \
        Py_ssize_t put_at_ = (index);                                                  \
        if (put_at_ < 0 || put_at_ >= obs_size) {                                      \
            PyErr_Format(PyExc_ValueError, "an entry outside the vector (%zd): a card " \
                         "or seat out of range in the state", put_at_);                \
            goto error;                                                                \
        }                                                                              \
        v[put_at_] = (value);                                                          \
    } while (0)

/* The set bits of a non-negative Python int of any size (a card mask), each
   written as a 1 from entry ``at`` on. */
static int put_bits(PyObject *mask, float *v, Py_ssize_t at) {
    PyObject *len = PyObject_CallMethod(mask, "bit_length", NULL);
    if (len == NULL) return -1;
    Py_ssize_t nbits = PyLong_AsSsize_t(len);
    Py_DECREF(len);
    if (nbits < 0) return -1;
    PyObject *raw = PyObject_CallMethod(mask, "to_bytes", "ns", (nbits + 7) / 8, "little");
    if (raw == NULL) return -1;
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(raw);
    for (Py_ssize_t i = 0; i < nbits; i++) {
        if ((bytes[i / 8] >> (i % 8)) & 1) {
            if (at + i >= obs_size) {
                Py_DECREF(raw);
                PyErr_SetString(PyExc_ValueError, "a card mask reaches past the vector");
                return -1;
            }
            v[at + i] = 1.0f;
        }
    }
    Py_DECREF(raw);
    return 0;
}

static PyObject *fastobs_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "encode(state, seat, out) takes 3 arguments");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobs.setup() was not called");
        return NULL;
    }
    PyObject *s = args[0];
    if (!PyObject_TypeCheck(s, state_type)) {
        PyErr_Format(PyExc_TypeError, "encode: a %s, not %s", state_type->tp_name,
                     Py_TYPE(s)->tp_name);
        return NULL;
    }
    long seat;
    if (as_long(args[1], &seat) < 0) return NULL;
    Py_buffer buf;
    if (PyObject_GetBuffer(args[2], &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *pending = NULL, *hands = NULL, *known = NULL, *config = NULL, *deck_opts = NULL;
    PyObject *obj = NULL;
    if (buf.len != obs_size * (Py_ssize_t)sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "out must hold %zd float32 entries", obs_size);
        goto error;
    }
    float *v = (float *)buf.buf;
    memset(v, 0, (size_t)buf.len);

    long n, x;
    if (attr_long(s, &a_n, &n) < 0) goto error;
    if (n < 1 || n > MAX_PLAYERS || seat < 0 || seat >= n) {
        PyErr_Format(PyExc_ValueError, "seat %ld at a table of %ld", seat, n);
        goto error;
    }
    long cards[MAX_ZONE];
    Py_ssize_t k;

    /* The hands: the seat's own cards, every hand's size, and (for the
       known cards) every hand's contents. */
    static long hand[MAX_PLAYERS][MAX_ZONE];
    Py_ssize_t hand_len[MAX_PLAYERS];
    hands = get(s, &a_hands);
    if (hands == NULL) goto error;
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != n) {
        PyErr_SetString(PyExc_TypeError, "state.hands must be a list of one list per seat");
        goto error;
    }
    for (long p = 0; p < n; p++) {
        hand_len[p] = read_ints(PyList_GET_ITEM(hands, p), hand[p], "hands");
        if (hand_len[p] < 0) goto error;
        long size = (long)hand_len[p];
        if (size) PUT(o_hand_sizes + p, scaled(size, 10));
    }
    for (Py_ssize_t i = 0; i < hand_len[seat]; i++)
        if (hand[seat][i] >= 0) PUT(o_hand + hand[seat][i], 1.0f);
    PUT(o_is_me + seat, 1.0f);
    for (long p = 0; p < n; p++) PUT(o_seated + p, 1.0f);

    /* The ante: placed (public), the seat's own face-down card, the ante's cards. */
    long choice[MAX_ZONE];
    k = attr_ints(s, &a_ante_choice, choice);
    if (k < 0) goto error;
    if (k != n) {
        PyErr_SetString(PyExc_ValueError, "state.ante_choice must have one entry per seat");
        goto error;
    }
    for (long p = 0; p < n; p++)
        if (choice[p] >= 0) PUT(o_ante_placed + p, 1.0f);
    if (choice[seat] >= 0) PUT(o_my_ante + choice[seat], 1.0f);
    k = attr_ints(s, &a_ante, cards);
    if (k < 0) goto error;
    for (Py_ssize_t i = 0; i < k; i++)
        if (cards[i] >= 0) PUT(o_ante + cards[i], 1.0f);

    /* The flights and the round's cards. */
    obj = get(s, &a_flights);
    if (obj == NULL) goto error;
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) > MAX_PLAYERS) {
        PyErr_SetString(PyExc_TypeError, "state.flights must be a list of one list per seat");
        goto error;
    }
    for (Py_ssize_t p = 0; p < PyList_GET_SIZE(obj); p++) {
        k = read_ints(PyList_GET_ITEM(obj, p), cards, "flights");
        if (k < 0) goto error;
        for (Py_ssize_t i = 0; i < k; i++) PUT(o_flights + p * n_cards + cards[i], 1.0f);
    }
    Py_CLEAR(obj);
    k = attr_ints(s, &a_round_card, cards);
    if (k < 0) goto error;
    for (Py_ssize_t p = 0; p < k && p < MAX_PLAYERS; p++)
        if (cards[p] >= 0) PUT(o_round_card + p * n_cards + cards[p], 1.0f);

    /* The cards the seat knows of (state.known: card -> bit mask of seats). */
    long known_card[MAX_ZONE], known_mask[MAX_ZONE];
    Py_ssize_t n_known = 0;
    known = get(s, &a_known);
    if (known == NULL) goto error;
    if (!PyDict_Check(known)) {
        PyErr_SetString(PyExc_TypeError, "state.known must be a dict");
        goto error;
    }
    {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(known, &pos, &key, &value)) {
            if (n_known == MAX_ZONE) {
                PyErr_SetString(PyExc_ValueError, "state.known holds too many cards");
                goto error;
            }
            if (as_long(key, &known_card[n_known]) < 0) goto error;
            if (as_long(value, &known_mask[n_known]) < 0) goto error;
            n_known++;
        }
    }
    long bit = 1L << seat;
    /* views.known_in_hands: a known card in another seat's hand or face-down
       ante, listed under the first seat that holds it. */
    for (Py_ssize_t j = 0; j < n_known; j++) {
        long c = known_card[j];
        if (!(known_mask[j] & bit) || contains(hand[seat], hand_len[seat], c) || c == choice[seat])
            continue;
        for (long p = 0; p < n; p++) {
            if (contains(hand[p], hand_len[p], c) || c == choice[p]) {
                PUT(o_known + p * n_cards + c, 1.0f);
                break;
            }
        }
    }
    /* views.visible_discards: the pile without the known cards the seat has not
       seen (every known card there went face down). */
    k = attr_ints(s, &a_discard, cards);
    if (k < 0) goto error;
    for (Py_ssize_t i = 0; i < k; i++) {
        long c = cards[i];
        if (c < 0) continue;
        int hidden = 0;
        for (Py_ssize_t j = 0; j < n_known; j++) {
            if (known_card[j] == c) {
                hidden = !(known_mask[j] & bit);
                break;
            }
        }
        if (!hidden) PUT(o_discard + c, 1.0f);
    }
    PUT(o_globals + 4, scaled(k, n_cards));

    /* The question: who is asked, what, by which card's power; the Seer's look. */
    pending = get(s, &a_pending);
    if (pending == NULL) goto error;
    int seer = 0;
    if (pending != Py_None && !PyObject_TypeCheck(pending, decision_type)) {
        PyErr_SetString(PyExc_TypeError, "state.pending is not a question");
        goto error;
    }
    if (pending == Py_None) {
        PUT(o_no_question, 1.0f);
    } else {
        long asked, source;
        if (attr_long(pending, &a_seat, &asked) < 0 || attr_long(pending, &a_source, &source) < 0)
            goto error;
        obj = get(pending, &a_kind);
        if (obj == NULL) goto error;
        Py_ssize_t at = lookup(kind_at, obj);
        if (at == -2) goto error;
        PUT(at >= 0 ? at : o_private_kind, 1.0f);
        seer = PyUnicode_Check(obj) && PyUnicode_Compare(obj, seer_keep) == 0;
        Py_CLEAR(obj);
        PUT(o_to_act + asked, 1.0f);
        if (source >= 0) PUT(o_question_source + source, 1.0f);
        if (seer && asked == seat) {
            k = attr_ints(pending, &a_options, cards);
            if (k < 0) goto error;
            for (Py_ssize_t i = 0; i < k; i++)
                if (cards[i] >= 0) PUT(o_private_look + cards[i], 1.0f);
        }
    }
    /* Cards a power revealed and has not placed (not during the Seer's keep). */
    if (!seer) {
        k = attr_ints(s, &a_limbo, cards);
        if (k < 0) goto error;
        for (Py_ssize_t i = 0; i < k; i++)
            if (cards[i] >= 0) PUT(o_revealed + cards[i], 1.0f);
    }

    /* The deck: its size, and the specials in it with "show 'em". */
    obj = get(s, &a_deck);
    if (obj == NULL) goto error;
    Py_ssize_t deck_size = PyObject_Length(obj);
    Py_CLEAR(obj);
    if (deck_size < 0) goto error;
    PUT(o_globals + 3, scaled((long)deck_size, n_cards));
    config = get(s, &a_config);
    if (config == NULL) goto error;
    if (!PyObject_TypeCheck(config, config_type)) {
        PyErr_SetString(PyExc_TypeError, "state.config is not a game configuration");
        goto error;
    }
    deck_opts = get(config, &a_deck_options);
    if (deck_opts != NULL && !PyObject_TypeCheck(deck_opts, deck_type)) {
        PyErr_SetString(PyExc_TypeError, "state.config.deck is not deck options");
        goto error;
    }
    if (deck_opts == NULL) goto error;
    obj = get(deck_opts, &a_reveal_specials);
    if (obj == NULL) goto error;
    int reveal = PyObject_IsTrue(obj);
    Py_CLEAR(obj);
    if (reveal < 0) goto error;
    if (reveal) {
        k = attr_ints(s, &a_specials, cards);
        if (k < 0) goto error;
        for (Py_ssize_t i = 0; i < k; i++)
            if (cards[i] >= 0) PUT(o_specials + cards[i], 1.0f);
        PUT(o_globals + 8, 1.0f);
    }

    /* The table: phase, leader, gambit and round, the gambit's winner,
       eliminated seats, the game's winners, a last gambit called. */
    obj = get(s, &a_phase);
    if (obj == NULL) goto error;
    Py_ssize_t phase = lookup(phase_at, obj);
    Py_CLEAR(obj);
    if (phase < 0) {
        if (phase == -1) PyErr_SetString(PyExc_ValueError, "state.phase is not a known phase");
        goto error;
    }
    PUT(phase, 1.0f);
    if (attr_long(s, &a_leader, &x) < 0) goto error;
    PUT(o_leader + x, 1.0f);
    if (attr_long(s, &a_gambit, &x) < 0) goto error;
    PUT(o_globals + 5, scaled(x, 50));
    if (attr_long(s, &a_round, &x) < 0) goto error;
    PUT(o_globals + 6, scaled(x, 50));
    PUT(o_globals + 7, (float)((double)n / (double)MAX_PLAYERS));
    if (attr_long(s, &a_gambit_winner, &x) < 0) goto error;
    if (x >= 0) PUT(o_gambit_winner + x, 1.0f);
    if (attr_long(s, &a_out, &x) < 0) goto error;
    if (x < 0) {
        PyErr_SetString(PyExc_ValueError, "state.out must be a mask of seats");
        goto error;
    }
    for (long p = 0; p < 62 && (x >> p); p++)
        if ((x >> p) & 1) PUT(o_out + p, 1.0f);
    k = attr_ints(s, &a_winners, cards);
    if (k < 0) goto error;
    for (Py_ssize_t i = 0; i < k; i++)
        if (cards[i] >= 0) PUT(o_winners + cards[i], 1.0f);
    if (attr_long(s, &a_last_gambit, &x) < 0) goto error;
    if (x) PUT(o_globals + 9, 1.0f);

    /* Emperor's Gambit special flights scored this gambit, per seat: bit masks. */
    long colors[MAX_ZONE], strengths[MAX_ZONE];
    Py_ssize_t color_seats = attr_ints(s, &a_collected_colors, colors);
    if (color_seats < 0) goto error;
    Py_ssize_t strength_seats = attr_ints(s, &a_collected_strengths, strengths);
    if (strength_seats < 0) goto error;
    for (long p = 0; p < n && p < color_seats; p++)
        for (Py_ssize_t i = 0; i < n_flight_colors; i++)
            if ((colors[p] >> i) & 1) PUT(o_collected_colors + p * n_flight_colors + i, 1.0f);
    for (long p = 0; p < n && p < strength_seats; p++)
        for (Py_ssize_t i = 0; i < n_strengths; i++)
            if ((strengths[p] >> i) & 1) PUT(o_collected_strengths + p * n_strengths + i, 1.0f);

    /* The running effects a seat may see (effects.seen_effects, public ones). */
    for (int e = 0; e < n_effects; e++) {
        const effect_spec *fx = &effects[e];
        obj = get(s, &fx->slot);
        if (obj == NULL) goto error;
        if (fx->shape == SHAPE_COUNTS) {
            k = read_ints(obj, cards, "effect counts");
            if (k < 0) goto error;
            int any = 0;
            for (Py_ssize_t i = 0; i < k; i++) any |= cards[i] != 0;
            if (any)
                for (Py_ssize_t i = 0; i < k && i < MAX_PLAYERS; i++)
                    PUT(fx->at + i, scaled(cards[i], 4));
        } else if (fx->shape == SHAPE_CARDS) {
            /* A mask of card numbers: wider than a C long. */
            int any = PyObject_IsTrue(obj);
            if (any < 0 || (any && put_bits(obj, v, fx->at) < 0)) goto error;
        } else {
            if (as_long(obj, &x) < 0) goto error;
            switch (fx->shape) {
            case SHAPE_SEATS:
                for (long p = 0; p < n; p++)
                    if ((x >> p) & 1) PUT(fx->at + p, 1.0f);
                break;
            case SHAPE_SEAT:
                if (x >= 0) PUT(fx->at + x, 1.0f);
                break;
            case SHAPE_FLAG:
                if (x) PUT(fx->at, 1.0f);
                break;
            default: /* SHAPE_AMOUNT */
                if (x) PUT(fx->at, scaled(x, 50));
            }
        }
        Py_CLEAR(obj);
    }

    /* No D&D abilities here (the Python side sends those tables through the view). */
    PUT(o_system_none, 1.0f);

    /* Gold: hoards, hole owed, debts, stakes, hole, debts to the stakes, all
       divided by the game's gold (hoards + stakes + hole). */
    long hoards[MAX_ZONE], hole_owed[MAX_ZONE], stakes, hole;
    Py_ssize_t n_hoards = attr_ints(s, &a_hoards, hoards);
    if (n_hoards < 0) goto error;
    Py_ssize_t n_owed = attr_ints(s, &a_hole_owed, hole_owed);
    if (n_owed < 0) goto error;
    if (attr_long(s, &a_stakes, &stakes) < 0 || attr_long(s, &a_hole, &hole) < 0) goto error;
    long total = stakes + hole;
    for (Py_ssize_t p = 0; p < n_hoards; p++) total += hoards[p];
    if (total < 1) total = 1;
    for (Py_ssize_t p = 0; p < n_hoards && p < MAX_PLAYERS; p++)
        PUT(o_hoards + p, scaled(hoards[p], total));
    for (Py_ssize_t p = 0; p < n_owed && p < MAX_PLAYERS; p++)
        PUT(o_hole_owed + p, scaled(hole_owed[p], total));
    long to_stakes = 0;
    obj = get(s, &a_debts);
    if (obj == NULL) goto error;
    if (!PyList_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "state.debts must be a list");
        goto error;
    }
    if (PyList_GET_SIZE(obj)) {
        long owed[MAX_PLAYERS] = {0}, due[MAX_PLAYERS] = {0};
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); i++) {
            long debt[3];
            if (read_ints(PyList_GET_ITEM(obj, i), debt, "debt") != 3) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a debt is (debtor, creditor, amount)");
                goto error;
            }
            if (debt[0] < 0 || debt[0] >= MAX_PLAYERS || debt[1] >= MAX_PLAYERS) {
                PyErr_SetString(PyExc_ValueError, "a debt names a seat outside the table");
                goto error;
            }
            owed[debt[0]] += debt[2];
            if (debt[1] >= 0)
                due[debt[1]] += debt[2];
            else
                to_stakes += debt[2];
        }
        for (int p = 0; p < MAX_PLAYERS; p++) {
            PUT(o_debts_owed + p, scaled(owed[p], total));
            PUT(o_debts_due + p, scaled(due[p], total));
        }
    }
    Py_CLEAR(obj);
    PUT(o_globals + 0, scaled(stakes, total));
    PUT(o_globals + 1, scaled(hole, total));
    PUT(o_globals + 2, scaled(to_stakes, total));

    Py_DECREF(pending);
    Py_DECREF(hands);
    Py_DECREF(known);
    Py_DECREF(config);
    Py_DECREF(deck_opts);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;

error:
    Py_XDECREF(obj);
    Py_XDECREF(pending);
    Py_XDECREF(hands);
    Py_XDECREF(known);
    Py_XDECREF(config);
    Py_XDECREF(deck_opts);
    PyBuffer_Release(&buf);
    return NULL;
}

/* --- mask -------------------------------------------------------------------- */

static PyObject *fastobs_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask(question, out) takes 2 arguments");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobs.setup() was not called");
        return NULL;
    }
    PyObject *d = args[0];
    if (!PyObject_TypeCheck(d, decision_type)) {
        PyErr_Format(PyExc_TypeError, "mask: a %s, not %s", decision_type->tp_name,
                     Py_TYPE(d)->tp_name);
        return NULL;
    }
    Py_buffer buf;
    if (PyObject_GetBuffer(args[1], &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *kind = NULL;
    if (buf.len != n_actions) {
        PyErr_Format(PyExc_ValueError, "out must hold %zd int8 entries", n_actions);
        goto error;
    }
    char *m = (char *)buf.buf;
    memset(m, 0, (size_t)n_actions);
    kind = get(d, &a_kind);
    if (kind == NULL) goto error;
    Py_ssize_t first = lookup(first_action, kind);
    if (first < 0) {
        if (first == -1) PyErr_SetString(PyExc_ValueError, "mask: an unknown question kind");
        goto error;
    }
    long options[MAX_ZONE];
    Py_ssize_t k = attr_ints(d, &a_options, options);
    if (k < 0) goto error;
    for (Py_ssize_t i = 0; i < k; i++) {
        long a = options[i];
        Py_ssize_t at = a >= 0 ? first + a : (-a <= MAX_CODES ? code_action[-a] : -1);
        if (at < 0 || at >= n_actions) {
            PyErr_Format(PyExc_ValueError, "mask: answer %ld has no action", a);
            goto error;
        }
        m[at] = 1;
    }
    Py_DECREF(kind);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;

error:
    Py_XDECREF(kind);
    PyBuffer_Release(&buf);
    return NULL;
}

/* --- setup ------------------------------------------------------------------- */

/* How to read ``type``'s attribute ``a->name``: the offset of its __slots__
   entry, or the getter of a compiled class's attribute. */
static int slot_offset(PyTypeObject *type, slot_t *a) {
    PyObject *d = PyObject_GetAttr((PyObject *)type, a->name);
    if (d == NULL) return -1;
    if (Py_IS_TYPE(d, &PyGetSetDescr_Type) && ((PyGetSetDescrObject *)d)->d_getset->get != NULL &&
        PyType_IsSubtype(type, PyDescr_TYPE(d))) {
        a->read = ((PyGetSetDescrObject *)d)->d_getset->get;
        a->closure = ((PyGetSetDescrObject *)d)->d_getset->closure;
        a->offset = -1;
        Py_DECREF(d);
        return 0;
    }
    a->read = NULL;
    if (!Py_IS_TYPE(d, &PyMemberDescr_Type) ||
        ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
        Py_DECREF(d);
        PyErr_Format(PyExc_TypeError, "setup: %s.%U is neither a __slots__ attribute nor a compiled one",
                     type->tp_name, a->name);
        return -1;
    }
    a->offset = ((PyMemberDescrObject *)d)->d_member->offset;
    Py_DECREF(d);
    return 0;
}

static int spec_int(PyObject *spec, const char *key, Py_ssize_t *out) {
    PyObject *o = PyDict_GetItemString(spec, key); /* borrowed */
    if (o == NULL) {
        PyErr_Format(PyExc_KeyError, "setup: the spec has no %s", key);
        return -1;
    }
    *out = PyLong_AsSsize_t(o);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *spec_dict(PyObject *spec, const char *key) {
    PyObject *o = PyDict_GetItemString(spec, key);
    if (o == NULL || !PyDict_Check(o)) {
        PyErr_Format(PyExc_KeyError, "setup: the spec's %s must be a dict", key);
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

static PyObject *fastobs_setup(PyObject *self, PyObject *spec) {
    (void)self;
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "setup(spec) takes a dict");
        return NULL;
    }
    ready = 0;
    struct {
        const char *key;
        Py_ssize_t *field;
    } ints[] = {
        {"obs_size", &obs_size},
        {"n_cards", &n_cards},
        {"n_flight_colors", &n_flight_colors},
        {"n_strengths", &n_strengths},
        {"hand", &o_hand},
        {"flights", &o_flights},
        {"round_card", &o_round_card},
        {"known_in_hands", &o_known},
        {"ante", &o_ante},
        {"my_ante", &o_my_ante},
        {"revealed", &o_revealed},
        {"private_look", &o_private_look},
        {"discard", &o_discard},
        {"specials", &o_specials},
        {"question_source", &o_question_source},
        {"is_me", &o_is_me},
        {"seated", &o_seated},
        {"to_act", &o_to_act},
        {"leader", &o_leader},
        {"ante_placed", &o_ante_placed},
        {"out", &o_out},
        {"winners", &o_winners},
        {"gambit_winner", &o_gambit_winner},
        {"hoards", &o_hoards},
        {"hole_owed", &o_hole_owed},
        {"debts_owed", &o_debts_owed},
        {"debts_due", &o_debts_due},
        {"hand_sizes", &o_hand_sizes},
        {"collected_colors", &o_collected_colors},
        {"collected_strengths", &o_collected_strengths},
        {"globals", &o_globals},
        {"no_question", &o_no_question},
        {"private_kind", &o_private_kind},
        {"system_none", &o_system_none},
        {"n_actions", &n_actions},
    };
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
        if (spec_int(spec, ints[i].key, ints[i].field) < 0) return NULL;
    if (n_cards > MAX_ZONE) {
        PyErr_SetString(PyExc_ValueError, "setup: more cards than this module can hold");
        return NULL;
    }
    PyObject *kinds = spec_dict(spec, "kinds");
    if (kinds == NULL) return NULL;
    PyObject *phases = spec_dict(spec, "phases");
    if (phases == NULL) {
        Py_DECREF(kinds);
        return NULL;
    }
    Py_XSETREF(kind_at, kinds);
    Py_XSETREF(phase_at, phases);
    PyObject *firsts = spec_dict(spec, "first_action");
    if (firsts == NULL) return NULL;
    Py_XSETREF(first_action, firsts);
    PyObject *codes = spec_dict(spec, "code_action");
    if (codes == NULL) return NULL;
    for (int c = 0; c <= MAX_CODES; c++) code_action[c] = -1;
    {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(codes, &pos, &key, &value)) {
            long code = PyLong_AsLong(key);
            Py_ssize_t action = PyLong_AsSsize_t(value);
            if (PyErr_Occurred()) {
                Py_DECREF(codes);
                return NULL;
            }
            if (code >= 0 || -code > MAX_CODES) {
                Py_DECREF(codes);
                PyErr_Format(PyExc_ValueError, "setup: answer code %ld out of range", code);
                return NULL;
            }
            code_action[-code] = action;
        }
    }
    Py_DECREF(codes);
    PyObject *seer = PyDict_GetItemString(spec, "seer_keep");
    if (seer == NULL || !PyUnicode_Check(seer)) {
        PyErr_SetString(PyExc_KeyError, "setup: the spec's seer_keep must be a str");
        return NULL;
    }
    Py_INCREF(seer);
    Py_XSETREF(seer_keep, seer);

    struct {
        const char *key;
        PyTypeObject **type;
    } types[] = {
        {"state_type", &state_type},
        {"decision_type", &decision_type},
        {"config_type", &config_type},
        {"deck_type", &deck_type},
    };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        PyObject *type = PyDict_GetItemString(spec, types[i].key);
        if (type == NULL || !PyType_Check(type)) {
            PyErr_Format(PyExc_KeyError, "setup: the spec's %s must be a class", types[i].key);
            return NULL;
        }
        Py_INCREF(type);
        Py_XSETREF(*types[i].type, (PyTypeObject *)type);
    }
    slot_t *of_state[] = {
        &a_n, &a_phase, &a_gambit, &a_round, &a_leader, &a_hoards, &a_stakes, &a_hole,
        &a_hole_owed, &a_debts, &a_hands, &a_known, &a_flights, &a_ante, &a_ante_choice,
        &a_limbo, &a_deck, &a_discard, &a_specials, &a_round_card, &a_collected_colors,
        &a_collected_strengths, &a_gambit_winner, &a_pending, &a_winners, &a_out,
        &a_last_gambit, &a_config,
    };
    for (size_t i = 0; i < sizeof(of_state) / sizeof(of_state[0]); i++)
        if (slot_offset(state_type, of_state[i]) < 0) return NULL;
    slot_t *of_decision[] = {&a_seat, &a_kind, &a_source, &a_options};
    for (size_t i = 0; i < sizeof(of_decision) / sizeof(of_decision[0]); i++)
        if (slot_offset(decision_type, of_decision[i]) < 0) return NULL;
    if (slot_offset(config_type, &a_deck_options) < 0) return NULL;
    if (slot_offset(deck_type, &a_reveal_specials) < 0) return NULL;

    PyObject *fx = PyDict_GetItemString(spec, "effects");
    if (fx == NULL || !PyTuple_Check(fx) || PyTuple_GET_SIZE(fx) > MAX_EFFECTS) {
        PyErr_SetString(PyExc_ValueError, "setup: effects must be a tuple of (name, shape, at)");
        return NULL;
    }
    for (int e = 0; e < n_effects; e++) Py_CLEAR(effects[e].slot.name);
    n_effects = 0;
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(fx); e++) {
        PyObject *name;
        int shape;
        Py_ssize_t at;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fx, e), "Uin", &name, &shape, &at)) return NULL;
        if (shape < SHAPE_SEATS || shape > SHAPE_AMOUNT) {
            PyErr_Format(PyExc_ValueError, "setup: unknown effect shape %d", shape);
            return NULL;
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        effects[n_effects].slot.name = name;
        if (slot_offset(state_type, &effects[n_effects].slot) < 0) {
            Py_DECREF(name);
            return NULL;
        }
        effects[n_effects].shape = shape;
        effects[n_effects].at = at;
        n_effects++;
    }
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef fastobs_methods[] = {
    {"setup", (PyCFunction)fastobs_setup, METH_O,
     "setup(spec): the vector's layout, question kinds, phases and running effects."},
    {"mask", (PyCFunction)(void (*)(void))fastobs_mask, METH_FASTCALL,
     "mask(question, out): 1 in out (int8, zeroed first) at the actions of question's legal "
     "answers."},
    {"encode", (PyCFunction)(void (*)(void))fastobs_encode, METH_FASTCALL,
     "encode(state, seat, out): write seat's observation of state into out (float32, zeroed "
     "first)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastobs_module = {
    PyModuleDef_HEAD_INIT, "_fastobs",
    "A seat's observation vector encoded in C from the engine state (see the C source).", -1,
    fastobs_methods, NULL, NULL, NULL, NULL,
};

#define INTERN(var, text)                                   \
    do {                                                    \
        var = PyUnicode_InternFromString(text);             \
        if (var == NULL) return NULL;                       \
    } while (0)

PyMODINIT_FUNC PyInit__fastobs(void) {
    INTERN(a_n.name, "n");
    INTERN(a_phase.name, "phase");
    INTERN(a_gambit.name, "gambit");
    INTERN(a_round.name, "round");
    INTERN(a_leader.name, "leader");
    INTERN(a_hoards.name, "hoards");
    INTERN(a_stakes.name, "stakes");
    INTERN(a_hole.name, "hole");
    INTERN(a_hole_owed.name, "hole_owed");
    INTERN(a_debts.name, "debts");
    INTERN(a_hands.name, "hands");
    INTERN(a_known.name, "known");
    INTERN(a_flights.name, "flights");
    INTERN(a_ante.name, "ante");
    INTERN(a_ante_choice.name, "ante_choice");
    INTERN(a_limbo.name, "limbo");
    INTERN(a_deck.name, "deck");
    INTERN(a_discard.name, "discard");
    INTERN(a_specials.name, "specials");
    INTERN(a_round_card.name, "round_card");
    INTERN(a_collected_colors.name, "collected_colors");
    INTERN(a_collected_strengths.name, "collected_strengths");
    INTERN(a_gambit_winner.name, "gambit_winner");
    INTERN(a_pending.name, "pending");
    INTERN(a_winners.name, "winners");
    INTERN(a_out.name, "out");
    INTERN(a_last_gambit.name, "last_gambit");
    INTERN(a_config.name, "config");
    INTERN(a_deck_options.name, "deck");
    INTERN(a_reveal_specials.name, "reveal_specials");
    INTERN(a_seat.name, "seat");
    INTERN(a_kind.name, "kind");
    INTERN(a_source.name, "source");
    INTERN(a_options.name, "options");
    PyObject *m = PyModule_Create(&fastobs_module);
    if (m == NULL) return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", FASTOBS_SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
