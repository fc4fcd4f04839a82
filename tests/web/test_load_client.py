"""The load benchmark's client ends its seats when time is up, whatever they read last.

A scripted WebSocket server on loopback stands in for the game server, so
the end of a run can be staged exactly: the seat reads a view that asks
another seat, time runs out, and the only frame that follows is the
table's seating (the other seat left at the deadline without reading the
view that asked it; this happened with two server processes, whose relay
puts some seats a frame behind the others).  The seat must leave then, not
wait for a view that will never come.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from dragonante.interfaces.web.load import LoadReport, LoadSettings
from dragonante.interfaces.web.load.clients import Run


def _view(step: int, asked_seat: int) -> str:
    question = {"id": step + 1, "seat": asked_seat, "kind": "ante", "options": [1, 2]}
    view = {"seat": 0, "phase": "play", "question": question}
    return json.dumps({"type": "update", "step": step, "view": view})


def _table() -> str:
    return json.dumps({"type": "table", "table": {"online": [True, False, False, True]}})


async def _stage(deadline_in: float) -> tuple[float, float]:
    """Run one seat against the script; returns (seconds it took to leave
    after the seating frame, seconds until it left at all)."""
    sent_table = asyncio.get_running_loop().create_future()

    async def script(ws: ServerConnection) -> None:
        hello = json.loads(await ws.recv())
        assert hello["type"] == "hello"
        await ws.send(_view(7, asked_seat=1))  # another seat is asked: nothing to do
        await asyncio.sleep(deadline_in + 0.2)  # time runs out meanwhile
        await ws.send(_table())  # the seat that was asked has left
        sent_table.set_result(time.monotonic())
        await ws.wait_closed()  # no view ever again

    async with serve(script, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        settings = LoadSettings(tables=1, seconds=deadline_in)
        run = Run(settings, (f"http://127.0.0.1:{port}",), LoadReport(1, 4, 0.0, 0.0))
        started = time.monotonic()
        run.deadline = started + deadline_in
        ready, done = asyncio.Event(), asyncio.Event()
        await asyncio.wait_for(run.seat("CODE", "token", ready, done), 10)
        left = time.monotonic()
        assert ready.is_set() and not done.is_set()
        return left - await sent_table, left - started


def test_a_seat_leaves_on_a_seating_frame_after_the_deadline() -> None:
    after_table, total = asyncio.run(_stage(0.3))
    assert after_table < 1.0
    assert total < 5.0


def test_a_seat_keeps_playing_on_seating_frames_before_the_deadline() -> None:
    async def run() -> Any:
        async def script(ws: ServerConnection) -> None:
            await ws.recv()
            await ws.send(_table())  # before the deadline: not a reason to leave
            await asyncio.sleep(0.3)
            await ws.send(_view(3, asked_seat=0))  # this seat is asked: it answers
            answer = json.loads(await ws.recv())
            assert answer == {"type": "answer", "decision": 4, "answer": answer["answer"]}
            await ws.send(json.dumps({"type": "update", "view": {"phase": "over"}}))
            await ws.wait_closed()

        async with serve(script, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            report = LoadReport(1, 4, 0.0, 0.0)
            loop_run = Run(LoadSettings(tables=1), (f"http://127.0.0.1:{port}",), report)
            loop_run.deadline = time.monotonic() + 30
            ready, done = asyncio.Event(), asyncio.Event()
            await asyncio.wait_for(loop_run.seat("CODE", "token", ready, done), 10)
            return done.is_set(), report.answers

    finished, answers = asyncio.run(run())
    assert finished and answers == 1
