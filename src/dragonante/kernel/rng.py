"""The seeded random stream: deterministic, clonable randomness for both games.

Neither engine touches global randomness: every shuffle, blind take and
seeded die roll draws from a SplitMix64 stream whose whole state is one
integer stored in the game state (``state.rng``).  That makes a game
reproducible from (config, seed, answers) on any Python version, cloning a
state copies the stream for free (search relies on it), and "did this answer
draw on chance" is one comparison of that integer
(:meth:`dragonante.kernel.Registry.answered`): every draw moves the stream.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any user seed (negative or huge) into a 64-bit stream state."""
    return (seed * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK


def next64(state: int) -> tuple[int, int]:
    """Advance the stream; return (new_state, 64-bit output)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, k) with k uniform in range(n) (bias < 2**-56)."""
    state, z = next64(state)
    return state, (z * n) >> 64


def shuffle(state: int, items: list[int]) -> int:
    """Fisher-Yates shuffle ``items`` in place; return the new stream state.

    Each 64-bit output is spent as a mixed-radix number (several swap indices
    per output, refilled below 2**32), which makes shuffles about three times
    cheaper than one output per swap; the bias per index stays below 2**-25.
    """
    # Constants in locals: compiled (rng.pxd) they are 64-bit C integers, so the
    # whole loop is C arithmetic; wrapping mod 2**64 there is the ``& mask`` here.
    gamma = _GAMMA
    mask = _MASK
    mix1 = 0xBF58476D1CE4E5B9
    mix2 = 0x94D049BB133111EB
    refill = 0x100000000
    z = 0
    for i in range(len(items) - 1, 0, -1):
        if z < refill:
            # next64 inlined: setup and reshuffles are hot in simulations.
            state = (state + gamma) & mask
            z = ((state ^ (state >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            z ^= z >> 31
        j = z % (i + 1)
        z //= i + 1
        items[i], items[j] = items[j], items[i]
    return state
