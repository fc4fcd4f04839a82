"""Play together in the browser: the authoritative game server and its web client.

``dragonante serve`` runs :func:`dragonante.interfaces.web.http.app.create_app`
under uvicorn.  The pieces, one concept each:

* :mod:`.db` - the schema and opening the database (Alembic migrations run
  at start-up; SQLite by default, PostgreSQL by URL);
* :mod:`.store` - reading and writing tables, seats and answers;
* :mod:`.writer` - the database thread with group commit;
* :mod:`.hub` - the lobby, the answer pipeline, bots, time limits;
* :mod:`.tables` - a table in memory, its connections, and each seat's view;
* :mod:`.stats` - load figures (commits, event-loop lag, collector pauses);
* :mod:`.protocol` - parsing and refusing WebSocket messages;
* :mod:`.narration` - events as sentences in English and Italian;
* :mod:`.app` - the HTTP API, the WebSocket endpoint and the static client.

The protocol is documented in ``docs/protocol.md``, the server in ``docs/web.md``.
"""
