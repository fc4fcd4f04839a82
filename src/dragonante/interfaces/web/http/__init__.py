"""The HTTP room: the app, its routes, and the guards in front of them.

What this room owns:

* :mod:`.app` - ``create_app``: the routers, the middlewares, the server's
  life (start-up, sweeps, stopping);
* ``routes/`` - one router per concern (pages, info, lobby, games,
  players, the table's socket, Learn to play's socket);
* :mod:`.guard` - request bodies refused by size and read as capped streams;
* :mod:`.connection_guard` - the connection itself: bounded request heads,
  a deadline, a cap per address, and ``transport_options`` (how uvicorn
  carries the sockets);
* :mod:`.pings` - WebSocket control frames counted and bounded;
* :mod:`.headers` - the security headers on every response;
* :mod:`.openapi` - the lobby API as OpenAPI 3.1;
* :mod:`.workers` - ``serve --workers N``: one worker's app from the
  environment.

It is the top floor: it may use every room below (the hub, the cluster, the
players' routes' part, the tables, storage), and none of them imports it
(``tests/web/test_package_shape.py``).
"""
