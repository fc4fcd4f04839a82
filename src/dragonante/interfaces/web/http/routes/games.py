"""Finished games: the list, a replay step, the record (all public once a game is over)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from dragonante.interfaces.web.http.routes.common import address, hub_of, int_param, table_of
from dragonante.interfaces.web.shared.errors import HubError

router = APIRouter()


@router.get("/api/games")
async def api_games(request: Request) -> dict[str, Any]:
    limit = int_param(request, "limit", 50)
    offset = int_param(request, "offset", 0)
    if limit is None or offset is None or not 1 <= limit <= 200 or offset < 0:
        raise HubError("bad_param", "limit is 1-200 and offset at least 0")
    return {"games": await hub_of(request).finished(limit, offset)}


@router.get("/api/games/{code}/replay")
async def api_replay(code: str, request: Request) -> Response:
    hub_of(request).check_rate("replays", address(request))
    await table_of(request, code)
    step = int_param(request, "step", 0)
    seat = int_param(request, "seat", None)
    lang = request.query_params.get("lang", "en")
    gm = request.query_params.get("gm", "") in ("1", "true")
    text = await hub_of(request).replay(code, step, seat, lang, gm)
    return Response(text, media_type="application/json")


@router.get("/api/games/{code}/record")
async def api_record(code: str, request: Request) -> JSONResponse:
    await table_of(request, code)
    record = await hub_of(request).record(code)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="dragonante-{code}.json"'},
    )
