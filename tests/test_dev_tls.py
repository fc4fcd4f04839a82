"""``./dev`` behind a proxy that inspects TLS (issue 32, section 6).

There the first ``./dev play`` failed inside uv ("invalid peer certificate:
UnknownIssuer") while pip worked: uv trusts its own certificate bundle, pip
the system's.  ``./dev`` now tries once more with the system's store
(``UV_SYSTEM_CERTS=1``, and ``UV_NATIVE_TLS=1``, its name before uv 0.11's
rename, for an older uv) and, if that fails too, says in one line what to do.
A stand-in ``uv`` on the PATH plays such a network: it refuses every
install unless asked to use the system's certificates by the name its
version knows.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAKE_UV = r"""#!/bin/sh
case " $* " in
  *" --check "*) exit 1 ;;
  *" sync "*)
    eval "asked=\${$FAKE_UV_KNOWS:-}"
    if [ "$asked" = 1 ] && [ -z "${FAKE_UV_ALWAYS_FAIL:-}" ]; then exit 0; fi
    echo "error: invalid peer certificate: UnknownIssuer" >&2; exit 2 ;;
  *" run "*) echo "ran dragonante"; exit 0 ;;
esac
exit 3
"""


def _dev(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    uv = bin_dir / "uv"
    uv.write_text(FAKE_UV)
    uv.chmod(0o755)
    environ = {k: v for k, v in os.environ.items() if not k.startswith("UV_")}
    environ["PATH"] = f"{bin_dir}:{environ['PATH']}"
    environ.update(env)
    return subprocess.run(
        [str(ROOT / "dev"), "run", "--version"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("knows", ["UV_SYSTEM_CERTS", "UV_NATIVE_TLS"])
def test_a_failed_install_is_tried_again_with_the_systems_certificates(
    tmp_path: Path, knows: str
) -> None:
    """By today's uv's name for it and by an older uv's."""
    r = _dev(tmp_path, FAKE_UV_KNOWS=knows)
    assert r.returncode == 0, r.stderr
    assert "system's certificates (UV_SYSTEM_CERTS=1)" in r.stderr
    assert "ran dragonante" in r.stdout


def test_when_both_fail_one_line_says_what_to_do(tmp_path: Path) -> None:
    r = _dev(tmp_path, FAKE_UV_KNOWS="UV_SYSTEM_CERTS", FAKE_UV_ALWAYS_FAIL="1")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("dev: installing")
    assert "UV_SYSTEM_CERTS=1" in last and "certificate" in last


def test_a_choice_of_certificates_already_made_is_not_overridden(tmp_path: Path) -> None:
    r = _dev(tmp_path, FAKE_UV_KNOWS="UV_SYSTEM_CERTS", UV_SYSTEM_CERTS="0")
    assert r.returncode == 1
    assert "trying again" not in r.stderr
