"""The search levels' parts: the halving schedule, the override gate, wide follows and the
kitty search (src/baofen/bots/search/bot.py, kitty.py)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from baofen import Declare, Hand, RuleSet
from baofen.bots import make_bot
from baofen.bots.levels import (
    HARD_GATE,
    KITTY_WIDE,
    KITTY_WORLDS,
    MASTER_GATE,
    MASTER_KITTY_WORLDS,
)
from baofen.bots.rule.bot import RuleBot
from baofen.bots.rule.evaluation import FILLS, bury_options, choose_bury
from baofen.bots.search.bot import (
    MIN_WORLDS,
    SearchBot,
    SearchBudget,
    halving_plan,
    search_bot,
    wide_follows,
)
from baofen.bots.search.estimates import lower_bound, student_quantile
from baofen.bots.search.kitty import WIDE_CANDIDATES, KittySearch, kitty_options
from baofen.cards import SUITS

from .checks import check_legal
from .helpers import mixed_hands

VARIANTS = ("baofen", "hongwu")


# -- the halving schedule -----------------------------------------------------------------------


def test_without_min_worlds_the_first_cut_rests_on_one_world() -> None:
    assert halving_plan(10, 64, min_worlds=0) == (10, 4)  # 64 // (10 · 4) = 1 world
    assert halving_plan(10, 64) == (4, 2)  # 困难: 4 candidates, 8 worlds, then 2–3 on 10 more
    assert halving_plan(12, 256) == (8, 3)  # 大师: 8 candidates, 10 worlds before the first cut


@pytest.mark.parametrize("options", [2, 3, 5, 10, 12, 20])
@pytest.mark.parametrize("budget", [2, 8, 16, 40, 64, 100, 256, 1000])
def test_no_planned_cut_rests_on_fewer_than_min_worlds(options: int, budget: int) -> None:
    count, rounds = halving_plan(options, budget)
    assert 1 <= count <= options
    if rounds > 1:
        assert budget // (count * rounds) >= MIN_WORLDS
    else:
        assert budget // count >= 1


class Scripted(SearchBot):
    """A search bot whose rollouts are a given function of (world, candidate index)."""

    def __init__(self, value: Any, seed: int, **options: Any) -> None:
        super().__init__(seed, SearchBudget(**options))
        self.value = value
        self.played: Counter[int] = Counter()
        self.gated = 0

    def rollouts(self, worlds: Any, seat: int, plays: Any) -> list[list[float]]:
        return [[self.scripted(world, cards) for cards in plays] for world in worlds]

    def scripted(self, world: Any, cards: Any) -> float:
        self.played[cards[0]] += 1
        return float(self.value(world, cards[0]))


def fake_draw(rng: random.Random) -> tuple[Any, float]:
    """A world: a random number (its own noise), weight 1."""
    return rng.random(), 1.0


OBS: Any = SimpleNamespace(seat=0)
OPTIONS: list[tuple[Any, ...]] = [(i,) for i in range(10)]


def test_every_candidate_searched_is_played_out_on_enough_worlds_before_a_cut() -> None:
    bot = Scripted(lambda world, i: world * (i + 1), seed=1, iterations=64, candidates=10)
    bot.search(OBS, OPTIONS, fake_draw)
    assert len(bot.played) == 4  # the budget affords four candidates at 8 worlds
    assert min(bot.played.values()) >= MIN_WORLDS
    assert sum(bot.played.values()) <= 64
    old = Scripted(lambda world, i: world * (i + 1), seed=1, iterations=64, min_worlds=0)
    old.search(OBS, OPTIONS, fake_draw)
    assert len(old.played) == 10 and min(old.played.values()) == 1


def test_a_round_cut_short_of_worlds_makes_no_cut() -> None:
    """When the sampler runs dry before ``min_worlds`` worlds, nobody is dropped."""
    worlds = iter([0.1, 0.2, 0.3])

    def scarce(rng: random.Random) -> tuple[Any, float] | None:
        world = next(worlds, None)
        return None if world is None else (world, 1.0)

    bot = Scripted(lambda world, i: i, seed=1, iterations=64, candidates=4)
    bot.search(OBS, OPTIONS[:4], scarce)
    assert set(bot.played) == {0, 1, 2, 3} and set(bot.played.values()) == {3}


# -- the gate -----------------------------------------------------------------------------------


def test_lower_bound_is_zero_for_no_difference_and_positive_for_a_clear_gain() -> None:
    assert lower_bound([0.0] * 30, [1.0] * 30, 0.9) == 0.0
    assert lower_bound([0.0] * 30, [random.random() for _ in range(30)], 0.9) == 0.0
    rng = random.Random(3)
    gains = [10.0 + rng.gauss(0.0, 5.0) for _ in range(24)]
    assert lower_bound(gains, [1.0] * 24, 0.9) > 5.0
    assert lower_bound([5.0], [1.0], 0.9) == float("-inf")  # one world tells nothing
    # Weights: one world carrying the rest's weight leaves few effective worlds.
    assert lower_bound([1.0, -1.0, 1.0], [1.0, 1e-9, 1e-9], 0.9) == float("-inf")
    assert student_quantile(0.95, 10) == pytest.approx(1.812, abs=0.01)
    assert student_quantile(0.9, 23) == pytest.approx(1.319, abs=0.005)


def test_a_challenger_equal_to_the_rule_choice_in_every_world_is_never_taken() -> None:
    """Worlds decide the value, the play does not: the selection may favour a challenger by
    luck of its worlds (here by its index), the gate on fresh worlds never confirms it."""
    for seed in range(20):
        bot = Scripted(lambda world, i: world, seed=seed, iterations=64, gate=HARD_GATE)
        assert bot.confirm(0, OPTIONS[3], OPTIONS[0], fake_draw) is False
        assert bot.last_gate is not None and bot.last_gate[0] == 0.0
        assert bot.search(OBS, OPTIONS, fake_draw) == (0,)


def test_luck_in_the_selection_is_rarely_confirmed_and_a_clear_gain_always() -> None:
    """Candidates equal in expectation but noisy per world: without the gate the search leaves
    the rule bot's choice most of the time; with it, about the gate's error rate (≤ 10%)."""
    rng = random.Random(0)
    # Worlds many enough that the gate's fresh ones (64 for 困难) are hardly ever repeats.
    noise = {(w, i): rng.gauss(0.0, 10.0) for w in range(2000) for i in range(10)}

    def equal(world: float, i: int) -> float:
        return noise[int(world * 2000), i]

    def better(world: float, i: int) -> float:
        return noise[int(world * 2000), i] + (30.0 if i == 2 else 0.0)

    gated = ungated = confirmed = 0
    for seed in range(60):
        ungated += Scripted(equal, seed=seed).search(OBS, OPTIONS, fake_draw) != (0,)
        gated += Scripted(equal, seed=seed, gate=HARD_GATE).search(OBS, OPTIONS, fake_draw) != (0,)
        confirmed += Scripted(better, seed=seed, gate=HARD_GATE).search(
            OBS, OPTIONS, fake_draw) == (2,)
    assert ungated > 30
    assert gated <= 8
    assert confirmed == 60


# -- wide follows ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_wide_follows_are_legal_and_keep_the_rule_choice_first(variant: str) -> None:
    rule = RuleBot()
    wider = 0
    for hand, seat in mixed_hands(variant, hands=1, seed=3):
        obs = hand.observation(seat)
        if obs.phase != "playing" or obs.lead_shape is None:
            continue
        follows = wide_follows(obs, rule, 64)
        own = rule.play_candidates(obs, 64)
        assert follows[0] == own[0]
        keys = [tuple(sorted(c)) for c in follows]
        assert len(set(keys)) == len(keys)
        assert all(obs.play_error(c) is None for c in follows)
        assert {tuple(sorted(c)) for c in own} <= set(keys)
        if obs.lead_shape.size == 1:
            suited = obs.by_group[obs.lead_shape.group]
            assert {c[0] for c in follows if len(c) == 1} == set(suited or obs.hand)
        wider += len(follows) > len(own)
    assert wider > 10


# -- the kitty search ---------------------------------------------------------------------------


def at_kitty(variant: str, seed: int) -> tuple[Hand, int]:
    """A rule-bot hand of ``variant`` at its kitty decision (the first seed from ``seed`` with
    one)."""
    rule = RuleBot()
    rules = RuleSet.create(variant=variant)
    while True:
        hand = Hand(rules, seed=seed)
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, rule.act(hand.observation(seat)))
        if hand.phase == "kitty":
            seat = hand.to_act
            assert seat is not None
            return hand, seat
        seed += 1


def distinct_and_legal(hand: Hand, seat: int, options: list[Declare]) -> None:
    """No declaration twice, each legal for ``seat``."""
    assert len({(o.trump, tuple(sorted(o.bury))) for o in options}) == len(options)
    for option in options:
        check_legal(hand, seat, option)


@pytest.mark.parametrize("variant", VARIANTS)
def test_kitty_options_cover_every_trump_with_the_rule_choice_first(variant: str) -> None:
    hand, seat = at_kitty(variant, 2)
    obs = hand.observation(seat)
    rule = RuleBot()
    options = kitty_options(obs, rule)
    assert options[0] == rule.declare(obs)
    assert {o.trump for o in options} == set(SUITS)
    assert 4 <= len(options) <= 13
    distinct_and_legal(hand, seat, options)
    # choose_bury is the cheapest of bury_options.
    for suit in SUITS:
        _, cost = choose_bury(variant, obs.hand, suit)
        assert cost == min(total for total, _, _ in bury_options(variant, obs.hand, suit))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_wide_kitty_adds_each_void_sets_other_fills_after_the_usual_list(variant: str) -> None:
    hand, seat = at_kitty(variant, 3)
    obs = hand.observation(seat)
    usual, wide = (kitty_options(obs, RuleBot(), limit, wide=flag)
                   for limit, flag in ((13, False), (WIDE_CANDIDATES, True)))
    assert wide[:len(usual)] == usual  # the usual candidates first, in their order
    assert len(wide) > len(usual)
    distinct_and_legal(hand, seat, wide)
    for suit in SUITS:
        cheapest = bury_options(variant, obs.hand, suit)
        every = bury_options(variant, obs.hand, suit, FILLS)
        # each void set's own bury stays, and its other fills differ from it
        assert {tuple(sorted(b)) for _, b, _ in cheapest} <= {tuple(sorted(b)) for _, b, _ in every}
        assert len(every) > len(cheapest)
        by_voids: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for _, bury, voided in every:
            assert len(bury) == 8 and not Counter(bury) - Counter(obs.hand)
            by_voids.setdefault(voided, []).append(tuple(sorted(bury)))
        assert all(len(set(buries)) == len(buries) for buries in by_voids.values())
    with pytest.raises(ValueError, match="a bury's fill is one of"):
        bury_options(variant, obs.hand, "S", ("cheapest", "kings"))
    # the wide search where the bot's kitty_wide names the game, the usual one elsewhere
    for named, wide_used in ((variant, True), (1, True), (0, False),
                             ({"baofen": "hongwu", "hongwu": "baofen"}[variant], False)):
        bot = make_bot("search", seed=2, kitty=6, kitty_wide=named, iterations=2, candidates=2)
        assert isinstance(bot, SearchBot) and bot.kitty is not None
        check_legal(hand, seat, bot.act(obs))
        used, unused = (bot.wide_kitty, bot.kitty) if wide_used else (bot.kitty, bot.wide_kitty)
        assert used is not None and len(used.last["means"]) == (  # type: ignore[arg-type]
            len(wide) if wide_used else len(usual))
        assert unused is None or not unused.last
        if bot.wide_kitty is not None:
            assert bot.wide_kitty.wide and bot.wide_kitty.candidates == WIDE_CANDIDATES
    with pytest.raises(ValueError, match="kitty_wide names games of baofen, hongwu"):
        make_bot("search", kitty=6, kitty_wide="skat")


@pytest.mark.parametrize("variant", VARIANTS)
def test_kitty_search_declares_legally_and_the_same_under_a_seed(variant: str) -> None:
    hand, seat = at_kitty(variant, 5)
    obs = hand.observation(seat)

    def declare(seed: int) -> Declare:
        search = KittySearch(RuleBot(), random.Random(seed), worlds=6, candidates=5, screen=3,
                             finalists=2, gate=4)
        return search.declare(obs)

    first = declare(7)
    check_legal(hand, seat, first)
    assert declare(7) == first
    bot = make_bot("search", seed=2, kitty=4, iterations=2, candidates=2)
    check_legal(hand, seat, bot.act(obs))


def test_kitty_search_picks_the_better_of_two_options() -> None:
    options = [Declare("S", ()), Declare("H", ())]

    def draw(rng: random.Random) -> tuple[Any, float]:
        return rng.gauss(0.0, 20.0), 1.0

    def hearts(bonus: float) -> Any:
        """Play-out values: each world's own noise, plus ``bonus`` for hearts as trump."""
        return lambda worlds, chosen: [[world + (bonus if option.trump == "H" else 0.0)
                                        for option in chosen] for world in worlds]

    def search(seed: int) -> KittySearch:
        return KittySearch(RuleBot(), random.Random(seed), worlds=100, finalists=1, gate=64)

    for seed in range(5):
        assert search(seed).choose(options, draw, hearts(8.0)) == 1  # better: taken
        assert search(seed).choose(options, draw, hearts(-8.0)) == 0  # worse: not
        assert search(seed).choose(options, draw, hearts(0.0)) == 0  # the same: never
    # The rule choice (listed first) better: it stays.
    assert search(1).choose(options[::-1], draw, hearts(8.0)) == 0


