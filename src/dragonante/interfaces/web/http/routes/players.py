"""Player keys over HTTP: a new key, My games, the QR code, a player's page,
the leaderboard, and the host handing a seat to a new key.

The key travels in the ``X-Player-Key`` header only (never in a URL, so no
address bar, history, referrer or access log holds it); every use of it is
counted like an invite code's lookup (``Players.identify``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from dragonante.interfaces.web.http.routes.common import address, bearer, hub_of, table_body
from dragonante.interfaces.web.players.qr import link_svg

router = APIRouter()

#: The header a player key travels in.
KEY_HEADER = "x-player-key"


def player_key(request: Request) -> str | None:
    """The request's player key, if it carries one."""
    return request.headers.get(KEY_HEADER) or None


@router.post("/api/players", status_code=201)
async def api_new_player(request: Request) -> dict[str, str]:
    return await hub_of(request).players.create(address(request))


@router.get("/api/players/me")
async def api_me(request: Request) -> Response:
    me = await hub_of(request).players.me(player_key(request), address(request))
    return _private(me)


@router.get("/api/players/me/qr")
async def api_qr(request: Request) -> Response:
    """The personal link (``/me#key=...``) as an SVG QR code, for its holder only."""
    key = player_key(request)
    await hub_of(request).players.identify(key, address(request))
    link = f"{str(request.base_url).rstrip('/')}/me#key={key}"
    return Response(link_svg(link), media_type="image/svg+xml", headers=NO_STORE)


@router.get("/api/players/{pid}")
async def api_player(pid: str, request: Request) -> dict[str, Any]:
    """A player's page: name, rating and its steps, finished games and wins."""
    hub = hub_of(request)
    hub.check_rate("replays", address(request))
    return await hub.players.page(pid)


@router.get("/api/leaderboard")
async def api_leaderboard(request: Request) -> dict[str, Any]:
    return {"players": await hub_of(request).players.leaderboard()}


@router.post("/api/tables/{code}/seats/{seat}/player")
async def api_hand_seat(code: str, seat: int, request: Request) -> dict[str, Any]:
    """The host gives seat ``seat`` to the player key of public id ``player``."""
    hub = hub_of(request)
    hub.check_rate("manage", address(request))
    _, got = await table_body(request, code, "host")
    await hub.players.hand_seat(code, bearer(request), seat, got.get("player"))
    return {"ok": True}


#: A private answer: never kept by a browser's or a proxy's cache.
NO_STORE = {"Cache-Control": "no-store"}


def _private(body: dict[str, Any]) -> Response:
    return JSONResponse(body, headers=NO_STORE)
