"""rules.md §14: every worked example of the sources, as a test."""

from __future__ import annotations

import pytest

from baofen import HandResult, Match, RuleSet, parse_cards
from baofen.match import settle
from baofen.order import order_for
from baofen.scoring import levels_for
from baofen.tricks import TrickJudge

from .helpers import declare_by, hand_with, pass_all

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def cards(text: str) -> list:
    return parse_cards(text)


# §14.1 -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text", ["BJ BJ LJ LJ", "SK SK SQ SQ", "ST ST S9 S9", "S5 S5 S4 S4 S3 S3"]
)
def test_example_baofen_tractors(text: str) -> None:
    assert BAOFEN.is_tractor(cards(text), trump="H")


@pytest.mark.parametrize(
    "text",
    [
        "S5 S5 S4",
        "S5 S4 S4",
        "S5 S5 S3 S3",
        "H2 H2 C2 C2",  # trump-2 pair + other-2 pair (hearts trump)
        "C2 C2 HA HA",  # other-2 pair + trump-A pair
        "LJ LJ H2 H2",  # little jokers + trump-2 pair
    ],
)
def test_example_baofen_not_tractors(text: str) -> None:
    assert not BAOFEN.is_tractor(cards(text), trump="H")


# §14.2 -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("H5 H5 BJ BJ LJ LJ", "S"),
        ("BJ BJ LJ LJ", "S"),
        ("S3 S3 C3 C3", "S"),  # 正参谋 + 副参谋
        ("S2 S2 C2 C2", "S"),  # trump 2 with another 2 (C ≠ T)
        ("D3 D3 H3 H3", "D"),
        ("H6 H6 H4 H4", "S"),  # H5 is trump, so H6 and H4 are adjacent in plain hearts
    ],
)
def test_example_hongwu_tractors(text: str, trump: str) -> None:
    assert HONGWU.is_tractor(cards(text), trump=trump)


@pytest.mark.parametrize(
    "text",
    [
        "SA SA S2 S2",  # AA22
        "S2 S2 S3 S3",  # 2233
        "LJ LJ S3 S3",
        "C3 C3 S2 S2",  # 副参谋 + 主2
        "C2 C2 D2 D2",  # two other 2s: equal order
    ],
)
def test_example_hongwu_not_tractors(text: str) -> None:
    assert not HONGWU.is_tractor(cards(text), trump="S")


# §14.3 -------------------------------------------------------------------------------------

def winner(rules: RuleSet, trump: str, *plays: str) -> int:
    return rules.trick_winner([cards(p) for p in plays], trump=trump)


def test_ruff_matches_tractor_and_singles() -> None:
    # Plain clubs A K 55 44 (a tractor and two singles) ruffed by trump spades 99 88 7 2.
    lead = "CA CK C5 C5 C4 C4"
    ruff = "S9 S9 S8 S8 S7 S2"
    assert winner(BAOFEN, "S", lead, ruff, "D3 D4 D6 D7 D8 D9", "H3 H4 H6 H7 H8 H9") == 1


def test_ruff_fails_tractor_and_pair() -> None:
    # AA 55 44 is a tractor and a pair; 99 88 7 2 has no second pair: a discard.
    lead = "CA CA C5 C5 C4 C4"
    ruff = "S9 S9 S8 S8 S7 S2"
    assert winner(BAOFEN, "S", lead, ruff, "D3 D4 D6 D7 D8 D9", "H3 H4 H6 H7 H8 H9") == 0


def test_ruff_pair_and_overruff() -> None:
    # 77 9 ruffs 44 5, and 88 4 over-ruffs (its pair 88 beats 77).
    assert winner(BAOFEN, "S", "C4 C4 C5", "S7 S7 S9", "S8 S8 S4", "D3 D6 D7") == 2


def test_ruff_singles_no_overruff() -> None:
    # 9 77 ruffs the singles 5 6 7; 8 8 4 does not over-ruff (8 < 9).
    assert winner(BAOFEN, "S", "C5 C6 C7", "S9 S7 S7", "S8 S8 S4", "D3 D6 D7") == 1


# §14.4 -------------------------------------------------------------------------------------

def test_failed_throw_plays_single_when_single_beaten() -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", "S"))
    throw = cards("C8 C5 C5 C3 C3")
    # Someone holds a higher single than the 8: the 8 is played.
    others = [cards("C9 D4"), cards("H3"), cards("D5")]
    assert judge.failed_throw(throw, [[c for c in o if c.suit == "C"] for o in others]) == (
        cards("C8")[0],
    )


def test_failed_throw_plays_pair_when_only_pair_beaten() -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", "S"))
    throw = cards("C8 C5 C5 C3 C3")
    # Someone holds a pair higher than 33 (44), nobody beats 8 or 55: 33 is played.
    others = [cards("C4 C4"), cards("C7"), cards("C6")]
    assert judge.failed_throw(throw, others) == tuple(cards("C3 C3"))


def test_good_throw() -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", "S"))
    assert judge.failed_throw(cards("C8 C5 C5 C3 C3"), [cards("C7 C6"), cards("C4"), []]) is None


# §14.5 -------------------------------------------------------------------------------------

def test_example_levels() -> None:
    assert levels_for(95, 70, 10) == 4
    assert levels_for(65, 90, 10) == -4


# §14.6 -------------------------------------------------------------------------------------

def test_failed_throw_through_a_hand_costs_15() -> None:
    # Declarer South tries C8 55 33 while East holds C9: the 8 alone is played, penalty 3 × 5.
    hand = hand_with(BAOFEN, ("C8 C5 C5 C3 C3", "C9", "", ""), seed=4)
    declare_by(hand, 0, 85, "S")
    result = hand.play(0, cards("C8 C5 C5 C3 C3"))
    assert result.failed_throw
    assert result.played == tuple(cards("C8"))
    assert result.penalty == 15
    assert hand.penalties[0] == 15
    assert sorted(hand.hand_of(0)).count(cards("C5")[0]) == 2  # the rest stays in hand
    obs = hand.observation(2)
    assert obs.current_attempt == tuple(cards("C8 C5 C5 C3 C3"))  # shown to everyone


def failed_hand(declarer: int, score: int = -20) -> HandResult:
    deltas = [-score] * 4
    deltas[declarer] = score
    return HandResult(declarer, 90, 90 + score, False, None, score, None, tuple(deltas))


def test_pot_all_pass_then_declarers_fail() -> None:
    match = Match(BAOFEN, seed=11)
    pass_all(match)
    assert match.hand.result is not None and match.hand.result.kind == "no_bid"
    assert match.pot == 100
    assert match.scores == [-40, -20, -20, -20]
    assert match.ledger.caller == 1  # the next hand's caller
    ledger = match.ledger
    ledger, deltas = settle(BAOFEN, ledger, failed_hand(1))
    assert ledger.pot == 200
    assert deltas == (20, -20 - 100, 20, 20)
    ledger, _ = settle(BAOFEN, ledger, failed_hand(2))
    assert ledger.pot == 400