# -- the levels -------------------------------------------------------------------------------


def test_levels_gate_search_wide_and_search_the_kitty() -> None:
    hard, master = make_bot("hard", seed=1), make_bot("master", seed=1)
    assert isinstance(hard, SearchBot) and isinstance(master, SearchBot)
    assert hard.budget.gate == HARD_GATE and master.budget.gate == MASTER_GATE
    assert hard.budget.wide and master.budget.wide and hard.budget.min_worlds == MIN_WORLDS
    assert hard.kitty is not None and hard.kitty.worlds == KITTY_WORLDS >= 100
    assert (hard.budget.wide_kitty_games == master.budget.wide_kitty_games == {KITTY_WIDE}
            == {"hongwu"})
    assert hard.wide_kitty is not None and hard.wide_kitty.worlds == KITTY_WORLDS
    assert master.wide_kitty is not None and master.wide_kitty.worlds == MASTER_KITTY_WORLDS
    old = make_bot("hard", seed=1, gate=0, min_worlds=0, wide=0, kitty=0)
    assert isinstance(old, SearchBot) and old.kitty is None and not old.budget.gate
    for bad, match in (({"min_worlds": -1}, "min_worlds"), ({"gate": -1}, "gate"),
                       ({"confidence": 1.0}, "confidence"), ({"kitty": -1}, "kitty")):
        with pytest.raises(ValueError, match=match):
            search_bot(**bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_gated_wide_search_plays_legally(variant: str) -> None:
    bot = make_bot("search", seed=3, iterations=8, candidates=4, gate=4, wide=1)
    played = 0
    for hand, seat in mixed_hands(variant, hands=1, seed=9):
        obs = hand.observation(seat)
        if obs.phase != "playing":
            continue
        check_legal(hand, seat, bot.act(obs))
        played += 1
    assert played > 50
