"""The reveal of a failed throw names the seat and the cards that beat it (the engine's
:meth:`TrickJudge.stopper` and the terminal's :func:`throw_stopper`)."""

from __future__ import annotations

from collections import Counter

import pytest
from rich.console import Console

from baofen import Card, Hand, RuleSet, parse_cards, play_hand
from baofen.bots import make_bot
from baofen.cli.render import Stopper, failed_throw_text, throw_stopper
from baofen.order import order_for
from baofen.tricks import TrickJudge

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def stopper(rules: RuleSet, trump: str, unit: str, held: str) -> str | None:
    judge = TrickJudge(rules, order_for(rules.variant, trump))
    cards = judge.stopper(parse_cards(unit), parse_cards(held))
    return None if cards is None else " ".join(map(str, cards))


@pytest.mark.parametrize(
    ("rules", "unit", "held", "expected"),
    [
        # 包分 (spades trump): the weakest single, pair or tractor that is higher
        (BAOFEN, "HQ", "HA HK H3 SA", "HK"),
        (BAOFEN, "HQ HQ", "HA HK HK H3 H3", "HK HK"),
        (BAOFEN, "HQ HQ", "HA HK", None),  # singles do not beat a pair
        (BAOFEN, "H8 H8 H7 H7", "HJ HJ HT HT H9 H9", "HT HT H9 H9"),  # a sub-run of a longer one
        (BAOFEN, "H8 H8 H7 H7", "HJ HJ H9 H9", None),  # two pairs, not a tractor
        (BAOFEN, "HQ", "SA SA D3", None),  # trumps do not count against a plain suit
        (BAOFEN, "H2 H2", "C2 C2", None),  # equal order never beats
        # 包红五 (hearts trump): a card at least as high as the throw's lowest card
        (HONGWU, "SQ", "SK SA S3", "SK"),
        (HONGWU, "SQ", "SQ S3", "SQ"),
        (HONGWU, "SQ", "SJ S3", None),
    ],
)
def test_stopper(rules: RuleSet, unit: str, held: str, expected: str | None) -> None:
    assert stopper(rules, "S" if rules is BAOFEN else "H", unit, held) == expected


def failed_throws(rules: RuleSet) -> list[tuple[Hand, int, tuple[Card, ...]]]:
    """Seeded random-bot hands, each stopped just after a failed throw: (hand, thrower,
    played)."""
    found = []
    for seed in range(60):
        bots = [make_bot("random", seed=seed + s, throw_rate=1.0, pass_rate=0.2)
                for s in range(4)]
        found += [(step.hand.copy(), step.seat, step.outcome.played)
                  for step in play_hand(rules, seed, bots).steps()
                  if step.outcome is not None and step.outcome.failed_throw]
    assert len(found) > 20
    return found


@pytest.mark.parametrize("rules", [BAOFEN, HONGWU], ids=["baofen", "hongwu"])
def test_every_failed_throw_has_a_stopper_that_beats_it(rules: RuleSet) -> None:
    for hand, thrower, played in failed_throws(rules):
        judge = hand.judge
        assert judge is not None
        group = judge.group[played[0]]
        found = []
        for seat in ((thrower + step) % 4 for step in (1, 2, 3)):
            held = hand.hand_of(seat)
            cards = judge.stopper(played, held)
            suited = [c for c in held if judge.group[c] == group]
            # Cards exactly when this seat alone makes the played unit fail (§6) …
            assert (cards is None) == (judge.failed_throw(played, [suited]) is None)
            if cards is not None:
                # … cards it holds, of the group, which make the unit fail on their own.
                assert not Counter(cards) - Counter(held)
                assert judge.failed_throw(played, [list(cards)]) == played
                found.append((seat, cards))
        assert found, "a failed throw is beaten by some seat"
        first = throw_stopper(hand, thrower, played)
        assert (first.seat, first.cards) == found[0]


def test_reveal_names_the_seat_and_cards() -> None:
    console = Console(record=True, width=300)
    console.print(failed_throw_text(
        0, parse_cards("SA SQ SQ"), parse_cards("SQ SQ"), 9,
        Stopper(1, tuple(parse_cards("SK SK")), True), you=0,
    ))
    console.print(failed_throw_text(
        2, parse_cards("ST S9"), parse_cards("S9"), 0, Stopper(3, (Card("S9"),), False), you=0,
    ))
    assert console.export_text().splitlines() == [
        "南 (you) tried to throw ♠A ♠Q ♠Q — the throw fails (甩错牌): 东 holds ♠K ♠K, which "
        "beats ♠Q ♠Q; you play only ♠Q ♠Q, penalty 9",
        "北 tried to throw ♠10 ♠9 — the throw fails (甩错牌): 西 holds ♠9, as high as ♠9; "
        "北 plays only ♠9",
    ]
