"""The layers stay apart: the rules and netplay never import Textual, netplay never imports
wizard_tui, and the engine does no I/O (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # resolve relative imports against the file's package
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                found.add(node.module)
    return found


def modules_under(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def top(name: str) -> str:
    return name.split(".")[0]


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
