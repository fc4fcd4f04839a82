"""The shared room: the words and the rules every other room speaks.

What this room owns:

* :mod:`.protocol` - the WebSocket messages: parsing them, refusing them,
  the frame limits;
* :mod:`.errors` - the lobby's refusals (``HubError``, a table of older
  rules, an expired one);
* :mod:`.narration` - events as sentences in English and Italian;
* :mod:`.names` - people's names in one normal form;
* :mod:`.settings` - every knob of a server, in one place;
* :mod:`.limits` - per-address rate limits and the client's address;
* :mod:`.stats` - load figures (commits, event-loop lag, collector pauses).

None of them knows a table, a database row or a request: they import no
other room (``tests/web/test_package_shape.py``), so the tables, the
cluster and the HTTP room can all use them without a circle.
"""
