"""A real Dask cluster on 127.0.0.1 for the tests of ``--scheduler``.

Worker *processes* (not threads): the chunks must survive being pickled,
sent to another interpreter that imports dragonante by itself, and sent
back, exactly as on a cluster of machines.  Two workers of one thread start
in about a second; each test module that needs them starts them once.
"""

from __future__ import annotations

import socket
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import LocalCluster


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[str]:
    """A LocalCluster with ``workers`` single-thread worker processes; yields
    the scheduler's ``tcp://127.0.0.1:PORT`` address."""
    with warnings.catch_warnings():
        # The scheduler's small HTTP server (health checks) binds 127.0.0.1:8787
        # even without a dashboard; when another cluster holds that port it
        # takes a free one and warns, which is nothing to report here.
        warnings.filterwarnings("ignore", "Port 8787 is already in use", UserWarning)
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
