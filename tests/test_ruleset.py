"""rules.md §13: the rule set, its presets, every field, validation and the JSON round trip."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from baofen import RuleSet

# Every field of §13 with its 包分 and 包红五 default.
DEFAULTS: dict[str, tuple[Any, Any]] = {
    "variant": ("baofen", "hongwu"),
    "bid_values": ((85, 90, 95), (85, 90, 95)),
    "bid_min": (70, 70),
    "bid_step": (5, 5),
    "bid_max": (200, 200),
    "must_follow_structure": (True, False),
    "eight_of_a_kind": (True, True),
    "throw_penalty_per_card": (3, 0),
    "no_bid_mode": ("pot", "pot"),
    "direct_penalty": (40, 40),
    "pot_caller_stake": (40, 40),
    "pot_other_stake": (20, 20),
    "pot_split_above": (400, 400),
    "wangfen_all_bonus": (50, 50),
    "wangfen_none_penalty": (100, 100),
    "full_sweep_score": (500, 500),
    "half_sweep_score": (250, 250),
    "shutout_score": (-500, -500),
    "settlement": ("per_defender", "per_defender"),
    "red5_capture_points": (20, 20),
    "kitty_multiplier_trump": (2, 2),
    "kitty_multiplier_plain": (1, 1),
    "points_per_level": (10, 10),
    "coins_per_level": (1, 1),
    "hands": (None, None),
}

# A valid non-default value for each field (given on its own).
OTHER: dict[str, Any] = {
    "bid_values": (80, 85, 90, 95, 100),
    "bid_min": 60,
    "bid_step": 10,
    "bid_max": 150,
    "must_follow_structure": False,
    "eight_of_a_kind": False,
    "throw_penalty_per_card": 5,
    "no_bid_mode": "direct",
    "direct_penalty": 30,
    "pot_caller_stake": 50,
    "pot_other_stake": 10,
    "pot_split_above": 800,
    "wangfen_all_bonus": 40,
    "wangfen_none_penalty": 80,
    "full_sweep_score": 600,
    "half_sweep_score": 300,
    "shutout_score": -400,
    "settlement": "zero_sum",
    "red5_capture_points": 40,
    "kitty_multiplier_trump": 3,
    "kitty_multiplier_plain": 2,
    "points_per_level": 20,
    "coins_per_level": 5,
    "hands": 8,
}


def test_every_section_13_field_exists() -> None:
    assert set(RuleSet.model_fields) == set(DEFAULTS)


@pytest.mark.parametrize("field", sorted(DEFAULTS))
def test_preset_defaults(field: str) -> None:
    baofen, hongwu = DEFAULTS[field]
    assert getattr(RuleSet.baofen(), field) == baofen
    assert getattr(RuleSet.hongwu(), field) == hongwu


@pytest.mark.parametrize("field", sorted(OTHER))
@pytest.mark.parametrize("preset", [RuleSet.baofen, RuleSet.hongwu])
def test_every_field_as_keyword(field: str, preset: Any) -> None:
    rules = preset(**{field: OTHER[field]})
    assert getattr(rules, field) == OTHER[field]
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_variant_as_keyword() -> None:
    assert RuleSet.baofen(variant="baofen") == RuleSet.baofen()
    assert RuleSet.hongwu(variant="hongwu") == RuleSet.hongwu()
    assert RuleSet.create(variant="hongwu") == RuleSet.hongwu()
    with pytest.raises(ValueError, match="variant"):
        RuleSet.baofen(variant="hongwu")


def test_per_variant_defaults_follow_the_variant() -> None:
    assert RuleSet(variant="hongwu") == RuleSet.hongwu()
    assert RuleSet() == RuleSet.baofen()
    # A table may turn structure on in 包红五, and set a throw penalty.
    rules = RuleSet.hongwu(must_follow_structure=True, throw_penalty_per_card=2)
    assert rules.must_follow_structure and rules.throw_penalty_per_card == 2
    assert not RuleSet.baofen(must_follow_structure=False).must_follow_structure


def test_bid_grids() -> None:
    assert RuleSet.baofen().bid_grid() == (85, 90, 95)
    grid = RuleSet.hongwu().bid_grid()
    assert grid[0] == 70 and grid[-1] == 200 and len(grid) == 27
    assert all(b - a == 5 for a, b in itertools.pairwise(grid))
    grid = RuleSet.hongwu(bid_min=80, bid_step=20, bid_max=160).bid_grid()
    assert grid == (80, 100, 120, 140, 160)


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"pot_caller_stake": -1}, "pot_caller_stake"),
        ({"pot_other_stake": -20}, "pot_other_stake"),
        ({"direct_penalty": -40}, "direct_penalty"),
        ({"pot_split_above": -1}, "pot_split_above"),
        ({"throw_penalty_per_card": -3}, "throw_penalty_per_card"),
        ({"wangfen_all_bonus": -1}, "wangfen_all_bonus"),
        ({"wangfen_none_penalty": -1}, "wangfen_none_penalty"),
        ({"red5_capture_points": -20}, "red5_capture_points"),
        ({"kitty_multiplier_trump": -2}, "kitty_multiplier_trump"),
        ({"kitty_multiplier_plain": -1}, "kitty_multiplier_plain"),
        ({"bid_values": []}, "bid_values"),
        ({"bid_values": [90, 85]}, "bid_values"),
        ({"bid_values": [85, 85]}, "bid_values"),
        ({"bid_values": [-5]}, "bid_values"),
        ({"bid_values": "85"}, "bid_values"),
        ({"bid_step": 0}, "bid_step"),
        ({"bid_step": -5}, "bid_step"),
        ({"bid_max": 73}, "bid_max"),
        ({"bid_max": 60}, "bid_max"),
        ({"bid_min": 72}, "bid_max"),
        ({"points_per_level": 0}, "points_per_level"),
        ({"coins_per_level": 0}, "coins_per_level"),
        ({"hands": 0}, "hands"),
        ({"hands": -1}, "hands"),
        ({"no_bid_mode": "lottery"}, "no_bid_mode"),
        ({"settlement": "winner_takes_all"}, "settlement"),
        ({"variant": "tractor"}, "variant"),
        ({"no_such_field": 1}, "no_such_field"),
        ({"bid_min": "70"}, "bid_min"),
        ({"bid_min": 70.5}, "bid_min"),
        ({"hands": "8"}, "hands"),
        ({"must_follow_structure": "yes"}, "must_follow_structure"),
        ({"eight_of_a_kind": 1}, "eight_of_a_kind"),
        ({"direct_penalty": None}, "direct_penalty"),
        ({"bid_values": [85, "90"]}, "bid_values"),
    ],
)
@pytest.mark.parametrize("preset", [RuleSet.baofen, RuleSet.hongwu])
def test_bad_settings_raise_value_error_naming_the_field(
    settings: dict[str, Any], field: str, preset: Any
) -> None:
    with pytest.raises(ValueError, match=field):
        preset(**settings)


def test_from_dict_rejects_non_objects_and_bad_fields() -> None:
    with pytest.raises(ValueError):
        RuleSet.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pot_other_stake"):
        RuleSet.from_dict({**RuleSet.baofen().to_dict(), "pot_other_stake": -1})


def test_rule_sets_are_frozen() -> None:
    rules = RuleSet.baofen()
    with pytest.raises(Exception):  # noqa: B017 - pydantic raises its own frozen error
        rules.direct_penalty = 10  # type: ignore[misc]
    assert rules.direct_penalty == 40


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.baofen(),
        RuleSet.hongwu(),
        RuleSet.baofen(no_bid_mode="direct", direct_penalty=30, hands=12, settlement="zero_sum"),
        RuleSet.hongwu(bid_min=75, bid_step=25, bid_max=200, must_follow_structure=True),
    ],
)
def test_json_round_trip(rules: RuleSet) -> None:
    data = rules.to_dict()
    text = json.dumps(data)
    again = RuleSet.from_dict(json.loads(text))
    assert again == rules
    assert again.to_dict() == data
    assert set(data) == set(DEFAULTS)


def test_replace_validates() -> None:
    rules = RuleSet.baofen().replace(direct_penalty=10)
    assert rules.direct_penalty == 10
    with pytest.raises(ValueError, match="direct_penalty"):
        rules.replace(direct_penalty=-10)
