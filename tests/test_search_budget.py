"""The search's budget as one value: what its repr shows, how options become one, and the levels
as named values of it."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from baofen.bots import make_bot, parse_spec
from baofen.bots.levels import HARD, MASTER, hard_bot
from baofen.bots.rule.play import RuleWeights
from baofen.bots.search.bot import SearchBot
from baofen.bots.search.budget import DEFAULT_ITERATIONS, SearchBudget


def test_the_repr_shows_only_what_is_set() -> None:
    assert repr(SearchBudget()) == "SearchBudget()"
    assert repr(SearchBudget(iterations=8, gate=4)) == "SearchBudget(iterations=8, gate=4)"
    assert repr(SearchBudget(halving=1, kitty_wide=0)) == "SearchBudget()"
    assert "prior='evaluator'" in repr(MASTER) and "prior" not in repr(HARD)


def test_a_budget_is_a_frozen_value() -> None:
    assert SearchBudget(iterations=8) == SearchBudget(iterations=8)
    assert len({SearchBudget(), SearchBudget(), HARD}) == 2
    with pytest.raises(FrozenInstanceError):
        HARD.iterations = 1  # type: ignore[misc]


def test_options_are_normalised_as_the_arena_spells_them() -> None:
    name, options = parse_spec("search:halving=0:wide=1:kitty_wide=baofen+hongwu:iterations=8")
    bot = make_bot(name, **dict(options))
    assert isinstance(bot, SearchBot)
    assert bot.budget == SearchBudget(iterations=8, halving=False, wide=True,
                                      kitty_wide="hongwu+baofen")
    assert bot.budget.kitty_wide == "baofen+hongwu"
    assert bot.budget.wide_kitty_games == {"baofen", "hongwu"}
    assert SearchBudget(kitty_wide=1) == SearchBudget(kitty_wide="baofen+hongwu")


def test_search_options_and_rule_weights_part() -> None:
    bot = make_bot("search", seed=1, iterations=16, plain_top=2.0)
    assert isinstance(bot, SearchBot)
    assert bot.budget == SearchBudget(iterations=16)
    assert bot.rule.weights == RuleWeights(plain_top=2.0)
    assert make_bot("search").budget.iterations == DEFAULT_ITERATIONS  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown rule bot option"):
        make_bot("search", iterationz=16)


@pytest.mark.parametrize(("options", "match"), [
    ({"iterations": 0}, "iterations"), ({"candidates": 0}, "candidates"),
    ({"time_limit": 0}, "time_limit"), ({"objective": "luck"}, "objective"),
    ({"bidder": "shy"}, "bidder"), ({"prior": "oracle"}, "prior"), ({"others": "x"}, "others"),
    ({"inference": -1}, "inference"), ({"noise": 2}, "noise"), ({"gate": -1}, "gate"),
    ({"confidence": 1.0}, "confidence"), ({"kitty_wide": "chess"}, "kitty_wide"),
    ({"contract": 4, "bidder": "bold"}, "contract"),
])
def test_bad_budgets_are_refused_naming_the_field(options: dict[str, object],
                                                  match: str) -> None:
    with pytest.raises(ValueError, match=match):
        SearchBudget(**options)  # type: ignore[arg-type]


def test_the_levels_are_named_budgets_with_options_over_them() -> None:
    assert hard_bot().budget == HARD and make_bot("master").budget == MASTER  # type: ignore[attr-defined]
    assert hard_bot(iterations=8).budget == SearchBudget(**{**vars(HARD), "iterations": 8})
    # the searched bids take the place of the level's bold ones
    searched = hard_bot(contract=4)
    assert searched.budget.bidder == "rule" and searched.budget.contract == 4
    assert hard_bot(contract=0).budget.bidder == HARD.bidder == "bold"
