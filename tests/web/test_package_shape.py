"""The web package stays readable: no import circles, no file over 500 lines (issue 22 §3).

``web/hub.py`` had grown to 1,261 lines and ``web/cluster/member.py`` to 1,008;
``social.py`` and ``turns.py`` imported the hub that imported them, and the
app and the cluster imported each other.  Split by concern (``docs/web.md``,
"The web package"), they stay split: every import between the package's
modules is read with :mod:`ast`, at any depth of the file (also inside
functions and ``if TYPE_CHECKING:`` blocks, which are circles too for a
reader), and the graph must have no cycle.

Since issue 32 §7 the package is a house of rooms on floors (storage and the
shared words at the bottom, then the tables, the players, the hub, the
cluster, HTTP on top; ``web/__init__.py`` has the map): each room's
``__init__.py`` says what it owns, and a module imports only its own room
and the rooms below, so the graph of rooms has no circle either.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import dragonante.interfaces.web as web
from tests.import_cycles import cycles

PACKAGE = "dragonante.interfaces.web"
ROOT = Path(web.__file__).resolve().parent
#: The longest a module of the package may be.
MAX_LINES = 500


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``routes.lobby``, ``hub``, ...)."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        if "migrations" in rel.parts:
            continue  # Alembic's scripts: loaded by Alembic, not imported
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(parts)] = path
    return out


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules ``path`` imports (``from web import store`` counts as
    ``store``; ``from web.routes.common import x`` as ``routes.common``)."""
    found: set[str] = set()
    prefix = PACKAGE + "."
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith(prefix) and name[len(prefix) :] in known:
                found.add(name[len(prefix) :])
    return found


def test_the_cycle_finder_finds_a_circle() -> None:
    """The check itself can fail: a circle of three and a self-import are found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["d"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_imports_inside_functions_and_type_checking(
    tmp_path: Path,
) -> None:
    known = {"hub": ROOT / "hub.py", "store": ROOT / "store.py", "http.routes.common": ROOT}
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from dragonante.interfaces.web import store\n"
        "if TYPE_CHECKING:\n"
        "    from dragonante.interfaces.web.hub import Hub\n"
        "def f():\n"
        "    import dragonante.interfaces.web.http.routes.common\n",
        encoding="utf-8",
    )
    assert imports(source, known) == {"store", "hub", "http.routes.common"}


def test_the_web_package_has_no_import_circle() -> None:
    known = modules()
    assert {"hub", "tables.house", "cluster.member", "http.app", "http.routes.socket"} <= set(known)
    graph = {name: imports(path, known) for name, path in known.items()}
    assert graph["http.routes.socket"] >= {"hub", "http.routes.common"}  # the reader reads them
    assert cycles(graph) == []


def test_no_module_of_the_web_package_is_over_500_lines() -> None:
    long = {
        name: n
        for name, path in modules().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


# ------------------------------------------------------ the players' room (issue 32, section 7)

#: The modules outside the players' room that may import it: the hub binds
#: its part (and hands the answer pipeline its rater), the routes serve it.
ENTER_PLAYERS = {"hub", "http.routes.lobby", "http.routes.players"}
#: What the players' room may use of the rest: storage, the house, tables and
#: seats (to demote a seat's connections), frames; never the hub, the app,
#: the routes or the cluster (which would be a way round the house).
PLAYERS_USE = {
    "storage",
    "storage.db",
    "storage.interface",
    "storage.players",
    "storage.store",
    "storage.writer",
    "shared.errors",
    "tables.frames",
    "tables.house",
    "tables.seats",
    "tables.live",
}


def in_room(name: str, room: str) -> bool:
    return name == room or name.startswith(room + ".")


def test_the_players_room_is_entered_only_by_the_hub_and_the_routes() -> None:
    known = modules()
    graph = {name: imports(path, known) for name, path in known.items()}
    entering = {
        name
        for name, deps in graph.items()
        if not in_room(name, "players") and any(in_room(d, "players") for d in deps)
    }
    assert "hub" in entering  # the reader sees the hub's import of the room
    assert entering <= ENTER_PLAYERS


def test_the_players_room_uses_only_storage_the_house_and_tables() -> None:
    known = modules()
    used = {
        dep
        for name, path in known.items()
        if in_room(name, "players")
        for dep in imports(path, known)
        if not in_room(dep, "players")
    }
    assert "tables.house" in used and "storage.store" in used
    assert used <= PLAYERS_USE


# ------------------------------------------------------------------ floors (issue 32, section 7)

#: The rooms of the package by floor, the bottom first.  A module may import
#: its own room and the rooms on lower floors, never a room beside or above
#: it: storage and the shared words know no table, the tables know no player
#: key, the hub composes them, the cluster spreads the hub over processes,
#: and HTTP serves it all.  ``hub`` is a room of one module (``hub.py``);
#: ``load`` is the load benchmark's client, which the server never imports.
FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"storage", "shared"}),
    frozenset({"tables"}),
    frozenset({"players"}),
    frozenset({"hub"}),
    frozenset({"cluster"}),
    frozenset({"http", "load"}),
)
#: Rooms that may import nothing outside themselves, whatever their floor.
ALONE = {"storage", "shared", "load"}
#: Rooms that are packages, so that their ``__init__.py`` says what they own.
PACKAGES = {"storage", "shared", "tables", "players", "cluster", "http", "load"}


def room_of(module: str) -> str:
    """The room a module of the package is in (``tables.house`` is in ``tables``)."""
    return module.split(".")[0]


def floor_of(room: str) -> int:
    return next(i for i, rooms in enumerate(FLOORS) if room in rooms)


def wrong_floors(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import ``(module, imported)`` that enters a room beside or above the
    importer's own, or leaves a room that must stay alone."""
    out = []
    for name, deps in sorted(graph.items()):
        here = room_of(name)
        for dep in sorted(deps):
            there = room_of(dep)
            if there == here:
                continue
            if here in ALONE or floor_of(there) >= floor_of(here):
                out.append((name, dep))
    return out


