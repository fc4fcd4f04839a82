"""One database thread with group commit: durable answers without a slow event loop.

The event loop must never wait on the disk, and every accepted answer must
be committed before it is acknowledged.  So all database work runs on one
thread: :meth:`Writer.run` hands it a function of a session and awaits the
result.  Jobs that arrive while a commit is in progress are run together in
the next transaction (group commit), so a hundred tables answering at once
cost one fsync, not a hundred.  If a grouped transaction fails, its jobs are
retried one per transaction, so one bad job (say, a duplicate answer number)
fails alone and the others still commit.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

T = TypeVar("T")

#: Most jobs one transaction takes; bounds the work a failed group repeats.
MAX_GROUP = 512


class StorageError(RuntimeError):
    """The database refused a write; the answer it carried was not accepted."""


class _Job:
    __slots__ = ("fn", "future", "loop")

    def __init__(
        self, fn: Callable[[Session], Any], loop: asyncio.AbstractEventLoop, future: Any
    ) -> None:
        self.fn = fn
        self.loop = loop
        self.future = future


def _settle(job: _Job, result: Any, error: BaseException | None) -> None:
    def done() -> None:
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)

    job.loop.call_soon_threadsafe(done)


class Writer:
    """The single database thread; :meth:`run` is its async front door."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="dragonante-db", daemon=True)
        self._thread.start()
        self.commits = 0
        self.jobs = 0
        #: Recent transaction durations (ms), for ``/api/stats`` and the load test.
        self.commit_ms: deque[float] = deque(maxlen=5000)

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory of the database thread (``web/cluster.py`` hooks its flushes)."""
        return self._sessions

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` on the database thread; returns once it is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Job(fn, loop, future))
        return await future

    def run_sync(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in its own transaction on the calling thread (start-up only)."""
        with self._sessions.begin() as s:
            return fn(s)

    def close(self) -> None:
        """Finish the queued jobs, then stop the thread and the engine."""
        self._queue.put(None)
        self._thread.join(timeout=30)
        self.engine.dispose()

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            stop = False
            while len(group) < MAX_GROUP:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                group.append(nxt)
            self._commit(group)
            if stop:
                return

    def _commit(self, group: list[_Job]) -> None:
        results: list[Any] = []
        started = time.perf_counter()
        try:
            with self._sessions.begin() as s:
                # One flush at commit: the ORM batches the group's inserts.
                results.extend(job.fn(s) for job in group)
        except Exception:
            if len(group) == 1:
                self._one(group[0])
                return
            for job in group:
                self._one(job)
            return
        self.commit_ms.append((time.perf_counter() - started) * 1000)
        self.commits += 1
        self.jobs += len(group)
        for job, result in zip(group, results, strict=True):
            _settle(job, result, None)

    def _one(self, job: _Job) -> None:
        try:
            with self._sessions.begin() as s:
                result = job.fn(s)
        except Exception as e:
            _settle(job, None, StorageError(f"the database refused the write: {e}"))
            return
        self.commits += 1
        self.jobs += 1
        _settle(job, result, None)
