"""rules.md §7: following obligations (suit, then structure), table-driven and against a
brute-force reading of the rule."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baofen import CARDS, Card, IllegalAction, Reason, RuleSet, parse_cards
from baofen.cards import KINDS
from baofen.order import order_for
from baofen.tricks import TrickJudge

from .follow_reference import CHAINS, reference_legal
from .helpers import declare_by, hand_with

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()
HONGWU_STRUCT = RuleSet.hongwu(must_follow_structure=True)
BAOFEN_FREE = RuleSet.baofen(must_follow_structure=False)


def follow_error(rules: RuleSet, trump: str, lead: str, holding: str, play: str) -> str | None:
    judge = TrickJudge(rules, order_for(rules.variant, trump))
    lead_cards = parse_cards(lead)
    assert judge.lead_error(lead_cards) is None
    shape = judge.shape(lead_cards)
    held = parse_cards(holding)
    counts = [0] * KINDS
    for card in held:
        counts[card] += 1
    suited = [c for c in held if judge.group[c] == shape.group]
    return judge.play_error(shape, counts, suited, parse_cards(play))


# (rules, trump, lead, holding, play, legal)
CASES = [
    # -- suit -------------------------------------------------------------------------------
    (BAOFEN, "S", "HA", "H9 D3 C4", "H9", True),
    (BAOFEN, "S", "HA", "H9 D3 C4", "D3", False),
    (BAOFEN, "S", "HA", "D3 C4 S4", "S4", True),  # void: ruff
    (BAOFEN, "S", "HA", "D3 C4 S4", "D3", True),  # void: discard
    (BAOFEN, "S", "HA", "H2 H9", "H2", False),  # H2 is trump, not a heart
    (BAOFEN, "S", "SA", "H2 H9", "H2", True),  # …and follows a trump lead
    (BAOFEN, "S", "SA", "H2 BJ H9", "H9", False),
    (HONGWU, "S", "SA", "H5 H9", "H5", True),  # red five is trump
    (HONGWU, "S", "HA", "H5 H9", "H5", False),
    (HONGWU, "S", "SA", "C3 C9", "C3", True),  # 副参谋 is trump
    (HONGWU, "S", "CA", "C3 C9", "C3", False),
    (BAOFEN, "S", "HK HK", "H9 D3 C4", "H9 D3", True),  # short: all hearts, then anything
    (BAOFEN, "S", "HK HK", "H9 D3 C4", "D3 C4", False),
    (BAOFEN, "S", "HK HK", "H9 H8 D3", "H9 D3", False),  # two hearts held: two hearts owed
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H8 S3 D3 C4", "H9 H8 S3 D3", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H8 S3 D3 C4", "H9 S3 D3 C4", False),
    # -- pairs ------------------------------------------------------------------------------
    (BAOFEN, "S", "HK HK", "H9 H9 H8", "H9 H9", True),
    (BAOFEN, "S", "HK HK", "H9 H9 H8", "H9 H8", False),
    (BAOFEN, "S", "HK HK", "H9 H8 H7", "H9 H8", True),  # no pair: any two hearts
    (BAOFEN, "S", "HK HK", "H9 H9 H8 H8", "H8 H8", True),  # any pair will do
    (BAOFEN, "S", "SK SK", "C2 D2 S9", "C2 D2", True),  # equal order, not a pair
    (BAOFEN, "S", "SK SK", "C2 D2 S9 S9", "C2 D2", False),
    (BAOFEN, "S", "SK SK", "BJ BJ S9 S9", "BJ BJ", True),
    # -- tractors ---------------------------------------------------------------------------
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H3 H3 H4", "H9 H9 H8 H8", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H3 H3 H4", "H9 H9 H3 H3", False),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H7 H7 H5", "H9 H9 H7 H7", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H7 H7 H5", "H9 H9 H7 H5", False),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H7 H6 H5", "H9 H9 H7 H5", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H7 H6 H5", "H9 H7 H6 H5", False),
    (BAOFEN, "S", "HA HA HK HK HQ HQ", "H9 H9 H8 H8 H5 H5 H3", "H9 H9 H8 H8 H5 H5", True),
    (BAOFEN, "S", "HA HA HK HK HQ HQ", "H9 H9 H8 H8 H5 H5 H3", "H9 H9 H8 H8 H5 H3", False),
    # a sub-run of a longer tractor answers a shorter led tractor
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H7 H7 H3", "H9 H9 H8 H8", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H7 H7 H3", "H8 H8 H7 H7", True),
    (BAOFEN, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H7 H7 H3", "H9 H9 H7 H7", False),
    # no tractor of the led length: as many pairs as possible
    (BAOFEN, "S", "HA HA HK HK HQ HQ", "H9 H9 H8 H8 H5 H5 H4", "H9 H9 H8 H8 H5 H5", True),
    (BAOFEN, "S", "HA HA HK HK HQ HQ", "H9 H9 H8 H8 H5 H4 H3", "H9 H9 H8 H8 H5 H4", True),
    # trump tractors: jokers, and the trump suit; not the 2s
    (BAOFEN, "S", "SA SA SK SK", "BJ BJ LJ LJ S3 S3 S9", "BJ BJ LJ LJ", True),
    (BAOFEN, "S", "SA SA SK SK", "BJ BJ LJ LJ S3 S3 S9", "BJ BJ S3 S3", False),
    (BAOFEN, "S", "SA SA SK SK", "LJ LJ S2 S2 S3 S3 S9", "LJ LJ S2 S2", True),
    (BAOFEN, "S", "SA SA SK SK", "LJ LJ S2 S2 S3 S3 S9", "LJ LJ S3 S9", False),
    # throws: tractors first, then pairs min(P, p)
    (BAOFEN, "S", "HA HA HK HK HQ", "H9 H9 H8 H8 H5 H5 H3", "H9 H9 H8 H8 H3", True),
    (BAOFEN, "S", "HA HA HK HK HQ", "H9 H9 H8 H8 H5 H5 H3", "H9 H9 H5 H5 H3", False),
    (BAOFEN, "S", "HA HA HK HK H9 H9", "H8 H8 H7 H7 H5 H5 H3 H4", "H8 H8 H7 H7 H5 H5", True),
    (BAOFEN, "S", "HA HA HK HK H9 H9", "H8 H8 H7 H7 H5 H5 H3 H4", "H8 H8 H7 H7 H3 H4", False),
    (BAOFEN, "S", "HA HQ HQ", "H8 H8 H6 H6 H3", "H8 H8 H3", True),
    (BAOFEN, "S", "HA HQ HQ", "H8 H8 H6 H6 H3", "H8 H6 H3", False),
    (BAOFEN, "S", "HA HQ HQ", "H8 H8 H6 H6 H3", "H8 H8 H6", True),
    # best list: tractors (3, 2) led; a run of four fits the 3 but not both
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 H4 H4 H3 H3 D3 D4",
        "H7 H7 H6 H6 H5 H5 H4 H4 H3 H3",
        True,
    ),
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 H4 H4 HJ HJ H9 H9 D3",
        "H7 H7 H6 H6 H5 H5 HJ HJ H9 H9",  # [3] matched, as good as the holding allows
        True,
    ),
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 H4 H4 HJ HJ H9 H9 D3",
        "H7 H7 H6 H6 H4 H4 HJ HJ H9 H9",  # five pairs, but only [2]: the holding allows [3]
        False,
    ),
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 H3 H3 HJ HJ HT D3 C4",
        "H7 H7 H6 H6 H5 H5 HJ HJ H3 H3",  # [3] only, but [3] is the holding's best
        True,
    ),
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 HJ HJ HT HT H3 D3 C4",
        "H7 H7 H6 H6 H5 H5 HJ HJ H3 D3",  # the holding allows [3, 2]
        False,
    ),
    (
        BAOFEN, "S", "HA HA HK HK HQ HQ H9 H9 H8 H8",
        "H7 H7 H6 H6 H5 H5 HJ HJ HT HT H3 D3 C4",
        "H7 H7 H6 H6 H5 H5 HJ HJ HT HT",
        True,
    ),
    # -- 包红五: no structure unless the setting is on ---------------------------------------
    (HONGWU, "S", "HK HK", "H9 H9 H8", "H9 H8", True),
    (HONGWU_STRUCT, "S", "HK HK", "H9 H9 H8", "H9 H8", False),
    (HONGWU_STRUCT, "S", "HK HK", "H9 H9 H8", "H9 H9", True),
    (HONGWU, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H6", "H9 H8 H8 H6", True),
    (HONGWU, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H6 D3", "H9 H8 H6 D3", False),  # suit still owed
    (HONGWU_STRUCT, "S", "HK HK HQ HQ", "H9 H9 H8 H8 H6", "H9 H8 H8 H6", False),
    (HONGWU_STRUCT, "S", "HK HK HQ HQ", "H6 H6 H4 H4 H9", "H6 H6 H4 H4", True),  # across H5
    (HONGWU_STRUCT, "S", "SA SA SK SK", "S2 S2 D2 D2 S9 LJ", "S2 S2 D2 D2", True),
    (HONGWU_STRUCT, "S", "SA SA SK SK", "S2 S2 D2 D2 S9 LJ", "S2 S2 S9 LJ", False),
    (HONGWU_STRUCT, "S", "SA SA SK SK", "C2 C2 D2 D2 S9 LJ", "C2 C2 S9 LJ", False),  # 2 pairs
    (HONGWU_STRUCT, "S", "SA SA SK SK", "C2 C2 D2 D2 S9 LJ", "C2 C2 D2 D2", True),
    (BAOFEN_FREE, "S", "HK HK", "H9 H9 H8", "H9 H8", True),
]


@pytest.mark.parametrize(("rules", "trump", "lead", "holding", "play", "legal"), CASES)
def test_following(
    rules: RuleSet, trump: str, lead: str, holding: str, play: str, legal: bool
) -> None:
    error = follow_error(rules, trump, lead, holding, play)
    assert (error is None) == legal, error


def test_wrong_number_of_cards_and_cards_not_held() -> None:
    assert follow_error(BAOFEN, "S", "HK HK", "H9 H9 H8", "H9") is not None
    assert follow_error(BAOFEN, "S", "HK HK", "H9 H9 H8", "H9 H9 H8") is not None
    assert follow_error(BAOFEN, "S", "HK HK", "H9 H8 H7", "H9 H9") is not None


# -- eight of a kind (包分) ---------------------------------------------------------------------

EIGHT = "H7 H7 S7 S7 C7 C7 D7 D7"


@pytest.mark.parametrize(
    ("holding", "play", "legal"),
    [
        # trumps first: 8 trumps held → 8 trumps, with min(4, p) pairs
        ("BJ BJ SA SA SK SK SQ SQ S9 S8 H4", "BJ BJ SA SA SK SK SQ SQ", True),
        ("BJ BJ SA SA SK SK SQ SQ S9 S8 H4", "BJ BJ SA SA SK SK S9 S8", False),
        ("BJ BJ SA SA SK SK SQ S9 S8 H4", "BJ BJ SA SA SK SK SQ S9", True),
        ("BJ BJ SA SA SK SK SQ S9 S8 H4", "BJ BJ SA SA SK SQ S9 S8", False),
        ("BJ BJ SA SA SK SK SQ S9 S8 H4", "BJ BJ SA SA SK SK SQ H4", False),  # a trump left
        # fewer than 8 trumps: all of them, then anything
        ("BJ SA SA SK H4 H3 D9 C9 CT", "BJ SA SA SK H4 H3 D9 C9", True),
        ("BJ SA SA SK H4 H3 D9 C9 CT", "BJ SA SK H4 H3 D9 C9 CT", False),
        ("D4 D5 D6 D8 D9 DT DJ DQ DK", "D4 D5 D6 D8 D9 DT DJ DQ", True),
    ],
)
def test_following_eight_of_a_kind(holding: str, play: str, legal: bool) -> None:
    error = follow_error(BAOFEN, "S", EIGHT, holding, play)
    assert (error is None) == legal, error


# -- a brute-force reading of §7 for plain suits ------------------------------------------------

@st.composite
def follow_situations(draw: st.DrawFn) -> tuple[str, str, str, list[str], list[str], bool]:
    """A plain-suit lead (one unit or a throw) and a follower's holding in that suit."""
    (variant, trump, suit), chain = draw(st.sampled_from(sorted(CHAINS.items())))
    rng = draw(st.randoms(use_true_random=False))
    pack = [suit + r for r in chain for _ in (0, 1)]
    rng.shuffle(pack)
    lead_size = rng.randint(1, 6)
    held = sorted(pack[lead_size:lead_size + rng.randint(0, 13)])
    return variant, trump, suit, pack[:lead_size], held, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(follow_situations())
