"""Levels players pick, the arena's perfect-information reference player, and inference."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from baofen import Bid, Declare, Hand, RuleSet
from baofen.arena import BotSpec, play_table, run_arena
from baofen.bots import BOT_LEVELS, BotLevel, DealSeer, bot_names, make_bot
from baofen.bots.engine import python
from baofen.bots.levels import EasyBot, hard_bot, master_bot
from baofen.bots.reference_bot import ReferenceBot
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import SearchBot
from baofen.bots.search.determinize import MISMATCH

from .checks import check_legal
from .helpers import mixed_hands, played_to

VARIANTS = ("baofen", "hongwu")


def test_levels_are_offered_and_library_names_still_work() -> None:
    assert BOT_LEVELS == ("easy", "normal", "hard", "master")
    assert set(BOT_LEVELS) | {"random", "rule", "search", "reference", "neural"} == set(bot_names())
    assert isinstance(make_bot("easy", seed=1), EasyBot)
    assert isinstance(make_bot("normal"), RuleBot)
    hard, master = make_bot("hard", seed=1), make_bot("master", seed=1)
    assert isinstance(hard, SearchBot) and isinstance(master, SearchBot)
    assert master.budget.iterations > hard.budget.iterations
    assert master.budget.candidates >= hard.budget.candidates
    assert hard_bot(iterations=8).budget.iterations == 8
    assert master_bot(candidates=3).budget.candidates == 3
    for name in ("random", "rule", "search"):
        make_bot(name, seed=1)


def test_the_reference_player_is_never_a_table_level() -> None:
    # The table's type, which validates a table's bot_level, does not admit it.
    from typing import get_args

    assert "reference" not in get_args(BotLevel) and "reference" not in BOT_LEVELS
    reference = make_bot("reference", seed=1)
    assert isinstance(reference, DealSeer)
    hand = Hand(RuleSet.baofen(), seed=3)
    assert hand.to_act is not None
    with pytest.raises(ValueError, match="whole deal"):
        reference.act(hand.observation(hand.to_act))


@pytest.mark.parametrize("variant", VARIANTS)
def test_easy_bot_is_legal_and_sometimes_leaves_the_rule_bots_play(variant: str) -> None:
    easy = EasyBot(seed=5, noise=0.5)
    rule = RuleBot()
    differs = 0
    for hand, seat in mixed_hands(variant, hands=3, seed=8):
        action = easy.act(hand.observation(seat))
        check_legal(hand, seat, action)
        differs += action != rule.act(hand.observation(seat))
    assert differs > 5
    with pytest.raises(ValueError, match="noise"):
        EasyBot(noise=1.5)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_player_plays_legally_on_the_true_deal(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    reference = ReferenceBot(seed=2, candidates=4)
    hand = Hand(rules, seed=41)
    for seat in hand.turns():
        action = reference.act_seeing(hand.copy(), seat)
        check_legal(hand, seat, action)
        hand.apply(seat, action)
    # The arena shows it the whole hand: a table with it plays to the end.
    assert play_table(rules, 41, [BotSpec("reference"), *[BotSpec("rule")] * 3]).phase == "done"


def test_weighted_worlds_favour_what_the_rule_policy_would_have_done() -> None:
    """Worlds weigh products of MISMATCH factors; in a hand the rule bot plays in every seat
    (bids and kitty too), the true deal is a world where every seat did what the policy does,
    so it weighs 1 — the most a world can — while sampled worlds weigh less."""
    rules = RuleSet.baofen()
    bot = RuleBot()
    weights: list[float] = []
    checked = 0
    for seed in range(12):
        hand = Hand(rules, seed=seed)
        for seat in hand.turns():
            obs = hand.observation(seat)
            if len(hand.tricks) == 6 and not obs.current_trick:
                sampler = python().worlds(obs)
                for draw in range(6):
                    drawn = sampler.weighted_world(random.Random(draw))
                    assert drawn is not None
                    world, weight = drawn
                    assert world.hand_of(seat) == hand.hand_of(seat)
                    assert 0.0 < weight <= 1.0
                    weights.append(weight)
                hidden = {s: list(hand.hand_of(s)) for s in range(4) if s != seat}
                if seat != hand.declarer:
                    hidden[4] = list(hand.buried or ())
                likelihood = [1.0]
                assert sampler.replay(hidden, likelihood) is not None
                assert likelihood[0] == 1.0
                checked += 1
            hand.apply(seat, bot.act(obs))
    assert checked >= 3
    assert min(weights) < 1.0 and all(f < 1 for f in MISMATCH.values())


def test_search_without_inference_still_plays_legally() -> None:
    bot = make_bot("search", seed=3, iterations=3, candidates=3, inference=0)
    checked = Counter[str]()
    for hand, seat in mixed_hands("hongwu", hands=1, seed=6):
        action = bot.act(hand.observation(seat))
        check_legal(hand, seat, action)
        checked[type(action).__name__] += 1
    assert checked["Play"] > 50


def test_one_way_arena_tests_bot_a_only() -> None:
    rows = run_arena(RuleSet.baofen(), BotSpec("reference", (("candidates", 3),)),
                     BotSpec("rule"), deals=1, seed=4, one_way=True)
    assert {r["tested"] for r in rows} == {"reference:candidates=3"}
    assert len(rows) == 5 * 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_contract_search_bids_and_buries_legally(variant: str) -> None:
    """With ``contract`` the search bot's bids and kitty come from sampled worlds: legal, and
    the same under the same seed."""
    rules = RuleSet.create(variant=variant)

    def actions(seed: int) -> list[object]:
        bots = [make_bot("search", seed=seed, iterations=2, candidates=2, contract=4)
                for _ in range(4)]
        hand = Hand(rules, seed=30)
        taken: list[object] = []
        for seat in hand.turns():
            action = bots[seat].act(hand.observation(seat))
            check_legal(hand, seat, action)
            taken.append(action)
            hand.apply(seat, action)
        return taken

    first = actions(1)
    assert first == actions(1)
    assert any(isinstance(a, Declare) for a in first) or all(
        isinstance(a, Bid) and a.value is None for a in first)
    with pytest.raises(ValueError, match="contract"):
        make_bot("search", contract=-1)


def test_sharper_inference_raises_each_mismatch_factor_to_its_power() -> None:
    """``inference`` is the power of the mismatch factors: the same world weighs the square at
    2, and 1 at 0."""
    hand = played_to(RuleSet.hongwu(), 5, 5)
    seat = hand.to_act
    assert seat is not None and hand.phase == "playing"
    obs = hand.observation(seat)
    weights = []
    for sharpness in (1.0, 2.0, 0.0):
        drawn = python().worlds(obs, sharpness).weighted_world(random.Random(9))
        assert drawn is not None
        weights.append(drawn[1])
    assert weights[0] < 1.0 and weights[1] == pytest.approx(weights[0] ** 2) and weights[2] == 1.0
    with pytest.raises(ValueError, match="inference"):
        make_bot("search", inference=-1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_with_noisy_playouts_is_legal_and_reproducible(variant: str) -> None:
    """The diagnostic reference (sees the cards, playouts with noise, several a candidate)
    plays legal moves, the same under the same seed."""
    rules = RuleSet.create(variant=variant)

    def actions(seed: int) -> list[object]:
        reference = ReferenceBot(seed=seed, candidates=3, rollouts=2, noise=0.5)
        hand = Hand(rules, seed=17)
        taken: list[object] = []
        for seat in hand.turns():
            action = reference.act_seeing(hand.copy(), seat)
            check_legal(hand, seat, action)
            taken.append(action)
            hand.apply(seat, action)
        return taken

    assert actions(4) == actions(4)
    with pytest.raises(ValueError, match="rollouts"):
        ReferenceBot(rollouts=0)
    with pytest.raises(ValueError, match="noise"):
        make_bot("search", noise=1.5)


def test_partial_reference_deals_the_holders_it_is_told_their_true_cards() -> None:
    """``knows``: every world the partial reference searches gives the named holders their true
    cards; the others are sampled. It plays legally through a hand; bad names are refused."""
    rules = RuleSet.baofen()
    hand = played_to(rules, 12, 5)
    seat = next(s for s in range(4) if s != hand.declarer)
    declarer = hand.declarer
    assert declarer is not None
    partial = ReferenceBot(seed=1, knows="kitty+declarer")
    sampler = partial.told(python().worlds(hand.observation(seat)), hand)
    others = [s for s in range(4) if s not in (seat, declarer)]
    differs = False
    for draw in range(6):
        world = sampler.world(random.Random(draw))
        assert world is not None
        assert sorted(world.buried or ()) == sorted(hand.buried or ())
        assert world.hand_of(declarer) == hand.hand_of(declarer)
        differs |= any(world.hand_of(s) != hand.hand_of(s) for s in others)
    assert differs
    table = play_table(rules, 12, [BotSpec("reference", (("knows", "defenders"),
                                                         ("iterations", 8))),
                                   *[BotSpec("rule")] * 3])
    assert table.phase == "done"
    with pytest.raises(ValueError, match="knows"):
        ReferenceBot(knows="partner")
