"""rules.md §6: throws (甩牌) — good and failed throws, the unit played, penalties, reveal."""

from __future__ import annotations

import pytest

from baofen import Card, Hand, RuleSet, parse_cards
from baofen.bots import make_bot
from baofen.order import order_for
from baofen.tricks import TrickJudge
from baofen.wire.observation import ObservationView

from .helpers import declare_by, hand_with

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def failed(rules: RuleSet, trump: str, throw: str, *others: str) -> str | None:
    """The cards played by ``throw`` against the other hands' cards of its group (None: good)."""
    judge = TrickJudge(rules, order_for(rules.variant, trump))
    cards = parse_cards(throw)
    assert judge.lead_error(cards) is None
    group = judge.group[cards[0]]
    held = [[c for c in parse_cards(o) if judge.group[c] == group] for o in others]
    played = judge.failed_throw(cards, held)
    return None if played is None else " ".join(str(Card(c)) for c in played)


# -- 包分 §6.1 ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("throw", "others"),
    [
        # the source examples, in hearts with spades trump, when nobody can beat them
        ("HA HA HK", ("HQ HQ HJ HJ", "HK", "H9 H9")),
        ("HA HK HK", ("HA", "HQ HQ HJ HJ", "HT HT")),
        ("HA HQ HQ HJ HJ", ("HA HK HK", "HT HT H9 H9", "")),
        ("HA H7 H7 H6 H6 H5 H5", ("HA HK HK HQ HQ", "H9 H9 H8", "H4 H4 H3 H3")),
        ("H9 H8 H8 H4 H4", ("H7 H6", "H3 H3", "H5 D5 D5")),
        # and in trump
        ("BJ LJ LJ", ("BJ S2 S2", "C2 C2", "")),
        ("BJ BJ LJ", ("LJ SA SA", "S2", "")),
        ("BJ LJ S2 S2", ("LJ H2 H2", "SA SA SK SK", "D2")),
        # equal order never beats: the other 2s against a thrown other 2
        ("LJ H2 H2", ("C2 C2", "D2", "")),
        # other 2s side by side with the trump suit: no tractor to beat them with
        ("C2 C2 H2 H2", ("SA SA SK SK", "", "")),
    ],
)
def test_baofen_good_throws(throw: str, others: tuple[str, str, str]) -> None:
    assert failed(BAOFEN, "S", throw, *others) is None


@pytest.mark.parametrize(
    ("throw", "others", "played"),
    [
        # 98844: each unit can be the one beaten
        ("H9 H8 H8 H4 H4", ("HT", "", ""), "H9"),
        ("H9 H8 H8 H4 H4", ("H7 H6", "HJ", "H5 H5"), "H9"),  # fewest cards first
        ("H9 H8 H8 H4 H4", ("H5 H5", "", ""), "H4 H4"),
        ("H9 H8 H8 H4 H4", ("H7 H7", "", ""), "H4 H4"),  # both pairs beaten: the lower
        ("H9 H8 H8 H4 H4", ("HQ HQ", "", ""), "H9"),  # HQ also beats the 9 as a single
        ("H9 H8 H8 H4 H4", ("H9 H9", "", ""), "H4 H4"),  # H9 H9 beats both pairs, not H9
        # a tractor is beaten only by a tractor of its length with a higher top
        ("HA H7 H7 H6 H6 H5 H5", ("HT HT H9 H9 H8 H8", "", ""), "H7 H7 H6 H6 H5 H5"),
        ("HA H7 H7 H6 H6 H5 H5", ("HK HK HQ HQ HJ HJ HT HT", "", ""), "H7 H7 H6 H6 H5 H5"),
        # §14.4: 8 55 33
        ("H8 H5 H5 H3 H3", ("H9", "", ""), "H8"),
        ("H8 H5 H5 H3 H3", ("H4 H4", "H7", "H6"), "H3 H3"),
        # several singles beaten: the lowest
        ("HK HQ H5 H5", ("HA", "", ""), "HQ"),
        # trump: BJ LJ T2 T2 fails when someone holds the other big joker
        ("BJ LJ S2 S2", ("BJ", "", ""), "LJ"),
        ("LJ S2 S2", ("BJ BJ", "", ""), "LJ"),  # LJ also beaten by a BJ single: fewest first
        # equal orders: the first suit in the order S H C D
        ("H2 D2", ("S2", "", ""), "H2"),
        ("D2 C2", ("S2", "", ""), "C2"),
        ("D2 D2 C2 C2", ("S2 S2", "", ""), "C2 C2"),
        # a tractor beaten but no single or pair: the tractor is played
        ("HA H9 H9 H8 H8", ("HK HK HQ HQ", "", ""), "H9 H9 H8 H8"),
    ],
)
def test_baofen_failed_throws(throw: str, others: tuple[str, str, str], played: str) -> None:
    assert failed(BAOFEN, "S", throw, *others) == played


