"""The layers stay apart: the rules and netplay never import Textual, netplay never imports
wizard_tui, the engine does no I/O, and no two modules import each other (docs/architecture.md)."""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The packages whose import graph must have no cycle.
CYCLE_FREE = ("wizard_tui", "netplay")


def module_name(path: Path, root: Path = ROOT) -> str:
    """``wizard_tui/game/view.py`` -> ``wizard_tui.game.view``; a package's ``__init__`` is the
    package itself."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(path: Path, root: Path) -> str:
    # The package relative imports resolve against: an __init__'s is its own package.
    return ".".join(path.relative_to(root).with_suffix("").parts[:-1])


def import_statements(path: Path, root: Path = ROOT) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every import in the file, wherever it is (module level, a function, ``if TYPE_CHECKING``),
    as ``(line, module, names)`` with relative imports resolved; ``names`` are what a
    ``from ... import`` takes (empty for a plain ``import``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _package_of(path, root)
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            if node.level:  # resolve relative imports against the file's package
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                found.append(
                    (node.lineno, ".".join([*base, node.module] if node.module else base), names)
                )
            elif node.module:
                found.append((node.lineno, node.module, names))
    return found


def imported_modules(path: Path) -> set[str]:
    return {module for _, module, _ in import_statements(path)}


def modules_under(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def top(name: str) -> str:
    return name.split(".")[0]


# -- The import graph ------------------------------------------------------------------------

Graph = dict[str, dict[str, int]]  # module -> {module it imports: line of the first import}


def import_graph(root: Path, packages: Iterable[str]) -> Graph:
    """The module-level import graph among the modules of ``packages``. ``from P import x`` is an
    edge to the module ``P.x`` when there is one, else to ``P`` (its ``__init__``)."""
    paths = {
        module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))
    }
    graph: Graph = {name: {} for name in paths}
    for name, path in paths.items():
        for line, module, names in import_statements(path, root):
            targets = [f"{module}.{n}" if f"{module}.{n}" in paths else module for n in names]
            for target in targets or [module]:
                if target in paths and target != name:
                    graph[name].setdefault(target, line)
    return graph


def strongly_connected(graph: Graph) -> list[frozenset[str]]:
    """The import cycles: every strongly connected component of more than one module
    (Tarjan's algorithm, iterative so a deep graph cannot hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(frozenset(component))
    return components


def a_cycle_through(graph: Graph, component: frozenset[str]) -> list[str]:
    """One closed path inside ``component``, from its first module back to it (a shortest one,
    found breadth first), for the failure message."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node]):
                if succ not in component:
                    continue
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if succ not in came_from:
                    came_from[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not a cycle")


def describe(graph: Graph, component: frozenset[str]) -> str:
    """A cycle as a path through it, then every import inside it (each one a way to break it)."""
    path = a_cycle_through(graph, component)
    steps = " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(path))
    edges = [
        f"    {a}:{line} imports {b}"
        for a in sorted(component)
        for b, line in sorted(graph[a].items())
        if b in component
    ]
    return "\n".join([f"{len(component)} modules, e.g. {steps} -> {path[-1]}", *edges])


@functools.cache
def project_graph() -> Graph:
    return import_graph(ROOT, CYCLE_FREE)


def test_no_import_cycle() -> None:
    graph = project_graph()
    cycles = strongly_connected(graph)
    found = [describe(graph, c) for c in cycles]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_cycle_checker_sees_hidden_imports(tmp_path: Path) -> None:
    # A cycle hidden the two usual ways (under TYPE_CHECKING, inside a function) is found,
    # and so is one through a package's __init__ and a relative import.
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import thing\n")
    (package / "a.py").write_text("def thing():\n    from pkg import b\n    return b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub import c\n"
    )
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text("import pkg.a\n")
    (package / "alone.py").write_text("from pkg import sub\n")
    graph = import_graph(tmp_path, ["pkg"])
    assert strongly_connected(graph) == [frozenset({"pkg.a", "pkg.b", "pkg.sub.c"})]
    assert describe(graph, frozenset({"pkg.a", "pkg.b", "pkg.sub.c"})).splitlines() == [
        "3 modules, e.g. pkg.a (line 2) -> pkg.b (line 3) -> pkg.sub.c (line 1) -> pkg.a",
        "    pkg.a:2 imports pkg.b",
        "    pkg.b:3 imports pkg.sub.c",
        "    pkg.sub.c:1 imports pkg.a",
    ]
    # The package's __init__ is a module of its own: importing what it re-exports closes a cycle.
    (package / "a.py").write_text("import pkg\n")
    assert strongly_connected(import_graph(tmp_path, ["pkg"])) == [frozenset({"pkg", "pkg.a"})]


FORBIDDEN = [
    ("netplay", {"wizard_tui", "textual"}),
    ("wizard_tui.game", {"textual", "netplay", "asyncio", "socket", "wizard_tui.net"}),
    ("wizard_tui.bots", {"textual", "wizard_tui.net"}),
]


@pytest.mark.parametrize(("package", "banned"), FORBIDDEN, ids=[p for p, _ in FORBIDDEN])
def test_package_does_not_import(package: str, banned: set[str]) -> None:
    files = modules_under(package)
    assert files, f"no modules found under {package}"
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files
        for name in imported_modules(path)
        if top(name) in banned or any(name == b or name.startswith(b + ".") for b in banned)
    ]
    assert offenders == []


def test_only_the_ui_imports_textual() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules_under("wizard_tui")
        if "ui" not in path.relative_to(ROOT).parts
        for name in imported_modules(path)
        if top(name) == "textual"
    ]
    assert offenders == []


def test_the_checker_sees_relative_imports() -> None:
    # The engine imports its siblings relatively; the checker must resolve them, or a
    # relative import of a banned package would slip through.
    names = imported_modules(ROOT / "wizard_tui" / "game" / "view.py")
    assert "wizard_tui.game.engine" in names


# The host's core (docs/architecture.md, "The host"): inputs in, effects out. Its modules do
# no I/O and keep no clock, so they import no event loop, socket or clock, none of netplay's
# asyncio layer (its package root re-exports Server and Client), and not the adapter or
# runtime that run their effects.
HOST_CORE = (
    "wizard_tui.net.host",
    "wizard_tui.net.host_effects",
    "wizard_tui.net.host_state",
    "wizard_tui.net.host_port",
)
HOST_CORE_BANNED = {"asyncio", "socket", "selectors", "time", "threading"}
HOST_CORE_BANNED_EXACTLY = {"netplay"}
HOST_CORE_BANNED_MODULES = {
    "netplay.server",
    "netplay.client",
    "netplay.link",
    "wizard_tui.net.host_adapter",
    "wizard_tui.net.host_runtime",
    "wizard_tui.net.hosting",
}


def core_offenders(path: Path) -> list[str]:
    return [
        name
        for name in sorted(imported_modules(path))
        if top(name) in HOST_CORE_BANNED
        or name in HOST_CORE_BANNED_EXACTLY
        or any(name == b or name.startswith(b + ".") for b in HOST_CORE_BANNED_MODULES)
    ]


@pytest.mark.parametrize("module", HOST_CORE)
def test_the_host_core_imports_no_event_loop_socket_or_clock(module: str) -> None:
    path = ROOT / (module.replace(".", "/") + ".py")
    assert core_offenders(path) == []


def test_the_host_core_check_sees_the_adapter_layers() -> None:
    # The adapter itself is what the core must not be: the check finds it out.
    offenders = core_offenders(ROOT / "wizard_tui" / "net" / "host_adapter.py")
    assert {"asyncio", "netplay", "wizard_tui.net.host_runtime"} <= set(offenders)
