"""``--workers`` and ``--scheduler``, shared by ``simulate``, ``tournament`` and ``analyze``.

``--workers N`` plays on N local processes; ``--scheduler tcp://HOST:PORT``
submits the chunks to an existing Dask distributed scheduler instead
(``docs/cluster.md``).  Giving both is an error rather than a silent
choice: on a cluster the number of workers is what each ``dask worker
--nworkers N`` started, and a ``--workers 8`` that did nothing would
mislead.  Every backend problem (malformed address, no scheduler, no
workers, another dragonante version on the workers) becomes one line in the
user's language.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from dragonante.extras import require
from dragonante.i18n import t
from dragonante.interfaces.cli.app import UserError
from dragonante.interfaces.cli.run_options import SchedulerOpt, WorkersOpt
from dragonante.sim.parallel import Backend, BackendError


def backend_error(e: BackendError, lang: str) -> UserError:
    """The one-line, translated message for a backend problem."""
    return UserError(t(f"cli.error.scheduler_{e.reason}", lang, **e.details))


def make_backend(workers: int | None, scheduler: str | None, lang: str) -> Backend:
    """The backend the options ask for; a one-line UserError when they are wrong.

    Only the address's form is checked here: the scheduler itself is reached
    when the games start (inside :func:`backend_errors`).
    """
    if scheduler is not None:
        if workers is not None:
            raise UserError(t("cli.error.workers_and_scheduler", lang))
        require("cluster", "--scheduler")
        try:
            return Backend(scheduler=scheduler)
        except BackendError as e:
            raise backend_error(e, lang) from None
    if workers is not None and workers < 1:
        raise UserError(t("cli.error.workers", lang, workers=workers))
    return Backend(workers or 1)


@contextmanager
def backend_errors(lang: str) -> Iterator[None]:
    """Turn a :class:`BackendError` raised while the games run into a UserError."""
    try:
        yield
    except BackendError as e:
        raise backend_error(e, lang) from None


__all__ = ["SchedulerOpt", "WorkersOpt", "backend_errors", "make_backend"]
