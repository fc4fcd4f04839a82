"""The lobby API fuzzed from its OpenAPI schema (schemathesis), in process over ASGI.

``/api/openapi.json`` (``web/http/openapi.py``) says every operation, its body
and every refusal it may answer with.  schemathesis generates requests
from it, valid and invalid (wrong types, missing and extra fields, odd
strings, out-of-range numbers), a bounded number per operation, and
checks each answer: never a 500, always a status the schema documents,
with the documented body (``{"error", "detail"}`` for every refusal).
Requests that name a table name a real one about a third of the time
(an open table, or a finished game) and carry its host token some of the
time, so the fuzzer gets past "no such table" to the fields themselves.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from dragonante.interfaces.web.http.app import create_app
from dragonante.interfaces.web.http.openapi import schema as openapi_schema
from dragonante.interfaces.web.hub import Settings

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


#: The app under test: made at import (cheap: nothing runs until its
#: lifespan, which schemathesis's ASGI client starts on the first request).
APP = create_app(
    str(Path(tempfile.mkdtemp(prefix="dragonante-fuzz-")) / "web.sqlite3"),
    Settings(bot_delay=0, refreeze=False, young_threshold=None, full_every=None),
)
schema = schemathesis.openapi.from_dict(openapi_schema())
schema.app = APP


def call(method: str, path: str, **kw: Any) -> Any:
    return schema[path][method].Case(**kw).call(app=APP)


@pytest.fixture(scope="module")
def api() -> dict[str, Any]:
    """A few real tables to aim at: an open one and a finished game."""
    made = call("POST", "/api/tables", body={"config": {"players": 3}}).json()
    opened, host = made["code"], made["host_token"]
    call("POST", "/api/tables/{code}/seats", path_parameters={"code": opened}, body={"name": "Ann"})
    game = call("POST", "/api/tables", body={"config": {"players": 2, "ending": {"gambits": 1}}})
    done, done_host = game.json()["code"], game.json()["host_token"]
    auth = {"Authorization": f"Bearer {done_host}"}
    call(
        "POST",
        "/api/tables/{code}/bots",
        path_parameters={"code": done},
        headers=auth,
        body={"fill": True, "level": "random"},
    )
    call("POST", "/api/tables/{code}/start", path_parameters={"code": done}, headers=auth)
    deadline = time.monotonic() + 30
    while (
        call("GET", "/api/tables/{code}", path_parameters={"code": done}).json()["status"]
        != "finished"
    ):
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    return {"codes": (opened, done), "tokens": (host, done_host)}


@schema.parametrize()
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_the_api_never_fails_and_refuses_only_as_documented(case: Any, api: dict[str, Any]):
    params = case.path_parameters or {}
    if "code" in params:
        pick = len(str(params["code"])) % 3
        if pick < 2:  # a real table two times in three
            params["code"] = api["codes"][pick]
            if isinstance(case.headers, dict) and "Authorization" in case.headers:
                case.headers["Authorization"] = f"Bearer {api['tokens'][pick]}"
    response = case.call(app=APP)
    case.validate_response(response, checks=CHECKS)


def test_the_schema_names_every_api_route():
    """Every ``/api`` route of the app is in the schema (a new one must be documented)."""

    def flat(routes: list[Any]) -> list[Any]:
        # The app includes one router per concern; FastAPI keeps an included
        # router as one entry holding the router's own routes.
        out = []
        for r in routes:
            inner = getattr(r, "original_router", None)
            out += flat(list(inner.routes)) if inner is not None else [r]
        return out

    routes = {
        (getattr(r, "path", ""), m.lower())
        for r in flat(list(APP.routes))
        for m in getattr(r, "methods", None) or ()
        if getattr(r, "path", "").startswith("/api/") and m != "HEAD"
    }
    assert len(routes) > 15  # the routers' routes were found
    documented = {(p, m) for p, ops in openapi_schema()["paths"].items() for m in ops}
    assert routes - {("/api/openapi.json", "get")} == documented
