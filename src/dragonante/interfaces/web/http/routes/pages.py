"""The single-page client's addresses: the lobby, a table, a replay, Learn to play,
My games, a player's page and the leaderboard (one HTML file)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

#: The client: plain ES modules and CSS, no build step.
STATIC = Path(__file__).resolve().parent.parent.parent / "static"
INDEX = STATIC / "index.html"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def home() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/t/{code}")
async def table_page(code: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/r/{code}")
async def replay_page(code: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/learn")
async def learn_page() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/me")
async def my_games_page() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/players/{pid}")
async def player_page(pid: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/leaderboard")
async def leaderboard_page() -> FileResponse:
    return FileResponse(INDEX)
