"""The package's shape, as docs/architecture.md declares it: its layers and what each may
import (Python imports and the native core's C++ includes), the packages each layer may use and
the extras that install them, no import circles in ``src/baofen`` (an import inside a function
or under ``TYPE_CHECKING`` counts as much as one at the top), the size caps, and the moved
modules' re-exports."""

from __future__ import annotations

import ast
import fnmatch
import importlib
import re
import sys
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "baofen"
NATIVE = PACKAGE / "_native"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def declaration() -> dict[str, Any]:
    """The one fenced TOML block of docs/architecture.md."""
    blocks = re.findall(r"^```toml\n(.*?)^```", ARCHITECTURE.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"docs/architecture.md holds {len(blocks)} TOML blocks, not one"
    return tomllib.loads(blocks[0])


DECLARED = declaration()
CAPS: dict[str, int] = DECLARED["caps"]
LAYERS: dict[str, tuple[str, ...]] = {
    name: tuple(layer["modules"]) for name, layer in DECLARED["layers"].items()
}
"""Layer → the packages in it."""
MAY_IMPORT: dict[str, set[str]] = {
    name: (set(LAYERS) if "*" in layer["may_import"] else {name, *layer["may_import"]})
    for name, layer in DECLARED["layers"].items()
}
"""Layer → the layers its modules may import (anywhere in their code), itself included."""
THIRD_PARTY: dict[str, set[str]] = {
    name: set(layer["packages"]) for name, layer in DECLARED["layers"].items()
}
"""Layer → the packages outside the standard library its modules may import."""
EXTRA_OF_LAYER: dict[str, str | None] = {
    name: layer["extra"] or None for name, layer in DECLARED["layers"].items()
}
"""Layer → the extra that installs its packages (``None``: the plain install)."""
DISTRIBUTION: dict[str, str] = DECLARED["distributions"]
"""Import name → the distribution that installs it, where they differ."""
BINDINGS = "bindings"
"""The native core's pybind11 glue: a layer of C++ files only, which may include every header."""
NATIVE_FILES: dict[str, tuple[str, ...]] = {
    **{name: tuple(layer.get("native", ())) for name, layer in DECLARED["layers"].items()},
    BINDINGS: tuple(DECLARED["bindings"]["native"]),
}
"""Layer → the patterns of its C++ files in the native core."""
NATIVE_MAY_INCLUDE: dict[str, set[str]] = {
    name: MAY_IMPORT[name] | set(layer.get("native_may_include", ()))
    for name, layer in DECLARED["layers"].items()
}
"""Layer → the layers whose C++ headers its C++ files may include."""
NATIVE_PACKAGES: dict[str, set[str]] = {
    **{name: set(layer.get("native_packages", ())) for name, layer in DECLARED["layers"].items()},
    BINDINGS: set(DECLARED["bindings"]["native_packages"]),
}
"""Layer → the C++ libraries outside the standard library its files may include."""
MOVED: dict[str, str] = DECLARED["moved"]
"""Old module path → new one (the old one is a deprecated re-export)."""


def test_the_declaration_is_whole() -> None:
    for name, layer in DECLARED["layers"].items():
        assert {"modules", "may_import", "packages", "extra"} <= set(layer), name
        unknown = set(layer["may_import"]) - set(LAYERS) - {"*"}
        assert not unknown, f"{name} may import unknown layers {sorted(unknown)}"
    assert set(CAPS) == {"python", "server", "cpp"}
    # The picture names every layer the declaration does.
    picture = ARCHITECTURE.read_text(encoding="utf-8").split("```text")[1].split("```")[0]
    assert not [name for name in LAYERS if f" {name} " not in picture]


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
    """The layer of a module of the package: the one whose package names it most closely."""
    best: tuple[int, str] | None = None
    for layer, prefixes in LAYERS.items():
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), layer)
    assert best is not None, f"{module} is in no layer (docs/architecture.md)"
    return best[1]


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


def cap_of(path: Path) -> int:
    """The most lines a file of the package may have (docs/architecture.md, ``caps``)."""
    if path.suffix in (".cpp", ".hpp"):
        return CAPS["cpp"]
    return CAPS["server"] if (PACKAGE / "server") in path.parents else CAPS["python"]


