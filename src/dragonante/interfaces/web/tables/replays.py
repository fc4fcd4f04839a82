"""Replay steps of finished games: computed off the event loop, once, a few at a time.

A replay step is the finished game rebuilt from config + seed up to that
answer, then narrated for one kind of view: milliseconds for a long game,
all of it on the event loop before, so 600 requests in 3.5 s (none refused)
stalled every table of the server (issue 22, hole 8).  Now:

* a step is built in a worker thread (``asyncio.to_thread``), at most
  :data:`WORKERS` at a time, so the loop keeps serving the live tables
  while replays wait their turn;
* built steps are kept (an LRU of :data:`KEEP` answers): a finished game
  never changes, so the same step asked again, by anyone, costs nothing;
* the endpoint is rate-limited per address (``Settings.limit_replays``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from dragonante.engine.views import events_for, events_for_gm
from dragonante.interfaces.web.shared.protocol import encode
from dragonante.interfaces.web.tables.live import LiveTable, replay_state, seat_view

#: Replay steps built at once (each takes a worker thread).
WORKERS = 2
#: Replay answers kept, encoded (each a few kilobytes to ~100 KB).
KEEP = 256


def build(
    table: LiveTable, answers: list[int], step: int, seat: int | None, lang: str, gm: bool
) -> str:
    """The game after ``step`` answers as ``seat`` saw it, encoded (no summary:
    the caller adds it on the loop).  Runs in a worker thread: it reads only
    what a finished table never changes (config, seed, seats' names)."""
    marks: list[int] = []
    state = replay_state(table.config, table.seed, answers[:step], table.last_gambit_at, marks)
    before = marks[step - 1] if step > 0 else 0
    shown = seat_view(table, state, seat, lang, 0, gm)
    shown["step"] = step
    upto = (state.log or [])[:before]
    new_from = len(events_for_gm(upto) if gm else events_for(upto, seat))
    for i, ev in enumerate(shown["events"]):
        ev["new"] = i >= new_from
    return encode(shown)


class Replays:
    """Replay steps, built in threads and kept."""

    def __init__(self, workers: int = WORKERS, keep: int = KEEP) -> None:
        self._gate = asyncio.Semaphore(workers)
        self._keep = keep
        self._done: OrderedDict[tuple[str, int, int | None, str, bool], str] = OrderedDict()
        #: Steps built, and served from what was kept.
        self.built = 0
        self.hits = 0

    async def step(self, table: LiveTable, step: int, seat: int | None, lang: str, gm: bool) -> str:
        """``build``'s answer for a finished table."""
        key = (table.code, step, seat, lang, gm)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            self.hits += 1
            return done
        async with self._gate:
            done = self._done.get(key)  # built while this one waited
            if done is None:
                answers = list(table.answers)
                done = await asyncio.to_thread(build, table, answers, step, seat, lang, gm)
                self.built += 1
                self._done[key] = done
                while len(self._done) > self._keep:
                    self._done.popitem(last=False)
            else:
                self.hits += 1
        return done
