"""The players' room: a person known by a player key, the seats that follow
them, and their ratings (issue 32, sections 4 and 5).

A **player key** is a person without a password or an e-mail: a random
secret the server mints on a first visit and the browser keeps.  The server
stores its SHA-256 only (:mod:`.keys`), and a seat taken with it records the
person's public id, so the key opens that seat from any device, like the
seat's own token (``SeatInfo.opens``).  What this room owns:

* :mod:`.keys` - minting and checking keys and public ids;
* :mod:`.service` - the hub's part: new keys, "who am I" and "My games"
  (rate-limited like invite codes), linking a seat to a key, the host
  handing a seat to a new key;
* :mod:`.qr` - the personal link as a QR code (SVG made on the server);
* :mod:`.ratings` - openskill ratings from finished games, the leaderboard,
  and rebuilding them all from the stored records.

Its rows (people, the seats a key holds, ratings) are kept behind the
storage protocol like the tables' (``storage/players.py`` in SQL,
``storage/memory_players.py`` in memory): this room asks the house's
transaction for them and never names SQLAlchemy, so a hub on the in-memory
storage serves keys and ratings too.

It reads the tables through the house;
nothing outside the hub and the routes imports it: the answer pipeline
rates a finished game with the rater the hub hands it (``answers.Rater``),
so the tables' code never imports this room (``tests/web/test_package_shape.py``).
"""
