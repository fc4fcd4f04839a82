"""The HTTP side of ``play --join``: find a server's table and take a seat, as the browser does.

Everything here is the lobby API of ``docs/protocol.md`` and runs before
the full screen opens, so whatever goes wrong (no server there, another
program there, a protocol this client does not speak, no such table, a
full or started table, a name already taken) is one :class:`JoinError`
whose message the command prints as one line, never a traceback.

What comes out is a :class:`Seating`: the server, the table code and the
seat's secret token.  The token is the seat: the WebSocket's ``hello``
sends it, a dropped connection resumes with it, and the browser's table
address carries it in its fragment (``/t/CODE#token=...``), which
:func:`parse_target` also accepts, so a seat can be taken back from either.
A player key in the fragment (``/t/CODE#key=...``, the browser's personal
identity) opens its person's seat the same way.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from dragonante.i18n import t
from dragonante.interfaces.tui.chat import CHAT_MAX

#: Where ``dragonante serve`` listens unless told otherwise.
DEFAULT_SERVER = "http://127.0.0.1:8000"
#: The protocol version this client speaks (``GET /api/meta`` announces the
#: server's; a server from before versions were announced speaks version 1).
CLIENT_PROTOCOL = 1
#: Seconds to wait for the server's answer to a lobby call.
HTTP_TIMEOUT = 10.0
#: A table code as the server makes them (letters and digits; upper case).
CODE_RE = re.compile(r"[A-Za-z0-9]{4,16}")


class JoinError(Exception):
    """Why a seat could not be taken: a catalog message and its parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, lang: str) -> str:
        """The one line to print, in ``lang``."""
        return t(self.key, lang, **self.params)


class Refusal(JoinError):
    """The server said no: its HTTP status, stable error code and English detail."""

    def __init__(self, status: int, error: str, detail: str) -> None:
        super().__init__("join.error.refused", detail=detail)
        self.status = status
        self.error = error


@dataclass(frozen=True, slots=True)
class Target:
    """A table to join: the server's base address, the code, a seat token if given."""

    server: str
    code: str
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Seating:
    """A seat taken (or to be resumed, ``seat`` None until the server says which)."""

    server: str
    code: str
    token: str
    seat: int | None
    #: The table summary the lobby answered with (name, seats, status).
    table: dict[str, Any]
    #: Characters of one chat message (the server's ``chat_max``).
    chat_max: int = CHAT_MAX
    #: The host token when this terminal created the table: only the host
    #: fills seats with bots and starts (a seat token is refused).
    host: str | None = None

    @property
    def manager(self) -> str:
        """The token to fill bots and start with: the host's if this terminal has it."""
        return self.host or self.token

    @property
    def ws_url(self) -> str:
        """The table's WebSocket: ``ws://`` for ``http://``, ``wss://`` for ``https://``."""
        scheme = "wss" if self.server.startswith("https:") else "ws"
        return f"{scheme}:{self.server.split(':', 1)[1]}/ws/{self.code}"

    @property
    def resume_url(self) -> str:
        """The seat's own address, as the browser keeps it: ``--join`` it to come back."""
        return f"{self.server}/t/{self.code}#token={self.token}"


