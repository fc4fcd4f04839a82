"""``GcWatch(refreeze=True)``: short full collections, and dead cycles still freed.

The server freezes what survives each full garbage collection so the next
one examines only newer objects (``web/shared/stats.py``).  These tests check both
halves of that bargain on the real collector: a cycle that dies while
frozen is kept (that is the cost), and the periodic collection with
everything unfrozen frees it (that is the bound on the cost).
"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from dragonante.interfaces.web.shared.stats import GcWatch


class Node:
    """A reference cycle: the node refers to itself."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def watch() -> Iterator[GcWatch]:
    w = GcWatch(refreeze=True, thaw_after=3600.0, growth=2.0)
    try:
        yield w
    finally:
        w.close()
        gc.unfreeze()  # leave the process's collector as it found it (nothing frozen)


def test_survivors_are_frozen_and_thawed_when_memory_grows(watch: GcWatch):
    gc.collect()  # the first full collection examines everything, then freezes it
    assert watch.thaws == 1
    base = gc.get_freeze_count()
    assert base > 0

    node = Node()
    dead = weakref.ref(node)
    gc.collect()  # node survives: frozen with it, no thaw (memory barely grew)
    assert watch.thaws == 1 and gc.get_freeze_count() > base
    del node
    gc.collect()
    assert dead() is not None, "a cycle frozen alive is not examined by a normal collection"

    # Allocated blocks past ``growth`` times those after the last thaw: the
    # next full collection thaws (a smaller growth keeps the test's memory small).
    watch.factor = 1.25
    keep = [Node() for _ in range(sys.getallocatedblocks() // 3)]
    gc.collect()  # finds memory grown by a third: examines everything
    # (automatic full collections while ``keep`` grew may have thawed too)
    assert watch.thaws >= 2
    assert dead() is None, "the collection with everything unfrozen frees the dead cycle"
    del keep


def test_thaw_after_a_time_even_without_growth(watch: GcWatch):
    gc.collect()
    node = Node()
    dead = weakref.ref(node)
    gc.collect()
    del node
    watch.thaw_after = 0.0
    gc.collect()
    assert watch.thaws == 2 and dead() is None


def test_pauses_are_recorded_and_nothing_frozen_without_refreeze():
    gc.unfreeze()
    w = GcWatch()
    try:
        gc.collect()
        assert any(gen == 2 for _ms, gen in w.pauses_ms)
        assert w.total_ms[2] >= max(ms for ms, gen in w.pauses_ms if gen == 2) > 0
        assert gc.get_freeze_count() == 0 and w.thaws == 0
    finally:
        w.close()


def test_the_growth_factor_adapts_to_what_thaws_free(watch: GcWatch):
    """A heap that grows by live objects (a server filling up) makes thaws rarer;
    one that grows by garbage brings the factor back (``GcWatch``'s docstring)."""
    gc.collect()  # the first thaw: it sets the base and learns nothing
    assert watch.factor == 8.0 and watch.thaws == 1  # a new server fills up: 4 x ``growth``
    keep = [Node() for _ in range(sys.getallocatedblocks() // 2)]  # live growth
    watch.factor = 1.25
    gc.collect()
    assert watch.thaws == 2 and watch.factor == 2.5, "little freed: the next thaw waits longer"
    blocks_before, blocks_after = watch.thaw_log[-1][1:]
    assert blocks_before - blocks_after < len(keep) / 4

    watch._adapt(grown=1000, freed=100)
    assert watch.factor == 5.0
    for _ in range(5):
        watch._adapt(grown=1000, freed=0)
    assert watch.factor == watch.max_growth == 16.0
    watch._adapt(grown=1000, freed=300)  # between a quarter and a half: unchanged
    assert watch.factor == 16.0
    watch._adapt(grown=1000, freed=600)  # mostly garbage: back to the configured growth
    assert watch.factor == watch.growth == 2.0
    del keep


def test_young_thresholds_are_set_while_the_watch_runs_then_restored():
    before = gc.get_threshold()
    w = GcWatch(young=(10_000, 5))
    try:
        assert gc.get_threshold() == (10_000, 5, before[2])
    finally:
        w.close()
    assert gc.get_threshold() == before


def test_a_full_collection_is_started_when_one_is_due():
    w = GcWatch(refreeze=True, full_every=3600.0)
    try:
        gc.collect()
        assert not w.collect_if_due(), "one just ran"
        fulls = sum(1 for _ms, gen in w.pauses_ms if gen == 2)
        w.full_every = 0.0
        assert w.collect_if_due()
        assert sum(1 for _ms, gen in w.pauses_ms if gen == 2) == fulls + 1
        w.full_every = None
        assert not w.collect_if_due()
    finally:
        w.close()
        gc.unfreeze()


def test_survivors_of_a_young_collection_are_frozen_with_freeze_young():
    """A young collection's survivors go to the frozen generation (no young or
    full collection examines them again), and a cycle among them that dies is
    still freed by the next thaw (``GcWatch.freeze_young``)."""
    w = GcWatch(refreeze=True, thaw_after=3600.0, freeze_young=True)
    try:
        gc.collect()  # the first full collection: everything so far is frozen
        node = Node()
        dead = weakref.ref(node)
        assert gc.is_tracked(node) and any(o is node for o in gc.get_objects(0))
        gc.collect(0)  # a young collection: node survives it ...
        assert not any(o is node for g in range(3) for o in gc.get_objects(g)), (
            "... and is frozen, in no generation a collection examines"
        )
        del node
        gc.collect()  # a full collection that does not thaw: the frozen cycle stays
        assert dead() is not None
        w.thaw_after = 0.0
        gc.collect()  # the thaw examines everything: the dead cycle is freed
        assert dead() is None
    finally:
        w.close()
        gc.unfreeze()


def test_young_survivors_are_not_frozen_without_freeze_young():
    w = GcWatch(refreeze=True, thaw_after=3600.0)
    try:
        gc.collect()
        node = Node()
        gc.collect(0)
        assert any(o is node for g in range(3) for o in gc.get_objects(g))
    finally:
        w.close()
        gc.unfreeze()
