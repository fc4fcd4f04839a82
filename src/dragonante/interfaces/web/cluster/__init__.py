"""The cluster's room: several server processes sharing one PostgreSQL database.

What this room owns:

* :mod:`.member` - ``Cluster`` (one process of several: which process runs
  a table, the lobby of every process) and ``ClusterRouter``, the ASGI
  middleware that sends a request to its table's owner;
* :mod:`.lease` - heartbeats, ownership, claims of a dead process's
  tables, the writer's fence;
* :mod:`.transport` - messages between processes over ``LISTEN/NOTIFY``;
* :mod:`.relay` - a request or a socket served by its table's owner for
  another process;
* :mod:`.affinity` - ``serve --affinity``: a table moves to the process its
  requests reach.

It stands on the hub (whose public methods it calls), the tables and
storage; only the HTTP room imports it (``tests/web/test_package_shape.py``).
"""
