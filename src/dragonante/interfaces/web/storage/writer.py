"""One database thread with group commit: durable answers without a slow event loop.

The event loop must never wait on the disk, and every accepted answer must
be committed before it is acknowledged.  So all database work runs on one
thread: :meth:`Writer.run` hands it a function of a session and awaits the
result.  Jobs that arrive while a commit is in progress are run together in
the next transaction (group commit), so a hundred tables answering at once
cost one fsync, not a hundred.  If a grouped transaction fails, its jobs are
retried one per transaction, so one bad job (say, a duplicate answer number)
fails alone and the others still commit.

Answers are the hot path (about one job per accepted answer), so they skip
the ORM's unit of work, whose flush holds the interpreter lock the event loop
needs: :func:`~dragonante.interfaces.web.storage.store.add_answer` only appends a row
to the transaction's :class:`Batch`, and the writer inserts the whole
group's answers with one ``executemany`` just before the commit.  The batch
also names the tables the transaction writes to, for the fences (the
cluster's ownership check, ``web/cluster/member.py``) that run in the transaction
right before that insert.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, cast

from sqlalchemy import Engine, Table, insert
from sqlalchemy.orm import Session, sessionmaker

from dragonante.interfaces.web.storage.db import AnswerRow

T = TypeVar("T")

#: Most jobs one transaction takes; bounds the work a failed group repeats.
MAX_GROUP = 512

#: Where a writer session keeps its :class:`Batch` (``Session.info``).
BATCH = "dragonante.batch"

#: The Core insert of answer rows (the ORM's flush is what the hot path avoids).
INSERT_ANSWERS = insert(cast(Table, AnswerRow.__table__))


class Batch:
    """What the jobs of one transaction leave for its end, and what they touch.

    Every store function that writes rows belonging to a table registers the
    table here (answers and seats in :attr:`touched`, new tables in
    :attr:`made`): the fences see exactly these codes, so a process that lost
    a table cannot slip an answer or a seat past the ownership check.
    """

    __slots__ = ("answers", "made", "touched")

    def __init__(self) -> None:
        #: ``answers`` rows, inserted with one ``executemany`` before the commit.
        self.answers: list[dict[str, Any]] = []
        #: Codes of tables whose answers or seats this transaction writes.
        self.touched: set[str] = set()
        #: Codes of tables this transaction creates.
        self.made: set[str] = set()

    @staticmethod
    def of(s: Session) -> Batch | None:
        """The batch of a writer session (None: a session the writer did not open)."""
        batch: Batch | None = s.info.get(BATCH)
        return batch


#: A check run inside every transaction before its commit; raising refuses it all.
Fence = Callable[[Session, Batch], None]


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


def _settle(settled: list[tuple[_Job, Any, BaseException | None]]) -> None:
    """Hand results back to their event loops: one wake-up per loop and group,
    not one per job (each wake-up is a system call on both threads)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Job, Any, BaseException | None]]] = {}
    for item in settled:
        by_loop.setdefault(item[0].loop, []).append(item)
    for loop, items in by_loop.items():
        # A loop that closed meanwhile waits for nothing; the thread goes on.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_done, items)


def _done(items: list[tuple[_Job, Any, BaseException | None]]) -> None:
    for job, result, error in items:
        if job.future.done():
            continue
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)


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
        #: Replaced, never changed in place: the database thread may be reading it.
        self._fences: tuple[Fence, ...] = ()

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory of the database thread."""
        return self._sessions

    def add_fence(self, fence: Fence) -> None:
        """Run ``fence(session, batch)`` in every transaction from now on, after
        the jobs and before their answers are inserted and committed."""
        self._fences = (*self._fences, fence)

    def remove_fence(self, fence: Fence) -> None:
        self._fences = tuple(f for f in self._fences if f != fence)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` on the database thread; returns once it is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Job(fn, loop, future))
        return await future

    def run_sync(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in its own transaction on the calling thread (start-up only)."""
        result: T = self._transaction([fn])[0]
        return result

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

    def _transaction(self, fns: list[Callable[[Session], Any]]) -> list[Any]:
        """Run ``fns`` in one transaction; their answers go in with one insert."""
        with self._sessions.begin() as s:
            batch = Batch()
            s.info[BATCH] = batch
            results = [fn(s) for fn in fns]
            s.flush()  # rows of the rare ORM jobs (tables, seats) first; cheap when none
            for fence in self._fences:
                fence(s, batch)
            if batch.answers:
                s.connection().execute(INSERT_ANSWERS, batch.answers)
        return results

    def _commit(self, group: list[_Job]) -> None:
        started = time.perf_counter()
        try:
            results = self._transaction([job.fn for job in group])
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
        _settle([(job, result, None) for job, result in zip(group, results, strict=True)])

    def _one(self, job: _Job) -> None:
        try:
            result = self._transaction([job.fn])[0]
        except Exception as e:
            _settle([(job, None, StorageError(f"the database refused the write: {e}"))])
            return
        self.commits += 1
        self.jobs += 1
        _settle([(job, result, None)])
