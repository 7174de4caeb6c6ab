"""The package's shape: no import circles in ``src/baofen`` (an import inside a function or under
``TYPE_CHECKING`` counts as much as one at the top), and no module over 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "baofen"
MAX_LINES = 600

def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, with its file and whether it is a package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def imports_of(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its code."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            # ``from x import y`` imports the module x.y when there is one, else a name of x.
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            # ``import a.b.c`` runs a, a.b and a.b.c: the deepest of the package's modules counts.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, *found[name], known) for name in found}


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: set[frozenset[str]] = set()

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.add(frozenset(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_the_import_graph_is_read_whole() -> None:
    graph = import_graph()
    # A module-level import, a relative one from a package, one inside a function and one
    # under TYPE_CHECKING are all seen.
    assert "baofen.hand" in graph["baofen"]
    assert {"baofen.order", "baofen.tricks"} <= graph["baofen.ruleset"]
    assert "baofen.server.app" in graph["baofen.cli.serve"]  # inside a function
    assert "baofen.cli.root" in graph["baofen.cli.play"]


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == {frozenset({"a", "b", "c"})}


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" ↔ ".join(sorted(c)) for c in found)


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda path: str(path.relative_to(PACKAGE))
)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines"
