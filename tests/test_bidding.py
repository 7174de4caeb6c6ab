"""rules.md §9 (bidding) and §12.2's four passes, for both games."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from baofen import Hand, IllegalAction, RuleSet

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def run(hand: Hand, bids: Sequence[tuple[int, int | None]]) -> None:
    """Apply ``(seat, bid)`` in order, checking each seat is the one to act."""
    for seat, value in bids:
        assert hand.to_act == seat, (hand.to_act, seat)
        assert value in hand.legal_bids(seat)
        hand.bid(seat, value)


# -- 包分 -------------------------------------------------------------------------------------

def test_baofen_caller_bids_others_pass() -> None:
    hand = Hand(BAOFEN, seed=1, first=2)
    run(hand, [(2, 85), (3, None), (0, None), (1, None)])
    assert hand.phase == "kitty" and hand.declarer == 2 and hand.target == 85
    assert hand.to_act == 2
    assert hand.bids == [(2, 85), (3, None), (0, None), (1, None)]


def test_baofen_caller_passes_then_another_opens() -> None:
    hand = Hand(BAOFEN, seed=1, first=0)
    run(hand, [(0, None), (1, None), (2, 85), (3, None)])
    assert hand.phase == "kitty" and hand.declarer == 2 and hand.target == 85


def test_baofen_raises_and_passed_players_are_skipped() -> None:
    hand = Hand(BAOFEN, seed=1, first=0)
    run(hand, [(0, 85), (1, None), (2, 90), (3, None)])
    # Seat 1 and 3 passed: back to seat 0, who may still raise.
    assert hand.to_act == 0 and hand.legal_bids(0) == [None, 95]
    assert hand.legal_bids(1) == []
    with pytest.raises(IllegalAction):
        hand.bid(1, 95)  # passed: may not bid again (and it is not its turn)
    run(hand, [(0, None)])
    assert hand.declarer == 2 and hand.target == 90


def test_baofen_highest_value_ends_bidding_at_once() -> None:
    hand = Hand(BAOFEN, seed=1, first=0)
    run(hand, [(0, 85), (1, 95)])
    assert hand.phase == "kitty" and hand.declarer == 1 and hand.target == 95


def test_baofen_jump_bid_and_extended_values() -> None:
    rules = RuleSet.baofen(bid_values=[80, 85, 90, 95, 100])
    hand = Hand(rules, seed=1, first=3)
    run(hand, [(3, 80), (0, 95), (1, None), (2, None), (3, None)])
    assert hand.declarer == 0 and hand.target == 95
    hand = Hand(rules, seed=1, first=3)
    run(hand, [(3, 100)])
    assert hand.declarer == 3 and hand.target == 100


def test_baofen_last_seat_can_open_after_three_passes() -> None:
    hand = Hand(BAOFEN, seed=1, first=1)
    run(hand, [(1, None), (2, None), (3, None), (0, 90)])
    assert hand.declarer == 0 and hand.target == 90


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_baofen_four_passes_pot(first: int) -> None:
    hand = Hand(BAOFEN, seed=1, first=first)
    run(hand, [((first + i) % 4, None) for i in range(4)])
    assert hand.phase == "done" and hand.to_act is None
    assert hand.declarer is None and hand.target is None and hand.trump is None
    result = hand.result
    assert result is not None and result.kind == "no_bid" and not result.made
    expected = [-20] * 4
    expected[first] = -40
    assert list(result.deltas) == expected
    assert hand.observation(first).result == result


def test_baofen_four_passes_direct() -> None:
    rules = RuleSet.baofen(no_bid_mode="direct", direct_penalty=30)
    hand = Hand(rules, seed=1, first=1)
    run(hand, [(1, None), (2, None), (3, None), (0, None)])
    result = hand.result
    assert result is not None and result.kind == "no_bid"
    assert list(result.deltas) == [30, -30, 30, 30]


def test_baofen_custom_stakes() -> None:
    rules = RuleSet.baofen(pot_caller_stake=50, pot_other_stake=10)
    hand = Hand(rules, seed=1, first=3)
    run(hand, [(3, None), (0, None), (1, None), (2, None)])
    assert hand.result is not None and list(hand.result.deltas) == [-10, -10, -10, -50]


# -- 包红五 -----------------------------------------------------------------------------------

def test_hongwu_bids_on_the_grid() -> None:
    hand = Hand(HONGWU, seed=1, first=1)
    assert hand.legal_bids(1) == [None, *range(70, 201, 5)]
    run(hand, [(1, 70), (2, 75), (3, 120), (0, None), (1, None), (2, 125), (3, None)])
    assert hand.declarer == 2 and hand.target == 125


def test_hongwu_passed_players_skipped() -> None:
    hand = Hand(HONGWU, seed=1, first=0)
    run(hand, [(0, None), (1, 70), (2, None), (3, 80)])
    assert hand.to_act == 1  # 0 and 2 passed
    run(hand, [(1, 90), (3, None)])
    assert hand.declarer == 1 and hand.target == 90


def test_hongwu_bid_max_ends_at_once() -> None:
    hand = Hand(HONGWU, seed=1, first=0)
    run(hand, [(0, 70), (1, 200)])
    assert hand.phase == "kitty" and hand.declarer == 1 and hand.target == 200
    rules = RuleSet.hongwu(bid_max=100)
    hand = Hand(rules, seed=1, first=2)
    run(hand, [(2, 100)])
    assert hand.declarer == 2 and hand.target == 100


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_hongwu_four_passes_first_passer_declares_at_bid_min(first: int) -> None:
    hand = Hand(HONGWU, seed=1, first=first)
    run(hand, [((first + i) % 4, None) for i in range(4)])
    assert hand.phase == "kitty" and hand.declarer == first and hand.target == 70
    assert hand.to_act == first and hand.result is None
    assert len(hand.hand_of(first)) == 33


def test_hongwu_four_passes_custom_bid_min() -> None:
    rules = RuleSet.hongwu(bid_min=80, bid_max=160, bid_step=10)
    hand = Hand(rules, seed=1, first=2)
    run(hand, [(2, None), (3, None), (0, None), (1, None)])
    assert hand.declarer == 2 and hand.target == 80


def test_hongwu_first_bidder_of_a_deal_random_and_reproducible() -> None:
    firsts = [Hand(HONGWU, seed=s).first for s in range(40)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [Hand(HONGWU, seed=s).first for s in range(40)]
    assert Hand(HONGWU, seed=5, first=3).first == 3
    assert all(Hand(BAOFEN, seed=s).first == 0 for s in range(10))


# -- illegal bids leave the state unchanged -------------------------------------------------

@pytest.mark.parametrize(
    ("rules", "setup", "seat", "value"),
    [
        (BAOFEN, [], 1, 85),  # not its turn
        (BAOFEN, [], 0, 80),  # not a bid value
        (BAOFEN, [], 0, 100),
        (BAOFEN, [], 0, 0),
        (BAOFEN, [], 0, -85),
        (BAOFEN, [], 0, "85"),
        (BAOFEN, [], 0, 85.0),
        (BAOFEN, [], 0, True),
        (BAOFEN, [(0, 90)], 1, 90),  # not higher
        (BAOFEN, [(0, 90)], 1, 85),
        (BAOFEN, [(0, None)], 0, 85),  # passed
        (HONGWU, [], 0, 65),  # below bid_min
        (HONGWU, [], 0, 72),  # off the step grid
        (HONGWU, [], 0, 205),  # above bid_max
        (HONGWU, [(0, 100)], 1, 100),
        (HONGWU, [(0, 100)], 1, 95),
        (HONGWU, [(0, None), (1, 70)], 0, 75),  # passed: skipped
    ],
)
def test_illegal_bids(
    rules: RuleSet, setup: list[tuple[int, int | None]], seat: int, value: object
) -> None:
    hand = Hand(rules, seed=4, first=0)
    run(hand, setup)
    record = hand.to_record()
    observations = [hand.observation(s) for s in range(4)]
    to_act = hand.to_act
    with pytest.raises(IllegalAction) as error:
        hand.bid(seat, value)  # type: ignore[arg-type]
    assert str(error.value)
    assert hand.to_record() == record
    assert [hand.observation(s) for s in range(4)] == observations
    assert hand.to_act == to_act and hand.phase == "bidding"


def test_bid_outside_the_bidding_phase() -> None:
    hand = Hand(BAOFEN, seed=4, first=0)
    run(hand, [(0, 85), (1, None), (2, None), (3, None)])
    with pytest.raises(IllegalAction, match="phase"):
        hand.bid(0, 90)
    hand = Hand(BAOFEN, seed=4, first=0)
    run(hand, [(0, None), (1, None), (2, None), (3, None)])
    with pytest.raises(IllegalAction):
        hand.bid(0, None)
