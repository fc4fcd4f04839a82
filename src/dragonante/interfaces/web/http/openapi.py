"""The lobby API described as OpenAPI 3.1, served at ``/api/openapi.json``.

The routes read their JSON bodies themselves (``app._body``: a capped
stream, checked field by field with one clear error each), so FastAPI
cannot infer their shapes; this document says them, and every refusal an
operation can answer with.  It is what the suite's schemathesis fuzzer
generates requests from (``tests/web/test_fuzz_http.py``): no request may
get a 500, and every refusal must be a status documented here with the
``Error`` body.  ``docs/protocol.md`` is the prose version.
"""

from __future__ import annotations

from typing import Any

from dragonante import __version__

#: Error statuses and what they mean (every refusal is ``{"error", "detail"}``).
ERRORS = {
    "400": "bad input (bad_config, bad_name, bad_seat, bad_bot, bad_field, bad_param, "
    "bad_step, malformed)",
    "403": "the token may not do this (forbidden)",
    "404": "no such table (unknown_table)",
    "409": "not now (started, full, taken, seats_free, not_finished, bad_name: a name taken)",
    "410": "gone (expired: the table expired unstarted; old_game: another rules version)",
    "413": "the request body is over 16 KiB (too_large)",
    "429": "over a per-address limit (rate_limited; Retry-After says when to retry)",
    "503": "the server is full or its database refused (server_full, storage, busy)",
}

ERROR = {
    "type": "object",
    "required": ["error", "detail"],
    "properties": {
        "error": {"type": "string", "pattern": "^[a-z_]+$"},
        "detail": {"type": "string"},
    },
}

