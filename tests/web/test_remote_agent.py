"""An agent at a web table (``dragonante.interfaces.remote_agent``), against the
tests' live server: it takes a seat through the lobby as ``play --join`` does,
plays a whole game over the WebSocket with bots and a person, and a server
offering a bot by name (``serve --bot``) seats it for clients that name it."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonante.bots import bot_names
from dragonante.bots import registry as R
from dragonante.interfaces.remote_agent import RemoteAgentError, RemoteTurn, sit, text_agent
from dragonante.interfaces.text import LISTED_ANSWER
from dragonante.interfaces.tui.lobby import Lobby, Target, join
from dragonante.interfaces.web.hub import Settings
from tests.web.helpers import LiveServer, Seat, make_table, play


@pytest.fixture
def clean_offers() -> Iterator[None]:
    offered = dict(R.OFFERED)
    yield
    R.OFFERED.clear()
    R.OFFERED.update(offered)


def test_a_text_agent_plays_a_whole_game_with_bots(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    config = {"players": 3, "gold_per_player": 10}
    with server.http() as http:
        r = http.post("/api/tables", json={"config": config})
        code, host = r.json()["code"], r.json()["host_token"]
    seating = join(Target(server.base, code), "Claude")
    with Lobby(server.base) as lobby:
        lobby.fill_bots(code, host, "random")
        lobby.start(code, host)
    rng = random.Random(3)
    texts: list[str] = []

    def respond(text: str) -> str:
        texts.append(text)
        listed = LISTED_ANSWER.findall(text)
        if rng.random() < 0.1 and not text.startswith('"'):
            return "something else"  # refused by the client, answered again
        number, words = rng.choice(listed)
        return str(words if rng.random() < 0.5 else number)

    result = sit(seating, text_agent(respond))
    assert result["seat"] == 0 and result["winners"]
    assert result["answered"] > 3 and result["refused"] == 0
    assert any(t.startswith("Since your last turn:") for t in texts)
    assert all("The table:" in t or t.startswith('"something else"') for t in texts)
    assert any(t.startswith('"something else" is not one of the answers.') for t in texts)


def test_an_agent_plays_beside_a_person(serve: Callable[..., LiveServer]) -> None:
    """A function agent at seat 1 (given the seat's typed view), a person at seat 0."""
    server = serve()
    with server.http() as http:
        code, tokens, _host = make_table(
            http, {"players": 2, "gold_per_player": 10}, ["Ann", "Agent"]
        )
    person = Seat(server, code, tokens[0])
    seen: list[RemoteTurn] = []

    def weakest(turn: RemoteTurn) -> int:
        seen.append(turn)
        assert turn.observation.seat == 1 and turn.observation.hand is not None
        return turn.options[0]

    out: dict[str, Any] = {}
    agent = threading.Thread(
        target=lambda: out.update(sit(_resume(server, code, tokens[1]), weakest, "it"))
    )
    agent.start()
    try:
        play([person], random.Random(1))
    finally:
        agent.join(60)
    person.close()
    assert out["seat"] == 1 and out["winners"]
    assert seen and all(t.seat == 1 for t in seen)
    assert "Il tavolo:" in seen[0].text


def test_an_agent_faster_than_the_message_limit_is_slowed_not_stalled(
    serve: Callable[..., LiveServer],
) -> None:
    """An answer refused as ``busy`` (more messages a second than the server takes)
    is answered again after a pause: the agent once kept it as answered and waited
    for ever for a question it believed it had answered (CI, twice)."""
    server = serve(rate=2.0)  # a burst of 4, then 2 messages a second
    with server.http() as http:
        code, tokens, _ = make_table(
            http, {"players": 2, "gold_per_player": 4}, ["Agent"], bots=1, level="random"
        )
    out: dict[str, Any] = {}
    agent = threading.Thread(
        target=lambda: out.update(sit(_resume(server, code, tokens[0]), lambda t: t.options[0]))
    )
    agent.start()
    agent.join(120)
    assert not agent.is_alive(), "the agent waited for a question it believed answered"
    assert out["winners"] and out["refused"] == 0


def test_a_busy_answer_is_forgotten_and_answered_again(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, frame by frame (a loaded machine may never reach the limit): after
    ``busy`` the agent asks for the table again and answers the open question anew;
    without a refusal a question is answered once."""
    import asyncio

    from dragonante.interfaces import remote_agent

    monkeypatch.setattr(remote_agent, "BUSY_PAUSE", 0.0)
    server = serve()
    with server.http() as http:
        code, tokens, _ = make_table(http, {"players": 2}, ["Agent"], bots=1, level="random")
    seat = Seat(server, code, tokens[0])
    seat.close()
    agent = remote_agent.RemoteAgent(_resume(server, code, tokens[0]), lambda t: t.options[0])

    async def frames() -> list[dict[str, Any] | None]:
        said = [await agent.on_frame(seat.welcome), await agent.on_frame(seat.state)]
        said.append(await agent.on_frame({"type": "error", "code": "busy", "message": "slow"}))
        said.append(await agent.on_frame(seat.state))
        said.append(await agent.on_frame(seat.state))
        return said

    welcome, first, busy, again, once_more = asyncio.run(frames())
    assert welcome is None and first is not None and first["type"] == "answer"
    assert busy is not None and busy["type"] == "sync" and agent.slowed == 1
    assert again == first and once_more is None
    assert agent.refusals == []


def _resume(server: LiveServer, code: str, token: str) -> Any:
    return join(Target(server.base, code, token), None)


def test_an_illegal_answer_is_the_agents_error(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    with server.http() as http:
        code, tokens, _ = make_table(http, {"players": 2}, ["Agent"], bots=1, level="random")
    with pytest.raises(RemoteAgentError, match="the agent answered 999 to 'ante'"):
        sit(_resume(server, code, tokens[0]), lambda turn: 999)


def test_a_bad_token_is_refused_clearly(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    with server.http() as http:
        code, _tokens, _ = make_table(http, {"players": 2}, ["Agent"], bots=1, level="random")
    seating = _resume(server, code, "not-a-token")
    with pytest.raises(RemoteAgentError, match="refused the seat"):
        sit(seating, lambda turn: turn.options[0])


def test_a_server_offers_a_spec_by_name_only(
    serve: Callable[..., LiveServer], clean_offers: None
) -> None:
    server = serve(bots=(("quick", "ismcts:iters=5"),))
    assert "quick" in bot_names()
    with server.http() as http:
        meta = http.get("/api/meta").json()
        assert "quick" in meta["levels"] and "quick" in meta["bots"]
        code, _tokens, host = make_table(http, {"players": 3}, ["Ann"], start=False)
        for level in ("ismcts:iters=5", "policy:/etc/passwd", "os:system"):
            r = http.post(
                f"/api/tables/{code}/bots",
                json={"seat": 1, "level": level},
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code == 400 and r.json()["error"] == "bad_bot", level
        r = http.post(
            f"/api/tables/{code}/bots",
            json={"fill": True, "level": "quick"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 201, r.text
        seats = http.get(f"/api/tables/{code}").json()["seats"]
        assert [s.get("bot") for s in seats if s["kind"] == "bot"] == ["quick", "quick"]


def test_the_example_joins_a_web_table(
    serve: Callable[..., LiveServer], capsys: pytest.CaptureFixture[str]
) -> None:
    """``examples/text_agent.py --join``: the stand-in agent takes a seat and plays."""
    from examples.text_agent import main

    server = serve()
    with server.http() as http:
        r = http.post("/api/tables", json={"config": {"players": 2, "gold_per_player": 10}})
        code, host = r.json()["code"], r.json()["host_token"]
    done: list[int] = []
    player = threading.Thread(
        target=lambda: done.append(main(["--join", f"{server.base}/t/{code}", "--name", "Eve"]))
    )
    player.start()
    with Lobby(server.base) as lobby:
        # until the example has taken its seat (a loaded machine may take a
        # while to start it: the bots must not fill the seat before it does)
        deadline = time.monotonic() + 60
        while not any(s and s.get("name") == "Eve" for s in lobby.table(code)["seats"]):
            assert time.monotonic() < deadline, "the example did not take its seat"
            threading.Event().wait(0.05)
        lobby.fill_bots(code, host, "random")
        lobby.start(code, host)
    player.join(60)
    assert done == [0]
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["seat"] == 0 and result["answered"] > 0
    with pytest.raises(SystemExit) as refused:
        main(["--join", f"{server.base}/t/NOSUCH1", "--name", "Eve"])
    assert refused.value.code == 1
    assert "NOSUCH1" in capsys.readouterr().err


def test_a_restored_table_whose_offered_bot_is_gone_plays_on(
    clean_offers: None, tmp_path: Path
) -> None:
    """A table seated with an offered name, restored by a server started without
    that ``--bot``: its bots are played by ``medium`` and the game goes on."""
    db = str(tmp_path / "restart.sqlite3")
    first = LiveServer(db, Settings(bot_delay=0, bots=(("quick", "ismcts:iters=5"),))).start()
    try:
        with first.http() as http:
            code, tokens, _ = make_table(
                http, {"players": 3, "gold_per_player": 10}, ["Ann"], bots=2, level="quick"
            )
    finally:
        first.stop()
    R.OFFERED.clear()
    second = LiveServer(db, Settings(bot_delay=0), port=first.port).start()
    try:
        ann = Seat(second, code, tokens[0])
        play([ann], random.Random(2))
        assert ann.last is not None and ann.last["view"]["phase"] == "over"
        ann.close()
    finally:
        second.stop()


def test_workers_get_the_offered_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --workers N`` hands each worker its settings as JSON: the offered
    bots come back as the tuples ``Settings`` declares."""
    from dragonante.interfaces.web.cluster.member import ClusterSettings
    from dragonante.interfaces.web.http import workers

    settings = Settings(bots=(("quick", "ismcts:iters=5"), ("easy2", "baseline")))
    seen: list[Settings] = []
    monkeypatch.setattr(workers, "create_app", lambda db, st, cluster: seen.append(st))
    monkeypatch.setenv(workers.WORKER_ENV, workers.worker_config("db", settings, ClusterSettings()))
    workers.worker_app()
    assert seen[0].bots == settings.bots
