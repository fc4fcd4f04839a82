"""Learn to play over its socket: the whole tutorial, resume, replay, the guards, no hidden card."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from dragonante.engine.game import apply
from dragonante.engine.views import observe
from dragonante.interfaces.narrate import card_label
from dragonante.interfaces.web.hub import Settings
from dragonante.interfaces.web.shared.protocol import MAX_LEARN_ANSWERS
from dragonante.interfaces.web.tables.lessons import Lesson
from dragonante.tutorial import PLAYER, STEPS, deal
from dragonante.tutorial.tips import QUIET
from tests.web.helpers import LiveServer, Seat
from tests.web.leaks import check_frames, hidden_from

Chooser = Callable[[dict[str, Any], dict[str, Any]], int]


class Learner(Seat):
    """A "Learn to play" socket that keeps every frame (``last``: the latest view)."""

    def __init__(self, server: LiveServer, answers: list[int] | None = None, lang: str = "en"):
        self._connect = connect(f"{server.ws_base}/learn/ws", max_size=2**24)
        self.ws: ClientConnection = self._connect.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.last: dict[str, Any] | None = None
        self.closed = False
        self.send({"type": "learn", "lang": lang, "answers": answers or []})

    @property
    def view(self) -> dict[str, Any] | None:
        return self.last

    @property
    def coach(self) -> dict[str, Any] | None:
        return next((f for f in reversed(self.frames) if f["type"] == "coach"), None)

    def coached(self) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "coach")


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("learn") / "web.sqlite3"
    live = LiveServer(str(db), Settings(bot_delay=0, max_tables=3, limit_tables=0)).start()
    yield live
    live.stop()


def suggested(view: dict[str, Any], coach: dict[str, Any]) -> int:
    s = coach["suggestion"]
    return int(s) if s is not None else int(view["answers"][0]["value"])


def last_answer(view: dict[str, Any], coach: dict[str, Any]) -> int:
    return int(view["answers"][-1]["value"])


def play_through(me: Learner, choose: Chooser) -> list[dict[str, Any]]:
    """Answer every question until the tutorial is over; every coach frame."""
    coaches = [me.coached()]
    for _ in range(200):
        c = coaches[-1]
        if c["over"]:
            return coaches
        assert me.view is not None and me.view["view"]["question"]["id"] == c["decision"]
        me.send({"type": "answer", "decision": c["decision"], "answer": choose(me.view, c)})
        coaches.append(me.coached())
    raise AssertionError("the tutorial did not end")


@pytest.mark.parametrize(("lang", "choose"), [("en", suggested), ("it", last_answer)])
def test_a_whole_tutorial_in_the_browser_s_socket(
    lessons: LiveServer, lang: str, choose: Chooser
) -> None:
    me = Learner(lessons, lang=lang)
    assert me.wait(lambda m: m["type"] == "welcome")["seat"] == PLAYER
    coaches = play_through(me, choose)
    me.close()
    last = coaches[-1]
    assert last["finished"] and last["notes"][-1]["kind"] == "done"
    assert me.view is not None and me.view["view"]["phase"] == "over"
    told = {n["step"] for c in coaches for n in c["notes"] if n["kind"] in ("outcome", "missed")}
    assert {s.id for s in STEPS} <= told
    texts = [n["text"] for c in coaches for n in c["notes"]]
    assert all(not x.startswith("tutorial.") and "{" not in x for x in texts)
    words = {"en": "The rule:", "it": "La regola:"}[lang]
    assert any(x.startswith(words) for x in texts), texts[:5]
    # the progress to save: the player's answers, as the terminal's tutorial saves them
    assert last["progress"]["format"] == "dragonante-tutorial"
    assert len(last["progress"]["answers"]) == len(coaches) - 1


@pytest.mark.parametrize("choose", [suggested, last_answer])
def test_the_tutorial_s_frames_show_no_hidden_card(lessons: LiveServer, choose: Chooser) -> None:
    me = Learner(lessons)
    frames_at: list[tuple[int, dict[str, Any]]] = []
    play_through(me, choose)
    me.close()
    views = [f for f in me.frames if "view" in f]
    last_view = views[-1]
    # every seat's answers, in order: the lesson's game replayed from the deal
    record = {
        "config": me.frames[1]["table"]["config"],
        "seed": deal().seed,
        "answers": [],
    }
    lesson_answers = _all_answers(me)
    record["answers"] = lesson_answers
    assert last_view["step"] == len(lesson_answers)
    checked = check_frames(record, PLAYER, me.frames, start=deal().start())
    assert checked == len(views)
    # the coach's words: its suggestion is one of the player's own answers, and
    # no note names a card hidden from the player when it was said
    s = deal().start()
    step = 0
    view: dict[str, Any] | None = None
    for f in me.frames:
        if "view" in f:
            view = f
            while step < f["step"]:
                apply(s, lesson_answers[step])
                step += 1
        if f["type"] != "coach" or view is None:
            continue
        frames_at.append((step, f))
        if f["suggestion"] is not None:
            assert f["suggestion"] in [a["value"] for a in view["answers"]]
        secret = hidden_from(s, PLAYER) - _seen(s)
        text = " ".join(n["text"] for n in f["notes"])
        for c in secret:
            assert card_label(c, "en") not in text, (c, text)
    assert len(frames_at) > 5


def _seen(s: Any) -> set[int]:
    obs = observe(s, PLAYER)
    return {c for cards in obs.known_in_hands.values() for c in cards} | set(obs.hand or ())


def _all_answers(me: Learner) -> list[int]:
    """Every seat's answers of the lesson just played, from the server's tutorial
    (the frames carry only the player's: the bots' come from the same deal)."""
    from dragonante.tutorial import Tutorial

    assert me.coach is not None
    tut = Tutorial("en", tuple(me.coach["progress"]["answers"]))
    tut.advance()
    return list(tut.game.record.answers)


def test_resume_from_the_saved_answers_goes_on_where_it_was(lessons: LiveServer) -> None:
    me = Learner(lessons)
    c = me.coached()
    for _ in range(3):
        assert me.view is not None
        me.send({"type": "answer", "decision": c["decision"], "answer": suggested(me.view, c)})
        c = me.coached()
    saved, before = c["progress"]["answers"], me.view
    me.close()
    back = Learner(lessons, saved)
    again = back.coached()
    assert back.view is not None and before is not None
    assert again["progress"]["answers"] == saved and again["decision"] == c["decision"]
    assert back.view["view"] == before["view"]
    assert [n["text"] for n in again["notes"]] == [n["text"] for n in c["notes"]]
    back.close()


def test_saved_answers_that_do_not_replay_start_afresh_and_say_so(lessons: LiveServer) -> None:
    me = Learner(lessons, [9999, 1])
    e = me.wait(lambda m: m["type"] == "error")
    assert e["code"] == "bad_progress" and e["message"]
    assert me.coached()["progress"]["answers"] == []
    me.close()
    big = Learner(lessons, [0] * (MAX_LEARN_ANSWERS + 1))
    assert big.wait(lambda m: m["type"] == "error")["code"] == "bad_field"
    big.close()


def test_replay_a_step_goes_back_to_its_start(lessons: LiveServer) -> None:
    me = Learner(lessons)
    c = me.coached()
    # past the last step that asked, into questions no step is about ("free")
    while not c["notes"] or c["notes"][-1]["kind"] != "free":
        assert me.view is not None
        me.send({"type": "answer", "decision": c["decision"], "answer": last_answer(me.view, c)})
        c = me.coached()
    later = c["progress"]["answers"]
    me.send({"type": "replay"})
    state = me.wait(lambda m: m["type"] == "state")
    back = me.coached()
    answers = back["progress"]["answers"]
    assert 0 < len(answers) < len(later) and answers == later[: len(answers)]
    assert state["view"]["question"]["id"] == back["decision"]
    asks = [n for n in back["notes"] if n["step"] == back["step"]["id"]]
    assert [n["kind"] for n in asks] == ["intro", "ask"]
    me.send({"type": "restart"})
    me.wait(lambda m: m["type"] == "state")
    restarted = me.coached()
    assert restarted["progress"]["answers"] == [] and restarted["step"]["index"] == 1
    me.close()


def test_wrong_questions_and_answers_are_refused_and_change_nothing(lessons: LiveServer) -> None:
    me = Learner(lessons)
    c = me.coached()
    assert me.view is not None
    legal = [a["value"] for a in me.view["answers"]]
    me.send({"type": "answer", "decision": c["decision"] + 5, "answer": legal[0]})
    assert me.wait(lambda m: m["type"] == "error")["code"] == "stale"
    me.send({"type": "answer", "decision": c["decision"], "answer": max(legal) + 1000})
    assert me.wait(lambda m: m["type"] == "error")["code"] == "illegal"
    me.send({"type": "hello", "token": None})
    assert me.wait(lambda m: m["type"] == "error")["code"] == "bad_type"
    me.send("{not json")
    assert me.wait(lambda m: m["type"] == "error")["code"] == "malformed"
    me.send({"type": "answer", "decision": str(c["decision"]), "answer": legal[0]})
    assert me.wait(lambda m: m["type"] == "error")["code"] == "bad_field"
    me.send({"type": "learn", "lang": "en", "answers": []})  # only first
    assert me.wait(lambda m: m["type"] == "error")["code"] == "bad_type"
    me.send({"type": "sync"})
    assert me.coached()["progress"]["answers"] == []
    me.close()


def test_a_socket_that_does_not_start_with_learn_is_closed(lessons: LiveServer) -> None:
    with connect(f"{lessons.ws_base}/learn/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        e = json.loads(ws.recv(timeout=10))
        assert e["code"] == "learn_first"


def test_lessons_count_against_the_server_s_tables(lessons: LiveServer) -> None:
    hub = lessons.hub
    open_ = [Learner(lessons) for _ in range(3)]
    for me in open_:
        me.coached()
    assert hub.live_count() == 3 and all(isinstance(x, Lesson) for x in hub.house.lessons)
    extra = Learner(lessons)
    assert extra.wait(lambda m: m["type"] == "error")["code"] == "server_full"
    r = lessons.http().post("/api/tables", json={"config": {}})
    assert r.status_code == 503 and r.json()["error"] == "server_full"
    for me in open_:
        me.close()
    deadline = time.monotonic() + 10
    while hub.house.lessons and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not hub.house.lessons  # a lesson ends with its socket
    extra.close()


def test_starting_lessons_is_rate_limited_as_making_tables(tmp_path: Path) -> None:
    live = LiveServer(str(tmp_path / "w.sqlite3"), Settings(bot_delay=0, limit_tables=2)).start()
    try:
        made = [Learner(live) for _ in range(2)]
        for me in made:
            me.coached()
        third = Learner(live)
        assert third.wait(lambda m: m["type"] == "error")["code"] == "rate_limited"
        for me in (*made, third):
            me.close()
    finally:
        live.stop()


def test_the_page_is_served_and_the_browser_s_tips_keep_quiet_as_the_terminal_s(
    lessons: LiveServer,
) -> None:
    r = lessons.http().get("/learn")
    assert r.status_code == 200 and "main.js" in r.text
    tips_js = Path(__file__).parents[2] / "src/dragonante/interfaces/web/static/js/tips.js"
    m = re.search(r"QUIET = new Set\(\[([^\]]*)\]\)", tips_js.read_text(encoding="utf-8"))
    assert m is not None
    assert set(re.findall(r'"([^"]+)"', m.group(1))) == set(QUIET)
