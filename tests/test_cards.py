"""rules.md §1: card notation, parsing, formatting and points."""

from __future__ import annotations

import pytest

from baofen import CARDS, Card, card_of, format_cards, full_pack, parse_card, parse_cards
from baofen.cards import BIG_JOKER, LITTLE_JOKER, SAME_COLOUR, SUITS


def test_every_kind_round_trips_through_its_name() -> None:
    assert len(CARDS) == 54
    for kind, card in enumerate(CARDS):
        assert int(card) == kind
        assert parse_card(str(card)) == card
        assert Card(str(card)) is card
        assert Card(kind) is card


@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("SA", "SA"),
        ("HT", "HT"),
        ("H10", "HT"),
        ("h10", "HT"),
        ("sa", "SA"),
        ("dt", "DT"),
        ("C2", "C2"),
        ("bj", "BJ"),
        ("LJ", "LJ"),
        ("♠A", "SA"),
        ("♥10", "HT"),
        ("♣K", "CK"),
        ("♦5", "D5"),
        ("♥t", "HT"),
    ],
)
def test_parse_accepts_ten_unicode_and_lower_case(token: str, name: str) -> None:
    assert str(parse_card(token)) == name


def test_parse_cards_lists_and_formats_canonically() -> None:
    cards = parse_cards("SA SK SK H10 BJ LJ ♦5")
    assert format_cards(cards) == "SA SK SK HT BJ LJ D5"
    assert parse_cards(["SA", "h10"]) == [card_of("S", 14), card_of("H", 10)]
    assert parse_cards("") == []
    assert format_cards([]) == ""
    # Formatting keeps the given order (no sorting).
    assert format_cards(parse_cards("D3 SA BJ")) == "D3 SA BJ"


@pytest.mark.parametrize("token", ["S1", "X5", "SAA", "10", "S11", "JJ", "B", "S", "♠", "ZZ", "S0"])
def test_bad_token_raises_value_error_naming_it(token: str) -> None:
    with pytest.raises(ValueError, match=repr(token).replace("[", r"\[")):
        parse_card(token)


def test_bad_token_inside_a_list_is_named() -> None:
    with pytest.raises(ValueError, match="'QQ'"):
        parse_cards("SA QQ SK")


@pytest.mark.parametrize("value", [-1, 54, 100])
def test_card_rejects_kinds_out_of_range(value: int) -> None:
    with pytest.raises(ValueError):
        Card(value)


def test_suits_ranks_and_jokers() -> None:
    sa = parse_card("SA")
    assert sa.suit == "S" and sa.rank == 14 and not sa.is_joker
    assert parse_card("HT").rank == 10
    assert parse_card("D2").suit == "D" and parse_card("D2").rank == 2
    for joker in (parse_card("BJ"), parse_card("LJ")):
        assert joker.is_joker and joker.suit is None and joker.rank is None
    assert int(parse_card("BJ")) == BIG_JOKER and int(parse_card("LJ")) == LITTLE_JOKER
    assert parse_card("SA").symbol() == "♠A"
    assert SUITS == "SHCD"


def test_same_colour_partners() -> None:
    assert SAME_COLOUR == {"S": "C", "C": "S", "H": "D", "D": "H"}
    assert parse_card("H5").is_red and parse_card("D9").is_red
    assert not parse_card("S5").is_red and not parse_card("C9").is_red


@pytest.mark.parametrize(
    ("text", "points"),
    [("S5", 5), ("H5", 5), ("CT", 10), ("DK", 10), ("SA", 0), ("SQ", 0), ("S2", 0),
     ("BJ", 0), ("LJ", 0), ("H9", 0), ("D4", 0)],
)
def test_card_points(text: str, points: int) -> None:
    assert parse_card(text).points == points


def test_pack_has_108_cards_and_200_points() -> None:
    pack = full_pack()
    assert len(pack) == 108
    assert all(pack.count(card) == 2 for card in CARDS)
    assert sum(card.points for card in pack) == 200
    # 5s, 10s and Ks of both decks: 8 + 8 + 8 cards.
    assert sum(1 for card in pack if card.points) == 24


def test_cards_compare_as_kinds_and_pickle() -> None:
    import pickle

    a, b = parse_cards("SA SA")
    assert a == b and hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) is a
    assert repr(a) == "Card('SA')"


@pytest.mark.parametrize("token", [None, 5, 3.0, ["SA"]])
def test_non_string_tokens_raise_value_error(token: object) -> None:
    with pytest.raises(ValueError, match="bad card"):
        parse_cards([token])  # type: ignore[list-item]


def test_cards_pass_through_parsing() -> None:
    cards = parse_cards("SA HT")
    assert parse_cards(cards) == cards  # type: ignore[arg-type]
