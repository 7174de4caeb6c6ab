"""rules.md §8: who wins the trick — ruffs, over-ruffs, discards, format matching, equal
orders, throws and eight of a kind."""

from __future__ import annotations

import pytest

from baofen import RuleSet, parse_cards
from baofen.order import order_for
from baofen.tricks import DISCARD, IN_SUIT, RUFF, TrickJudge

from .helpers import declare_by, hand_with

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def winner(rules: RuleSet, trump: str, *plays: str) -> int:
    return rules.trick_winner([parse_cards(p) for p in plays], trump=trump)


# (rules, trump, plays lead first, expected winner index)
CASES = [
    # -- singles ---------------------------------------------------------------------------
    (BAOFEN, "S", ("HK", "HA", "H3", "H9"), 1),
    (BAOFEN, "S", ("HK", "H3", "HQ", "HA"), 3),
    (BAOFEN, "S", ("HA", "HA", "H3", "H4"), 0),  # equal: first played wins
    (BAOFEN, "S", ("HA", "S3", "H3", "H4"), 1),  # ruff
    (BAOFEN, "S", ("HA", "S3", "S4", "H4"), 2),  # over-ruff
    (BAOFEN, "S", ("HA", "S4", "S3", "H4"), 1),  # under-ruff does not win
    (BAOFEN, "S", ("HA", "C2", "D2", "H4"), 1),  # equal-order ruffs: the first stays
    (BAOFEN, "S", ("HA", "C2", "S2", "H4"), 2),  # trump 2 over other 2
    (BAOFEN, "S", ("HA", "H2", "LJ", "BJ"), 3),
    (BAOFEN, "S", ("H3", "CA", "DA", "C9"), 0),  # discards never win
    (BAOFEN, "S", ("S3", "HA", "SA", "D2"), 3),  # trump lead: the other 2 is trump
    (BAOFEN, "S", ("C2", "D2", "H2", "SA"), 0),  # equal orders in trump: first stays
    (BAOFEN, "H", ("SA", "H3", "C3", "D3"), 1),
    (HONGWU, "S", ("HA", "H5", "BJ", "H3"), 1),  # red five is trump and the highest
    (HONGWU, "S", ("BJ", "H5", "LJ", "S2"), 1),
    (HONGWU, "S", ("S2", "C3", "S3", "D2"), 2),  # 正参谋 > 副参谋 > 主2
    (HONGWU, "S", ("CA", "C3", "C4", "C5"), 1),  # C3 is trump (副参谋): a ruff
    (HONGWU, "S", ("H6", "H4", "H3", "H5"), 3),  # H5 is trump
    (HONGWU, "S", ("H4", "H6", "H3", "D3"), 1),
    (HONGWU, "D", ("HA", "H3", "H4", "H6"), 1),  # H3 is 副参谋 with diamonds trump
    (HONGWU, "S", ("C2", "H2", "D2", "SA"), 0),
    # -- pairs ------------------------------------------------------------------------------
    (BAOFEN, "S", ("HK HK", "HA HA", "H3 H4", "H5 H5"), 1),
    (BAOFEN, "S", ("HK HK", "HA HQ", "H3 H4", "H5 H5"), 0),  # not a pair
    (BAOFEN, "S", ("HK HK", "S3 S3", "H3 H4", "H5 H5"), 1),  # ruff with a pair
    (BAOFEN, "S", ("HK HK", "S4 S3", "H3 H4", "H5 H5"), 0),  # two trumps, no pair: discard
    (BAOFEN, "S", ("HK HK", "S3 S3", "S4 S4", "H5 H5"), 2),  # over-ruff
    (BAOFEN, "S", ("HK HK", "C2 C2", "D2 D2", "H5 H5"), 1),  # equal-order pairs
    (BAOFEN, "S", ("HK HK", "C2 D2", "S3 S3", "H5 H5"), 2),
    (BAOFEN, "S", ("HK HK", "S3 H9", "CA CA", "H5 H5"), 0),  # mixed / other suit: discards
    (HONGWU, "S", ("HK HK", "H5 H5", "BJ BJ", "HA HA"), 1),
    # -- tractors ---------------------------------------------------------------------------
    (BAOFEN, "S", ("H9 H9 H8 H8", "HA HA HK HK", "H3 H3 H4 H4", "HT HT H7 H7"), 1),
    (BAOFEN, "S", ("H9 H9 H8 H8", "HA HA HQ HQ", "HJ HJ HT HT", "H3 H4 H5 H6"), 2),
    (BAOFEN, "S", ("H9 H9 H8 H8", "HA HA HQ HQ", "H7 H7 H6 H6", "H3 H4 H5 H6"), 0),
    (BAOFEN, "S", ("H9 H9 H8 H8", "S3 S3 S4 S4", "S5 S5 S7 S7", "H3 H4 H5 H6"), 1),
    (BAOFEN, "S", ("H9 H9 H8 H8", "S3 S3 S4 S4", "BJ BJ LJ LJ", "S6 S6 S5 S5"), 2),
    (BAOFEN, "S", ("H9 H9 H8 H8", "S3 S3 S4 S4", "S6 S6 S5 S5", "S2 S2 C2 C2"), 2),
    (BAOFEN, "S", ("H9 H9 H8 H8", "S2 S2 C2 C2", "S3 S3 S4 S4", "H3 H4 H5 H6"), 2),
    (HONGWU, "S", ("H9 H9 H8 H8", "S2 S2 C2 C2", "S3 S3 C3 C3", "H3 H4 H6 H6"), 2),
    (HONGWU, "S", ("H9 H9 H8 H8", "S2 S2 C2 C2", "SA SA SK SK", "H3 H4 H6 H6"), 1),
    (HONGWU, "S", ("H9 H9 H8 H8", "C2 C2 D2 D2", "SA SA SK SK", "H3 H4 H6 H6"), 2),
    (HONGWU, "S", ("H9 H9 H8 H8", "H5 H5 BJ BJ", "LJ LJ S3 S3",
                   "HT HT H6 H6"), 1),
    (HONGWU, "S", ("H9 H9 H8 H8", "HA HA HK HK", "HT HT H7 H7", "H6 H6 H4 H4"), 1),
    (HONGWU, "S", ("H7 H7 H6 H6", "H4 H4 H3 H3", "HJ HJ HT HT",
                   "H3 H8 H9 HQ"), 2),
    # -- throws: never beaten in suit, only by a matching ruff -----------------------------
    (BAOFEN, "S", ("HQ HQ HJ", "HA HA HK", "H3 H4 H5", "H6 H7 H8"), 0),
    (BAOFEN, "S", ("HQ HQ HJ", "S3 S3 S9", "H3 H4 H5", "H6 H7 H8"), 1),
    (BAOFEN, "S", ("HQ HQ HJ", "S3 S4 S5", "H3 H4 H5", "H6 H7 H8"), 0),  # no pair: discard
    (BAOFEN, "S", ("HQ HQ HJ", "S3 S3 S9", "S4 S4 S5", "H6 H7 H8"), 2),  # higher pair
    (BAOFEN, "S", ("HQ HQ HJ", "S3 S3 SA", "S4 S4 S5", "H6 H7 H8"), 2),  # by the pair, not A
    (BAOFEN, "S", ("HQ HQ HJ", "C2 C2 S3", "D2 D2 BJ", "H6 H7 H8"), 1),  # equal pairs
    (BAOFEN, "S", ("HA HK HQ", "S3 S4 S5", "S6 S3 S4", "H6 H7 H8"), 2),  # singles: highest
    (BAOFEN, "S", ("HA HK HQ", "S3 S4 S9", "S6 S7 S8", "H6 H7 H8"), 1),
    # source 000: 99 88 7 2 ruffs A K 55 44, not AA 55 44
    (BAOFEN, "S", ("CA CK C5 C5 C4 C4", "S9 S9 S8 S8 S7 S2", "D3 D4 D6 D7 D8 D9",
                   "H3 H4 H6 H7 H8 H9"), 1),
    (BAOFEN, "S", ("CA CA C5 C5 C4 C4", "S9 S9 S8 S8 S7 S2", "D3 D4 D6 D7 D8 D9",
                   "H3 H4 H6 H7 H8 H9"), 0),
    # a ruff needs each lead tractor matched by a tractor of its length
    (BAOFEN, "S", ("HA HA HK HK HQ HQ", "S3 S3 S4 S4 S5 S5", "S9 S9 S8 S8 SA SA",
                   "D3 D4 D5 D6 D7 D8"), 1),
    (BAOFEN, "S", ("HA HA HK HK H3 H3", "S3 S3 S4 S4 S9 S9", "BJ BJ LJ LJ S5 S5",
                   "D3 D4 D5 D6 D7 D8"), 2),
    (BAOFEN, "S", ("HA HA HK HK H3 H3", "S3 S3 S4 S4 S5 S5", "SA SA SK SK S9 S9",
                   "D3 D4 D5 D6 D7 D8"), 2),  # a 3-run covers tractor + pair; AAKK is higher
    # -- eight of a kind wins -----------------------------------------------------------------
    (BAOFEN, "S", ("H7 H7 S7 S7 C7 C7 D7 D7", "BJ BJ LJ LJ S2 S2 SA SA",
                   "H3 H4 H5 H6 H8 H9 HT HJ", "D3 D4 D5 D6 D8 D9 DT DJ"), 0),
    (BAOFEN, "H", ("H3 H3 S3 S3 C3 C3 D3 D3", "BJ BJ LJ LJ H2 H2 HA HA",
                   "S2 S2 C2 C2 D2 D2 HK HK", "D4 D5 D6 D8 D9 DT DJ DQ"), 0),
]


