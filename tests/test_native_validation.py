"""The native core takes every valid rule set and refuses, with a ValueError and no change,
what the Python engine refuses: a house rule with many bid values plays natively, and the
bindings check their arguments (rules, bids, a trick's plays, acting on a finished hand)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest

from baofen import _native
from baofen._native import batch
from baofen.bots.rule.play import RuleWeights
from baofen.hand import Hand
from baofen.ruleset import RuleSet

pytestmark = pytest.mark.skipif(not _native.available(), reason=_native.why_unavailable())

MANY_BIDS = RuleSet.hongwu(bid_step=1)
"""包红五 bidding by one: 131 bid values."""


def _weights() -> Any:
    return _native.core().RuleWeights(asdict(RuleWeights()))


def test_a_rule_set_with_more_bid_values_than_a_deal_has_cards_plays_natively() -> None:
    assert len(MANY_BIDS.bid_grid()) > 108
    python = Hand(MANY_BIDS, seed=5)
    native = batch.native_hand(python)
    assert native.legal_bids() == python.legal_bids(python.first)
    kind, seat, _, _ = native.rule_action(_weights())
    assert (kind, seat) == (0, python.first)
    for played in batch.random_hands(MANY_BIDS, [1, 2, 3]):
        replayed = Hand(MANY_BIDS, seed=played.seed)
        for seat, action in played.actions:
            replayed.apply(seat, action)
        assert replayed.result == played.result
    assert len(batch.results_of(MANY_BIDS, batch.random_table(MANY_BIDS, [4, 5]))) == 2


def test_a_replay_weighs_bids_under_many_bid_values() -> None:
    core = _native.core()
    hand = batch.native_hand(Hand(MANY_BIDS, seed=5))
    first = hand.first
    replay = core.Replay([(0, first, 70, [])], [], (first + 1) % 4, -1, _weights(),
                         (0.5, 0.5, 0.5))
    likelihood = replay.run(hand.copy(), [], True, 1.0)
    assert likelihood in (0.5, 1.0)


def test_the_bid_grid_room_is_the_largest_a_rule_set_offers() -> None:
    from baofen._native.tables import MAX_BIDS

    assert len(RuleSet.hongwu(bid_min=0, bid_max=300, bid_step=1).bid_grid()) == MAX_BIDS
    with pytest.raises(ValueError):
        RuleSet.hongwu(bid_min=0, bid_max=301, bid_step=1)


@pytest.mark.parametrize(
    "change", [{"bid_step": 0}, {"throw_penalty_per_card": 2**31 - 1}, {"bid_min": -5}]
)
def test_native_rules_are_validated_as_a_rule_set_is(change: dict[str, int]) -> None:
    data = {**RuleSet.hongwu().to_dict(), **change}
    with pytest.raises(ValueError) as python:
        RuleSet.from_dict(data)
    with pytest.raises(ValueError) as native:
        _native.core().Rules(data)
    assert str(native.value) == str(python.value)


def test_a_bid_of_minus_one_is_refused_not_a_pass() -> None:
    hand = batch.native_hand(Hand(RuleSet.baofen(), seed=3))
    seat = hand.first
    with pytest.raises(ValueError, match="bid_not_offered"):
        hand.bid(seat, -1)
    assert hand.to_act == seat and hand.actions() == []
    hand.bid(seat, None)
    assert hand.actions() == [(0, seat, -1, [])]


def test_a_bid_is_a_number_not_true_nor_one_beyond_an_int() -> None:
    rules = RuleSet.hongwu(bid_min=0, bid_step=1)  # 1 is a bid, and True equals 1
    python = Hand(rules, seed=3)
    hand = batch.native_hand(python)
    seat = hand.first
    for value in (True, 2**40, -(2**70), 1.0, "90"):
        with pytest.raises(ValueError):
            python.bid(seat, value)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            hand.bid(seat, value)  # type: ignore[arg-type]
    assert hand.actions() == []
    hand.bid(seat, 1)
    assert hand.actions() == [(0, seat, 1, [])]


def _decide(trick: list[tuple[int, list[int]]], hand: list[int] | None = None,
            declarer: int = 0, phase: str = "playing") -> Any:
    """rule_decide for seat 1 (``hand``, eight cards unless given), with ``trick`` before it."""
    core = _native.core()
    rules = batch.native_rules(RuleSet.baofen())
    held = [0, 1, 2, 3, 4, 5, 13, 14] if hand is None else hand
    return core.rule_decide(rules, _weights(), phase, 1, declarer, "S", held, [0] * 54,
                            [0] * 4, [0] * 4, [8, 8, 8, 8], None, trick, [], 1)


def test_rule_decide_refuses_a_trick_with_an_empty_or_misshapen_play() -> None:
    assert _decide([(0, [6])])  # a good trick: a decision
    for trick in ([(0, [])], [(0, [6, 6]), (3, [7])], [(7, [6])]):
        with pytest.raises(ValueError):
            _decide(trick)


def test_rule_decide_refuses_a_declarer_out_of_range_and_too_few_cards() -> None:
    """Each read out of bounds under the sanitizer build (tests/native_fuzz.py found them)."""
    for declarer in (-2, 4, 9):
        with pytest.raises(ValueError, match="declarer"):
            _decide([(0, [6])], declarer=declarer)
    assert _decide([(0, [6, 6])], hand=[0, 0])  # a pair followed with the last two cards
    for hand, trick in (([], [(0, [6, 6])]), ([0], [(0, [6, 6])]), ([], [])):
        with pytest.raises(ValueError, match="fewer cards"):
            _decide(trick, hand=hand)
    with pytest.raises(ValueError, match="buries"):
        _decide([], hand=[0, 1, 2], phase="kitty")


def test_the_rule_player_refuses_to_act_on_a_finished_hand() -> None:
    hand = batch.native_hand(Hand(RuleSet.baofen(), seed=9))
    hand.play_out(1)
    assert hand.phase == "done"
    with pytest.raises(ValueError, match="done"):
        hand.rule_act(_weights())
    with pytest.raises(ValueError, match="done"):
        hand.rule_action(_weights())