def test_follow_rule_matches_brute_force(
    situation: tuple[str, str, str, list[str], list[str], bool],
) -> None:
    variant, trump, suit, lead, suited, structured = situation
    chain = CHAINS[(variant, trump, suit)]
    rules = RuleSet.create(variant=variant, must_follow_structure=structured)
    judge = TrickJudge(rules, order_for(variant, trump))
    lead_cards = parse_cards(lead)
    assert judge.lead_error(lead_cards) is None
    shape = judge.shape(lead_cards)
    filler = parse_cards("CA CK CQ CJ CT C9")[: len(lead)]
    held = parse_cards(suited) + filler
    counts = [0] * KINDS
    for card in held:
        counts[card] += 1
    suited_cards = parse_cards(suited)
    n = len(lead)
    seen = set()
    for combo in itertools.combinations(range(len(held)), n):
        play: list[Card] = sorted(held[i] for i in combo)
        key = tuple(play)
        if key in seen:
            continue
        seen.add(key)
        in_suit = [str(c) for c in play if str(c)[0] == suit]
        expected = reference_legal(lead, suited, in_suit, chain, structured)
        error = judge.play_error(shape, counts, suited_cards, play)
        assert (error is None) == expected, (lead, suited, [str(c) for c in play], error)


# -- through a Hand -----------------------------------------------------------------------------

