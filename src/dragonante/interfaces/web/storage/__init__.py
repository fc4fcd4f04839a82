"""The storage room: what the server keeps on disk, and the one thread that writes it.

What this room owns:

* :mod:`.db` - the schema (SQLAlchemy tables) and opening the database:
  SQLite by default, PostgreSQL by URL, Alembic migrations run at start-up;
* :mod:`.store` - reading and writing tables, seats, answers, chat and the
  cluster's rows, as plain synchronous functions of a session;
* :mod:`.players` - the players' rows (people by key, the seats they hold,
  ratings and the leaderboard), functions of a session like the store's;
* :mod:`.writer` - the database thread with group commit, whose
  transactions the event loop awaits (``StorageError`` when one fails);
* ``migrations/`` - Alembic's scripts, one per change of the schema;
* :mod:`.interface` - the protocol the tables' code is typed against
  (``Storage``, one ``Transaction`` at a time), so the game service never
  names SQLAlchemy; :mod:`.sql` - the server's implementation, the
  database thread and the store's and players' functions; :mod:`.memory` -
  dictionaries in this process, for fast tests of the game service, with
  :mod:`.memory_players` for the players' rows.

It is the bottom floor: it imports no other room of the web package, so
every room above may read and write through it
(``tests/web/test_package_shape.py``).
"""
