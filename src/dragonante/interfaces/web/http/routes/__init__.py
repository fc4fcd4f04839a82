"""The web app's routers, one per concern (``app.create_app`` includes them).

* :mod:`.pages`: the single-page client's addresses;
* :mod:`.info`: what the client caches and the server's figures (meta,
  cards, abilities, OpenAPI, stats);
* :mod:`.lobby`: tables, seats, bots, bans, listing, the start, mutes and
  rematches;
* :mod:`.games`: finished games, their replays and records;
* :mod:`.players`: player keys, My games, a player's page, the leaderboard,
  the host handing a seat to a new key;
* :mod:`.socket`: the WebSocket, one per seat or spectator;
* :mod:`.learn`: the "Learn to play" socket, one tutorial each;
* :mod:`.common`: what they share (the hub, the caller's address and token,
  bodies read as capped streams).
"""
