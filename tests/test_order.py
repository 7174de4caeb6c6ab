"""rules.md §3: suit groups and card order for both games and every trump suit."""

from __future__ import annotations

import itertools

import pytest

from baofen import CARDS, RuleSet, parse_card, parse_cards
from baofen.cards import KINDS, SAME_COLOUR, SUITS
from baofen.order import TRUMP, order_for

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()
PLAIN_RANKS = "AKQJT9876543"


def ladder(text: str) -> list[list[str]]:
    """``"BJ > LJ > H2 = S2"`` → levels high to low, each a list of card names."""
    return [level.split("=") for level in text.replace(" ", "").split(">")]


def baofen_trump_ladder(trump: str) -> str:
    others = "=".join(f"{s}2" for s in SUITS if s != trump)
    suit = " > ".join(f"{trump}{r}" for r in PLAIN_RANKS)
    return f"BJ > LJ > {trump}2 > {others} > {suit}"


def hongwu_trump_ladder(trump: str) -> str:
    partner = SAME_COLOUR[trump]
    others = "=".join(f"{s}2" for s in SUITS if s != trump)
    suit = " > ".join(
        f"{trump}{r}" for r in "AKQJT987654" if not (trump == "H" and r == "5")
    )
    return f"H5 > BJ > LJ > {trump}3 > {partner}3 > {trump}2 > {others} > {suit}"


def hongwu_plain_ladder(suit: str, trump: str) -> str:
    ranks = [
        r for r in PLAIN_RANKS
        if not (suit == "H" and r == "5") and not (suit == SAME_COLOUR[trump] and r == "3")
    ]
    return " > ".join(f"{suit}{r}" for r in ranks)


def check_ladder(variant: str, trump: str, group: int, text: str) -> None:
    order = order_for(variant, trump)
    levels = ladder(text)
    names = [name for level in levels for name in level]
    assert len(set(names)) == len(names)
    # Exactly these cards make up the group.
    assert {str(CARDS[k]) for k in order.kinds_by_group[group]} == set(names)
    strengths = [[order.strength[parse_card(n)] for n in level] for level in levels]
    for level in strengths:
        assert len(set(level)) == 1, f"{text}: unequal within a level"
    tops = [level[0] for level in strengths]
    assert tops == sorted(tops, reverse=True) and len(set(tops)) == len(tops), text


@pytest.mark.parametrize("trump", list(SUITS))
def test_baofen_trump_order(trump: str) -> None:
    check_ladder("baofen", trump, TRUMP, baofen_trump_ladder(trump))


@pytest.mark.parametrize(("trump", "suit"), [(t, s) for t in SUITS for s in SUITS if s != t])
def test_baofen_plain_order(trump: str, suit: str) -> None:
    check_ladder(
        "baofen", trump, SUITS.index(suit), " > ".join(f"{suit}{r}" for r in PLAIN_RANKS)
    )


@pytest.mark.parametrize("trump", list(SUITS))
def test_hongwu_trump_order(trump: str) -> None:
    check_ladder("hongwu", trump, TRUMP, hongwu_trump_ladder(trump))


@pytest.mark.parametrize(("trump", "suit"), [(t, s) for t in SUITS for s in SUITS if s != t])
def test_hongwu_plain_order(trump: str, suit: str) -> None:
    check_ladder("hongwu", trump, SUITS.index(suit), hongwu_plain_ladder(suit, trump))


@pytest.mark.parametrize(("trump", "count"), [("S", 40), ("H", 38), ("C", 40), ("D", 40)])
def test_hongwu_trump_count(trump: str, count: int) -> None:
    order = order_for("hongwu", trump)
    assert sum(1 for card in order.pack if order.group[card] == TRUMP) == count


@pytest.mark.parametrize("trump", list(SUITS))
def test_baofen_trump_count(trump: str) -> None:
    # Jokers 4, 2s 8, the trump suit's A…3 24.
    order = order_for("baofen", trump)
    assert sum(1 for card in order.pack if order.group[card] == TRUMP) == 36


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
@pytest.mark.parametrize("trump", [*SUITS, None])
def test_every_card_in_exactly_one_group_and_pack(variant: str, trump: str | None) -> None:
    order = order_for(variant, trump)
    assert sorted(k for group in order.kinds_by_group for k in group) == list(range(KINDS))
    assert sorted(order.pack) == sorted(c for c in CARDS for _ in (0, 1))
    assert all(order.strength[k] >= 100 for k in order.kinds_by_group[TRUMP])
    assert all(order.strength[k] < 100 for g in range(4) for k in order.kinds_by_group[g])
    # The display sort puts trumps first, strongest first inside a group.
    shown = order.sort(list(order.pack[::-1]))
    assert shown == list(order.pack)


def test_red_five_always_trump_and_absent_from_hearts() -> None:
    h5 = parse_card("H5")
    for trump in SUITS:
        order = order_for("hongwu", trump)
        assert order.group[h5] == TRUMP
        assert order.strength[h5] == max(order.strength)
    # Before trump is named, the always-trump cards are already trump.
    order = order_for("hongwu", None)
    for name in ("H5", "BJ", "LJ", "S2", "H2", "C2", "D2"):
        assert order.group[parse_card(name)] == TRUMP


def test_cached_and_rejects_bad_arguments() -> None:
    assert order_for("baofen", "S") is order_for("baofen", "S")
    with pytest.raises(ValueError):
        order_for("bridge", "S")
    with pytest.raises(ValueError):
        order_for("baofen", "X")


# The same orders seen through trick_winner: a single lead and one single follow.

def single_winner(rules: RuleSet, trump: str, lead: str, follow: str) -> int:
    filler = parse_cards("D4" if trump == "C" else "C4")  # a low plain card: a discard
    plays = [parse_cards(lead), parse_cards(follow), filler, filler]
    return rules.trick_winner(plays, trump=trump)


@pytest.mark.parametrize(
    ("rules", "trump", "ladder_text"),
    [(BAOFEN, t, baofen_trump_ladder(t)) for t in "SH"]
    + [(HONGWU, t, hongwu_trump_ladder(t)) for t in "SHD"],
)
def test_trump_singles_beat_exactly_the_lower_ones(
    rules: RuleSet, trump: str, ladder_text: str
) -> None:
    levels = ladder(ladder_text)
    for a, b in itertools.combinations(levels, 2):
        for x, y in itertools.product(a, b):
            # x is higher: it wins whether led or played second.
            assert single_winner(rules, trump, x, y) == 0, (x, y)
            assert single_winner(rules, trump, y, x) == 1, (y, x)
    for level in levels:
        for x, y in itertools.permutations(level, 2):
            assert single_winner(rules, trump, x, y) == 0, f"equal {x} {y}: first stays"
