"""Computer players: legal in every situation, deterministic under a seed, and deciding from
observations only."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import combinations

import pytest

from baofen import Bid, Hand, Observation, Play, RuleSet, parse_cards
from baofen.bots import bot_names, make_bot
from baofen.bots.engine import python
from baofen.bots.rule.bot import RuleBot
from baofen.bots.rule.evaluation import choose_bury
from baofen.bots.rule.shared import Knowledge
from baofen.bots.search.bot import SearchBudget
from baofen.bots.search.determinize import KITTY
from baofen.cards import POINTS
from baofen.order import TRUMP, order_for

from .checks import check_legal
from .helpers import declare_by, hand_with, mixed_hands, play_out

VARIANTS = ("baofen", "hongwu")
KITTY_CLUBS = "C3 C4 C5 C6 C7 C8 C9 CJ"


def test_registry_names() -> None:
    assert {"random", "rule", "search"} <= set(bot_names())
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="unknown rule bot option"):
        make_bot("rule", aggression=3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_rule_bot_always_legal(variant: str) -> None:
    bot = make_bot("rule")
    checked = 0
    for hand, seat in mixed_hands(variant, hands=50, seed=11):
        check_legal(hand, seat, bot.act(hand.observation(seat)))
        checked += 1
    assert checked > 3000


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_bot_always_legal(variant: str) -> None:
    bot = make_bot("search", seed=3, iterations=3, candidates=3)
    checked = 0
    for hand, seat in mixed_hands(variant, hands=2, seed=5):
        check_legal(hand, seat, bot.act(hand.observation(seat)))
        checked += 1
    assert checked > 150


def declared_at_lowest_bid(rules: RuleSet, seed: int, declarer: int) -> Hand:
    """A dealt hand where ``declarer`` bids first, at the lowest bid, and everyone else passes."""
    hand = Hand(rules, seed=seed, first=declarer)
    low = rules.bid_grid()[0]
    while hand.phase == "bidding":
        seat = hand.to_act
        assert seat is not None
        hand.bid(seat, low if seat == declarer else None)
    return hand


def test_rule_bot_never_fails_a_throw() -> None:
    """The rule bot throws only what the unseen cards cannot beat (a failed throw costs)."""
    throws = 0
    for variant in VARIANTS:
        rules = RuleSet.create(variant=variant)
        bots = [make_bot("rule") for _ in range(4)]
        for number in range(20):
            hand = declared_at_lowest_bid(rules, seed=500 + number, declarer=number % 4)
            for seat in hand.turns():
                result = hand.apply(seat, bots[seat].act(hand.observation(seat)))
                assert result is None or not result.failed_throw
                if result is not None and len(result.played) > 1 and hand.judge is not None:
                    throws += hand.judge.shape(result.played).is_throw
    assert throws > 0


def test_rule_bot_offers_only_safe_throws() -> None:
    rules = RuleSet.baofen()
    hand = hand_with(rules, ("CA CA CK D3", "CK", "", ""), kitty="S3 S4 S5 S6 S7 S8 S9 SJ")
    declare_by(hand, 0, 85, "H")
    options = RuleBot().play_candidates(hand.observation(0))
    assert tuple(parse_cards("CA CA CK")) in options
    judge = hand.judge
    assert judge is not None
    for cards in options:
        if judge.shape(cards).is_throw:
            others = [[c for c in hand.hand_of(s) if judge.group[c] == judge.group[cards[0]]]
                      for s in (1, 2, 3)]
            assert judge.failed_throw(cards, others) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_deterministic_under_seed(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    specs = [("search", {"seed": 9, "iterations": 4, "candidates": 3}), ("rule", {}),
             ("random", {"seed": 4}), ("rule", {})]
    assert play_out(rules, 21, specs) == play_out(rules, 21, specs)


# -- observations only ------------------------------------------------------------------------


def public_part(observation: Observation) -> Observation:
    """The observation without its rule-checker object (equal for equal positions)."""
    return dataclasses.replace(observation, judge=None)


@pytest.mark.parametrize("variant", VARIANTS)
def test_decisions_depend_on_the_observation_only(variant: str) -> None:
    """Sentinel: a second hand with the same observation for seat 0 but other hidden cards
    (a world drawn by the determinizer) gets the very same decisions from the bots."""
    rules = RuleSet.create(variant=variant)
    hand = Hand(rules, seed=77, first=1)
    while hand.phase == "bidding":
        seat = hand.to_act
        assert seat is not None
        hand.bid(seat, rules.bid_grid()[0] if seat == 2 else None)
    bots = [make_bot("rule") for _ in range(4)]
    hand.play_out(bots, until=lambda hand: len(hand.tricks) >= 6 and hand.to_act == 0)
    assert hand.phase == "playing" and hand.to_act == 0
    observed = hand.observation(0)
    twin = python().worlds(observed).world(random.Random(1))
    assert twin is not None
    assert public_part(twin.observation(0)) == public_part(observed)
    hidden = [sorted(hand.hand_of(s)) for s in (1, 2, 3)]
    assert hidden != [sorted(twin.hand_of(s)) for s in (1, 2, 3)], "the sentinel must differ"
    for name, options in (("rule", {}), ("search", {"seed": 2, "iterations": 6})):
        first = make_bot(name, **options).act(observed)
        second = make_bot(name, **options).act(twin.observation(0))
        assert first == second
    seen = (observed, twin.observation(0))
    worlds = [python().worlds(o).sample(random.Random(3)) for o in seen]
    assert worlds[0] == worlds[1]


def test_observation_holds_no_hidden_state() -> None:
    """A bot's only input carries no reference to the hand, nor another seat's cards."""
    rules = RuleSet.baofen()
    hand = Hand(rules, seed=3)
    declare_by(hand, 2, 85, "S")
    observation = hand.observation(0)
    stack: list[object] = [observation]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        assert not isinstance(item, Hand)
        if isinstance(item, tuple | list):
            stack.extend(item)
    assert observation.kitty is None and observation.buried is None
    assert sorted(observation.hand) == sorted(hand.hand_of(0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_worlds_are_consistent_with_the_observation(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    bots = [make_bot("rule") for _ in range(4)]
    checked = 0
    for number in range(6):
        hand = declared_at_lowest_bid(rules, seed=900 + number, declarer=number % 4)
        for seat in hand.turns():
            observation = hand.observation(seat)
            if observation.phase == "playing" and len(hand.tricks) % 5 == 2:
                sampler = python().worlds(observation)
                dealt = sampler.sample(random.Random(number))
                assert dealt is not None
                unseen: Counter[int] = Counter()
                for other in range(4):
                    if other != seat:
                        unseen.update(hand.hand_of(other))
                if seat != hand.declarer:
                    unseen.update(hand.buried or ())
                assert Counter(c for cards in dealt.values() for c in cards) == unseen
                voids = Knowledge(observation).voids
                group = observation.order.group
                for holder, cards in dealt.items():
                    if holder != KITTY:
                        assert len(cards) == hand.count(holder)
                        # no card of a group the holder showed void in
                        assert not any(voids[holder] >> group[c] & 1 for c in cards)
                world = sampler.world(random.Random(number))
                assert world is not None and world.hand_of(seat) == hand.hand_of(seat)
                checked += 1
            hand.apply(seat, bots[seat].act(observation))
    assert checked > 20


# -- rule bot behaviour -------------------------------------------------------------------------


def start_trick(hand: Hand, plays: list[tuple[int, str]]) -> None:
    for seat, cards in plays:
        hand.play(seat, parse_cards(cards))


def test_defender_feeds_points_to_a_winning_partner() -> None:
    rules = RuleSet.baofen()
    hand = hand_with(rules, ("D3 H3 H3", "D4 HK H4", "D6", "DA HA HA"), kitty=KITTY_CLUBS)
    declare_by(hand, 0, 85, "S")
    start_trick(hand, [(0, "D3"), (1, "D4"), (2, "D6"), (3, "DA")])
    start_trick(hand, [(3, "HA"), (0, "H3")])
    play = RuleBot().act(hand.observation(1))
    assert isinstance(play, Play) and sum(POINTS[c] for c in play.cards) > 0


def test_defender_keeps_points_from_the_declarer() -> None:
    rules = RuleSet.baofen()
    hand = hand_with(rules, ("HA HA", "HK H4", "", ""), kitty=KITTY_CLUBS)
    declare_by(hand, 0, 85, "S")
    start_trick(hand, [(0, "HA")])
    play = RuleBot().act(hand.observation(1))
    assert isinstance(play, Play) and sum(POINTS[c] for c in play.cards) == 0


def test_declarer_wins_points_cheaply_in_last_seat() -> None:
    rules = RuleSet.baofen()
    hand = hand_with(rules, ("D3 HA H3", "DA HK", "D4 H4", "D5 H6"), kitty=KITTY_CLUBS)
    declare_by(hand, 0, 85, "S")
    start_trick(hand, [(0, "D3"), (1, "DA"), (2, "D4"), (3, "D5")])
    start_trick(hand, [(1, "HK"), (2, "H4"), (3, "H6")])
    play = RuleBot().act(hand.observation(0))
    assert play == Play("HA")


@pytest.mark.parametrize("variant", VARIANTS)
def test_bidding_passes_weak_and_bids_strong(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    strong = "BJ BJ LJ LJ S2 S2 H2 H2 C2 C2 D2 SA SA SK SK SQ SQ SJ SJ ST S9 S8 HA HA CA"
    weak = "S3 S4 S6 H3 H4 H6 H7 C4 C6 C7 C8 C9 D3 D4 D6 D7 D8 D9 DJ H8 H9 C3 S7 S8 S9"
    for cards, bids in ((strong, True), (weak, False)):
        hand = hand_with(rules, (cards, "", "", ""), first=0)
        action = RuleBot().act(hand.observation(0))
        assert isinstance(action, Bid) and (action.value is not None) == bids


@pytest.mark.parametrize("variant", VARIANTS)
def test_bury_keeps_trumps_and_makes_voids(variant: str) -> None:
    cards = parse_cards(
        "BJ LJ S2 H2 SA SA SK SQ SJ ST S9 S8 S7 S6 HA HK HQ H7 H6 CA C9 C8 C4 D9 D7 D4 "
        "H5 C5 DT D3 H4 H3 C3"
    )
    bury, _ = choose_bury(variant, cards, "S")
    assert len(bury) == 8
    group = order_for(variant, "S").group
    assert not any(group[c] == TRUMP for c in bury)
    assert all(c in bury for c in parse_cards("D9 D7 D4 DT D3"))  # diamonds voided


def test_search_bot_validates_options() -> None:
    with pytest.raises(ValueError, match="iterations"):
        SearchBudget(iterations=0)
    with pytest.raises(ValueError, match="time_limit"):
        SearchBudget(time_limit=0)


# -- the random bot can make every legal move ----------------------------------------------------

def test_random_follow_reaches_every_legal_follow() -> None:
    # East must answer the tractor H9 H9 H8 H8 from the run HA HA HK HK HQ HQ: both AAKK and
    # KKQQ are legal, and so is any card of the rest alongside neither (none: the run is owed).
    hand = hand_with(
        RuleSet.baofen(),
        ("H9 H9 H8 H8", "HA HA HK HK HQ HQ H6 H4", "", ""),
        seed=3,
    )
    declare_by(hand, 0, 85, "S", bury=None)
    hand.play(0, parse_cards("H9 H9 H8 H8"))
    held = [c for c in hand.hand_of(1) if c.suit == "H" and c.rank != 2]
    legal = {
        tuple(sorted(combo))
        for combo in combinations(held, 4)
        if hand.is_legal(1, list(combo))
    }
    bot = make_bot("random", seed=5)
    seen = {tuple(sorted(bot.act(hand.observation(1)).cards)) for _ in range(300)}  # type: ignore[union-attr]
    assert len(legal) >= 2
    assert seen == legal


def test_random_lead_can_split_a_pair_in_a_throw() -> None:
    hand = hand_with(RuleSet.baofen(), ("SA SK SK", "", "", ""), seed=2)
    declare_by(hand, 0, 85, "H", bury=None)
    bot = make_bot("random", seed=9, throw_rate=1.0)
    leads = {tuple(sorted(bot.act(hand.observation(0)).cards)) for _ in range(3000)}  # type: ignore[union-attr]
    assert tuple(sorted(parse_cards("SA SK"))) in leads  # one K of the pair, thrown with the A