def test_a_pair_is_not_beaten_by_equal_order_or_by_singles() -> None:
    assert failed(BAOFEN, "S", "HA H4 H4", ("HK HQ HJ HT H9 H8 H7 H6 H5"), "", "") is None
    assert failed(BAOFEN, "S", "LJ C2 C2", ("D2 D2 H2 H2"), "", "") is None


# -- 包红五 §6.2 ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("throw", "others", "played"),
    [
        ("HA HA HK", ("HQ HQ", "HJ", ""), None),
        ("HA HK HQ", ("HJ", "HT", "H9"), None),
        ("HA HK HQ", ("HK", "", ""), "HQ"),  # the other HK is higher than HQ
        ("HA HK HQ", ("HQ", "", ""), "HQ"),  # equal is not higher
        ("HQ HQ HA", ("HK", "", ""), "HQ"),  # a pair is split
        ("HA HA H4 H4", ("H6", "", ""), "H4"),  # H6 > H4 (H5 is trump)
        ("HA HA H6 H6", ("H4 H4", "", ""), None),
        ("H5 H5 BJ", ("BJ", "", ""), "BJ"),  # trump: BJ is not higher than BJ
        ("H5 H5 BJ BJ", ("LJ LJ S3 S3", "", ""), None),
        ("C2 D2", ("H2", "", ""), "C2"),  # equal orders: first suit S H C D
        ("D2 C2 H2", ("SA", "S2", ""), "H2"),
        # only the lowest card counts: a higher pair or tractor elsewhere does not matter
        ("HA HK HQ HQ", ("HJ HJ HT HT", "", ""), None),
    ],
)
def test_hongwu_throws(throw: str, others: tuple[str, str, str], played: str | None) -> None:
    assert failed(HONGWU, "S", throw, *others) == played


# -- through a Hand: penalty, kept cards, reveal --------------------------------------------

def plain_hearts(hand: Hand, seat: int) -> list[Card]:
    return [c for c in hand.hand_of(seat) if c.suit == "H" and c.rank != 2]


def play_out(hand: Hand) -> None:
    hand.play_out([make_bot("random", seed=s, throw_rate=0.0) for s in range(4)])


# Every plain heart is placed (spades trump), so who can beat what is known exactly.
DECLARER_THROWS = (
    "H9 H8 H8 H4 H4",
    "HT",
    "H3 H3",
    "HT H9 H7 H7 H6 H6 H5 H5",
)
KITTY = "HA HA HK HK HQ HQ HJ HJ"


def test_baofen_failed_throw_by_declarer_costs_the_declarer() -> None:
    hand = hand_with(BAOFEN, DECLARER_THROWS, kitty=KITTY, seed=11)
    declare_by(hand, 0, 85, "S")  # buries the kitty: no heart above HT is in play
    before = hand.hand_of(0)
    result = hand.play(0, "H9 H8 H8 H4 H4")
    assert result.failed_throw
    assert result.played == tuple(parse_cards("H9"))  # HT beats it; fewest cards first
    assert result.attempted == tuple(parse_cards("H9 H8 H8 H4 H4"))
    assert result.penalty == 15
    assert hand.penalties == [15, 0, 0, 0]
    after = hand.hand_of(0)
    assert len(after) == len(before) - 1 and after.count(parse_cards("H8")[0]) == 2
    assert hand.lead_shape is not None and hand.lead_shape.size == 1
    # The attempted cards are public: every seat and a spectator see them.
    for seat in (None, 0, 1, 2, 3):
        obs = hand.observation(seat)
        assert obs.current_attempt == tuple(parse_cards("H9 H8 H8 H4 H4"))
        assert obs.penalties == (15, 0, 0, 0)
        wire = ObservationView.of(obs).model_dump(mode="json")
        assert wire["current_attempt"] == ["H9", "H8", "H8", "H4", "H4"]
    for seat in (1, 2, 3):
        hand.play(seat, plain_hearts(hand, seat)[:1])
    trick = hand.tricks[-1]
    assert trick.attempted == tuple(parse_cards("H9 H8 H8 H4 H4"))
    assert trick.penalty == 15
    assert trick.winner == 1  # HT beats H9
    assert hand.observation(2).tricks[-1].attempted == trick.attempted
    assert hand.observation(2).current_attempt is None
    play_out(hand)
    result_ = hand.result
    assert result_ is not None and result_.breakdown["penalties"] == -15
    if result_.kind is None:
        assert result_.declarer_points == (
            result_.breakdown["captured"] + result_.breakdown["wangfen_adjustment"] - 15
        )


