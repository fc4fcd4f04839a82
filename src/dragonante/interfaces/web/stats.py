"""Load figures of the running server, for ``GET /api/stats`` and the load benchmark.

Nothing here names a card or a seat: only counts and durations (database
commits, event-loop lag, garbage-collector pauses), which is what explains
the latency clients see.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections import deque


class GcWatch:
    """Durations of the cyclic garbage collector's pauses (they stop the event
    loop, so every client feels them): reported by ``/api/stats``."""

    def __init__(self) -> None:
        self.pauses_ms: deque[tuple[float, int]] = deque(maxlen=5000)
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            ms = (time.perf_counter() - self._started) * 1000
            self.pauses_ms.append((ms, info.get("generation", -1)))

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)


def percentile(data: list[float], q: float) -> float | None:
    """The ``q``-th percentile of sorted ``data`` (rounded to 0.01), None if empty."""
    if not data:
        return None
    return round(data[min(len(data) - 1, round(q / 100 * (len(data) - 1)))], 2)