SOURCES = sorted(
    [*PACKAGE.rglob("*.py"), *NATIVE.glob("*.cpp"), *NATIVE.glob("*.hpp")],
    key=lambda path: str(path),
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_file_is_over_its_cap(path: Path) -> None:
    # Python 500 lines, the server's modules 400 (each is one part with one job), C++ 600.
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= cap_of(path), (
        f"{path.relative_to(PACKAGE.parent)} has {lines} lines (the cap is {cap_of(path)})"
    )


def test_the_caps_are_the_declared_ones() -> None:
    assert cap_of(PACKAGE / "hand.py") == CAPS["python"] == 500
    assert cap_of(PACKAGE / "server" / "cluster" / "node.py") == CAPS["server"] == 400
    assert cap_of(NATIVE / "engine.hpp") == cap_of(NATIVE / "hand.cpp") == CAPS["cpp"] == 600


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
    assert layer_of("baofen._native.batch") == "engine"
    assert layer_of("baofen.bots.base") == "bots" and layer_of("baofen.env.neural") == "research"
    assert layer_of("baofen.accounts.ratings") == layer_of("baofen.ratings") == "accounts"
    assert layer_of("baofen.research.ray_runner") == "research"
    assert layer_of("baofen.arena.play") == "tools" and layer_of("baofen.cli.arena") == "cli"
    assert "wire" not in MAY_IMPORT["engine"] and "research" not in MAY_IMPORT["bots"]
    assert "bots" not in MAY_IMPORT["wire"] and "server" not in MAY_IMPORT["research"]
    assert MAY_IMPORT["cli"] == set(LAYERS)
    assert third_party_of(PACKAGE / "server" / "config.py") >= {"pydantic", "pydantic_settings"}


def test_every_module_imports_only_its_layers_packages() -> None:
    wrong = []
    for module, (path, _) in sorted(modules().items()):
        extra = third_party_of(path) - THIRD_PARTY[layer_of(module)]
        if extra:
            wrong.append(f"{module} ({layer_of(module)}) imports {', '.join(sorted(extra))}")
    assert not wrong, "packages outside a layer's list:\n" + "\n".join(wrong)


def test_only_the_cluster_package_of_the_server_speaks_to_redis() -> None:
    cluster = DECLARED["layers"]["server"]["redis_only_in"]
    speaking = {
        module for module, (path, _) in modules().items()
        if layer_of(module) == "server" and "redis" in third_party_of(path)
    }
    assert speaking, "the cluster's modules import redis"
    outside = sorted(m for m in speaking if not m.startswith(cluster + "."))
    assert not outside, f"Redis code outside {cluster}: {outside}"


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


# -- the native core's C++ --------------------------------------------------------------------

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)


def native_files() -> list[Path]:
    return sorted([*NATIVE.glob("*.cpp"), *NATIVE.glob("*.hpp")])


def native_layer_of(name: str) -> str:
    """The layer of a C++ file of the native core (docs/architecture.md, ``native``)."""
    layers = [
        layer for layer, patterns in NATIVE_FILES.items()
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
    ]
    assert len(layers) == 1, (
        f"_native/{name} is in {layers or 'no layer'}: name it once in docs/architecture.md"
    )
    return layers[0]


def includes_of(path: Path) -> tuple[set[str], set[str]]:
    """The native core's headers that a C++ file includes, and the libraries outside the C++
    standard library it includes (the first part of ``<library/header.h>``)."""
    local: set[str] = set()
    libraries: set[str] = set()
    for quote, name in INCLUDE.findall(path.read_text(encoding="utf-8")):
        if quote == '"':
            local.add(name)
        elif "/" in name or name.endswith(".h"):
            libraries.add(name.split("/")[0].removesuffix(".h"))
    return local, libraries


def test_includes_are_read() -> None:
    local, libraries = includes_of(NATIVE / "bindings.hpp")
    assert "engine.hpp" in local and libraries == {"pybind11"}
    assert includes_of(NATIVE / "engine.hpp")[1] == set()


def test_every_cpp_file_includes_only_the_layers_below_it() -> None:
    files = native_files()
    assert files, "the native core's sources are in src/baofen/_native"
    wrong = []
    for path in files:
        layer = native_layer_of(path.name)
        local, _ = includes_of(path)
        for header in sorted(local):
            assert (NATIVE / header).exists(), f"_native/{path.name} includes a missing {header}"
            target = native_layer_of(header)
            if layer != BINDINGS and target not in NATIVE_MAY_INCLUDE[layer]:
                wrong.append(f"_native/{path.name} ({layer}) includes {header} ({target})")
    assert not wrong, "includes across the layers:\n" + "\n".join(wrong)


def test_the_engine_headers_stand_alone() -> None:
    # What the C++ layering is for: the engine's C++ knows no player and no environment.
    assert native_layer_of("engine.hpp") == native_layer_of("hand.cpp") == "engine"
    assert native_layer_of("rule_player.hpp") == "bots"
    assert native_layer_of("env.cpp") == "research"
    assert native_layer_of("module.cpp") == BINDINGS
    assert "bots" not in NATIVE_MAY_INCLUDE["engine"]
    assert not {"research", BINDINGS} & NATIVE_MAY_INCLUDE["bots"]


def test_every_cpp_file_includes_only_its_layers_libraries() -> None:
    wrong = []
    for path in native_files():
        layer = native_layer_of(path.name)
        extra = includes_of(path)[1] - NATIVE_PACKAGES[layer]
        if extra:
            wrong.append(f"_native/{path.name} ({layer}) includes {', '.join(sorted(extra))}")
    assert not wrong, "C++ libraries outside a layer's list:\n" + "\n".join(wrong)


# -- moved modules ----------------------------------------------------------------------------


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_is_a_deprecated_re_export(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shim = importlib.import_module(old)
    assert any(
        issubclass(w.category, DeprecationWarning) and MOVED[old] in str(w.message)
        for w in caught
    ), f"importing {old} does not warn that it moved to {MOVED[old]}"
    public = getattr(new, "__all__", [name for name in vars(new) if not name.startswith("_")])
    missing = [name for name in public if getattr(shim, name, None) is not getattr(new, name)]
    assert not missing, f"{old} does not re-export {missing}"
    assert layer_of(old) == layer_of(MOVED[old])
