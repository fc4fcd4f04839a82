"""The browser table, end to end, in Debian's Chromium.

Two people in separate browser contexts and two bots play a game to its
end; every frame each person's page receives is checked for cards it must
not see; the server is killed mid-game and started again; hostile messages
sent from a page are refused without harm; the table works at phone width
and in Italian.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from dragonante.engine.records import digest, record_from_dict, replay
from tests.web.browser import CHROMIUM, ServerProcess, record_frames
from tests.web.helpers import make_table
from tests.web.leaks import check_frames

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)

PHONE = {"width": 375, "height": 760}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "web.sqlite3").start()
    yield s
    s.stop()


def new_page(browser: Any, errors: list[str], viewport: dict[str, int] = PHONE) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def answer_if_asked(page: Any, rng: random.Random) -> bool:
    """Click one of the legal answers if this page is asked something (not
    again once it chose its face-down ante: the others are choosing)."""
    if page.locator("#question .answer.chosen").count():
        return False
    buttons = page.locator("#question .answer:not([disabled])")
    n = buttons.count()
    if not n:
        return False
    try:
        buttons.nth(rng.randrange(n)).click(timeout=1500)
    except Exception:  # redrawn under the click: the next round looks again
        return False
    return True


def over(page: Any) -> bool:
    return bool(page.locator(".board[data-phase=over]").count() > 0)


def play_until(pages: list[Any], rng: random.Random, done: Any, timeout: float = 240) -> int:
    deadline = time.monotonic() + timeout
    clicks = 0
    while time.monotonic() < deadline:
        if done():
            return clicks
        for page in pages:
            if answer_if_asked(page, rng):
                clicks += 1
        pages[0].wait_for_timeout(30)
    raise AssertionError("the game did not get there in time")


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_two_people_and_two_bots_play_to_the_end(browser: Any, server: ServerProcess):
    errors: list[str] = []
    ann = new_page(browser, errors)
    bea = new_page(browser, errors)
    ann_frames = record_frames(ann)
    bea_frames = record_frames(bea)

    ann.goto(server.base + "/")
    ann.click("#create-box summary")  # the full options, folded under Quick play
    ann.fill("#f-gold_per_player", "8")
    ann.click("details.endings summary")
    ann.fill("#f-ending_gambits", "1")
    ann.fill("#f-name", "Ann")
    ann.click("#create")
    ann.wait_for_selector("#seating")
    no_sideways_scroll(ann)
    invite = ann.get_attribute("#invite-link", "href")
    assert invite and "/t/" in invite and "token" not in invite

    bea.goto(invite)
    bea.wait_for_selector("#seating")
    bea.fill(".seat-row.free .seat-name >> nth=0", "Bea")
    bea.click(".seat-row.free .sit button >> nth=0")
    bea.wait_for_selector("#playing-as")
    assert "token" not in bea.url  # the seat token never shows in the address bar
    # Bots and the start are the host's: a seated guest's page offers neither.
    assert bea.locator("#fill-bots").count() == 0 and bea.locator("#start").count() == 0

    # the bots' default level is medium, as in the terminal (issue 32 section 6)
    assert ann.locator("#fill-level").input_value() == "medium"
    ann.click("#fill-bots")
    ann.wait_for_selector("#start:not([disabled])")
    ann.click("#start")
    ann.wait_for_selector(".board")
    bea.wait_for_selector(".board")
    assert bea.locator("#hand .card").count() == 6
    no_sideways_scroll(ann)

    # A card's full text opens under the mouse, at phone width (a click on a
    # card that answers chooses it; a tap opens the text first: see
    # test_browser_glance.py).
    bea.locator("#hand .card").first.hover()
    assert bea.locator("#card-detail h4").first.inner_text()
    bea.keyboard.press("Escape")

    play_until([ann, bea], random.Random(3), lambda: over(ann) and over(bea))
    ann.wait_for_selector("#game-summary")
    no_sideways_scroll(ann)
    code = invite.rstrip("/").rsplit("/", 1)[-1]
    with server.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    assert check_frames(record, 0, ann_frames) > 10
    assert check_frames(record, 1, bea_frames) > 10

    # The finished game replays step by step, as any seat saw it.
    ann.click("#replay-link")
    ann.wait_for_selector("#replay-step")
    ann.click("#replay-next")
    expect(ann.locator("#replay-step")).to_contain_text("Answer 1 of")
    ann.click("#replay-next")
    expect(ann.locator("#replay-step")).to_contain_text("Answer 2 of")
    assert ann.locator("#hand").count() == 0  # a spectator's replay shows no hand
    ann.select_option("#view-as", "1")
    ann.wait_for_selector("#hand .card")
    ann.click("#replay-prev")
    expect(ann.locator("#replay-step")).to_contain_text("Answer 1 of")
    assert not errors, errors


def test_the_server_is_killed_mid_game_and_resumes(browser: Any, server: ServerProcess):
    errors: list[str] = []
    config = {"players": 4, "gold_per_player": 8, "ending": {"gambits": 2}}
    with server.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann"], bots=3)
    page = new_page(browser, errors, {"width": 1200, "height": 900})
    page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector(".board")
    rng = random.Random(5)
    play_until([page], rng, lambda: http_step(server, code) >= 8)
    hand_before = page.locator("#hand .card").count()

    server.kill()
    page.wait_for_selector(".banner:not([hidden])")
    with_db = ServerProcess(server.db, port=server.port, bot_delay=server.bot_delay).start()
    try:
        step = http_step(with_db, code)
        assert step >= 8
        page.wait_for_selector(".banner", state="hidden", timeout=30000)
        assert page.locator("#playing-as").count() == 1  # the seat came back with the page
        assert page.locator("#hand .card").count() >= min(hand_before, 1)
        play_until([page], rng, lambda: over(page))
        with with_db.http() as http:
            record = http.get(f"/api/games/{code}/record").json()
        assert len(record["answers"]) > step
        assert digest(replay(record_from_dict(record))) == record["final_digest"]
    finally:
        with_db.stop()
    assert not errors, errors


def http_step(server: ServerProcess, code: str) -> int:
    with server.http() as http:
        step: int = http.get(f"/api/tables/{code}").json()["step"]
        return step


HOSTILE = """
async ({url, own, other, decision}) => {
  const open = (token) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    const got = [];
    let closed = null;
    ws.onmessage = (e) => got.push(JSON.parse(e.data));
    ws.onclose = (e) => { closed = e.code; };
    ws.onopen = () => {
      ws.send(JSON.stringify({type: "hello", token}));
      resolve({ws, got, closedCode: () => closed});
    };
  });
  const settle = () => new Promise((r) => setTimeout(r, 400));
  const out = {};
  const forged = await open("forged-token");
  await settle();
  out.forged = [forged.got.map((m) => m.code).filter(Boolean), forged.closedCode()];
  const bob = await open(other);
  await settle();
  bob.ws.send(JSON.stringify({type: "answer", decision, answer: 0}));
  bob.ws.send("{{{ not json");
  bob.ws.send(JSON.stringify({type: "answer", decision: "x", answer: []}));
  bob.ws.send(JSON.stringify({type: "ping", pad: "x".repeat(5000)}));
  await settle();
  out.bob = bob.got.filter((m) => m.type === "error").map((m) => m.code);
  const huge = await open(own);
  await settle();
  huge.ws.send("x".repeat(200000));
  await settle();
  out.huge = huge.closedCode();
  return out;
}
"""


def test_hostile_messages_from_a_page_are_refused(browser: Any, server: ServerProcess):
    errors: list[str] = []
    config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
    with server.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann", "Bob"], bots=1)
    page = new_page(browser, errors)
    page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector("#question")
    decision = int(page.get_attribute("#question", "data-decision") or -1)
    url = f"ws://127.0.0.1:{server.port}/ws/{code}"
    out = page.evaluate(
        HOSTILE, {"url": url, "own": tokens[0], "other": tokens[1], "decision": decision}
    )
    assert out["forged"] == [["bad_token"], 4401]
    assert out["bob"] == ["not_your_turn", "malformed", "bad_field", "too_large"]
    # Closed as too big.  Uncompressed (``serve``'s default), the server refuses
    # the frame from its header and closes while the browser is still sending
    # it, so the browser may see the reset (1006) before the close frame (1009).
    assert out["huge"] in (1009, 1006)
    assert http_step(server, code) == 0  # nothing changed
    # The page itself still plays: its answer is accepted (everyone antes at
    # once: the card is this seat's, face down, until Bob chooses too).
    page.locator("#question .answer").first.click()
    expect(page.locator("#face-down-note")).to_contain_text("Your ante card, face down")
    expect(page.locator(f'#question[data-decision="{decision}"] .answer.chosen')).to_have_count(1)
    assert http_step(server, code) == 0
    assert not errors, errors


def test_the_table_speaks_italian(browser: Any, server: ServerProcess):
    errors: list[str] = []
    config = {"players": 2, "gold_per_player": 8}
    with server.http() as http:
        code, tokens, _host = make_table(http, config, ["Ann"], bots=1)
    page = new_page(browser, errors)
    page.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    page.wait_for_selector("#question")
    assert "draws" in page.inner_text("#log")
    page.select_option("#lang-select", "it")
    expect(page.locator("#log")).to_contain_text("pesca")
    assert "Tocca a te" in page.inner_text("#question")
    assert "Tesoro" in page.inner_text("#seats")
    page.reload()
    page.wait_for_selector("#question")
    assert "Tocca a te" in page.inner_text("#question")  # the choice is remembered
    no_sideways_scroll(page)
    assert not errors, errors


def test_lobby_options_and_reopening_the_page(browser: Any, server: ServerProcess):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.base + "/")
    page.click("#create-box summary")  # the full options, folded under Quick play
    page.select_option("#f-ruleset", "emperors_gambit")
    page.select_option("#f-players", "3")
    page.select_option("#f-selection", "agreed")
    page.click("details.forced summary")
    page.check("input[name='forced:L-mor-druid']")
    page.fill("#f-name", "Ann")
    page.click("#create")
    # "Agreed" needs exactly ten specials: a clear error, and no table.
    expect(page.locator("#create-form .error")).to_contain_text("exactly 10")
    with server.http() as http:
        assert http.get("/api/tables").json()["open"] == []

    page.select_option("#f-selection", "pick_em")
    page.check("#f-reveal_specials")
    page.check("#f-unlisted")  # invite only: the lobby does not list it
    # Every rule switch, preset by the ruleset (issue 21: the hole in the house).
    page.click("#rules-box summary")
    expect(page.locator("#f-rule\\:ante_redo")).to_have_value("all_tied_for_strongest")
    page.select_option("#f-rule\\:hole_recipient", "house")
    page.click("#create")
    page.wait_for_selector("#seating")
    code = page.inner_text("#table-code")
    expect(page.locator("#unlisted")).to_be_checked()
    with server.http() as http:
        assert http.get("/api/tables").json()["open"] == []
        page.uncheck("#unlisted")  # the host lists it after all
        expect(page.locator("#unlisted")).not_to_be_checked()
        deadline = time.monotonic() + 10
        while not http.get("/api/tables").json()["open"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [t["code"] for t in http.get("/api/tables").json()["open"]] == [code]
        config = http.get(f"/api/tables/{code}").json()["config"]
    assert config["players"] == 3 and config["rules"]["ruleset"] == "emperors_gambit"
    assert config["deck"]["selection"] == "pick_em" and config["deck"]["reveal_specials"]
    assert config["deck"]["forced_includes"] == ["L-mor-druid"]
    assert config["rules"]["hole_recipient"] == "house"
    assert config["rules"]["ante_redo"] == "all_tied_for_strongest"

    page.click("#fill-bots")
    page.click("#start:not([disabled])")
    page.wait_for_selector("#question[data-kind=pick_special]")
    page.locator("#question .answer").first.click()

    # Closing the page and opening the table's plain link takes the seat back.
    context = page.context
    page.close()
    again = context.new_page()
    again.on("pageerror", lambda e: errors.append(str(e)))
    again.goto(f"{server.base}/t/{code}")
    again.wait_for_selector("#playing-as")
    assert "Ann" in again.inner_text("#playing-as")
    again.wait_for_selector("#hand .card")
    assert not errors, errors


def test_abilities_in_the_lobby_at_the_table_and_for_the_game_master(
    browser: Any, server: ServerProcess
):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.base + "/")
    page.click("#create-box summary")  # the full options, folded under Quick play
    # A bad combination is a clear error, never a traceback.
    page.select_option("#f-ab_system", "skills")
    page.select_option("#f-players", "6")
    page.select_option("#f-ab_per_character", "3")
    page.click("#create")
    expect(page.locator("#create-form .error")).to_contain_text("special abilities are needed")

    # Legendary disks, drafted, hidden (the book's default), playing for fun.
    page.select_option("#f-players", "4")
    page.select_option("#f-ab_system", "disks")
    page.select_option("#f-ab_assign", "draft")
    page.select_option("#f-ab_per_character", "2")
    page.check("#f-play_for_fun")
    assert page.input_value("#f-gold_per_player") == "8"
    page.fill("#f-name", "Ann")
    page.click("#create")
    page.wait_for_selector("#seating")
    code = page.inner_text("#table-code")
    expect(page.locator("#abilities-info")).to_be_visible()
    # Ann created the table and plays: no game-master link for her (it would
    # show every opponent's hidden abilities), none kept in her browser.
    expect(page.locator("#playing-as")).to_be_visible()
    assert page.locator("#gm-link").count() == 0
    assert page.evaluate(f"localStorage.getItem('dragonante.gm.{code}')") is None
    with server.http() as http:
        summary = http.get(f"/api/tables/{code}").json()
        listed = http.get("/api/tables").json()["open"]
    assert summary["starting_gold"] == 32 and summary["abilities"]["assign"] == "draft"
    assert [t["abilities"]["system"] for t in listed if t["code"] == code] == ["disks"]

    page.click("#fill-bots")
    page.click("#start:not([disabled])")
    # The draft asks Ann first: every option shows its rule text.
    page.wait_for_selector("#question[data-kind=draft_ability]")
    details = page.locator("#question .answer .answer-detail")
    assert details.count() == 12
    assert all(len(details.nth(i).inner_text()) > 20 for i in range(details.count()))
    no_sideways_scroll(page)
    page.locator("#question .answer").first.click()
    page.wait_for_selector("#question[data-kind=draft_ability]")
    page.locator("#question .answer").first.click()

    # Ann's two abilities, with their text on focus; the others' are hidden.
    mine = page.locator(".seat.me .abilities .ability")
    expect(mine).to_have_count(2)
    mine.first.locator(".ability-name").focus()
    expect(mine.first.locator(".ability-text")).to_be_visible()
    expect(page.locator(".seat.me .tag.disk")).to_have_attribute("data-disk", "ready")
    expect(page.locator(".seat:not(.me) .hidden-count").first).to_contain_text("2 hidden")

    # The game-master view, of a table whose creator sits nowhere (the
    # creator's page offers the link): every character's abilities, no hand,
    # no questions.
    creator = new_page(browser, errors)
    creator.goto(server.base + "/")
    creator.click("#create-box summary")  # the full options, folded under Quick play
    creator.select_option("#f-players", "4")
    creator.select_option("#f-ab_system", "disks")
    creator.select_option("#f-ab_assign", "random")
    creator.select_option("#f-ab_per_character", "2")
    creator.fill("#f-name", "")
    creator.click("#create")
    creator.wait_for_selector("#seating")
    gm_href = creator.get_attribute("#gm-link", "href")
    other = creator.inner_text("#table-code")
    assert gm_href and f"/t/{other}#gm=" in gm_href
    creator.click("#fill-bots")
    creator.click("#start:not([disabled])")
    gm = new_page(browser, errors)
    gm.goto(gm_href)
    gm.wait_for_selector("#gm-view")
    expect(gm.locator(".seat .abilities .ability")).to_have_count(8)
    assert gm.locator("#hand").count() == 0 and gm.locator("#question").count() == 0
    assert gm.locator(".hidden-count").count() == 0
    assert not errors, errors


def test_an_away_seat_is_handed_to_a_bot_from_the_page(browser: Any, tmp_path: Path):
    """Bob never comes: after --away-after Ann's page offers to let a bot play
    for him; one click hands the seat over (announced, no hidden card in any
    frame); Bob opening his link takes it back."""
    from tests.web.leaks import check_handover_frames

    server = ServerProcess(tmp_path / "away.sqlite3", args=("--away-after", "1")).start()
    try:
        with server.http() as http:
            code, tokens, _host = make_table(
                http, {"players": 3, "gold_per_player": 8}, ["Ann", "Bob"], bots=1
            )
        errors: list[str] = []
        ann = new_page(browser, errors)
        frames = record_frames(ann)
        ann.goto(f"{server.base}/t/{code}#token={tokens[0]}")
        button = ann.locator('#away .hand-to-bot[data-seat="1"]')
        expect(button).to_be_visible(timeout=15000)
        button.click()
        expect(ann.locator('#away li.handed[data-seat="1"]')).to_be_visible()
        expect(ann.locator("#toast")).to_contain_text("Bob")
        assert check_handover_frames(frames, 3) == 1
        bob = new_page(browser, errors)
        bob.goto(f"{server.base}/t/{code}#token={tokens[1]}")
        bob.wait_for_selector("#playing-as")
        expect(ann.locator("#away")).to_have_count(0)
        assert check_handover_frames(frames, 3) == 2
        assert errors == []
    finally:
        server.stop()


def test_the_limits_refuse_clearly_in_the_page(browser: Any, tmp_path: Path):
    """What the abuse limits look like to a person: a table that nobody starts
    expires before the page's eyes; the third table in a row is refused in
    the lobby in the page's language, with the wait the server asks for, and
    no table is made; past the sockets allowed to one address a page says so
    in its banner, and the pages already open go on working."""
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE)
    context.add_init_script("localStorage.setItem('dragonante.lang', 'it');")
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def create(server: ServerProcess) -> str | None:
        page.goto(server.base + "/")
        page.click("#create-box summary")  # the full options, folded under Quick play
        page.fill("#f-name", "Ann")
        page.click("#create")
        made = page.locator("#seating")
        refused = page.locator("#create-form .error:not([hidden])")
        expect(made.or_(refused)).to_be_visible()
        return page.inner_text("#table-code") if made.count() else None

    expiring = ServerProcess(tmp_path / "ttl.sqlite3", args=("--open-table-ttl", "3")).start()
    try:  # a table nobody starts: it expires while its page is open
        assert create(expiring) is not None
        expect(page.locator("#table-gone")).to_contain_text("scaduto", timeout=20000)
    finally:
        expiring.stop()

    server = ServerProcess(
        tmp_path / "limits.sqlite3", args=("--limit-tables", "2", "--limit-sockets", "4")
    ).start()
    try:
        first, second = create(server), create(server)
        assert first and second and first != second
        assert create(server) is None  # the third within the window: refused
        error = page.locator("#create-form .error")
        expect(error).to_contain_text("Troppe richieste")  # in the page's language
        assert re.search(r"riprova tra \d+ s", error.inner_text()), error.inner_text()
        with server.http() as http:
            listed = {t["code"] for t in http.get("/api/tables").json()["open"]}
        assert listed == {first, second}

        # Sockets: the host's page of the second table holds one; spectators
        # open more until the address has used its allowance.
        page.goto(f"{server.base}/t/{second}")
        page.wait_for_selector("#seating")
        refused = None
        for _ in range(6):
            watcher = new_page(browser, errors)
            watcher.goto(f"{server.base}/t/{second}")
            try:
                banner = watcher.locator(".banner")
                expect(banner).to_contain_text("Too many requests", timeout=4000)
            except AssertionError:
                continue
            refused = watcher
            break
        assert refused is not None, "no page was refused a socket"
        # The page already connected still works: the host seats the bots.
        page.click("#fill-bots")
        expect(page.locator("#start:not([disabled])")).to_be_visible()
        assert errors == []
    finally:
        server.stop()


def test_a_bot_move_the_database_refuses_is_told_in_each_page_language(
    browser: Any, server: ServerProcess
):
    """Issue 32, hole 4: a bot's answer the database refused left the table
    waiting with no word.  Now each page says so in its language (a toast and
    a line in the chat), and again when the move is saved; the game goes on."""
    from sqlalchemy import create_engine, text

    from dragonante.interfaces.web.storage.db import database_url

    errors: list[str] = []
    with server.http() as http:
        config = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}
        code, tokens, host = make_table(http, config, ["Ann", "Bea"], bots=1, start=False)
    engine = create_engine(database_url(str(server.db)))
    with engine.begin() as c:  # the database refuses the bot's (seat 2's) answers
        c.execute(
            text(
                "CREATE TRIGGER refuse_bot BEFORE INSERT ON answers "
                # past the first ante (chosen face down by all at once, stored at
                # the reveal): a bot's answer of its own turn is refused
                f"WHEN NEW.table_code = '{code}' AND NEW.seat = 2 AND NEW.n >= 3 "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        )
    ann, bea = new_page(browser, errors), new_page(browser, errors)
    ann.goto(f"{server.base}/t/{code}#token={tokens[0]}")
    bea.goto(f"{server.base}/t/{code}#token={tokens[1]}")
    for page in (ann, bea):
        page.wait_for_selector("#seating")
    bea.select_option("#lang-select", "it")
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200
    rng = random.Random(4)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and "could not save" not in ann.inner_text("#chat-list"):
            for page in (ann, bea):
                answer_if_asked(page, rng)
            time.sleep(0.1)
        expect(ann.locator("#chat-list")).to_contain_text("could not save")
        expect(ann.locator("#chat-list")).to_contain_text("the table waits", ignore_case=True)
        expect(bea.locator("#chat-list")).to_contain_text("non è riuscito a salvare")
        time.sleep(2.5)  # retried every second, told once
        assert ann.inner_text("#chat-list").count("could not save") == 1
    finally:
        with engine.begin() as c:
            c.execute(text("DROP TRIGGER IF EXISTS refuse_bot"))
        engine.dispose()
    expect(ann.locator("#chat-list")).to_contain_text("is saved now", timeout=10000)
    expect(bea.locator("#chat-list")).to_contain_text("ora è salvata", timeout=10000)
    play_until([ann, bea], rng, lambda: over(ann))
    assert not errors, errors
