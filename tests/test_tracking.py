"""World tracking: worlds kept through a hand and moved by Metropolis steps
(bots/search/tracking.py)."""

from __future__ import annotations

import random

import pytest

from baofen import Hand, Play, RuleSet, _native
from baofen._native import EngineName
from baofen.bots import make_bot
from baofen.bots.engine import native, python
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import BOLD_MARGINS, OTHERS, search_bot
from baofen.bots.search.determinize import KITTY, MISMATCH
from baofen.bots.search.kitty import KittySearch
from baofen.bots.search.tracking import WorldTracker
from baofen.cards import Card
from bench.common.screen import positions

from .helpers import mixed_hands, play_out, played_to

VARIANTS = ("baofen", "hongwu")


def _hidden(hand: Hand, seat: int) -> dict[int, list[Card]]:
    """The true holdings of every holder ``seat`` cannot see."""
    hidden = {s: list(hand.hand_of(s)) for s in range(4) if s != seat}
    if seat != hand.declarer:
        hidden[KITTY] = list(hand.buried or ())
    return hidden


def _replays(world: Hand, hand: Hand, seat: int) -> bool:
    """``world`` is a full deal where everything ``seat`` saw of ``hand`` happened as it did."""
    return (world.hand_of(seat) == hand.hand_of(seat)
            and [t.plays for t in world.tricks] == [t.plays for t in hand.tricks]
            and world.current_trick == hand.current_trick
            and [world.count(s) for s in range(4)] == [hand.count(s) for s in range(4)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_tracked_worlds_stay_consistent_through_a_hand(variant: str) -> None:
    """At every play decision of a seat, every tracked world holds the seat's own cards and
    replays what the seat saw; the tracker keeps its worlds from one decision to the next."""
    rules = RuleSet.create(variant=variant)
    bot = RuleBot()
    for seed in (3, 4):
        hand = Hand(rules, seed=seed)
        tracker = WorldTracker(particles=3, steps=4)
        rng = random.Random(seed)
        decisions = 0
        for seat in hand.turns():
            obs = hand.observation(seat)
            if seat == 1 and hand.phase == "playing":
                worlds = tracker.worlds(obs, python().worlds(obs, 4.0), rng)
                assert len(worlds) == 3
                for world, weight in worlds:
                    assert weight == 1.0 and _replays(world, hand, seat)
                decisions += 1
                # Each world is kept as the holdings at the start of play: 25 cards a seat.
                assert all(len(start[s]) == 25 for start in tracker._starts
                           for s in start if s != KITTY)
            hand.apply(seat, bot.act(obs))
        assert decisions >= 15


def test_a_world_is_carried_over_when_the_new_plays_fit_it() -> None:
    """Without Metropolis steps, a kept world whose holders played only cards it gave them is
    the same world at the next decision, less the cards played since (here the true deal, kept
    from an earlier decision)."""
    rules = RuleSet.baofen()
    bot = RuleBot()
    hand = Hand(rules, seed=8)
    tracker = WorldTracker(particles=1, steps=0)
    rng = random.Random(2)
    seen = 0
    while seen < 2:
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        if seat == 2 and hand.phase == "playing" and len(hand.tricks) >= 3:
            sampler = python().worlds(obs)
            if seen == 0:
                tracker.worlds(obs, sampler, rng)
                truth = _hidden(hand, seat)
                played = {s: [c for t in hand.tricks for p, cs in t.plays if p == s for c in cs]
                          + [c for p, cs in hand.current_trick if p == s for c in cs]
                          for s in range(4)}
                tracker._starts = [{h: truth[h] + (played[h] if h != KITTY else [])
                                    for h in truth}]
            else:
                (world, _), = tracker.worlds(obs, sampler, rng)
                assert {s: sorted(world.hand_of(s)) for s in range(4) if s != seat} == {
                    s: sorted(hand.hand_of(s)) for s in range(4) if s != seat}
            seen += 1
        hand.apply(seat, bot.act(obs))


def test_metropolis_moves_keep_every_constraint() -> None:
    """Moved holdings keep each holder's size, caps and needs, and replay the observed hand."""
    checked = 0
    for hand, seat in mixed_hands("hongwu", hands=2, seed=12):
        if hand.phase != "playing" or len(hand.tricks) % 5 != 2 or hand.current_trick:
            continue
        obs = hand.observation(seat)
        sampler = python().worlds(obs, 3.0)
        rng = random.Random(checked)
        dealt = sampler.sample(rng)
        assert dealt is not None
        start = sampler.likely_world(dealt)
        if start is None:
            continue
        moved, likelihood, world = sampler.move(rng, dealt, start[1], 30)
        again = sampler.likely_world(moved)
        assert again is not None and again[1] == pytest.approx(likelihood)
        if world is not None:
            assert _replays(world, hand, seat)
        checked += 1
    assert checked >= 4


def test_moves_favour_worlds_the_rule_policy_explains() -> None:
    """In a hand the rule bot plays in every seat, sharp Metropolis moves raise the worlds'
    likelihood above fresh draws' (the true deal has likelihood 1)."""
    hand = played_to(RuleSet.baofen(), 21, 12)
    seat = hand.to_act
    assert seat is not None
    sampler = python().worlds(hand.observation(seat), 4.0)
    truth = sampler.likely_world(_hidden(hand, seat))
    assert truth is not None and truth[1] == 1.0
    fresh, moved = [], []
    for draw in range(4):
        rng = random.Random(draw)
        dealt = sampler.sample(rng)
        assert dealt is not None
        start = sampler.likely_world(dealt)
        assert start is not None
        fresh.append(start[1])
        moved.append(sampler.move(rng, dealt, start[1], 60)[1])
    assert sum(moved) > sum(fresh)


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_with_tracking_is_legal_and_reproducible(variant: str) -> None:
    """Two tracking search bots among rule bots play a hand to the end (an illegal play would
    raise), the same under the same seeds."""
    rules = RuleSet.create(variant=variant)
    tracking = ("search", {"seed": 5, "iterations": 4, "candidates": 3, "particles": 2,
                           "steps": 2})
    specs = [tracking, ("rule", {}), ("rule", {}), tracking]
    actions = play_out(rules, 30, specs)
    assert actions == play_out(rules, 30, specs)
    assert sum(isinstance(a, Play) for _, a in actions) >= 40
    with pytest.raises(ValueError, match="particles"):
        make_bot("search", particles=-1)
    with pytest.raises(ValueError, match="steps"):
        make_bot("search", steps=-1)


def _bid_boldly(hand: Hand) -> set[int]:
    """Bid ``hand`` to its end as the search levels bid (the bold margin); the seats whose bid
    the rule bot would not have made."""
    bold = RuleBot(bid_margin=BOLD_MARGINS[hand.rules.variant])
    differs = set()
    while hand.phase == "bidding":
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        action = bold.act(obs)
        if RuleBot().act(obs) != action:
            differs.add(seat)
        hand.apply(seat, action)
    return differs


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("engine", ["native", "python"])
def test_the_sampler_reads_bold_bids_as_bold(variant: str, engine: EngineName) -> None:
    """In a hand bid by bold bidders (the search levels' margin), where a bold bid differs from
    the rule bot's, the true deal explains every action when the others' bids are read as bold
    (likelihood 1) and is marked down as the rule bot's reading would (a bid mismatch)."""
    if engine == "native" and not _native.available():
        pytest.skip("the native core is not built here")
    rules = RuleSet.create(variant=variant)
    margin = BOLD_MARGINS[variant]
    for seed in range(40):
        hand = Hand(rules, seed=seed)
        differs = _bid_boldly(hand)
        assert hand.declarer is not None
        hand.apply(hand.declarer, RuleBot().act(hand.observation(hand.declarer)))
        seat = hand.to_act
        assert seat is not None
        if not differs - {seat}:
            continue
        obs = hand.observation(seat)
        truth = _hidden(hand, seat)
        made = native() if engine == "native" else python()
        as_bold = made.worlds(obs, bid_margin=margin).likely_world(truth)
        as_rule = made.worlds(obs).likely_world(truth)
        assert as_bold is not None and as_rule is not None
        assert as_bold[1] == 1.0
        assert as_rule[1] <= MISMATCH["bid"]
        return
    pytest.fail("no hand of 40 had a bold bid the rule bot would not make")


def test_the_search_reads_the_others_bids_as_told() -> None:
    """``others="bold"`` weighs the search's worlds by bold bids: on positions of hands bid
    boldly, the same search (same seed, same worlds drawn) values its candidates differently
    at some positions; an unknown reading is refused."""
    changed = 0
    for index, (hand, seat) in enumerate(
            positions("baofen", 12, seed=8, bid_margin=BOLD_MARGINS["baofen"])):
        obs = hand.observation(seat)
        values = []
        for others in OTHERS:
            bot = search_bot(index, iterations=24, candidates=3, min_worlds=0, others=others)
            bot.play(obs)
            values.append(bot.last_values)
        changed += values[0] != values[1]
    assert changed >= 2
    with pytest.raises(ValueError, match="others is one of rule, bold"):
        search_bot(others="shy")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_kitty_search_reads_the_others_bids_as_told(variant: str) -> None:
    """Where another seat bid boldly as the rule bot would not, the kitty search's worlds are
    weighed otherwise when the bids are read as bold (the same worlds drawn)."""
    rules = RuleSet.create(variant=variant)
    margin = BOLD_MARGINS[variant]
    compared = 0
    for seed in range(60):
        hand = Hand(rules, seed=seed)
        if not _bid_boldly(hand) - {hand.declarer}:
            continue
        assert hand.declarer is not None
        obs = hand.observation(hand.declarer)
        means = []
        for reading in (0.0, margin):
            search = KittySearch(RuleBot(), random.Random(seed), worlds=12, candidates=4, gate=0)
            search.declare(obs, reading)
            means.append(search.last["means"])
        assert means[0] != means[1]
        compared += 1
        if compared == 2:
            return
    pytest.fail(f"only {compared} of 60 hands had a bold bid by a seat that did not declare")
