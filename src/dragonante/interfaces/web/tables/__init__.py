"""The tables' room: the tables in memory, their people, and everything they do.

What this room owns:

* :mod:`.live` - a table in memory, a connection, and each seat's view
  (``seat_view``, the one place a view's content is made);
* :mod:`.house` - what every part shares (the tables, storage, limits, the
  view cache), and the only way the parts reach it;
* :mod:`.answers` - the answer pipeline, bots' moves, the game's time
  limit; :mod:`.turns` - turn timers; :mod:`.face_down` - the face-down
  ante round; :mod:`.take_back` and :mod:`.kept_bots` - taking an answer
  back among bots;
* :mod:`.seats` - seating before the start; :mod:`.lobby` - making and
  listing tables, records and replays (:mod:`.replays`);
* :mod:`.connections` - connecting, disconnecting, ``sync``, away seats;
* :mod:`.social` and :mod:`.chat` - chat, mutes, rematches;
* :mod:`.hints` - hints from the best bot;
* :mod:`.lifecycle` - start-up, takeover, expiry, idleness, eviction;
* :mod:`.frames`, :mod:`.snapshots`, :mod:`.history_cache` - what
  connections are sent, and the caches that make it cheap;
* :mod:`.lessons` - Learn to play, one tutorial table per socket.

It stands on storage and the shared room only: it imports neither the
players' room (the hub hands the answer pipeline its rater), nor the hub,
the cluster or HTTP (``tests/web/test_package_shape.py``).
"""
