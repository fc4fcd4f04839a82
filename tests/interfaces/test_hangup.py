"""A game survives its terminal going away (issue 32, section 6).

Closing the window or losing an SSH connection sends SIGHUP, which used to
end ``play`` on the spot with the game lost; ``q`` and Ctrl-C saved it.
Now both tables save as ``q`` would and leave with 129.  ``--record`` is
also checked before the game starts, not at the first answer.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dragonante.engine.records import loads
from dragonante.interfaces.hangup import EXIT_HANGUP
from tests.interfaces.conftest import Cli, assert_one_line_error
from tests.interfaces.tui.helpers import make_app, settle

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")


def test_the_plain_prompts_save_the_record_when_the_terminal_hangs_up(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    cmd = [sys.executable, "-c", "from dragonante.interfaces.cli import main; main()", "play"]
    cmd += ["--plain", "--players", "2", "--seed", "5", "--record", str(record)]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("1\n")  # the ante: one answer given, then the terminal goes away
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert record.exists(), "the first answer was never saved"
    time.sleep(0.3)  # at the next question, blocked reading the terminal
    proc.send_signal(signal.SIGHUP)
    code = proc.wait(30)
    assert code == EXIT_HANGUP
    saved = loads(record.read_text(encoding="utf-8"))
    assert len(saved.answers) >= 1


def test_the_full_screen_table_saves_a_game_in_progress_on_hang_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def run() -> None:
        app = make_app(2, 3)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert not app.game.over
            app.hang_up()
            assert app.return_value == EXIT_HANGUP
        assert app.saved_to is not None and app.saved_to.exists()
        assert loads(app.saved_to.read_text(encoding="utf-8")).seed == 3

    asyncio.run(run())


def test_the_hang_up_handler_is_installed_in_the_table_loop() -> None:
    """``on_hangup_in_loop`` reaches the callback through the loop (a real signal)."""
    from dragonante.interfaces.hangup import on_hangup_in_loop

    seen: list[bool] = []

    async def run() -> None:
        assert on_hangup_in_loop(lambda: seen.append(True))
        os.kill(os.getpid(), signal.SIGHUP)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        asyncio.get_running_loop().remove_signal_handler(signal.SIGHUP)

    asyncio.run(run())
    assert seen == [True]


def test_a_record_in_a_missing_folder_is_refused_before_the_game(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "game.json"
    r = cli(["play", "--plain", "--players", "2", "--record", str(path)], "1\n")
    assert_one_line_error(r, str(path), "does not exist")
    assert "Gambit 1" not in r.out


def test_a_record_that_is_a_folder_is_refused_before_the_game(cli: Cli, tmp_path: Path) -> None:
    r = cli(["play", "--plain", "--players", "2", "--record", str(tmp_path)], "1\n")
    assert_one_line_error(r, "folder")
