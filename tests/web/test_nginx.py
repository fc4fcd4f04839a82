"""The production recipe: ``docs/nginx/dragonante.conf`` in front of the server.

``docs/security.md`` ("Behind nginx") tells people to run that file as it
is, with five lines changed; this test renders exactly those lines (its
port, a self-signed certificate made here with ``openssl``, the upstream
processes), starts Debian's nginx with it and plays a short game through it
over ``wss``.  Oversized headers must get nginx's 400 or 414 (never reach the
server).  With PostgreSQL two ``serve --affinity`` processes stand behind it
and the table must be served by one of them without a single relayed frame
(nginx's hash of the code routes it); without PostgreSQL one SQLite process.

Skipped, saying why, when nginx or openssl is not installed
(``tools/test_services.sh`` installs nginx as root, as it does Chromium and
PostgreSQL).
"""

from __future__ import annotations

import random
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import httpx
import pytest

from dragonante.engine.records import digest, record_from_dict, replay
from tests.web.helpers import Seat, free_port, make_table, play
from tests.web.leaks import check_frames
from tests.web.pg import PG_URL, fresh_schema
from tests.web.test_multiprocess import Server

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
OPENSSL = shutil.which("openssl") or ""
RECIPE = Path(__file__).resolve().parents[2] / "docs" / "nginx" / "dragonante.conf"
CONFIG = {"players": 3, "gold_per_player": 8, "ending": {"gambits": 1}}

pytestmark = pytest.mark.skipif(
    not NGINX or not OPENSSL,
    reason="nginx and openssl are needed (apt-get install nginx openssl; "
    "tools/test_services.sh installs nginx as root)",
)


def render(recipe: str, port: int, cert: Path, key: Path, upstreams: list[int]) -> str:
    """The recipe with its five EDIT lines filled in; every one must be found
    exactly once, so the doc and this test cannot drift apart."""
    edits = {
        "    listen 443 ssl;  # EDIT: the address and port people reach\n": (
            f"    listen 127.0.0.1:{port} ssl;\n"
        ),
        "    server_name example.org;  # EDIT\n": "    server_name localhost;\n",
        "    ssl_certificate /etc/letsencrypt/live/example.org/fullchain.pem;  # EDIT\n": (
            f"    ssl_certificate {cert};\n"
        ),
        "    ssl_certificate_key /etc/letsencrypt/live/example.org/privkey.pem;  # EDIT\n": (
            f"    ssl_certificate_key {key};\n"
        ),
        "    server 127.0.0.1:8000;  # EDIT: one line per `serve --affinity --port N` process\n": (
            "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
        ),
    }
    for line, filled in edits.items():
        assert recipe.count(line) == 1, f"the recipe no longer has: {line.strip()}"
        recipe = recipe.replace(line, filled)
    assert "EDIT" not in recipe.replace("marked EDIT", "")
    return recipe


