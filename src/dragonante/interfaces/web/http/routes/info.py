"""What the client caches and the server's figures: meta, cards, abilities, the rules
primer, OpenAPI, stats."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from dragonante import RULES_VERSION, __version__
from dragonante.bots import LEVELS, bot_names
from dragonante.bots.registry import OFFERED
from dragonante.cards import ALL_CARDS
from dragonante.engine.abilities.catalog import (
    ABILITIES,
    DEFAULT_PER_CHARACTER,
    MAX_PER_CHARACTER,
    SYSTEMS,
)
from dragonante.engine.abilities.options import VISIBILITIES
from dragonante.engine.config import GOLD_CHOICES, RULE_CHOICES, RULESETS, SELECTIONS, Rules
from dragonante.engine.decks import PRESET_HELP, PRESETS
from dragonante.interfaces.events import rules_json
from dragonante.interfaces.primer import primer_dict
from dragonante.interfaces.web.http.openapi import schema as openapi_schema
from dragonante.interfaces.web.http.routes.common import hub_of
from dragonante.interfaces.web.shared.errors import HubError
from dragonante.interfaces.web.shared.names import NAME_MAX
from dragonante.interfaces.web.shared.narration import (
    DEFAULT_LANG,
    LANGS,
    ability_name,
    ability_text,
)
from dragonante.interfaces.web.shared.protocol import MAX_MESSAGE, PROTOCOL_VERSION
from dragonante.interfaces.web.shared.settings import DEFAULT_BOT_LEVEL, Settings
from dragonante.interfaces.web.tables.chat import CHAT_MAX
from dragonante.interfaces.web.tables.turns import TURN_MAX

#: Gold per player of the Pure Roleplay "Play for fun" preset (L Appendix 5).
PLAY_FOR_FUN_GOLD = 8
#: How the lobby lets a table give abilities (``fixed`` lists are a game-master's
#: notes: the command line and scenarios have them, the lobby form does not).
LOBBY_ASSIGNMENTS = ("random", "draft")


@cache
def cards_json() -> bytes:
    """Every card with its texts in every language (the client caches it)."""
    out = []
    for c in ALL_CARDS:
        ty = c.type
        out.append(
            {
                "n": c.index,
                "id": c.id,
                "key": ty.key,
                "set": ty.set,
                "kind": ty.kind,
                "alignment": ty.alignment,
                "colors": list(ty.colors),
                "strength": c.strength,
                "name": {lang: ty.name(lang) for lang in LANGS},
                "type_line": {lang: ty.type_line(lang) for lang in LANGS},
                "power": {lang: ty.text(lang) for lang in LANGS},
                "dragon_god": {lang: ty.dragon_god_text(lang) for lang in LANGS},
                "ante_effect": {lang: ty.ante_effect_text(lang) for lang in LANGS},
                "explanation": {
                    lang: ty.explanations.get(lang) or ty.explanations.get("en") or []
                    for lang in LANGS
                },
            }
        )
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


@cache
def rules_json_bytes(lang: str) -> bytes:
    """Every rule message and book title in ``lang`` (``/api/rules``): the browser
    words the citations its frames carry with these (``interfaces/events.py``)."""
    return json.dumps(rules_json(lang), ensure_ascii=False, separators=(",", ":")).encode()


def abilities_json() -> list[dict[str, Any]]:
    """Every D&D ability (public rule text): number, key, system, kind, and its
    name and rule text in every language (the client caches it like the cards)."""
    return [
        {
            "n": a.id,
            "key": a.key,
            "system": a.system,
            "kind": a.kind,
            "name": {lang: ability_name(a.id, lang) for lang in LANGS},
            "text": {lang: ability_text(a.id, lang) for lang in LANGS},
        }
        for a in ABILITIES
    ]


def _default(settings: Settings, name: str, choices: tuple[str, ...]) -> str:
    """A lobby default of the server's (``serve --abilities``, ``--ability-visibility``):
    one of ``choices``, or "" (none / the book's)."""
    value = getattr(settings, name, "")
    return value if isinstance(value, str) and value in choices else ""


def rule_switches() -> list[dict[str, Any]]:
    """Every rule switch of the engine (``Rules``, the ruleset aside) as the lobby
    offers it: ``bool``, ``int`` (with its least value) or ``choice``."""
    out: list[dict[str, Any]] = []
    for f in fields(Rules):
        if f.name == "ruleset":
            continue
        default = getattr(Rules(), f.name)
        if isinstance(default, bool):
            out.append({"key": f.name, "kind": "bool"})
        elif isinstance(default, int):
            least = -1 if f.name == "strength_flight_ante_cards" else 0
            out.append({"key": f.name, "kind": "int", "min": least})
        else:
            out.append({"key": f.name, "kind": "choice", "choices": list(RULE_CHOICES[f.name])})
    return out


def meta(settings: Settings | None = None) -> dict[str, Any]:
    """What the lobby form offers: rulesets, decks, selections, bots, languages,
    the D&D ability options, and the server's defaults for a new table."""
    settings = settings or Settings()
    return {
        "defaults": {
            "ruleset": settings.default_ruleset,
            "preset": settings.default_preset,
            "abilities": _default(settings, "default_abilities", SYSTEMS),
            "ability_visibility": _default(settings, "default_ability_visibility", VISIBILITIES),
            "bot_level": DEFAULT_BOT_LEVEL,
        },
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "rules_version": RULES_VERSION,
        "rulesets": list(RULESETS),
        "rule_switches": rule_switches(),
        "ruleset_rules": {r: asdict(Rules.preset(r)) for r in RULESETS},
        "presets": [p for p in PRESETS if p != "custom"],
        "preset_help": PRESET_HELP,
        "selections": list(SELECTIONS),
        "gold_choices": list(GOLD_CHOICES),
        "play_for_fun_gold": PLAY_FOR_FUN_GOLD,
        "abilities": {
            "systems": list(SYSTEMS),
            "assign": list(LOBBY_ASSIGNMENTS),
            "visibility": list(VISIBILITIES),
            "per_character": {
                system: {"default": DEFAULT_PER_CHARACTER[system], "max": MAX_PER_CHARACTER[system]}
                for system in SYSTEMS
            },
        },
        "players": [2, 3, 4, 5, 6],
        "bots": bot_names(),
        "levels": [*LEVELS, *OFFERED] or bot_names(),
        "langs": list(LANGS),
        "name_max": NAME_MAX,
        "max_message": MAX_MESSAGE,
        "chat_max": CHAT_MAX,
        "turn_timer": {"min": settings.turn_min, "max": TURN_MAX},
    }


router = APIRouter()


@router.get("/api/openapi.json", include_in_schema=False)
async def api_openapi() -> dict[str, Any]:
    return openapi_schema()


@router.get("/api/meta")
async def api_meta(request: Request) -> dict[str, Any]:
    return meta(hub_of(request).settings)


@router.get("/api/cards")
async def api_cards() -> Response:
    return Response(
        cards_json(),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )


@router.get("/api/rules")
async def api_rules(lang: str = DEFAULT_LANG) -> Response:
    """The rule behind each event kind, worded in ``lang`` (the log's "why?")."""
    return Response(
        rules_json_bytes(lang if lang in LANGS else DEFAULT_LANG),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )


@router.get("/api/abilities")
async def api_abilities() -> list[dict[str, Any]]:
    return abilities_json()


@router.get("/api/primer")
async def api_primer(request: Request) -> Response:
    """The rules primer in ``?lang=`` (``en`` when absent): the catalogues' text,
    the same ``dragonante rules`` prints, so the browser's "Rules" says it too."""
    lang = request.query_params.get("lang") or "en"
    if lang not in LANGS:
        raise HubError("bad_param", f"lang must be one of: {', '.join(LANGS)}")
    return Response(
        _primer_json(lang),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )


@cache
def _primer_json(lang: str) -> bytes:
    return json.dumps(primer_dict(lang), ensure_ascii=False, separators=(",", ":")).encode()


@router.get("/api/stats")
async def api_stats(request: Request) -> dict[str, Any]:
    return hub_of(request).stats()
