"""Play together in the browser: the authoritative game server and its web client.

``dragonante serve`` runs :func:`dragonante.interfaces.web.http.app.create_app`
under uvicorn.  The package is a house of rooms, each a sub-package whose
``__init__.py`` says what it owns; a room imports only the rooms on the floors
below it (``tests/web/test_package_shape.py``), bottom floor first:

1. ``storage/`` - the schema, opening the database, Alembic's migrations,
   reading and writing tables, seats and answers, the database thread with
   group commit; and ``shared/`` - the words every room speaks: the
   WebSocket protocol, refusals, narration, names, settings, limits, load
   figures.  Neither imports any other room.
2. ``tables/`` - the tables in memory and their people: seats, answers,
   bots, clocks, connections, chat, hints, take-backs, start-up and
   takeover, what each connection is sent; ``tables.house.House`` is what
   they share.
3. ``players/`` - player keys, the seats that follow them, ratings.
4. ``hub`` (one module, ``hub.py``) - the ``Hub``: the public face of the
   tables' and the players' parts, what HTTP and the cluster call.
5. ``cluster/`` - several processes on one PostgreSQL database: leases,
   messages between processes, the relay, affinity.
6. ``http/`` - the FastAPI app, its routes, the guards in front of them
   (body caps, the connection guard, pings, headers), the OpenAPI schema,
   ``--workers``; and ``load/`` - the load benchmark's client, which the
   server never imports.

``static/`` is the browser client (plain ES modules, CSS, the i18n
catalogues).  The protocol is documented in ``docs/protocol.md``, the
server in ``docs/web.md``.
"""