def test_the_floor_check_finds_an_import_upwards_or_sideways() -> None:
    """The check itself can fail: the tables importing the hub, storage
    importing the shared words, one HTTP module importing the load client."""
    graph = {
        "tables.house": {"tables.live", "storage.store", "hub"},
        "storage.store": {"storage.db", "shared.errors"},
        "http.app": {"hub", "cluster.member", "load.run"},
        "hub": {"players.service", "tables.house"},
    }
    assert wrong_floors(graph) == [
        ("http.app", "load.run"),
        ("storage.store", "shared.errors"),
        ("tables.house", "hub"),
    ]


def test_every_module_of_the_package_is_in_a_room() -> None:
    rooms = {room for floor in FLOORS for room in floor}
    loose = {name for name in modules() if name and room_of(name) not in rooms}
    assert loose == set()


def test_each_room_imports_only_the_rooms_below_it() -> None:
    known = modules()
    graph = {name: imports(path, known) for name, path in known.items() if name}
    assert "storage.store" in graph["tables.house"]  # the reader reads the rooms' imports
    assert "hub" in graph["cluster.member"]
    assert wrong_floors(graph) == []


def test_each_room_names_what_it_owns_and_the_package_names_each_room() -> None:
    """A room's ``__init__.py`` says what it owns and names every module and
    sub-package in it; the package's own docstring names every room."""
    for room in sorted(PACKAGES):
        doc = ast.get_docstring(ast.parse((ROOT / room / "__init__.py").read_text("utf-8")))
        assert doc and "owns" in doc, f"{room}/__init__.py must say what the room owns"
        parts = {p.stem for p in (ROOT / room).glob("*.py") if p.stem != "__init__"}
        parts |= {p.parent.name for p in (ROOT / room).glob("*/__init__.py")}
        unnamed = {p for p in parts if not re.search(rf"(\.|``){p}(`|/)", doc)}
        assert unnamed == set(), f"{room}/__init__.py does not name {sorted(unnamed)}"
        for path in sorted((ROOT / room).rglob("*.py")):
            if "migrations" not in path.parts:
                assert ast.get_docstring(ast.parse(path.read_text("utf-8"))), path
    top = ast.get_docstring(ast.parse((ROOT / "__init__.py").read_text("utf-8"))) or ""
    for floor in FLOORS:
        for room in floor:
            assert f"``{room}" in top or f".{room}`" in top, f"web/__init__.py must name {room}"
