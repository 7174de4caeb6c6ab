"""The suite's own shape: every test module has its lane (tests/lanes.py), the map names only
modules and tests that exist, no module of the suite imports a test module (shared helpers live
in helper modules), no two tests share a name, and the engine and bots lanes collect with
the research extra missing."""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache
from pathlib import Path

from .helpers import BLOCKER, run_python
from .lanes import LANES, SLOW, TESTS, lanes_of, relative

MODULES = sorted(TESTS.rglob("test_*.py"))

RESEARCH = ("torch", "numpy", "pettingzoo", "gymnasium", "ray", "sb3_contrib", "stable_baselines3")
"""The research extra's packages."""


@cache
def parsed(module: Path) -> ast.Module:
    return ast.parse(module.read_text(encoding="utf-8"))


def names_of_tests(module: Path) -> list[str]:
    """The names of ``module``'s test functions, ``Class::name`` for those in a class."""
    names = []
    for node in parsed(module).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names += [
                f"{node.name}::{inner.name}" for inner in node.body
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return [name for name in names if name.rpartition("::")[2].startswith("test")]


def imported_modules(module: Path) -> list[str]:
    """Every module ``module`` imports from, as the import writes it (``.x``, ``tests.x``)."""
    found = []
    for node in ast.walk(parsed(module)):
        if isinstance(node, ast.ImportFrom):
            found.append("." * node.level + (node.module or ""))
            if node.module is None:  # from . import test_x
                found += ["." * node.level + alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return found


def test_every_test_module_has_a_lane() -> None:
    known = set(LANES.values())
    missing = [relative(module) for module in MODULES if lanes_of(module) is None]
    assert not missing, f"add these test modules to tests/lanes.py: {missing}"
    assert all(lanes and set(lanes) <= set().union(*known) for lanes in known)


def test_the_lane_map_names_what_exists() -> None:
    stale = [name for name in LANES if not (TESTS / name).exists()]
    assert not stale, f"tests/lanes.py names what is not there: {stale}"
    tests = {f"{relative(module)}::{name}" for module in MODULES for name in names_of_tests(module)}
    assert tests >= SLOW, f"tests/lanes.py marks slow what is not a test: {sorted(SLOW - tests)}"


def test_no_module_imports_a_test_module() -> None:
    modules = {module.stem for module in MODULES}
    found = [
        f"{relative(module)}: {name}"
        for module in sorted(TESTS.rglob("*.py"))
        for name in imported_modules(module)
        if name.rpartition(".")[2] in modules
    ]
    assert not found, f"move what these import into a helper module or a fixture: {found}"


def test_no_two_tests_share_a_name() -> None:
    shadowed = [
        f"{relative(module)}::{name}"
        for module in MODULES
        for name, count in Counter(names_of_tests(module)).items()
        if count > 1
    ]
    assert not shadowed, f"a second test of one name hides the first: {shadowed}"
    names = Counter(name for module in MODULES for name in set(names_of_tests(module)))
    shared = sorted(name for name, count in names.items() if count > 1)
    assert not shared, f"tests of one name in several modules: {shared}"


def test_the_engine_and_bots_lanes_collect_without_the_research_extra() -> None:
    program = BLOCKER.format(blocked=set(RESEARCH)) + (
        "import pytest\n"
        "try:\n"
        "    import numpy\n"
        "except ModuleNotFoundError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('the blocker let numpy in')\n"
        "sys.exit(pytest.main(['--collect-only', '-q', '-n', '0', '-p', 'no:cacheprovider',\n"
        "                      '-m', 'engine or bots']))\n"
    )
    done = run_python(program)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ tests collected in [\d.]+s", summary), done.stdout[-3000:]
