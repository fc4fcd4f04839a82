"""What every router needs of a request: the hub, the caller's address and token, its body."""

from __future__ import annotations

from typing import Any

from fastapi import Request, WebSocket

from dragonante.interfaces.web.http.guard import BodyError, json_object, read_body
from dragonante.interfaces.web.hub import Hub
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.limits import client_address
from dragonante.interfaces.web.tables.live import LiveTable


def hub_of(request: Request | WebSocket) -> Hub:
    """The app's hub (made at start-up)."""
    hub: Hub = request.app.state.hub
    return hub


def address(request: Request | WebSocket) -> str:
    """The caller's address for the per-address limits (``limits.client_address``:
    ``X-Forwarded-For`` only from a trusted proxy)."""
    peer = request.client.host if request.client else None
    return client_address(peer, request.headers, hub_of(request).trusted)


async def table_of(request: Request | WebSocket, code: str) -> LiveTable:
    """The table ``code`` names, the lookup counted against the caller's
    address (``House.lookup``: a code no table has costs a miss)."""
    return await hub_of(request).lookup(code, address(request))


def bearer(request: Request) -> str | None:
    """The ``Authorization: Bearer`` token, if any."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def int_param(request: Request, name: str, default: int | None) -> int | None:
    """An integer query parameter (refused with ``bad_param`` if not one)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise HubError("bad_param", f"{name} must be an integer") from None


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read as a capped stream (``guard.read_body``)."""
    try:
        return json_object(await read_body(request))
    except BodyError as e:
        raise HubError(e.code, e.detail, e.status) from None


async def table_body(
    request: Request, code: str, who: str | None = None
) -> tuple[LiveTable, dict[str, Any]]:
    """A table endpoint's table and body: the table is looked up, and ``who``
    (``manager``: the host or a seated person; ``host``) checked against the
    bearer token, before a byte of the body is read, so a request refused
    anyway costs no read (issue 22, hole 3).  The hub checks again under the
    table's lock; this is only the cheap early refusal."""
    table = await table_of(request, code)
    token = bearer(request)
    if who == "manager" and not (table.may_manage(token) or table.is_host(token)):
        raise HubError("forbidden", "only the table's host or a seated player may do this", 403)
    if who == "host" and not table.is_host(token):
        raise HubError("forbidden", "only the table's host may do this", 403)
    return table, await body(request)