@pytest.mark.parametrize(("rules", "trump", "plays", "expected"), CASES)
def test_trick_winner(rules: RuleSet, trump: str, plays: tuple[str, ...], expected: int) -> None:
    assert winner(rules, trump, *plays) == expected


def test_kind_of_follow() -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", "S"))
    shape = judge.shape(parse_cards("HK HK"))
    assert judge.kind_of_follow(shape, parse_cards("H3 H4")) == IN_SUIT
    assert judge.kind_of_follow(shape, parse_cards("S3 C2")) == RUFF
    assert judge.kind_of_follow(shape, parse_cards("S3 H4")) == DISCARD
    assert judge.kind_of_follow(shape, parse_cards("C3 C4")) == DISCARD
    trump_shape = judge.shape(parse_cards("SK SK"))
    assert judge.kind_of_follow(trump_shape, parse_cards("BJ H2")) == IN_SUIT
    assert judge.kind_of_follow(trump_shape, parse_cards("HA HA")) == DISCARD


def test_trick_winner_rejects_bad_tricks() -> None:
    with pytest.raises(ValueError):
        winner(BAOFEN, "S", "HA SA", "H3 H4", "H5 H6", "H7 H8")  # lead of two groups
    with pytest.raises(ValueError):
        winner(BAOFEN, "S", "HA HA", "H3", "H5 H6", "H7 H8")  # wrong size


