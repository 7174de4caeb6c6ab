"""The tables the C++ core shares with the Python engine are held once: ``tables.hpp`` is what
``baofen._native.tables`` renders from the Python definitions, no other C++ file defines them
again, and the rule player's weights are the Python dataclass's, name for name and default for
default. The C++ files keep to the size cap."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import pytest

from baofen import _native
from baofen._native import batch, tables
from baofen.bots.rule.play import RuleWeights
from baofen.hand import Hand
from baofen.ruleset import RuleSet

SOURCES = Path(tables.__file__).parent
CPP = sorted([*SOURCES.glob("*.cpp"), *SOURCES.glob("*.hpp")])
native = pytest.mark.skipif(not _native.available(), reason=_native.why_unavailable())


def test_tables_hpp_is_rendered_from_the_python_definitions() -> None:
    assert tables.HEADER.read_text(encoding="utf-8") == tables.header(), (
        "tables.hpp is stale: run `python -m baofen._native.tables` and rebuild"
    )


def test_no_other_cpp_file_defines_a_table_again() -> None:
    names = re.findall(r"constexpr [\w:<>, ]+? (\w+) =", tables.header())
    assert {"KINDS", "POINTS", "RED_FIVE", "KITTY_SIZE", "ACTION_BID"} <= set(names)
    again = [
        f"{path.name}: {name}"
        for path in CPP if path != tables.HEADER
        for name in names
        if re.search(
            rf"\b(constexpr|const)\b[^;=(\n]*\b{name}\s*(=|\{{|\[)|#define {name}\b",
            path.read_text(encoding="utf-8"),
        )
    ]
    assert not again, again


def test_the_result_layout_covers_a_row() -> None:
    assert tables.RESULT_AT["failed_throws"] == tables.RESULT_FIELDS - 1
    assert all(len(names) == 5 for names in tables.BREAKDOWN.values())
    assert dict(tables.RESULT_LAYOUT)["breakdown"] == 5


def test_no_cpp_file_is_over_the_size_cap() -> None:
    long = {path.name: n for path in CPP
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


@native
def test_the_native_rule_weights_are_the_dataclass() -> None:
    core = _native.core()
    assert list(core.RuleWeights().as_dict().items()) == list(asdict(RuleWeights()).items())


@native
def test_the_built_core_reads_the_same_tables() -> None:
    core = _native.core()
    assert core.RESULT_FIELDS == tables.RESULT_FIELDS
    rules = RuleSet.create(variant="hongwu")
    played = batch.random_hands(rules, [7])[0]
    hand = batch.native_hand(Hand(rules, seed=7))
    hand.play_out(3)
    kinds = {kind for kind, *_ in hand.actions()}
    assert kinds == {tables.ACTION_BID, tables.ACTION_DECLARE, tables.ACTION_PLAY}
    assert [kind for kind, *_ in hand.actions()][-1] == tables.ACTION_PLAY
    assert played.result.kind in (*tables.RESULT_KINDS, None)
