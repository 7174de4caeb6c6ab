"""The lanes of the suite (tests/lanes.py) put on its tests as markers, so that ``pytest -m``
selects them: ``python3 -m pytest -m "(engine or bots) and not slow"`` is the fast lane.

A module or folder whose lanes the ``-m`` expression rules out is not even imported, so a lane
runs with only its own extras installed (the engine and bots lanes without the research extra;
tests/test_suite_shape.py checks it) and skips the other lanes' start-up.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from .lanes import LANES, SLOW, TESTS, lanes_of, relative

LANE_NAMES = frozenset(lane for lanes in LANES.values() for lane in lanes)
WORD = re.compile(r"[\w:+\-.\[\]\\/]+")
"""A name in a ``-m`` expression (the characters pytest's own scanner takes in one)."""
MOST_FREE_NAMES = 8
"""Beyond this many markers other than the lanes in one expression, every module is collected."""


def could_select(expression: str, lanes: tuple[str, ...]) -> bool:
    """Whether ``expression`` may select a test that carries ``lanes``, whatever other markers
    (``slow``, ``parametrize``…) the test carries; True for an expression pytest will refuse
    itself, saying why."""
    try:
        compiled = Expression.compile(expression)
    except Exception:  # pytest 9 raises SyntaxError, pytest 8 its own ParseError
        return True
    free = sorted(set(WORD.findall(expression)) - {"and", "or", "not"} - LANE_NAMES)
    if len(free) > MOST_FREE_NAMES:
        return True
    for values in itertools.product((False, True), repeat=len(free)):
        carried = {name for name, value in zip(free, values, strict=True) if value}
        if compiled.evaluate(carrying(carried | set(lanes))):
            return True
    return False


def carrying(markers: set[str]) -> Callable[..., bool]:
    """A ``-m`` matcher for a test that carries ``markers``."""

    def matches(name: str, /, **_: object) -> bool:
        return name in markers

    return matches


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a test module or folder none of whose tests ``-m`` can select."""
    expression = config.getoption("markexpr")
    if not expression or not collection_path.is_relative_to(TESTS):
        return None
    if collection_path.is_file() and not collection_path.name.startswith("test_"):
        return None
    lanes = lanes_of(collection_path)
    if lanes is None:  # not in the map: collected, so that the suite's shape test fails on it
        return None
    return None if could_select(expression, lanes) else True


HOST_NETWORK = ("web/", "server/test_partitions.py")
"""Tests run in one worker, one after another: the partition tests add a bridge and links to
this host's network, and Chromium drops every request under way when the host's network
changes (net::ERR_NETWORK_CHANGED: a page left blank, a click that does nothing)."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test with its module's lanes, and ``slow`` where tests/lanes.py says so (before
    ``-m`` deselects by them)."""
    for item in items:
        path = Path(item.path)
        if not path.is_relative_to(TESTS):
            continue
        for lane in lanes_of(path) or ():
            item.add_marker(lane)
        if f"{relative(path)}::{item.nodeid.partition('::')[2].partition('[')[0]}" in SLOW:
            item.add_marker("slow")
        if relative(path).startswith(HOST_NETWORK):
            item.add_marker(pytest.mark.xdist_group("host_network"))
