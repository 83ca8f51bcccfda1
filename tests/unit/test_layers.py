"""The layout holds: no circle of files, the rooms of agents/ (its packages and loose modules) stack in
the order LAYERS gives and import only downwards, and the vocabulary layer (rag/lexicon) imports
nothing above it. Read from the code's own imports."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rag", "agents", "app_ui")
# The rooms of agents/, from the ground up: a room imports only rooms of the layers below its own.
LAYERS = (
    ("agents.errors", "agents.config", "agents.tool_settings"),
    ("agents.models",),
    ("agents.tools",),
    ("agents.visit_calendar",),
    ("agents.answer",),
    ("agents.events",),
    ("agents.graph",),
    ("agents.conversations", "agents.offline", "agents.evaluation"),
    ("agents.insights",),
    ("agents.official",),
    ("agents.runtime",),
    ("agents.service",),
    ("agents.serving", "agents.commands", "agents.cli"),
    ("agents.__main__",),
)


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _files() -> dict[str, Path]:
    return {_module_of(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``path`` imports (a name imported from a package counts as its module
    when it is one: ``from agents.offline import model``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in known else node.module)
    return {name for name in found if name in known}


def _graph() -> dict[str, set[str]]:
    known = _files()
    return {module: _imports(path, known) - {module} for module, path in known.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def _room(module: str) -> str:
    """A module's room inside agents/: its sub-package, or the file itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_no_circle_of_files() -> None:
    assert _circles(_graph()) == []


def test_packages_inside_agents_import_only_downwards() -> None:
    rooms: dict[str, set[str]] = defaultdict(set)
    for module, imported in _graph().items():
        if module.startswith("agents."):
            rooms[_room(module)] |= {_room(m) for m in imported if m.startswith("agents.")} - {_room(module)}
    assert _circles(dict(rooms)) == []


def test_the_rooms_of_agents_stack_in_their_layers() -> None:
    layer = {room: height for height, rooms in enumerate(LAYERS) for room in rooms}
    rooms = {_room(m) for m in _graph() if m.startswith("agents.")}
    assert rooms - set(layer) == set(), "a new room of agents/ needs its place in LAYERS"
    upwards = {
        (module, imported)
        for module, imports in _graph().items()
        if module.startswith("agents.")
        for imported in imports
        if imported.startswith("agents.")
        and _room(imported) != _room(module)
        and layer[_room(imported)] >= layer[_room(module)]
    }
    assert upwards == set()


@pytest.mark.parametrize(
    ("lower", "allowed"),
    [
        ("rag.lexicon", ("rag.lexicon", "rag.config")),
        ("agents.answer", ("agents.answer", "agents.tools.results", "rag.")),
        ("agents.models", ("agents.models", "agents.config", "agents.errors", "rag.")),
        (
            "agents.graph",
            ("agents.graph", "agents.answer", "agents.models", "agents.tools", "rag."),
        ),
    ],
)
def test_a_lower_layer_imports_nothing_above_it(lower: str, allowed: tuple[str, ...]) -> None:
    above = {
        (module, imported)
        for module, imports in _graph().items()
        if module.startswith(lower)
        for imported in imports
        if not imported.startswith(allowed)
    }
    assert above == set()


def test_the_graph_does_not_import_the_offline_model() -> None:
    """The offline model is chosen where the model is built (the service), never by the graph."""
    graph = _graph()
    wiring = [m for m in graph if m.startswith(("agents.graph", "agents.answer"))]
    assert {(m, i) for m in wiring for i in graph[m] if i.startswith("agents.offline")} == set()


def test_nothing_the_graph_imports_leads_to_the_offline_model() -> None:
    """The graph's start (``prepare``) and every node read the turn with nothing of the offline model,
    however far their imports are followed."""
    graph = _graph()
    reached = {m for m in graph if m.startswith("agents.graph")}
    todo = list(reached)
    while todo:
        for imported in graph[todo.pop()] - reached:
            reached.add(imported)
            todo.append(imported)
    assert {m for m in reached if m.startswith("agents.offline")} == set()


def test_the_offline_model_is_one_package_behind_its_face() -> None:
    """How it reads a turn is its own: outside it, only ``agents.offline`` itself is imported."""
    graph = _graph()
    inside = {
        (m, i)
        for m, imported in graph.items()
        if not m.startswith("agents.offline")
        for i in imported
        if i.startswith("agents.offline.")
    }
    assert inside == set()


def test_only_the_assembly_chooses_the_offline_model() -> None:
    """Outside its own package, one module imports it: the one that builds the model and the tools."""
    graph = _graph()
    importers = {m for m, imported in graph.items() if any(i.startswith("agents.offline") for i in imported)}
    assert {m for m in importers if not m.startswith("agents.offline")} == {"agents.runtime.assembly"}


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _reached_from(start: str, graph: dict[str, set[str]], inside: str) -> set[str]:
    """``start`` and every module of ``inside`` it reaches through modules of ``inside``."""
    reached, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += [m for m in graph.get(module, ()) if m.startswith(inside)]
    return reached


def test_the_visitor_page_imports_only_the_service_its_events_and_the_answer_types() -> None:
    """What the visitor page reaches of agents/ is the facade, its typed events and the answer's
    types (the answer and its citation marks): how a turn runs can change behind it."""
    graph = _graph()
    page = _reached_from("app_ui.visitor", graph, "app_ui.")
    reached = {imported for module in page for imported in graph[module] if imported.startswith("agents")}
    assert reached <= {"agents.service", "agents.events", "agents.answer.model", "agents.answer.citations"}