def test_follow_obligation_in_a_hand_leaves_state_unchanged() -> None:
    hand = hand_with(BAOFEN, ("HK HK", "H9 H9 H8", "", ""), seed=3)
    declare_by(hand, 0, 85, "S")
    hand.play(0, "HK HK")
    before = hand.to_record()
    assert not hand.is_legal(1, parse_cards("H9 H8"))
    with pytest.raises(ValueError, match="pair"):
        hand.play(1, "H9 H8")
    assert hand.to_record() == before
    assert hand.is_legal(1, parse_cards("H9 H9"))
    hand.play(1, "H9 H9")


def test_refusals_carry_a_code_and_their_parameters() -> None:
    """A refused play's reason is the English text with a stable code and parameters (for
    interfaces in other languages), and survives pickling (worker processes)."""
    hand = hand_with(
        RuleSet.baofen(),
        ("SA SA SK CA", "SQ SQ S3", "", ""),
        kitty="C4 C4 C6 C6 C7 C7 C8 C8",
        seed=3,
    )
    declare_by(hand, 0, 85, "H")
    mixed = hand.play_error(0, parse_cards("SA CA"))
    assert isinstance(mixed, Reason) and mixed.code == "mixed_lead" and mixed.params == {}
    assert hand.play_error(0, parse_cards("SQ")) == "you do not hold SQ"
    hand.play(0, "SA SA")
    reason = hand.play_error(1, parse_cards("SQ S3"))
    assert isinstance(reason, Reason)
    assert reason == "you must follow with 1 pair(s) (有对必跟对)"
    assert (reason.code, reason.params) == ("follow_pairs", {"pairs": 1})
    with pytest.raises(IllegalAction) as refused:
        hand.play(1, "SQ S3")
    assert refused.value.reason == reason
    assert refused.value.reason is not None and refused.value.reason.code == "follow_pairs"
    again = pickle.loads(pickle.dumps(reason))
    assert (again, again.code, again.params) == (reason, reason.code, reason.params)
    with pytest.raises(IllegalAction) as out_of_turn:
        hand.play(3, "CA")
    assert out_of_turn.value.reason is not None
    assert (out_of_turn.value.reason.code, out_of_turn.value.reason.params) == (
        "not_your_turn", {"seat": 3, "to_act": 1})
    assert str(out_of_turn.value) == "not seat 3's turn: seat 1 is to act"
    with pytest.raises(IllegalAction) as malformed:
        hand.play(1, "SQ XX")
    assert malformed.value.reason is None and "'XX'" in str(malformed.value)