class Nginx:
    """Debian's nginx in the foreground, with its files under ``root``."""

    def __init__(self, root: Path, upstreams: list[int]) -> None:
        self.port = free_port()
        self.cert, self.key = root / "cert.pem", root / "key.pem"
        subprocess.run(
            [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-keyout", str(self.key), "-out", str(self.cert), "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost"],
            check=True, capture_output=True,
        )  # fmt: skip
        site = root / "dragonante.conf"
        site.write_text(render(RECIPE.read_text(), self.port, self.cert, self.key, upstreams))
        temp = root / "temp"
        temp.mkdir()
        temp.chmod(0o777)  # nginx's workers run unprivileged
        paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        main = root / "nginx.conf"
        main.write_text(
            f"pid {root / 'nginx.pid'};\nerror_log {root / 'error.log'} warn;\n"
            "worker_processes 1;\nevents { worker_connections 512; }\n"
            f"http {{\n    access_log off;\n{paths}\n    include {site};\n}}\n"
        )
        check = subprocess.run([NGINX, "-t", "-p", str(root), "-c", str(main)], capture_output=True)
        assert check.returncode == 0, check.stderr.decode()
        self.root = root
        self.proc = subprocess.Popen(
            [NGINX, "-p", str(root), "-c", str(main), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
                time.sleep(0.05)
        self.base = f"https://localhost:{self.port}"
        self.ws_base = f"wss://localhost:{self.port}"

    def http(self) -> httpx.Client:
        trust = ssl.create_default_context(cafile=str(self.cert))
        return httpx.Client(base_url=self.base, timeout=20, verify=trust)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


@pytest.fixture(scope="module")
def behind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Nginx, list[Server]]]:
    """The servers (two ``--affinity`` processes on PostgreSQL, else one on
    SQLite) and nginx in front of them, rendered from the recipe."""
    sqlite = str(tmp_path_factory.mktemp("nginx-db") / "web.sqlite3")
    with fresh_schema("nginx") if PG_URL else nullcontext(sqlite) as db:
        trust = ("--trusted-proxy", "127.0.0.1")
        servers = (
            [Server(db, "--affinity", *trust), Server(db, "--affinity", *trust)]
            if PG_URL
            else [Server(db, *trust)]
        )
        proxy = None
        try:
            for s in servers:
                s.wait_up()
            proxy = Nginx(tmp_path_factory.mktemp("nginx"), [s.port for s in servers])
            yield proxy, servers
        finally:
            if proxy is not None:
                proxy.stop()
            for s in servers:
                s.stop()


def stats(server: Server) -> dict[str, Any]:
    with server.http() as http:
        got: dict[str, Any] = http.get("/api/stats").json()
        return got


def test_a_game_through_the_nginx_recipe_over_wss(
    behind: tuple[Nginx, list[Server]], monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy, servers = behind
    monkeypatch.setenv("SSL_CERT_FILE", str(proxy.cert))  # the sockets trust our certificate
    with proxy.http() as http:
        page = http.get("/")
        assert page.status_code == 200 and page.headers["content-security-policy"]
        code, tokens, _host = make_table(http, CONFIG, ["Ann", "Bob"], bots=1)
        # The server counted the client nginx forwarded (--trusted-proxy), not nginx.
        assert http.get(f"/api/tables/{code}").json()["status"] == "playing"
    seats = [Seat(proxy, code, t) for t in tokens]  # type: ignore[arg-type]
    watcher = Seat(proxy, code, None)  # type: ignore[arg-type]
    assert seats[0].ws.request is not None
    play(seats, random.Random(11), timeout=60)
    watcher.wait_over(20)
    with proxy.http() as http:
        record = http.get(f"/api/games/{code}/record").json()
    assert digest(replay(record_from_dict(record))) == record["final_digest"]
    for seat, frames in ((0, seats[0].frames), (1, seats[1].frames), (None, watcher.frames)):
        assert check_frames(record, seat, frames) > 5
    for s in (*seats, watcher):
        s.close()
    if len(servers) > 1:
        # nginx's hash of the code sent every request and socket of the table
        # to one process: it moved there at most once and nothing was relayed.
        clusters = [stats(s)["cluster"] for s in servers]
        assert sum(c["moved_in"] for c in clusters) <= 1
        assert all(c["relayed_in"] == 0 and c["relayed_out"] == 0 for c in clusters)


def test_nginx_refuses_oversized_headers_before_the_server_sees_them(
    behind: tuple[Nginx, list[Server]],
) -> None:
    proxy, servers = behind
    before = [stats(s).get("refused", {}) for s in servers]
    with proxy.http() as http:
        r = http.get("/api/meta", headers={"X-Big": "a" * 20_000})
        assert r.status_code in (400, 431), r.status_code
        r = http.get("/api/tables/" + "A" * 20_000)
        assert r.status_code in (400, 414), r.status_code
        many = {f"X-H{i}": "b" * 4000 for i in range(12)}  # 48 KB of headers in all
        assert http.get("/api/meta", headers=many).status_code in (400, 431)
        big = http.post("/api/tables", content=b"{" + b" " * 40_000 + b"}")
        assert big.status_code == 413
        assert http.get("/api/meta").status_code == 200  # and the proxy still serves
    assert [stats(s).get("refused", {}) for s in servers] == before


def test_nginx_closes_a_request_whose_headers_never_end(
    behind: tuple[Nginx, list[Server]],
) -> None:
    """A header line every few seconds, never the blank line: nginx closes the
    connection at its ``client_header_timeout`` (10 s), whatever trickles in."""
    proxy, _ = behind
    trust = ssl.create_default_context(cafile=str(proxy.cert))
    with (
        socket.create_connection(("127.0.0.1", proxy.port), timeout=20) as raw,
        trust.wrap_socket(raw, server_hostname="localhost") as tls,
    ):
        started = time.monotonic()
        tls.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n")
        got = b""
        while time.monotonic() - started < 20:
            try:
                tls.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            tls.settimeout(3)
            try:
                chunk = tls.recv(4096)
            except TimeoutError:
                continue
            except (OSError, ssl.SSLError):
                break
            if not chunk:
                break
            got += chunk
        took = time.monotonic() - started
    assert 8 <= took < 16, took
    assert not got or got.startswith(b"HTTP/1.1 408")