def check_server(server: str) -> str:
    """``--server``: an ``http://`` or ``https://`` address, without a trailing slash."""
    parts = urlsplit(server.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise JoinError("join.error.server", server=server)
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def parse_target(text: str, server: str = DEFAULT_SERVER) -> Target:
    """``--join``: a table's address as the browser shows it (``http://HOST/t/CODE``,
    with ``#token=...`` or ``#key=...`` to take back a seat) or a bare code on ``server``."""
    text = text.strip()
    if "://" not in text:
        if not CODE_RE.fullmatch(text):
            raise JoinError("join.error.target", target=text)
        return Target(check_server(server), text.upper())
    parts = urlsplit(text)
    match = re.fullmatch(r"(.*)/[tr]/([A-Za-z0-9]+)/?", parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or match is None:
        raise JoinError("join.error.target", target=text)
    fragment = parse_qs(parts.fragment)
    # a seat token, or the person's player key: the server takes either (``web/players/``)
    tokens = fragment.get("token") or fragment.get("key")
    base = f"{parts.scheme}://{parts.netloc}{match.group(1)}"
    return Target(base, match.group(2).upper(), tokens[0] if tokens else None)


def one_line(text: str) -> str:
    """Collapse whitespace and newlines, so a message stays on one line."""
    return " ".join(text.split())


class Lobby:
    """The lobby API of one server; every failure is a :class:`JoinError`."""

    def __init__(self, server: str, transport: httpx.BaseTransport | None = None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server, timeout=HTTP_TIMEOUT, transport=transport)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Lobby:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> Any:
        """One request; its JSON answer, or the server's refusal as a :class:`JoinError`."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            r = self.http.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as e:
            reason = one_line(str(e)) or type(e).__name__
            raise JoinError("join.error.unreachable", server=self.server, reason=reason) from None
        try:
            data = r.json()
        except ValueError:
            raise JoinError("join.error.not_server", server=self.server) from None
        if r.status_code >= 400:
            if not isinstance(data, dict) or not isinstance(data.get("error"), str):
                raise JoinError("join.error.not_server", server=self.server)
            detail = one_line(str(data.get("detail") or data["error"]))
            raise Refusal(r.status_code, data["error"], detail)
        return data

    def check_protocol(self) -> dict[str, Any]:
        """The server is a dragonante server speaking this client's protocol: its meta."""
        meta = self.call("GET", "/api/meta")
        if not isinstance(meta, dict) or "langs" not in meta:
            raise JoinError("join.error.not_server", server=self.server)
        theirs = meta.get("protocol", 1)
        if theirs != CLIENT_PROTOCOL:
            raise JoinError("join.error.protocol", theirs=theirs, ours=CLIENT_PROTOCOL)
        return meta

    def table(self, code: str) -> dict[str, Any]:
        """The table summary (a spectator's), or ``unknown_table`` said plainly."""
        try:
            summary: dict[str, Any] = self.call("GET", f"/api/tables/{code}")
        except Refusal as e:
            if e.error == "unknown_table":
                raise JoinError("join.error.unknown_table", code=code, server=self.server) from None
            raise
        return summary

    def take_seat(self, code: str, name: str) -> tuple[int, str]:
        """The first free seat under ``name``: its number and its token."""
        try:
            data = self.call("POST", f"/api/tables/{code}/seats", {"name": name})
        except Refusal as e:
            raise seat_refusal(e, code, name, self.server) from None
        return int(data["seat"]), str(data["token"])

    def create(self, config: dict[str, Any]) -> tuple[str, str]:
        """A new table of ``config``: its code and host token."""
        data = self.call("POST", "/api/tables", {"config": config})
        return str(data["code"]), str(data["host_token"])

    def fill_bots(self, code: str, token: str, level: str) -> None:
        """Every free seat gets a bot of ``level`` (the host's token only)."""
        self.call("POST", f"/api/tables/{code}/bots", {"fill": True, "level": level}, token)

    def start(self, code: str, token: str) -> None:
        """Start the game (every seat must be taken; the host's token only)."""
        self.call("POST", f"/api/tables/{code}/start", None, token)


def seat_refusal(e: Refusal, code: str, name: str, server: str) -> JoinError:
    """The seat API's refusals, named for a person at a terminal (the rest keep
    the server's own detail)."""
    if e.error == "full":
        return JoinError("join.error.full", code=code)
    if e.error == "started":
        return JoinError("join.error.started", code=code)
    if e.error == "unknown_table":
        return JoinError("join.error.unknown_table", code=code, server=server)
    if e.error == "bad_name" and e.status == 409:  # the name is fine, but taken
        return JoinError("join.error.name_taken", code=code, name=name)
    return e


def join(target: Target, name: str | None, lobby: Lobby | None = None) -> Seating:
    """Take a seat at ``target`` under ``name`` (or resume the target's own token)."""
    own = lobby is None
    lobby = lobby or Lobby(target.server)
    try:
        meta = lobby.check_protocol()
        limit = meta.get("chat_max")
        chat_max = limit if type(limit) is int and limit > 0 else CHAT_MAX
        summary = lobby.table(target.code)
        if summary.get("status") == "finished":
            raise JoinError("join.error.finished", code=target.code)
        if target.token is not None:
            return Seating(target.server, target.code, target.token, None, summary, chat_max)
        if not name:
            raise JoinError("join.error.name_needed")
        if summary.get("status") != "open":
            raise JoinError("join.error.started", code=target.code)
        seat, token = lobby.take_seat(target.code, name)
        return Seating(target.server, target.code, token, seat, summary, chat_max)
    finally:
        if own:
            lobby.close()


def create_and_join(server: str, config: dict[str, Any], name: str) -> Seating:
    """A new table of ``config`` on ``server``, with ``name`` in its first seat."""
    with Lobby(server) as lobby:
        lobby.check_protocol()
        code, host = lobby.create(config)
        seating = join(Target(server, code), name, lobby)
        return dataclasses.replace(seating, host=host)


def manage(seating: Seating, what: str, bot_level: str) -> None:
    """``start`` the table, or fill its free seats with ``bot_level`` bots, with the
    seating's manager token (the host's); a refusal is a :class:`JoinError`."""
    with Lobby(seating.server) as lobby:
        if what == "start":
            lobby.start(seating.code, seating.manager)
        else:
            lobby.fill_bots(seating.code, seating.manager, bot_level)
