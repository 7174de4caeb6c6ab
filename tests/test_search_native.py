"""The search on the native core: 困难's play-outs, its gate's, the kitty search's and the
contract search's go to the native core in batches, and the sampler's likelihood replay runs
there too — with the same decisions, the same per-candidate values, the same gate bounds and the
same worlds and weights as the pure-Python search (the Python engine, the reference) for the same
seed.

Without the extension these tests skip, saying why (``BAOFEN_TEST_REQUIRE_NATIVE=1``: fail).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from baofen import Hand, Observation, RuleSet
from baofen.bots.engine import native, python, use
from baofen.bots.levels import hard_bot
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import search_bot
from baofen.bots.search.contract import ContractSearch
from baofen.bots.search.determinize import Determinizer, gather
from baofen.bots.search.kitty import KittySearch
from baofen.bots.search.native_worlds import NativeSampler

from .native import needs_native

pytestmark = needs_native

VARIANTS = ("baofen", "hongwu")
ENGINES = {"native": native, "python": python}

Made = TypeVar("Made")


def made_with(engine: str, make: Callable[[], Made]) -> Made:
    """What ``make`` makes with the engine named ``engine`` in use."""
    with use(ENGINES[engine]()):
        return make()


def play_positions(variant: str, hands: int, every: int = 9, seed: int = 3) -> list[Observation]:
    """Observations of the seat to play at every ``every``-th play of rule-bot hands."""
    rules = RuleSet.create(variant=variant)
    rule = RuleBot()
    out: list[Observation] = []
    for number in range(hands):
        hand = Hand(rules, seed=seed * 1000 + number)
        plays = 0
        for seat in hand.turns():
            obs = hand.observation(seat)
            if hand.phase == "playing":
                if plays % every == number % every:
                    out.append(obs)
                plays += 1
            hand.apply(seat, rule.act(obs))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_decides_the_same_natively_and_in_python(variant: str) -> None:
    """困难's choice, every candidate's mean and the gate's bound, position by position."""
    gated = 0
    for index, obs in enumerate(play_positions(variant, 2, every=23)):
        bots = [made_with(engine, lambda: hard_bot(seed=index, kitty=0))  # noqa: B023
                for engine in ENGINES]
        assert [bot.engine.name for bot in bots] == ["native", "python"]
        choices = [bot.act(obs) for bot in bots]
        assert choices[0] == choices[1], index
        assert bots[0].last_values == bots[1].last_values, index
        assert bots[0].last_gate == bots[1].last_gate, index
        gated += bots[0].last_gate is not None
    assert gated  # the gate's fresh-world play-outs were compared too


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_sampler_draws_the_same_worlds_and_weights_natively(variant: str) -> None:
    """The likelihood replay on the native core: the same deals, accepted or refused alike,
    the same likelihoods (the same factors, multiplied in the same order)."""
    for index, obs in enumerate(play_positions(variant, 1, every=17)):
        natively = native().worlds(obs)
        in_python = python().worlds(obs)
        assert isinstance(natively, NativeSampler) and not isinstance(in_python, NativeSampler)
        for draw in range(6):
            seed = index * 100 + draw
            a = natively.draw(random.Random(seed))
            b = in_python.draw(random.Random(seed))
            assert (a is None) == (b is None)
            if a is None or b is None:
                continue
            assert a[0] == b[0] and a[2] == b[2]
            world: Any = a[1]
            reference = b[1]
            assert isinstance(reference, Hand)
            assert [list(part) for part in reference.deal] == [
                world.deal[0:25], world.deal[25:50], world.deal[50:75], world.deal[75:100],
                world.deal[100:108]]
            assert world.to_act == reference.to_act
            assert sorted(world.hand_of(obs.seat)) == sorted(obs.hand)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_native_draw_of_many_worlds_is_the_one_by_one_draw(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``weighted_worlds`` in one native call (holdings sampled from Python's random stream in
    C++): the same deals and likelihoods as ``weighted_world`` one by one, the generator left in
    the same state, on positions with a drawn kitty (defenders') and a known one (declarer's),
    late ones where a card must be moved along a chain of full holders (``_shift``), and with
    held cards told to a holder."""
    shifts = [0]
    shift = Determinizer._shift

    def counted(self: Determinizer, *args: Any) -> bool:
        shifts[0] += 1
        return shift(self, *args)

    monkeypatch.setattr(Determinizer, "_shift", counted)
    roles = set()
    for index, obs in enumerate(play_positions(variant, 6, every=3)):
        assert obs.seat is not None
        roles.add(obs.seat == obs.declarer)
        for tell in (False, True) if index % 10 == 0 else (False,):
            sampler = native().worlds(obs)
            assert isinstance(sampler, NativeSampler)  # drawn natively
            if tell:
                holder = sampler.holders[0]
                told = sampler.draw(random.Random(index))
                assert told is not None
                sampler.tell(holder, told[0][holder])
            one, many = random.Random(index), random.Random(index)
            expected = [sampler.weighted_world(one) for _ in range(12)]
            worlds: list[Any] = sampler.weighted_worlds(many, 12)
            assert None not in expected and len(worlds) == 12
            assert [(w.deal, p) for w, p in worlds] == [(w.deal, p) for w, p in expected]
            assert one.getstate() == many.getstate() and one.random() == many.random()
            # the review's way: passing over draws that find none, up to so many attempts
            expected = gather(lambda: sampler.weighted_world(one), 12, 20)  # noqa: B023
            worlds = sampler.weighted_worlds(many, 12, attempts=20)
            assert [(w.deal, p) for w, p in worlds] == [(w.deal, p) for w, p in expected]
            assert one.getstate() == many.getstate()
    assert roles == {True, False} and shifts[0] > 0


def test_a_sampler_that_finds_no_world_draws_none_natively() -> None:
    obs = play_positions("baofen", 1, every=17)[3]
    sampler = native().worlds(obs)
    assert isinstance(sampler, NativeSampler)  # drawn natively
    holder = sampler.holders[0]
    sampler.tell(holder, [])  # a holder with cards to take told it holds none
    one, many = random.Random(5), random.Random(5)
    assert sampler.weighted_world(one) is None
    assert sampler.weighted_worlds(many, 10) == []
    assert one.getstate() == many.getstate() != random.Random(5).getstate()
    # the review's way draws on, seven times in all
    assert gather(lambda: sampler.weighted_world(one), 10, 7) == []
    assert sampler.weighted_worlds(many, 10, attempts=7) == []
    assert one.getstate() == many.getstate()


def test_noise_keeps_python_playouts() -> None:
    obs = play_positions("baofen", 1)[2]
    bot = made_with("native", lambda: search_bot(1, noise=0.5, iterations=8))
    bot.act(obs)  # the playouts draw from the bot's generator: Python, with Python worlds
    assert bot.engine.name == "native" and bot.last_values


@pytest.mark.parametrize("variant", VARIANTS)
def test_kitty_and_contract_searches_are_the_same_natively(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    rule = RuleBot()
    kitties = bids = 0
    for number in range(8):
        hand = Hand(rules, seed=700 + number)
        while hand.phase == "bidding" and bids < 6:
            seat = hand.to_act
            assert seat is not None
            obs = hand.observation(seat)
            values = []
            for engine in ENGINES:
                search = ContractSearch(made_with(engine, RuleBot), random.Random(number), 4, 0.0)
                values.append(search.values(obs, search.bid_options(obs)))
            assert values[0] == values[1]
            bids += 1
            hand.apply(seat, rule.act(obs))
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, rule.act(hand.observation(seat)))
        if hand.phase != "kitty" or kitties >= 2:
            continue
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        found = []
        for engine in ENGINES:
            kitty = KittySearch(made_with(engine, RuleBot), random.Random(number), worlds=9,
                                candidates=5, screen=4, finalists=2, gate=6)
            found.append((kitty.declare(obs), kitty.last))
        assert found[0] == found[1]
        kitties += 1
    assert kitties and bids
