"""A fresh PostgreSQL schema of ``DRAGONANTE_TEST_PG_URL`` for one test module
or test: the PostgreSQL tests share the one database the services script
starts, so each works in its own schema and drops it afterwards."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text

from dragonante.interfaces.web.storage.db import database_url

PG_URL = os.environ.get("DRAGONANTE_TEST_PG_URL", "")


@contextmanager
def fresh_schema(prefix: str) -> Iterator[str]:
    """A database URL whose search path is a new schema ``<prefix>_<random>``."""
    schema = f"{prefix}_{secrets.token_hex(4)}"
    admin = create_engine(database_url(PG_URL))
    try:
        with admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {schema}"))
        sep = "&" if "?" in PG_URL else "?"
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    finally:
        admin.dispose()
