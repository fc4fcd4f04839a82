"""Alembic environment: run the migrations on the connection the server hands over.

:func:`dragonante.interfaces.web.storage.db.migrate` opens the connection and puts
it in ``config.attributes["connection"]``; there is no ``alembic.ini``, so
the migrations always run against the database the server was started with.
"""

from __future__ import annotations

from alembic import context

from dragonante.interfaces.web.storage.db import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through dragonante.interfaces.web.storage.db.migrate()")

context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
