"""The lobby's HTTP API: tables, seats, bots, bans, listing, the start, mutes, rematches.

Each handler counts the request against its per-address limit first (a
refused flood touches nothing), then reads the body as a capped stream only
once the table and the caller's token are known (``common.table_body``),
and leaves every decision to the hub.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from dragonante.interfaces.web.http.routes.common import (
    address,
    bearer,
    body,
    hub_of,
    table_body,
    table_of,
)
from dragonante.interfaces.web.http.routes.players import player_key
from dragonante.interfaces.web.shared.errors import HubError

router = APIRouter()


@router.get("/api/tables")
async def api_tables(request: Request) -> dict[str, Any]:
    return hub_of(request).live()


@router.post("/api/tables", status_code=201)
async def api_create(request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("tables", address(request))
    got = await body(request)
    table, host, gm = await hub_of(request).create_table(
        got.get("config", {}),
        got.get("turn_seconds"),
        got.get("unlisted", False),
        got.get("hints", False),
    )
    made: dict[str, Any] = {"code": table.code, "host_token": host, "table": table.summary()}
    if gm is not None:
        made["gm_token"] = gm
    return made


@router.get("/api/tables/{code}")
async def api_table(code: str, request: Request) -> dict[str, Any]:
    table = await table_of(request, code)
    return table.summary()


@router.post("/api/tables/{code}/seats", status_code=201)
async def api_take_seat(code: str, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("seats", address(request))
    _, got = await table_body(request, code)
    hub = hub_of(request)
    key = player_key(request)  # the seat follows this person's key (``players/``)
    player = await hub.players.identify(key, address(request)) if key else None
    seat, token = await hub.take_seat(
        code,
        got.get("seat"),
        got.get("name"),
        bearer(request),
        address(request),
        (player.id, player.key_hash) if player is not None else None,
    )
    if player is not None:
        await hub.players.sat_down(player, code, seat)
    return {"seat": seat, "token": token}


@router.delete("/api/tables/{code}/seats/{seat}")
async def api_leave(code: str, seat: int, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("manage", address(request))
    await table_of(request, code)
    await hub_of(request).remove_seat(code, bearer(request), seat)
    return {"ok": True}


@router.post("/api/tables/{code}/bots", status_code=201)
async def api_bots(code: str, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("manage", address(request))
    _, got = await table_body(request, code, "manager")
    fill = got.get("fill", False)
    if not isinstance(fill, bool):
        raise HubError("bad_field", "fill must be true or false")
    seats = await hub_of(request).add_bots(
        code, bearer(request), got.get("seat"), got.get("level"), fill
    )
    return {"seats": seats}


@router.post("/api/tables/{code}/listing")
async def api_listing(code: str, request: Request) -> dict[str, Any]:
    _, got = await table_body(request, code, "host")
    await hub_of(request).set_listing(code, bearer(request), got.get("unlisted"))
    return {"ok": True}


@router.post("/api/tables/{code}/hints")
async def api_hints(code: str, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("manage", address(request))
    _, got = await table_body(request, code, "host")
    await hub_of(request).set_hints(code, bearer(request), got.get("hints"))
    return {"ok": True}


@router.delete("/api/tables/{code}/bans")
async def api_clear_bans(code: str, request: Request) -> dict[str, Any]:
    await table_of(request, code)
    await hub_of(request).clear_bans(code, bearer(request))
    return {"ok": True}


@router.post("/api/tables/{code}/start")
async def api_start(code: str, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("manage", address(request))
    await table_of(request, code)
    await hub_of(request).start(code, bearer(request))
    return {"ok": True}


@router.post("/api/tables/{code}/mute")
async def api_mute(code: str, request: Request) -> dict[str, Any]:
    hub_of(request).check_rate("manage", address(request))
    _, got = await table_body(request, code, "host")
    return await hub_of(request).social.mute(code, bearer(request), got)


@router.post("/api/tables/{code}/rematch")
async def api_rematch(code: str, request: Request, response: Response) -> dict[str, Any]:
    hub = hub_of(request)
    hub.check_rate("tables", address(request))
    await table_of(request, code)
    table, made, given = await hub.social.rematch(code, bearer(request))
    response.status_code = 201 if made else 200
    return {"code": table.code, "table": table.summary(), **given}
