"""Running the ``dragonante`` command in-process with a scripted stdin."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, Protocol

import pytest

from dragonante.interfaces.cli import main


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err


class Cli(Protocol):
    def __call__(self, args: list[str], stdin: Any = "") -> Result: ...


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    """``cli(args, stdin)``: run the command, return its exit code, stdout and stderr.

    ``stdin`` is text, or any object with ``readline`` (to script Ctrl-C).
    """

    def run(args: list[str], stdin: Any = "") -> Result:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin) if isinstance(stdin, str) else stdin)
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        out, err = capsys.readouterr()
        code = exit_info.value.code
        return Result(code if isinstance(code, int) else 0, out, err)

    return run


def assert_one_line_error(result: Result, *fragments: str) -> None:
    """A user error: exit code 2, exactly one line on stderr, no traceback."""
    assert result.code == 2, (result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    # "errore: " when the command speaks Italian (--lang it)
    assert lines[0].startswith(("error: ", "errore: ")), result.err
    assert "Traceback" not in result.err + result.out
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


Check = Callable[[Result], None]
