"""rules.md §4: pairs, tractors (chains), canonical decomposition, formats, eight of a kind."""

from __future__ import annotations

import pytest

from baofen import RuleSet, parse_cards
from baofen.order import order_for
from baofen.tricks import TrickJudge
from baofen.units import Format, format_of, is_tractor, pair_kinds, runs_of_pairs

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def tractor(rules: RuleSet, text: str, trump: str) -> bool:
    return rules.is_tractor(parse_cards(text), trump=trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("BJ BJ LJ LJ", "S"),
        ("SK SK SQ SQ", "H"),
        ("HT HT H9 H9", "S"),
        ("D5 D5 D4 D4 D3 D3", "S"),
        ("SA SA SK SK SQ SQ SJ SJ", "S"),  # a trump-suit tractor
        ("S4 S4 S3 S3", "S"),
        ("HJ HJ HQ HQ", "S"),  # order of the cards given does not matter (§15: JJQQ one suit)
        ("CA CA CK CK", "D"),
        ("DA DA DK DK", "D"),
    ],
)
def test_baofen_tractors(text: str, trump: str) -> None:
    assert tractor(BAOFEN, text, trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("LJ LJ S2 S2", "S"),  # jokers + trump 2
        ("S2 S2 H2 H2", "S"),  # trump 2 + other 2
        ("H2 H2 SA SA", "S"),  # other 2 + trump A
        ("S2 S2 SA SA", "S"),  # trump 2 + trump A
        ("H2 H2 C2 C2", "S"),  # two other 2s: equal order
        ("BJ BJ SA SA", "S"),
        ("SK SK SJ SJ", "S"),  # gap
        ("HJ HJ SQ SQ", "D"),  # J and Q of different suits (the JJQQ of source 000)
        ("S5 S5 S4", "H"),
        ("S5 S4 S4", "H"),
        ("S5 S5 S3 S3", "H"),
        ("SA SA", "H"),  # one pair is not a tractor
        ("SA SK SQ SJ", "H"),  # singles
        ("SA SA SK", "H"),
        ("S3 S3 S2 S2", "H"),  # the 2 is trump, never in a plain chain
        ("SA SA S2 S2", "D"),
        ("S3 S3 SA SA", "H"),  # no wrap-around
        ("HA HA SK SK", "D"),  # two suits
    ],
)
def test_baofen_not_tractors(text: str, trump: str) -> None:
    assert not tractor(BAOFEN, text, trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("H5 H5 BJ BJ LJ LJ", "S"),
        ("H5 H5 BJ BJ", "C"),
        ("BJ BJ LJ LJ", "D"),
        ("S3 S3 C3 C3", "S"),  # 正参谋 + 副参谋
        ("C3 C3 S3 S3", "C"),
        ("H3 H3 D3 D3", "H"),
        ("D3 D3 H3 H3", "D"),
        ("S2 S2 C2 C2", "S"),  # trump 2 with any other 2
        ("S2 S2 H2 H2", "S"),
        ("S2 S2 D2 D2", "S"),
        ("H2 H2 S2 S2", "H"),
        ("H6 H6 H4 H4", "S"),  # H5 is trump: H6 and H4 adjacent in plain hearts
        ("H6 H6 H4 H4", "H"),  # and in trump hearts
        ("C6 C6 C5 C5 C4 C4", "H"),
        ("H4 H4 H3 H3", "S"),  # H3 plain when U = C
        ("SA SA SK SK", "S"),
        ("S6 S6 S5 S5 S4 S4", "S"),
        ("C6 C6 C5 C5 C4 C4", "S"),  # clubs 3 is 副参谋, so the chain ends at C4
    ],
)
def test_hongwu_tractors(text: str, trump: str) -> None:
    assert tractor(HONGWU, text, trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("SA SA S2 S2", "S"),  # AA22
        ("S2 S2 S3 S3", "S"),  # 2233
        ("LJ LJ S3 S3", "S"),
        ("C3 C3 S2 S2", "S"),  # 副参谋 + 主2
        ("C2 C2 D2 D2", "S"),  # two other 2s
        ("H2 H2 C2 C2", "S"),
        ("S4 S4 S2 S2", "S"),
        ("H3 H3 D3 D3", "S"),  # not the counsellors with spades trump: plain H3, plain D3
        ("C4 C4 C3 C3", "S"),  # C3 is trump (副参谋)
        ("H6 H6 H5 H5", "S"),  # H5 is trump
        ("SA SA H5 H5", "S"),
        ("S3 S3 H5 H5", "S"),
        ("S4 S4 S3 S3", "S"),  # S3 is 正参谋, not in the trump suit chain
    ],
)
def test_hongwu_not_tractors(text: str, trump: str) -> None:
    assert not tractor(HONGWU, text, trump)


