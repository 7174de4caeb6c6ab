"""The native core in the tests: the mark of a test that needs it (skipped without it, saying
why, or failed under ``BAOFEN_TEST_REQUIRE_NATIVE=1`` as CI sets it), and the setting profiles
both engines are compared under."""

from __future__ import annotations

import os
from typing import Any

import pytest

from baofen import RuleSet
from baofen import _native as native
from baofen.ruleset import FIELDS

REQUIRED = os.environ.get("BAOFEN_TEST_REQUIRE_NATIVE") == "1"
WHY = f"the native core is not available: {native.why_unavailable()}"
needs_native = pytest.mark.skipif(not native.available() and not REQUIRED, reason=WHY)


def _example(field: str) -> Any:
    return FIELDS[field].example


def _examples(*fields: str, **fixed: Any) -> dict[str, Any]:
    return {**{f: _example(f) for f in fields}, **fixed}


_BAOFEN_FIELDS = (
    "bid_values",
    "throw_penalty_per_card",
    "direct_penalty",
    "wangfen_all_bonus",
    "wangfen_none_penalty",
    "full_sweep_score",
    "half_sweep_score",
    "shutout_score",
)
PROFILES = {
    # Every §13 field at its default, then at its schema example, each switch both ways.
    "baofen": RuleSet.baofen(),
    "baofen-examples-direct": RuleSet.baofen(
        **_examples(
            *_BAOFEN_FIELDS,
            "no_bid_mode",
            "settlement",
            "eight_of_a_kind",
            "must_follow_structure",
        )
    ),
    "baofen-examples-pot": RuleSet.baofen(
        **_examples(
            *_BAOFEN_FIELDS,
            "pot_caller_stake",
            "pot_other_stake",
            "pot_split_above",
        )
    ),
    "hongwu": RuleSet.hongwu(),
    "hongwu-examples": RuleSet.hongwu(
        **_examples(
            "bid_min",
            "bid_step",
            "bid_max",
            "throw_penalty_per_card",
            "red5_capture_points",
            "kitty_multiplier_trump",
            "kitty_multiplier_plain",
            "points_per_level",
            must_follow_structure=True,
        )
    ),
}