OBJECT: dict[str, Any] = {"type": "object"}
CODE = {
    "name": "code",
    "in": "path",
    "required": True,
    "description": "the table's invite code",
    "schema": {"type": "string"},
}
BEARER = {
    "name": "Authorization",
    "in": "header",
    "required": False,
    "description": "Bearer TOKEN: the host token or a seat token",
    "schema": {"type": "string"},
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _op(
    summary: str,
    ok: dict[str, Any],
    errors: tuple[str, ...] = (),
    params: tuple[dict[str, Any], ...] = (),
    body: dict[str, Any] | None = None,
) -> dict[str, Any]:
    responses = dict(ok)
    for status in errors:
        responses[status] = {
            "description": ERRORS[status],
            **_json({"$ref": "#/components/schemas/Error"}),
        }
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if params:
        op["parameters"] = list(params)
    if body is not None:
        op["requestBody"] = {"required": False, **_json(body)}
    return op


def _ok(status: str, schema: dict[str, Any] = OBJECT) -> dict[str, Any]:
    return {status: {"description": "done", **_json(schema)}}


#: What a request naming a table may be refused with (besides its own): a
#: lookup by code is counted per address (``House.lookup``).
TABLE = ("404", "410", "429", "503")
#: ... and one with a body.
BODY = ("400", "413")


def schema() -> dict[str, Any]:
    """The OpenAPI document of ``/api``."""
    seat_body = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "seat": {"type": ["integer", "null"]},
        },
    }
    bots_body = {
        "type": "object",
        "properties": {
            "level": {"type": "string"},
            "seat": {"type": ["integer", "null"]},
            "fill": {"type": "boolean"},
        },
    }
    mute_body = {
        "type": "object",
        "properties": {
            "muted": {"type": "boolean"},
            "seat": {"type": "integer"},
            "spectator": {"type": "integer"},
        },
    }
    create_body = {
        "type": "object",
        "properties": {
            "config": {"type": "object"},
            "turn_seconds": {"type": ["number", "null"]},
            "unlisted": {"type": "boolean"},
            "hints": {"type": "boolean"},
        },
    }
    query = [
        {"name": n, "in": "query", "required": False, "schema": s}
        for n, s in (
            ("step", {"type": "integer"}),
            ("seat", {"type": "integer"}),
            ("lang", {"type": "string"}),
            ("gm", {"type": "string", "enum": ["0", "1", "true", "false"]}),
        )
    ]
    paging = [
        {"name": n, "in": "query", "required": False, "schema": {"type": "integer"}}
        for n in ("limit", "offset")
    ]
    paths: dict[str, Any] = {
        "/api/meta": {"get": _op("what the lobby form offers", _ok("200"))},
        "/api/cards": {"get": _op("every card's texts", _ok("200", {"type": "array"}))},
        "/api/rules": {
            "get": _op(
                "the rule behind each event, in one language (unknown: English)",
                _ok("200", {"type": "object"}),
                params=(
                    {
                        "name": "lang",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string"},
                    },
                ),
            )
        },
        "/api/abilities": {"get": _op("every D&D ability", _ok("200", {"type": "array"}))},
        "/api/primer": {
            "get": _op(
                "the rules primer in one language",
                _ok("200"),
                ("400",),
                ({"name": "lang", "in": "query", "required": False, "schema": {"type": "string"}},),
            )
        },
        "/api/stats": {"get": _op("load figures", _ok("200"))},
        "/api/tables": {
            "get": _op("open and playing tables", _ok("200")),
            "post": _op(
                "create a table",
                _ok("201"),
                (*BODY, "429", "503"),
                body=create_body,
            ),
        },
        "/api/tables/{code}": {"get": _op("a table's summary", _ok("200"), TABLE, (CODE,))},
        "/api/tables/{code}/seats": {
            "post": _op(
                "take a seat",
                _ok("201"),
                (*BODY, *TABLE, "409", "429"),
                (CODE,),
                seat_body,
            )
        },
        "/api/tables/{code}/seats/{seat}": {
            "delete": _op(
                "leave a seat, take a bot off, or (the host) remove a person",
                _ok("200"),
                ("400", "403", *TABLE, "409", "429"),
                (
                    CODE,
                    {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}},
                    BEARER,
                ),
            )
        },
        "/api/tables/{code}/bots": {
            "post": _op(
                "seat a bot or fill every free seat",
                _ok("201"),
                (*BODY, "403", *TABLE, "409", "429"),
                (CODE, BEARER),
                bots_body,
            )
        },
        "/api/tables/{code}/listing": {
            "post": _op(
                "the host lists the table in the lobby or makes it invite only",
                _ok("200"),
                (*BODY, "403", *TABLE),
                (CODE, BEARER),
                {"type": "object", "properties": {"unlisted": {"type": "boolean"}}},
            )
        },
        "/api/tables/{code}/hints": {
            "post": _op(
                "the host allows hints from the best bot with other people at the table, or not",
                _ok("200"),
                (*BODY, "403", *TABLE, "409", "429"),
                (CODE, BEARER),
                {"type": "object", "properties": {"hints": {"type": "boolean"}}},
            )
        },
        "/api/tables/{code}/bans": {
            "delete": _op(
                "the host lets removed people sit again",
                _ok("200"),
                ("403", *TABLE),
                (CODE, BEARER),
            )
        },
        "/api/tables/{code}/start": {
            "post": _op("deal", _ok("200"), ("403", *TABLE, "409", "413", "429"), (CODE, BEARER))
        },
        "/api/tables/{code}/mute": {
            "post": _op(
                "the host mutes or unmutes someone",
                _ok("200"),
                (*BODY, "403", *TABLE, "429"),
                (CODE, BEARER),
                mute_body,
            )
        },
        "/api/tables/{code}/rematch": {
            "post": _op(
                "offer (or find) the rematch table",
                {**_ok("200"), **_ok("201")},
                ("403", *TABLE, "409", "413", "429"),
                (CODE, BEARER),
            )
        },
        "/api/games": {
            "get": _op("finished games, newest first", _ok("200"), ("400", "503"), tuple(paging))
        },
        "/api/games/{code}/replay": {
            "get": _op(
                "a finished game after some answers, as a seat saw it",
                _ok("200"),
                ("400", *TABLE, "409", "429"),
                (CODE, *query),
            )
        },
        "/api/players": {
            "post": _op(
                "make a player key (shown once; the server keeps its hash)",
                _ok("201"),
                ("429", "503"),
            )
        },
        "/api/players/me": {
            "get": _op(
                "the key's player and My games (X-Player-Key header)",
                _ok("200"),
                ("400", "403", "404", "429", "503"),
            )
        },
        "/api/players/me/qr": {
            "get": _op(
                "the personal link's QR code, as SVG (X-Player-Key header)",
                _ok("200"),
                ("400", "403", "404", "429", "503"),
            )
        },
        "/api/players/{pid}": {
            "get": _op(
                "a player's public page: rating, its history, games and wins",
                _ok("200"),
                ("400", "404", "429", "503"),
                ({"name": "pid", "in": "path", "required": True, "schema": {"type": "string"}},),
            )
        },
        "/api/leaderboard": {
            "get": _op(
                "the players by rating (ordinal, mu - 3 sigma)", _ok("200"), ("429",), tuple(paging)
            )
        },
        "/api/tables/{code}/seats/{seat}/player": {
            "post": _op(
                "the host hands a seat to a new player key (by its public id)",
                _ok("200"),
                ("400", "403", *TABLE, "409", *BODY),
                (
                    CODE,
                    {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}},
                    BEARER,
                ),
            )
        },
        "/api/games/{code}/record": {
            "get": _op("a finished game's record", _ok("200"), (*TABLE, "409"), (CODE,))
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "dragonante lobby", "version": __version__},
        "paths": paths,
        "components": {"schemas": {"Error": ERROR}},
    }