def test_hongwu_three_twos_are_a_tractor_of_two_plus_a_pair() -> None:
    order = order_for("hongwu", "S")
    cards = parse_cards("S2 S2 C2 C2 D2 D2")
    assert not is_tractor(order, cards)
    assert format_of(order, cards) == Format((2,), 1, 0)
    runs = runs_of_pairs(order, pair_kinds(cards))
    assert sorted(len(r) for r in runs) == [1, 2]
    assert next(r for r in runs if len(r) == 2)[0] == parse_cards("S2")[0]  # the trump 2 leads it


@pytest.mark.parametrize(
    ("variant", "trump", "text", "fmt"),
    [
        ("baofen", "S", "HA", ((), 0, 1)),
        ("baofen", "S", "HA HA", ((), 1, 0)),
        ("baofen", "S", "HA HA HK HK", ((2,), 0, 0)),
        ("baofen", "S", "HA HK HK", ((), 1, 1)),
        ("baofen", "S", "HA HQ HQ HJ HJ", ((2,), 0, 1)),
        ("baofen", "S", "HA H7 H7 H6 H6 H5 H5", ((3,), 0, 1)),
        ("baofen", "S", "H9 H8 H8 H4 H4", ((), 2, 1)),
        ("baofen", "S", "BJ LJ LJ", ((), 1, 1)),
        ("baofen", "S", "BJ BJ LJ", ((), 1, 1)),
        ("baofen", "S", "BJ LJ S2 S2", ((), 1, 2)),
        ("baofen", "S", "S2 S2 H2 H2 C2 C2", ((), 3, 0)),
        ("baofen", "S", "BJ BJ LJ LJ SA SA SK SK", ((2, 2), 0, 0)),
        ("baofen", "S", "HA HA HK HK HQ HQ H9 H9 H8 H8", ((3, 2), 0, 0)),
        ("hongwu", "S", "H5 H5 BJ BJ LJ LJ S3 S3 C3 C3 S2 S2 H2 H2 D2 D2", ((3, 2, 2), 1, 0)),
        ("hongwu", "S", "S2 S2 C2 C2 D2 D2", ((2,), 1, 0)),
        ("hongwu", "H", "HA HA HK HK H6 H6 H4 H4", ((2, 2), 0, 0)),
    ],
)
def test_formats(
    variant: str, trump: str, text: str, fmt: tuple[tuple[int, ...], int, int]
) -> None:
    result = format_of(order_for(variant, trump), parse_cards(text))
    assert (result.tractors, result.pairs, result.singles) == fmt


def test_judge_decomposes_throws_into_units() -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", "S"))
    units = judge.units(parse_cards("HA H7 H7 H6 H6 H5 H5"))
    assert sorted((u.pairs, len(u.cards)) for u in units) == [(0, 1), (3, 6)]
    units = judge.units(parse_cards("H9 H8 H8 H4 H4"))
    assert sorted((u.pairs, len(u.cards)) for u in units) == [(0, 1), (1, 2), (1, 2)]


EIGHT = "H7 H7 S7 S7 C7 C7 D7 D7"


@pytest.mark.parametrize("trump", list("SHCD"))
def test_eight_of_a_kind_leads_as_one_trump_play(trump: str) -> None:
    judge = TrickJudge(BAOFEN, order_for("baofen", trump))
    cards = parse_cards(EIGHT)
    assert judge.is_eight_of_a_kind(cards)
    assert judge.lead_error(cards) is None
    shape = judge.shape(cards)
    assert shape.eight and shape.size == 8 and shape.pairs == 4 and not shape.is_throw
    assert shape.group == 4


@pytest.mark.parametrize(
    ("rules", "text"),
    [
        (BAOFEN.replace(eight_of_a_kind=False), EIGHT),  # setting off
        (HONGWU, EIGHT),  # 包分 only
        (BAOFEN, "H2 H2 S2 S2 C2 C2 D2 D2"),  # not the 2s (all trump: a throw of four pairs)
        (BAOFEN, "H7 H7 S7 S7 C7 C7 D7 D6"),
        (BAOFEN, "H7 H7 S7 S7 C7 C7 C7 D7"),
    ],
)
def test_not_eight_of_a_kind(rules: RuleSet, text: str) -> None:
    judge = TrickJudge(rules, order_for(rules.variant, "S"))
    cards = parse_cards(text)
    assert not judge.is_eight_of_a_kind(cards)
    shape = judge.shape(cards) if judge.lead_error(cards) is None else None
    assert shape is None or not shape.eight


def test_eight_of_a_kind_with_mixed_groups_is_only_legal_as_eight() -> None:
    judge = TrickJudge(BAOFEN.replace(eight_of_a_kind=False), order_for("baofen", "S"))
    assert judge.lead_error(parse_cards(EIGHT)) is not None
