"""Load benchmark of the web server (``dragonante loadtest``): many tables of
random bots over real WebSockets.

Each table slot creates a table through the HTTP API, seats one WebSocket
client per seat, starts the game and plays it with uniformly random legal
answers; when the game ends the slot opens a new table, so the number of
concurrent tables stays constant until the time is up.  The run measures

* messages per second (frames received by all clients, and answers sent);
* answer-to-update latency: from sending an answer to receiving the update
  that acknowledges it (the server commits the answer to its database
  before it sends that update, so this includes the commit).

Only loopback addresses are ever contacted; the run is bounded in time and
stops by itself.  What this room owns, each module importing only the ones above it:

* :mod:`.report` - the settings of a run and its report;
* :mod:`.clients` - the WebSocket clients playing the tables, in this
  process or shared out among client processes;
* :mod:`.run` - one run: the servers started for it (or the one given),
  the clients, the servers' own figures at the end.

It lives with the web code because it speaks the web protocol (HTTP API,
WebSocket frames) and starts ``dragonante serve``; the server never imports it.
"""

from __future__ import annotations

from dragonante.interfaces.web.load.report import LoadError, LoadReport, LoadSettings
from dragonante.interfaces.web.load.run import run_load

__all__ = ["LoadError", "LoadReport", "LoadSettings", "run_load"]
