"""The engine is chosen once: the bots, the search and the review take what they play with from
the engine in use, and a block may use the other one."""

from __future__ import annotations

import inspect
import random

import pytest

from baofen import Hand, RuleSet, _native
from baofen.bots import make_bot
from baofen.bots.engine import current, native, python, use
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import SearchBot
from baofen.bots.search.determinize import Determinizer


def test_the_engine_in_use_is_the_one_chosen_at_import() -> None:
    assert current().name == _native.engine_name()
    assert python().name == "python"


def test_a_block_uses_another_engine_and_gives_it_back() -> None:
    before = current()
    with use(python()) as engine:
        assert current() is engine
        bot = make_bot("search", seed=1, iterations=8)
    assert current() is before
    assert isinstance(bot, SearchBot) and bot.engine is engine and bot.rule.engine is engine


def test_the_python_engine_plays_out_python_hands_only() -> None:
    hand = Hand(RuleSet.baofen(), seed=4)
    results = python().play_out(hand.rules, [hand], [RuleBot().act(hand.observation(0))])
    assert len(results) == 1 and results[0][0] is not None
    with pytest.raises(TypeError):
        python().play_out(hand.rules, [object()], [RuleBot().act(hand.observation(0))])  # type: ignore[list-item]


def test_the_python_engine_draws_python_worlds() -> None:
    hand = Hand(RuleSet.baofen(), seed=4)
    rule = RuleBot()
    hand.play_out([rule] * 4, until=lambda h: len(h.tricks) == 3)
    seat = hand.to_act
    assert seat is not None
    sampler = python().worlds(hand.observation(seat))
    assert type(sampler) is Determinizer
    drawn = sampler.weighted_worlds(random.Random(1), 3)
    assert drawn and all(isinstance(world, Hand) for world, _ in drawn)


@pytest.mark.skipif(_native.available(), reason="the native core is built here")
def test_the_native_engine_says_why_it_is_not_there() -> None:
    with pytest.raises(RuntimeError, match="native engine is not available"):
        native()


def test_no_constructor_takes_an_engine_flag() -> None:
    from baofen.bots.levels import EasyBot
    from baofen.review import Judge, review_action, review_hand

    flags = {"engine", "native", "native_worlds"}
    for made in (RuleBot, SearchBot, Determinizer, EasyBot, Judge, review_action, review_hand):
        assert not flags & set(inspect.signature(made).parameters), made
