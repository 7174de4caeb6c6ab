"""The package's shape: its layers and what each may import, no import circles in
``src/baofen`` (an import inside a function or under ``TYPE_CHECKING`` counts as much as one at
the top), and no module over 600 lines (400 in the server)."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "baofen"
MAX_LINES = 600
MAX_SERVER_LINES = 400
"""The server's modules are held shorter: each is one part with one job (issue 27, item 1)."""

# -- the layers ---------------------------------------------------------------------------------
#
#   engine → bots → tools (arena, analysis) ─┐
#        ↘ wire, store (and accounts) ───────┼→ server → cli
#          research (env, ray_runner) ───────┘   (cli is the top: it may import every layer)
#
# Each module belongs to the first layer whose prefixes name it (a prefix names a module and
# everything under it).

LAYERS: dict[str, tuple[str, ...]] = {
    "cli": ("baofen.cli", "baofen.__main__"),
    "server": ("baofen.server",),
    "research": ("baofen.env", "baofen.ray_runner"),
    "wire": ("baofen.wire",),
    "store": ("baofen.store",),
    "accounts": ("baofen.ratings", "baofen.usernames"),
    "tools": ("baofen.arena", "baofen.review", "baofen.analysis", "baofen.analysis_confirm"),
    "bots": ("baofen.bots",),
    "engine": ("baofen",),
}
"""Layer → the modules in it."""

MAY_IMPORT: dict[str, set[str]] = {
    "engine": {"engine"},
    "bots": {"engine", "bots"},
    "tools": {"engine", "bots", "tools"},
    "accounts": {"accounts"},
    "wire": {"engine", "accounts", "wire"},
    "store": {"accounts", "store"},
    "research": {"engine", "bots", "research"},
    "server": {"engine", "bots", "tools", "accounts", "wire", "store", "server"},
    "cli": set(LAYERS),
}
"""Layer → the layers its modules may import (anywhere in their code)."""

THIRD_PARTY: dict[str, set[str]] = {
    # The engine and the bots are the standard library only (``pip install baofen``).
    "engine": set(),
    "bots": set(),
    "tools": {"matplotlib"},  # the arena's chart, the ``arena`` extra (imported when drawn)
    "accounts": {"openskill"},
    "wire": {"pydantic", "pydantic_core"},
    "store": {"sqlalchemy", "alembic", "orjson"},
    "research": {"numpy", "torch", "gymnasium", "pettingzoo", "ray"},
    "server": {
        "fastapi", "starlette", "uvicorn", "pydantic", "pydantic_settings", "redis", "argon2",
        "segno", "sqlalchemy", "orjson",
    },
    "cli": {"typer", "rich", "uvicorn", "redis", "pydantic", "sqlalchemy"},
}
"""Layer → the packages outside the standard library its modules may import."""

EXTRA_OF_LAYER: dict[str, str | None] = {
    "engine": None, "bots": None, "accounts": "server", "wire": "server", "store": "server",
    "server": "server", "cli": "server", "research": "research", "tools": "arena",
}
"""Layer → the extra that installs its packages (``None``: the plain install)."""

DISTRIBUTION = {
    "argon2": "argon2-cffi", "pydantic_settings": "pydantic-settings", "starlette": "fastapi",
    "pydantic_core": "pydantic",
}
"""Import name → the distribution that installs it, where they differ (starlette comes with
fastapi, pydantic_core with pydantic)."""

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


def layer_of(module: str) -> str:
    """The layer of a module of the package (see :data:`LAYERS`)."""
    for layer, prefixes in LAYERS.items():
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return layer
    raise AssertionError(f"{module} is in no layer")


def third_party_of(path: Path) -> set[str]:
    """The top-level names of the packages outside the standard library that a module imports,
    anywhere in its code."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        out |= {
            top for top in (name.partition(".")[0] for name in names)
            if top not in sys.stdlib_module_names and top != "baofen"
        }
    return out


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


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "server").rglob("*.py")),
    ids=lambda path: str(path.relative_to(PACKAGE)),
)
def test_no_server_module_is_over_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_SERVER_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines"


def test_every_module_imports_only_the_layers_below_it() -> None:
    wrong = [
        f"{module} ({layer_of(module)}) imports {target} ({layer_of(target)})"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if layer_of(target) not in MAY_IMPORT[layer_of(module)]
    ]
    assert not wrong, "imports across the layers:\n" + "\n".join(wrong)


def test_the_layer_rules_are_checked_on_known_imports() -> None:
    # What the rules are for: the engine reads no wire, the bots no research environment.
    assert layer_of("baofen.hand") == layer_of("baofen.record") == "engine"
    assert layer_of("baofen.bots.base") == "bots" and layer_of("baofen.env.neural") == "research"
    assert "wire" not in MAY_IMPORT["engine"] and "research" not in MAY_IMPORT["bots"]
    assert "bots" not in MAY_IMPORT["wire"]
    assert third_party_of(PACKAGE / "server" / "config.py") >= {"pydantic", "pydantic_settings"}


def test_every_module_imports_only_its_layers_packages() -> None:
    wrong = []
    for module, (path, _) in sorted(modules().items()):
        extra = third_party_of(path) - THIRD_PARTY[layer_of(module)]
        if extra:
            wrong.append(f"{module} ({layer_of(module)}) imports {', '.join(sorted(extra))}")
    assert not wrong, "packages outside a layer's list:\n" + "\n".join(wrong)


def test_only_the_cluster_package_of_the_server_speaks_to_redis() -> None:
    speaking = {
        module for module, (path, _) in modules().items()
        if layer_of(module) == "server" and "redis" in third_party_of(path)
    }
    assert speaking, "the cluster's modules import redis"
    outside = sorted(m for m in speaking if not m.startswith("baofen.server.cluster."))
    assert not outside, f"Redis code outside baofen.server.cluster: {outside}"


def _requirement_names(requirements: list[str]) -> set[str]:
    names = set()
    for requirement in requirements:
        name = requirement
        for stop in "<>=!~;[ ":
            name = name.split(stop)[0]
        names.add(name.lower().replace("_", "-"))
    return names


def test_each_layers_packages_are_installed_by_its_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = _requirement_names(project["dependencies"])
    extras = {
        name: _requirement_names(requirements) | base
        for name, requirements in project["optional-dependencies"].items()
    }
    missing = []
    for layer, packages in THIRD_PARTY.items():
        extra = EXTRA_OF_LAYER[layer]
        installed = base if extra is None else extras[extra]
        for package in sorted(packages):
            if DISTRIBUTION.get(package, package).replace("_", "-") not in installed:
                missing.append(f"{layer}: {package} (not in {extra or 'the plain install'})")
    assert not missing, "packages no extra installs:\n" + "\n".join(missing)
    # The plain install is the engine, the bots and records: nothing of the server's.
    assert not base, f"the plain install requires {sorted(base)}"
    # [dev] installs what the server needs too (the README runs `baofen serve` after it).
    assert "baofen[server]" in {r.replace(" ", "") for r in project["optional-dependencies"]["dev"]}
