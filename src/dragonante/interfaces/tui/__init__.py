"""The full-screen terminal table (Textual): ``dragonante play`` in a terminal.

One concept per module: :mod:`.table` the game behind the screen (people,
bots, answers, take-back), :mod:`.snapshot` what one seat may see at one
moment, :mod:`.cards` cards as colored badges, :mod:`.seats`,
:mod:`.hand`, :mod:`.question` and :mod:`.log` the panels,
:mod:`.screens` the pages over the table, :mod:`.base` the layout and keys
every table shares, :mod:`.source_app` the one loop over any table source,
:mod:`.game_source` a local game as a source and :mod:`.app` the
application for it.
``play --join`` feeds the same screen from a server: :mod:`.lobby` takes the
seat (HTTP), :mod:`.remote` reads the seat's frames, :mod:`.frame_source`
makes them a table source and :mod:`.online` is its application (the
WebSocket, the chat's line in :mod:`.chat_line`).
"""

from dragonante.interfaces.tui.app import TableApp
from dragonante.interfaces.tui.table import TableGame

__all__ = ["TableApp", "TableGame"]
