"""The table's WebSocket messages: parsing what clients send, naming what goes wrong.

Every frame a client sends is checked here before the game sees it: text
only, at most :data:`MAX_MESSAGE` characters, a JSON object with a known
``type`` and fields of the right types.  Anything else becomes a
:class:`ProtocolError` with a stable ``code`` (the client translates it) and
an English ``detail``, and changes nothing.  ``docs/protocol.md`` documents
every message with examples.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from dragonante.interfaces.web.shared.narration import LANGS

#: The version of the protocol in ``docs/protocol.md``, announced in ``GET /api/meta``
#: so a client (the terminal's ``play --join``) can refuse a server it would
#: misunderstand.  Raise it on any change an existing client would misread.
PROTOCOL_VERSION = 1

#: Largest frame the game reads (characters).  The longest legitimate
#: message, a hello with a token, is under 200; the transport itself closes
#: the connection on frames over :data:`TRANSPORT_MAX` bytes.
MAX_MESSAGE = 2048
TRANSPORT_MAX = 65536

#: Seconds between the transport's pings, and before an unanswered one closes the socket.
PING_SECONDS = 20.0


#: Error codes sent in ``{"type": "error", "code": ...}``.
ERROR_CODES = (
    "malformed",
    "bad_type",
    "bad_field",
    "too_large",
    "bad_token",
    "hello_first",
    "not_seated",
    "not_started",
    "game_over",
    "stale",
    "not_your_turn",
    "illegal",
    "storage",
    "busy",
    "unknown_table",
    "not_away",
    "expired",
    "chat_empty",
    "chat_too_long",
    "chat_rate",
    "muted",
    "runaway",
    "hints_off",
    "hint_busy",
    "rate_limited",
    "server_full",
    "bad_progress",
    "learn_first",
    "take_back_people",
    "take_back_none",
    "take_back_over",
)


class ProtocolError(Exception):
    """A message the server refuses; nothing was changed."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


@dataclass(frozen=True, slots=True)
class Hello:
    """First message of a connection: a seat token (or None to watch) and a language."""

    token: str | None
    lang: str
    #: The person's player key (``players/``): opens their seat when no token does.
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer to question ``decision``."""

    decision: int
    answer: int


@dataclass(frozen=True, slots=True)
class Lang:
    """Switch the narration language; the server replies with a fresh state."""

    lang: str


@dataclass(frozen=True, slots=True)
class Sync:
    """Ask for the full state again (a client that lost track); ``since``: the
    ``log_size`` the client already holds, to get only the events after it."""

    since: int = 0


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered with ``pong``."""


@dataclass(frozen=True, slots=True)
class HandToBot:
    """Let a bot play ``seat`` while its person is away (``docs/protocol.md``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat message (checked and cleaned by ``chat.message``; ``text`` may be anything)."""

    text: Any


@dataclass(frozen=True, slots=True)
class AskHint:
    """Ask the best bot about question ``decision`` of this seat (``hints.py``)."""

    decision: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take back this seat's last answer (only a person alone among bots, ``take_back.py``)."""


@dataclass(frozen=True, slots=True)
class Learn:
    """First message of a "Learn to play" socket (``lessons.py``): the language,
    and the player's answers so far (a saved tutorial to resume; empty: a new one)."""

    lang: str
    answers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """Learn to play: back to the start of the step in progress."""


@dataclass(frozen=True, slots=True)
class Restart:
    """Learn to play: the tutorial again from its first step."""


#: The most answers a saved tutorial may bring (the whole tutorial takes far
#: fewer; each is replayed, so the bound is the cost of one resume).
MAX_LEARN_ANSWERS = 300


Message = (
    Hello
    | Answer
    | Lang
    | Sync
    | Ping
    | HandToBot
    | Chat
    | AskHint
    | TakeBack
    | Learn
    | Replay
    | Restart
)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise ProtocolError("bad_field", f"{key!r} must be an integer")
    return value


def _lang(data: dict[str, Any]) -> str:
    lang = data.get("lang", "en")
    if not isinstance(lang, str) or lang not in LANGS:
        raise ProtocolError("bad_field", f"'lang' must be one of {', '.join(LANGS)}")
    return lang


def parse(raw: str | bytes) -> Message:
    """Parse one client frame; raises :class:`ProtocolError` saying what is wrong."""
    if isinstance(raw, bytes):
        raise ProtocolError("malformed", "send JSON text frames, not binary frames")
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(
            "too_large", f"message of {len(raw)} characters; the limit is {MAX_MESSAGE}"
        )
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("malformed", f"not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    kind = data.get("type")
    if kind == "answer":
        return Answer(_int(data, "decision"), _int(data, "answer"))
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 128):
            raise ProtocolError("bad_field", "'token' must be a seat token string or null")
        key = data.get("key")
        if key is not None and (not isinstance(key, str) or not 0 < len(key) <= 128):
            raise ProtocolError("bad_field", "'key' must be a player key string or null")
        return Hello(token, _lang(data), key)
    if kind == "lang":
        return Lang(_lang(data))
    if kind == "sync":
        since = data.get("since", 0)
        if type(since) is not int or since < 0:
            raise ProtocolError("bad_field", "'since' must be a log size (an integer, 0 or more)")
        return Sync(since)
    if kind == "ping":
        return Ping()
    if kind == "hand_to_bot":
        return HandToBot(_int(data, "seat"))
    if kind == "chat":
        return Chat(data.get("text"))
    if kind == "hint":
        return AskHint(_int(data, "decision"))
    if kind == "learn":
        answers = data.get("answers", [])
        if (
            not isinstance(answers, list)
            or len(answers) > MAX_LEARN_ANSWERS
            or not all(type(a) is int for a in answers)
        ):
            raise ProtocolError(
                "bad_field", f"'answers' must be a list of at most {MAX_LEARN_ANSWERS} integers"
            )
        return Learn(_lang(data), tuple(answers))
    if kind == "replay":
        return Replay()
    if kind == "restart":
        return Restart()
    if kind == "take_back":
        return TakeBack()
    if not isinstance(kind, str):
        raise ProtocolError("bad_type", "a message needs a string 'type'")
    raise ProtocolError(
        "bad_type",
        f"unknown message type {kind[:40]!r}; "
        "expected hello, answer, lang, sync, ping, hand_to_bot, chat, hint, take_back "
        "(learn, replay, restart on the Learn to play socket)",
    )


def encode(msg: dict[str, Any]) -> str:
    """``msg`` as the text of one frame.

    Every frame the server sends goes through here.  orjson, because encoding
    the four seat views of each answer with the standard library was a tenth
    of the server's CPU under load (``docs/benchmarks.md``, "Web server
    load"); orjson is several times faster.  The text differs from
    ``json.dumps(msg, separators=(",", ":"))`` only in writing non-ASCII
    letters as UTF-8 instead of ``\\u`` escapes: the same JSON value, which
    ``tests/web/test_frames.py`` checks on whole games.  Integer keys
    (``known_in_hands``) become strings, as the standard library makes them.
    """
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def error(e: ProtocolError, message: str) -> dict[str, Any]:
    """The ``error`` frame for ``e`` (``message`` is its text in the client's language)."""
    return {"type": "error", "code": e.code, "message": message, "detail": e.detail, **e.extra}