def test_winner_leads_next_and_takes_the_points() -> None:
    hand = hand_with(BAOFEN, ("HK", "HA", "H5", "HT"), seed=8)
    declare_by(hand, 0, 85, "S")
    hand.play(0, "HK")
    hand.play(1, "HA")
    hand.play(2, "H5")
    result = hand.play(3, "HT")
    trick = result.trick
    assert trick is not None and trick == hand.tricks[0]
    assert trick.winner == 1 and trick.points == 25 and trick.leader == 0
    assert [seat for seat, _ in trick.plays] == [0, 1, 2, 3]
    assert hand.to_act == 1 and hand.leader == 1
    assert hand.declarer_points_so_far == 0  # a defender won: the points escape
    assert hand.observation(3).declarer_points == 0


def test_eight_of_a_kind_in_a_hand() -> None:
    from baofen.bots import make_bot

    hand = hand_with(BAOFEN, ("H7 H7 S7 S7 C7 C7 D7 D7 BJ BJ", "", "", ""), seed=6)
    declare_by(hand, 0, 85, "H")
    result = hand.play(0, "H7 H7 S7 S7 C7 C7 D7 D7")
    assert not result.failed_throw and result.penalty == 0
    shape = hand.lead_shape
    assert shape is not None and shape.eight and shape.group == 4
    bot = make_bot("random", seed=2)
    for seat in (1, 2, 3):
        action = bot.act(hand.observation(seat))
        assert len(action.cards) == 8  # type: ignore[union-attr]
        hand.apply(seat, action)
    trick = hand.tricks[-1]
    assert trick.winner == 0 and hand.to_act == 0
    assert hand.declarer_points_so_far == trick.points


def test_eight_of_a_kind_off_cannot_be_led() -> None:
    rules = RuleSet.baofen(eight_of_a_kind=False)
    hand = hand_with(rules, ("H7 H7 S7 S7 C7 C7 D7 D7", "", "", ""), seed=6)
    declare_by(hand, 0, 85, "H")
    assert not hand.is_legal(0, parse_cards("H7 H7 S7 S7 C7 C7 D7 D7"))
    assert hand.is_legal(0, parse_cards("S7 S7"))
