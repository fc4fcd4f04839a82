"""Every HTTP response carries the security headers, and serving one leaves no
reference cycle behind (``web/http/headers.py``)."""

from __future__ import annotations

import asyncio
import gc

from dragonante.interfaces.web.http.headers import CSP
from tests.web.helpers import LiveServer

JSON = {"content-type": "application/json"}

SECURITY = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def test_every_response_carries_the_security_headers(server: LiveServer):
    with server.http() as http:
        responses = [
            http.get("/"),
            http.get("/t/ABCDEF"),
            http.get("/api/meta"),
            http.get("/api/cards"),  # sets its own Cache-Control: kept
            http.get("/static/js/main.js"),
            http.get("/api/tables/NOSUCH"),  # an error answer
            http.post(
                "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
            ),
            http.get("/no/such/page"),
        ]
    for r in responses:
        for name, value in SECURITY.items():
            assert r.headers.get_list(name) == [value], (r.url, name)
    assert [r.status_code for r in responses[5:]] == [404, 400, 404]
    assert responses[3].headers["cache-control"] == "public, max-age=3600"
    assert responses[4].headers.get_list("cache-control") == ["no-cache"]
    assert "cache-control" not in responses[2].headers


def test_requests_leave_no_reference_cycle_behind(server: LiveServer):
    """The server freezes what survives full collections, so a cycle per request
    would pile up until the longest pause there is (``stats.GcWatch``).
    Starlette's ``@app.middleware("http")`` left one per request (an anyio
    task group, its cancel scope, a cancelled error with its traceback)."""
    with server.http() as http:
        http.get("/api/meta")
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(5):
                assert http.get("/api/meta").status_code == 200
                # requests with a body were the ones that left a cycle
                assert http.post("/api/tables", content=b"{x", headers=JSON).status_code == 400
                r = http.post("/api/tables/NOSUCH/seats", json={"name": "Ann", "seat": 0})
                assert r.status_code == 404
            gc.collect()
            server_side = [
                f"{type(o).__module__}.{type(o).__qualname__}"
                for o in gc.garbage
                if type(o).__module__.split(".")[0] in ("anyio", "starlette", "fastapi")
                or isinstance(o, asyncio.CancelledError)
            ]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert server_side == []