def refusal(act: Callable[[], object]) -> tuple[str, dict[str, object]]:
    """The code and parameters of the :class:`IllegalAction` that ``act`` raises."""
    with pytest.raises(IllegalAction) as refused:
        act()
    reason = refused.value.reason
    assert reason is not None, str(refused.value)
    return reason.code, reason.params


def test_bidding_and_kitty_refusals_carry_codes() -> None:
    hand = hand_with(RuleSet.baofen(), seed=4)
    assert refusal(lambda: hand.bid(0, 80)) == (
        "bid_not_offered", {"value": 80, "bids": "85, 90, 95"})
    assert refusal(lambda: hand.declare(0, "S", [])) == (
        "wrong_phase", {"expected": "kitty", "phase": "bidding"})
    hand.bid(0, 85)
    assert refusal(lambda: hand.bid(1, 85)) == ("bid_too_low", {"high": 85})
    hand.bid(1, None)
    hand.bid(2, None)
    hand.bid(3, None)
    assert hand.phase == "kitty" and hand.declarer == 0
    assert refusal(lambda: hand.declare(0, "N", list(hand.kitty))) == (
        "bad_trump", {"trump": "'N'"})
    assert refusal(lambda: hand.declare(0, "S", list(hand.kitty)[:3])) == (
        "bury_count", {"size": 8, "count": 3})
    absent = next(c for c in CARDS if c not in hand.hand_of(0))
    assert refusal(lambda: hand.declare(0, "S", [*list(hand.kitty)[:7], absent])) == (
        "bury_not_held", {"cards": str(absent)})