def test_baofen_failed_throw_by_defender_adds_to_declarer() -> None:
    # South leads H3; East wins with HA and throws H9 88 44; West holds higher hearts.
    hand = hand_with(
        BAOFEN,
        (
            "H3",
            "HA H9 H8 H8 H4 H4",
            "",
            "HA HK HK HQ HQ HJ HJ HT HT H9 H7 H7 H6 H6 H5 H5 H3",
        ),
        kitty="C3 C3 C4 C4 C6 C6 C7 C7",
        seed=2,
    )
    declare_by(hand, 0, 85, "S")
    hand.play(0, "H3")
    hand.play(1, "HA")
    north = hand.hand_of(2)
    hand.play(2, [north[-1]])
    hand.play(3, "H5")
    assert hand.tricks[-1].winner == 1
    result = hand.play(1, "H9 H8 H8 H4 H4")
    assert result.failed_throw and result.played == tuple(parse_cards("H9"))
    assert hand.penalties == [0, 15, 0, 0]
    play_out(hand)
    final = hand.result
    assert final is not None and final.breakdown["penalties"] == 15


def test_good_throw_through_a_hand_plays_everything() -> None:
    hand = hand_with(BAOFEN, ("HA HA HK", "", "", ""), seed=11)
    declare_by(hand, 0, 85, "S")
    result = hand.play(0, "HA HA HK")  # AAK: nobody can beat a unit of it
    assert not result.failed_throw and result.penalty == 0
    assert result.played == result.attempted == tuple(parse_cards("HA HA HK"))
    assert hand.observation(1).current_attempt is None
    assert hand.lead_shape is not None and hand.lead_shape.is_throw


def test_hongwu_failed_throw_plays_lowest_card_and_splits_a_pair() -> None:
    hand = hand_with(
        HONGWU,
        ("HQ HQ HA", "HK", "", "HA HK HJ HJ HT HT H9 H9 H8 H8 H7 H7 H6 H6 H4 H4 H3 H3"),
        kitty="C4 C4 C6 C6 C7 C7 C8 C8",
        seed=9,
    )
    declare_by(hand, 0, 70, "S")
    result = hand.play(0, "HQ HQ HA")
    assert result.failed_throw
    assert result.played == tuple(parse_cards("HQ"))
    assert result.penalty == 0  # 包红五 default
    assert hand.penalties == [0, 0, 0, 0]
    assert hand.hand_of(0).count(parse_cards("HQ")[0]) == 1
    assert hand.observation(3).current_attempt == tuple(parse_cards("HQ HQ HA"))


def test_hongwu_throw_penalty_when_set() -> None:
    rules = RuleSet.hongwu(throw_penalty_per_card=2)
    hand = hand_with(
        rules,
        ("HQ HQ HA", "HK", "", "HA HK HJ HJ HT HT H9 H9 H8 H8 H7 H7 H6 H6 H4 H4 H3 H3"),
        kitty="C4 C4 C6 C6 C7 C7 C8 C8",
        seed=9,
    )
    declare_by(hand, 0, 70, "S")
    assert hand.play(0, "HQ HQ HA").penalty == 6
    assert hand.penalties == [6, 0, 0, 0]
    play_out(hand)
    assert hand.result is not None and hand.result.breakdown["penalties"] == -6


def test_hongwu_throw_fails_on_an_equal_card() -> None:
    hand = hand_with(
        HONGWU,
        ("HA HA HK", "HQ", "", "HK HQ HJ HJ HT HT H9 H9 H8 H8 H7 H7 H6 H6 H4 H4 H3 H3"),
        kitty="C4 C4 C6 C6 C7 C7 C8 C8",
        seed=9,
    )
    declare_by(hand, 0, 70, "S")
    # West holds the other HK: equal to the lowest card, not lower — the throw fails.
    assert hand.play(0, "HA HA HK").failed_throw


def test_a_throw_that_will_fail_is_legal() -> None:
    hand = hand_with(BAOFEN, DECLARER_THROWS, kitty=KITTY, seed=11)
    declare_by(hand, 0, 85, "S")
    throw = parse_cards("H9 H8 H8 H4 H4")
    assert hand.is_legal(0, throw)
    assert hand.observation(0).is_legal(throw)
    assert hand.play(0, throw).failed_throw
