"""Load figures of the running server, for ``GET /api/stats`` and the load benchmark.

Nothing here names a card or a seat: only counts and durations (database
commits, event-loop lag, garbage-collector pauses), which is what explains
the latency clients see.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections import deque
from collections.abc import Iterable
from typing import TypeVar

#: The collector's oldest generation: a full collection.
FULL = 2


class GcWatch:
    """Durations of the cyclic garbage collector's pauses (they stop the event
    loop, so every client feels them): reported by ``/api/stats``.

    With ``refreeze``, it also keeps full collections short.  A full
    collection examines every tracked object that is not frozen; with a
    thousand tables that is millions (sockets, tasks, games) and a pause of
    several hundred milliseconds, one every few seconds under load.  Right
    after one, everything left is alive, so it is frozen (``gc.freeze``):
    the next full collection examines only what was promoted since, a pause
    of tens of milliseconds.  Objects freed by reference counting (nearly
    all) are freed at once, frozen or not; but a frozen object that dies
    inside a reference cycle (a closed connection's objects do) stays until
    a collection examines it.  So a full collection starts with everything
    unfrozen once the interpreter's allocated memory blocks have grown
    ``growth`` times since the last such collection, or ``thaw_after``
    seconds have passed: a long pause that frees those cycles, after which
    its survivors are frozen again.  Memory held by dead cycles thus stays
    under about ``growth - 1`` times the live objects, as with any
    generational collector; the long pauses come as rarely as that allows.

    The factor adapts.  A server filling up (tables opening, games growing
    their logs) grows by live objects, not garbage, and every doubling would
    cost a pause as long as the heap is big.  So each thaw compares what it
    freed with what had grown since the last: when less than a quarter of
    the growth was garbage, the next thaw waits for twice the factor (up to
    ``max_growth``); when at least half was, the factor returns to
    ``growth``.  The bound on dead memory holds wherever garbage is what
    grows; where it is not, there is little garbage to bound.

    ``young``: the collector's first two thresholds while the watch runs
    (restored by :meth:`close`).  CPython collects the youngest objects
    after every 700 allocations net; a server building four seat views per
    answer allocates that many in a fraction of an answer, so at a thousand
    tables it collected ~36 times a second (4.6 % of the event loop's time)
    and promoted views still being sent.  Every 10,000, with a middle
    generation collected every 5th time, the young collections took less
    than half the time in all; but each examined everything made since the
    last and still alive, 30,000-80,000 objects (20-50 ms).  Once young
    survivors are frozen (``freeze_young``) nothing is examined twice, so a
    smaller threshold costs no more in all and keeps each pause short: the
    server uses 2,000 (young pauses p99 ~10 ms, ``docs/benchmarks.md``).

    ``full_every``: with the survivors frozen, a full collection examines
    what was promoted since the last one, so its pause grows with the time
    between them; CPython starts one only once that much exceeds a quarter
    of the old generation, which at a thousand tables meant one every ~25 s
    of ~200 ms.  :meth:`collect_if_due` (called by the hub's watch loop)
    starts one when ``full_every`` seconds have passed without: the same
    work in pauses of tens of milliseconds.

    ``freeze_young`` (with ``refreeze``): the survivors of every young
    collection are frozen too, not only a full one's.  At a thousand tables
    the young generations hold each table's state of the last second or
    two (an answer is played on a copy: a few dozen lists per table) and
    every connection's waiting coroutines, ~65,000 objects that survive one
    young collection after another: each pass examined them again (20-90
    ms of CPU, measured with the collector's own callbacks), and a full
    collection every 5 s examined all that had been promoted since (~175
    ms).  Frozen once they survive a young collection, they are examined
    no more, and a state replaced at the next answer is still freed at once
    by reference counting.  Its cost is the same as freezing a full
    collection's survivors, on younger objects: a cycle that dies after
    being frozen waits for a thaw (``growth``, ``thaw_after``), so dead
    memory stays bounded the same way (``docs/benchmarks.md``).

    The growth is read from ``sys.getallocatedblocks`` (a walk over the
    allocator's arenas, ~0.1 ms), not ``gc.get_freeze_count``: that one walks
    every frozen object, ~60 ms with a thousand tables' objects, and it ran
    inside every full collection's pause.
    """

    def __init__(
        self,
        refreeze: bool = False,
        thaw_after: float = 600.0,
        growth: float = 2.0,
        max_growth: float = 16.0,
        young: tuple[int, int] | None = None,
        full_every: float | None = None,
        freeze_young: bool = False,
    ) -> None:
        self.pauses_ms: deque[tuple[float, int]] = deque(maxlen=5000)
        #: Time spent collecting since start-up, by generation (ms): how much
        #: of the event loop's time the collector takes, whatever the deque kept.
        self.total_ms = [0.0, 0.0, 0.0]
        self._started = 0.0
        self.refreeze = refreeze
        self.thaw_after = thaw_after
        self.growth = growth
        self.max_growth = max_growth
        #: The growth factor the next thaw waits for (adapts between the two
        #: above).  The first waits for four times ``growth``: a new server
        #: fills up with live objects (a thousand tables took the heap from
        #: ~0.6 to ~1.6 million blocks), and a thaw then frees next to
        #: nothing for a pause of up to 0.8 s.  The timed thaw still comes.
        self.factor = min(4 * growth, max_growth)
        #: Full collections that started with everything unfrozen.
        self.thaws = 0
        #: The thaws' pauses (ms) and the blocks before and after each one.
        self.thaw_log: deque[tuple[float, int, int]] = deque(maxlen=100)
        self._before = 0
        self._thawed_at = time.monotonic()
        self._thawing = False
        #: Allocated blocks right after the last collection that examined everything.
        self._base = 0
        self.full_every = full_every
        self.freeze_young = freeze_young
        self._last_full = time.monotonic()
        self._thresholds = gc.get_threshold()
        self._young = young
        if young is not None:
            gc.set_threshold(*young, self._thresholds[2])
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        # Called by the collector itself: "start" before it looks at any
        # object (unfreezing then puts the frozen objects in this collection),
        # "stop" once it is done (the oldest generation holds only survivors).
        full = self.refreeze and info.get("generation") == FULL
        if phase == "start":
            if full:
                now = time.monotonic()
                blocks = sys.getallocatedblocks()
                if blocks >= self.factor * self._base or now - self._thawed_at >= self.thaw_after:
                    self._thawed_at = now
                    self._thawing = True
                    self._before = blocks
                    gc.unfreeze()
            self._started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._started) * 1000
        generation = info.get("generation", -1)
        self.pauses_ms.append((ms, generation))
        if 0 <= generation < len(self.total_ms):
            self.total_ms[generation] += ms
        if generation == FULL:
            self._last_full = time.monotonic()
        if full or (self.refreeze and self.freeze_young):
            gc.freeze()
        if full and self._thawing:
            self._thawing = False
            self.thaws += 1
            after = sys.getallocatedblocks()
            self.thaw_log.append((round(ms, 1), self._before, after))
            self._adapt(grown=self._before - self._base, freed=self._before - after)
            self._base = after

    def collect_if_due(self) -> bool:
        """Start a full collection if ``full_every`` seconds passed without one."""
        if self.full_every is None or time.monotonic() - self._last_full < self.full_every:
            return False
        gc.collect()
        return True

    def _adapt(self, grown: int, freed: int) -> None:
        """The next thaw's growth factor, from what this one found (class docstring)."""
        if grown <= 0 or self._base == 0:
            return  # the first thaw, or nothing grew: nothing to learn
        if freed < grown / 4:
            self.factor = min(self.factor * 2, self.max_growth)
        elif freed >= grown / 2:
            self.factor = self.growth

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)
        if self._young is not None and gc.get_threshold()[:2] == self._young:
            gc.set_threshold(*self._thresholds)  # unless someone has changed them since


T = TypeVar("T")


def copied(items: Iterable[T]) -> list[T]:
    """A list of what a deque holds now, though another thread (the writer's
    commit times) or a garbage collector callback (its pauses) appends to it
    meanwhile: iterating a deque that changes raises, so try again.  Found by
    the API fuzzer: ``GET /api/stats`` answered 500 when a collection
    finished while its pauses were read."""
    while True:
        try:
            return list(items)
        except RuntimeError:  # "deque mutated during iteration"
            continue


def percentile(data: list[float], q: float) -> float | None:
    """The ``q``-th percentile of sorted ``data`` (rounded to 0.01), None if empty."""
    if not data:
        return None
    return round(data[min(len(data) - 1, round(q / 100 * (len(data) - 1)))], 2)
