"""Many games at once: pure chunks of seeds, run here, on local processes or on a Dask cluster.

``simulate``, ``tournament`` and ``analyze`` all play games numbered
``first .. first + total - 1`` and fold per-chunk results into one answer.
They share this module instead of each keeping a process pool of its own:

* a **chunk function** ``fn(*args, first_seed, n) -> result`` is a pure,
  module-level function: the same arguments give the same result in any
  process on any machine, and only a config, a few strings and two integers
  travel to a worker (never a game state);
* :func:`split` cuts the run into ``(first_seed, n)`` pieces;
* :func:`run_chunks` runs the pieces on a :class:`Backend` (in this process,
  on ``workers`` local processes, or on an existing Dask distributed
  scheduler) and **yields the results in seed order**, whatever order they
  finish in, while ``progress(n)`` is told as each one finishes.

Because the callers fold the results in seed order, the numbers are the
same whatever the backend, the number of workers and the size of the
chunks; only wall-clock timings differ.

Dask is imported only when a scheduler is named: the serial and local paths
stay as light as before.  The scheduler must run workers with the same
dragonante version installed, or their games would differ from ours: the
version is checked on every worker before anything is sent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

import dragonante

R = TypeVar("R")

#: Seconds to wait for a Dask scheduler to answer (and to have a worker)
#: before giving up: a wrong address should fail fast, not hang.
CONNECT_TIMEOUT = 5.0

#: ``tcp://HOST:PORT``: a host name, IPv4 address or bracketed IPv6 address.
_ADDRESS = re.compile(
    r"^tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d+)$"
)


class BackendError(Exception):
    """The parallel backend cannot be used as asked.  The message is one line
    of English; ``reason`` (``address``, ``unreachable``, ``no_workers``,
    ``version`` or ``failed``) and ``details`` (the message's values) let the
    command line say it in the user's language."""

    def __init__(self, reason: str, message: str, **details: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


@dataclass(frozen=True, slots=True)
class Backend:
    """Where chunks run: ``workers`` local processes (1: this process), or the
    Dask scheduler at ``scheduler`` (then ``workers`` is not used: the cluster
    has the workers its ``dask worker`` commands started)."""

    workers: int = 1
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if self.scheduler is not None:
            check_address(self.scheduler)

    @property
    def parallelism(self) -> int:
        """How many chunks may run at once, as far as we know before
        connecting: used only to size chunks, never to change results."""
        return 8 if self.scheduler is not None else self.workers


def check_address(address: str) -> str:
    """Return ``address`` if it is ``tcp://HOST:PORT`` with a valid port;
    raise :class:`BackendError` otherwise.  Checked before connecting, so a
    typo gives a clear message instead of a connection timeout."""
    m = _ADDRESS.match(address.strip())
    if m is None or not 0 < int(m.group(2)) < 65536:
        raise BackendError(
            "address",
            f"scheduler address must look like tcp://HOST:PORT, got {address!r}",
            address=address,
        )
    return address.strip()


def split(
    first_seed: int, total: int, parallelism: int, smallest: int, largest: int
) -> list[tuple[int, int]]:
    """``(first seed, games)`` pieces covering ``total`` games: about four per
    worker (so a slow chunk does not leave the others idle at the end), at
    least ``smallest`` games (a process round trip must stay cheap next to
    the games) and at most ``largest`` (so a progress bar moves)."""
    if total < 1:
        return []
    size = -(-total // (max(1, parallelism) * 4))
    size = max(1, min(max(smallest, size), largest))
    end = first_seed + total
    return [(s, min(size, end - s)) for s in range(first_seed, end, size)]


def run_chunks(
    fn: Callable[..., R],
    args: Sequence[Any],
    pieces: Sequence[tuple[int, int]],
    backend: Backend,
    progress: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """Run ``fn(*args, first, n)`` for every piece and yield the results in the
    order of ``pieces`` (seed order); ``progress(n)`` is called as each piece
    finishes, in whatever order they finish.

    ``fn`` must be a module-level function (processes and Dask workers import
    it by name) and ``args`` picklable.  Exceptions raised by ``fn`` come back
    as they are, from whichever backend ran it.
    """
    if not pieces:
        return
    if backend.scheduler is not None:
        yield from _on_dask(fn, args, pieces, backend.scheduler, progress)
    elif backend.workers == 1 or len(pieces) == 1:
        for first, n in pieces:
            result = fn(*args, first, n)
            if progress is not None:
                progress(n)
            yield result
    else:
        yield from _on_processes(fn, args, pieces, backend.workers, progress)


def _in_order(
    done: Iterator[tuple[int, R]],
    pieces: Sequence[tuple[int, int]],
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    """Re-order ``(piece index, result)`` pairs arriving in any order: hold the
    early ones until every piece before them has been yielded."""
    waiting: dict[int, R] = {}
    following = 0
    for index, result in done:
        if progress is not None:
            progress(pieces[index][1])
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1
    assert following == len(pieces), (following, len(pieces))


def _on_processes(
    fn: Callable[..., R],
    args: Sequence[Any],
    pieces: Sequence[tuple[int, int]],
    workers: int,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    # More processes than cores only adds switching: every chunk is CPU-bound.
    with ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or workers)) as pool:
        futures: dict[Future[R], int] = {
            pool.submit(fn, *args, first, n): i for i, (first, n) in enumerate(pieces)
        }
        done = ((futures[f], f.result()) for f in as_completed(futures))
        yield from _in_order(done, pieces, progress)


def _worker_version() -> str:
    """Run on each Dask worker: the dragonante and rules versions it would play with."""
    import dragonante as installed

    return f"{installed.__version__} (rules {installed.RULES_VERSION})"


def connect(address: str, timeout: float | None = None) -> Any:
    """A Dask ``Client`` for the scheduler at ``address`` that has at least one
    worker, each running this dragonante version; :class:`BackendError` (one
    line) for anything else.  The caller closes it."""
    import logging

    from distributed import Client

    # Dask logs connection retries and shutdown chatter on stderr; our errors
    # are our own one-line messages.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    address = check_address(address)
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        # Dask's Client and as_completed are not annotated (hence the ignores).
        client = Client(address, timeout=wait, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as e:  # OSError, TimeoutError, or garbage from a non-Dask port
        raise BackendError(
            "unreachable",
            f"cannot reach the Dask scheduler at {address} within {wait:g} s ({type(e).__name__})",
            address=address,
            seconds=f"{wait:g}",
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=wait)
        except Exception:
            raise BackendError(
                "no_workers",
                f"the Dask scheduler at {address} has no workers (start some with "
                f"dask worker {address})",
                address=address,
            ) from None
        versions = client.run(_worker_version)
        ours = f"{dragonante.__version__} (rules {dragonante.RULES_VERSION})"
        wrong = sorted({v for v in versions.values() if v != ours})
        if wrong:
            raise BackendError(
                "version",
                f"the Dask workers run dragonante {', '.join(wrong)}, this is "
                f"{ours}: install the same version everywhere",
                theirs=", ".join(wrong),
                ours=ours,
            )
    except BaseException:
        client.close()  # type: ignore[no-untyped-call]
        raise
    return client


def _on_dask(
    fn: Callable[..., R],
    args: Sequence[Any],
    pieces: Sequence[tuple[int, int]],
    address: str,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    from concurrent.futures import CancelledError

    from distributed import KilledWorker
    from distributed import as_completed as dask_completed

    client = connect(address)
    try:
        # pure=False: never hash a config to dedupe tasks, just run each piece.
        futures = [client.submit(fn, *args, first, n, pure=False) for first, n in pieces]
        index = {f.key: i for i, f in enumerate(futures)}
        # The client's own loop: it is not the process's default client.
        finished = dask_completed(futures, loop=client.loop)  # type: ignore[no-untyped-call]
        done = ((index[f.key], f.result()) for f in finished)
        try:
            yield from _in_order(done, pieces, progress)
        except (KilledWorker, CancelledError, OSError) as e:
            # The cluster failed under us (workers died, scheduler gone): say
            # so in one line; an exception raised by fn itself passes through.
            raise BackendError(
                "failed",
                f"the Dask cluster at {address} failed during the run ({type(e).__name__})",
                address=address,
                error=type(e).__name__,
            ) from None
    finally:
        client.close()


__all__ = [
    "CONNECT_TIMEOUT",
    "Backend",
    "BackendError",
    "check_address",
    "connect",
    "run_chunks",
    "split",
]
