"""``serve --workers N``: the app of one worker process, built from the environment.

uvicorn starts workers by import string, so they cannot take arguments: the
command line hands each worker its configuration as JSON in
:data:`WORKER_ENV`, and :func:`worker_app` (uvicorn's factory) reads it back.
A module of its own, above the app and the cluster, so neither imports the
other to start a worker.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Any

from dragonante.interfaces.web.cluster.member import ClusterError, ClusterSettings
from dragonante.interfaces.web.http.app import create_app
from dragonante.interfaces.web.http.connection_guard import ConnectionLimits, configure
from dragonante.interfaces.web.shared.settings import Settings

#: ``serve --workers N`` hands each worker its configuration in this variable
#: (uvicorn starts workers by import string, so they cannot take arguments).
WORKER_ENV = "DRAGONANTE_SERVE_WORKER"


def worker_config(
    db: str, settings: Any, cluster: ClusterSettings, limits: ConnectionLimits | None = None
) -> str:
    """The JSON a worker reads back in :func:`worker_app`."""
    guard = asdict(limits or ConnectionLimits())
    return json.dumps(
        {"db": db, "settings": asdict(settings), "lease": cluster.lease, "connections": guard}
    )


def worker_app() -> Any:
    """The app of one ``serve --workers`` process (uvicorn's factory)."""
    raw = os.environ.get(WORKER_ENV)
    if not raw:
        raise ClusterError(f"{WORKER_ENV} is unset: workers are started by serve --workers")
    conf = json.loads(raw)
    fields = conf["settings"]
    # JSON has no tuples: give back the ones Settings declares.
    fields["trusted_proxies"] = tuple(fields.get("trusted_proxies", ()))
    fields["bots"] = tuple((str(name), str(spec)) for name, spec in fields.get("bots", ()))
    guard = conf.get("connections", {})
    guard["trusted_proxies"] = tuple(guard.get("trusted_proxies", ()))
    configure(ConnectionLimits(**guard))  # the limits of this process's connections
    return create_app(conf["db"], Settings(**fields), cluster=ClusterSettings(lease=conf["lease"]))
