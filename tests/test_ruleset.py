"""rules.md §13: the rule set, its presets, every field, validation and the JSON round trip."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Any

import pytest

from baofen import RuleSet
from baofen.ruleset import FIELDS
from baofen.setting import GAMES, SCHEMA_KEY, Setting, settings_of
from baofen.wire.rules import RuleSetModel

RULE_BOOK = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
NOT_IN_GAME = object()
"""A rule book default marked "—": the field does not apply to that game."""


def documented_defaults() -> dict[str, tuple[Any, Any]]:
    """Each field of the rule book's §13 table with its 包分 and 包红五 default (JSON values, or
    :data:`NOT_IN_GAME` for "—"), read from docs/rules.md: the code must say what it says."""
    text = RULE_BOOK.read_text(encoding="utf-8")
    section = text[text.index("## 13. Settings") :]
    section = section[: section.index("\n---")]
    defaults: dict[str, tuple[Any, Any]] = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        name, baofen, hongwu = cells[0].strip("`"), cells[2], cells[3]
        defaults[name] = (_documented(baofen), _documented(hongwu))
    return defaults


def _documented(cell: str) -> Any:
    if cell.startswith("—"):
        return NOT_IN_GAME
    match = re.match(r"`([^`]+)`", cell)
    assert match, f"no default in the rule book's cell {cell!r}"
    return json.loads(match.group(1))


DEFAULTS = documented_defaults()
SETTINGS = settings_of(RuleSet)
EXAMPLES = {name: spec.example for name, spec in FIELDS.items() if spec.example is not None}
"""A valid non-default value of each setting (given on its own): the field's first example."""


def test_every_section_13_field_exists() -> None:
    assert set(FIELDS) == set(DEFAULTS)
    assert len(DEFAULTS) >= 25


def test_every_field_but_the_variant_is_a_setting_with_an_example() -> None:
    assert set(SETTINGS) == set(FIELDS) - {"variant"}
    assert set(EXAMPLES) == set(SETTINGS)


@pytest.mark.parametrize("field", sorted(DEFAULTS))
def test_preset_defaults(field: str) -> None:
    for game, documented in zip(GAMES, DEFAULTS[field], strict=True):
        value = RuleSet.create(variant=game).to_dict()[field]
        if documented is NOT_IN_GAME:
            # it keeps the field's own default, and the settings form of that game leaves it out
            assert value == RuleSet().to_dict()[field] == _json(FIELDS[field].default)
            assert game not in SETTINGS[field].games
        else:
            assert value == documented
            assert field == "variant" or game in SETTINGS[field].games


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("field", sorted(SETTINGS))
def test_setting_metadata_is_consistent(field: str) -> None:
    setting = SETTINGS[field]
    schema = RuleSetModel.model_json_schema()["properties"][field]
    assert schema[SCHEMA_KEY] == setting.to_json()
    assert setting.label == f"field.{field}"
    assert (setting.choice_labels is not None) == ("enum" in schema)
    if setting.shown_when is not None:
        other = setting.shown_when.field
        assert other in SETTINGS and set(setting.games) <= set(SETTINGS[other].games)
        RuleSet.create(**{other: setting.shown_when.value})  # a value the other field takes


@pytest.mark.parametrize("field", sorted(EXAMPLES))
@pytest.mark.parametrize("preset", [RuleSet.baofen, RuleSet.hongwu])
def test_every_field_as_keyword(field: str, preset: Any) -> None:
    rules = preset(**{field: EXAMPLES[field]})
    assert rules.to_dict()[field] == EXAMPLES[field]
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize("field", sorted(EXAMPLES))
def test_each_example_changes_a_default(field: str) -> None:
    defaults = [RuleSet.create(variant=game).to_dict()[field] for game in SETTINGS[field].games]
    assert any(EXAMPLES[field] != default for default in defaults)


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
    with pytest.raises(FrozenInstanceError):
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


@pytest.mark.parametrize(
    ("metadata", "words"),
    [
        ({"group": "nowhere", "label": "field.x"}, "group"),
        ({"group": "play", "label": "field.x", "games": ()}, "belongs to"),
        ({"group": "play", "label": "field.x", "games": ("bridge",)}, "belongs to"),
        ({"group": "play", "label": ""}, "label"),
    ],
)
def test_bad_setting_metadata_is_refused(metadata: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Setting(**metadata)
