"""The house's arrows one way (docs/architecture.md, "Layers"): no module of the app imports, by any
path, a module that imports it back, counting every import (at the top, inside a function, for type
checking only); the engine imports nothing from outside `games/` but the standard library; and no
code outside a game's own module names a game (issue "One house, round two", item 4)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from scorekeeper.games import GAMES

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imported_by(name: str) -> set[str]:
    """The app's modules `name` imports anywhere in its text."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import views` imports a module; `from .x import f`, x
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imported_by(name) for name in MODULES}


def circles() -> list[list[str]]:
    """Each set of modules that import one another round a circle (Tarjan's strongly connected
    components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in GRAPH[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back():
    assert circles() == []


def test_the_engine_imports_nothing_from_outside_games():
    engine = [name for name in MODULES if name.startswith("scorekeeper.games")]
    assert engine and {name: sorted(GRAPH[name] - set(engine)) for name in engine if GRAPH[name] - set(engine)} == {}


def test_the_engine_imports_only_the_standard_library_and_itself():
    """No Flask, Babel or database in the engine: its texts are marked by its own functions (texts.py)."""
    engine = [name for name in MODULES if name.startswith("scorekeeper.games")]
    outside = {name: outside_imports(MODULES[name]) for name in engine}
    assert {name: found for name, found in outside.items() if found} == {}


def outside_imports(path: Path) -> set[str]:
    """The packages a module imports that are neither the standard library nor the app."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add((node.module or "").split(".")[0])
    return found - set(sys.stdlib_module_names) - {"scorekeeper"}


def game_keys_named(source: str) -> set[str]:
    """The game keys a module's text spells out as a literal string ("cuarenta")."""
    return {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAMES
    }


def test_no_module_but_a_games_own_names_a_game():
    """A game's other names, line, sources, house rules and table words are declared in its module
    (`reference`): the rules reference, like the rest of the app, reads them from the game."""
    own = {sys.modules[type(game).__module__].__file__: key for key, game in GAMES.items()}
    named = {name: sorted(game_keys_named(path.read_text()) - {own.get(str(path))}) for name, path in MODULES.items()}
    assert {name: keys for name, keys in named.items() if keys} == {}


def test_the_check_sees_a_game_named():
    assert game_keys_named('CATALOG = {"cuarenta": Entry(("Forty",))}') == {"cuarenta"}
    assert game_keys_named('"""Cuarenta and court_piece in a docstring are words."""') == set()


def test_the_check_sees_a_circle_where_there_is_one():
    """The graph is read right: records import the engine, and a circle written in would be found."""
    assert "scorekeeper.games" in GRAPH["scorekeeper.records.writes"]
    GRAPH["scorekeeper.games.base"].add("scorekeeper.records.writes")
    try:
        assert any("scorekeeper.games.base" in circle for circle in circles())
    finally:
        GRAPH["scorekeeper.games.base"].discard("scorekeeper.records.writes")


def test_at_most_six_modules_lie_loose_at_the_packages_top():
    """The rest live in packages that say what they are (records, web, the blueprints, the engine)."""
    loose = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(loose) <= 6, loose


def test_no_session_or_engine_event_adds_anything_to_a_write():
    """A write's statements are in its calls: no module listens to the session or the engine, save the
    connections' set-up as the pool opens and hands them out (records/connections.py), and none
    reaches into SQLAlchemy's private parts or hands the ORM values the database does not have."""
    allowed = {"scorekeeper.records.connections"}
    hooked = [name for name, path in MODULES.items() if "event.listen" in path.read_text() and name not in allowed]
    assert hooked == []
    private = ("set_committed_value", "_bind_processors", "insert_prefetch", "update_prefetch", "._returning")
    reaching = [name for name, path in MODULES.items() if any(word in path.read_text() for word in private)]
    assert reaching == []


def test_the_record_layer_imports_nothing_of_the_web_or_the_blueprints():
    """records/ is below web/ and the blueprints (docs/architecture.md, "Layers"): the history
    blueprint reads the stories, the stories know nothing of it."""
    above = tuple(f"scorekeeper.{name}" for name in ("web", "matches", "history", "players", "rules", "api"))
    reaching = {name: sorted(GRAPH[name]) for name in MODULES if name.startswith("scorekeeper.records")}
    assert {
        name: [m for m in found if m.startswith(above)]
        for name, found in reaching.items()
        if any(m.startswith(above) for m in found)
    } == {}
