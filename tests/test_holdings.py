"""The search's prior on who holds which card (HOLDING_WEIGHTS in bots/search/holdings.py)."""

from __future__ import annotations

import random
import statistics

import pytest

from baofen import Hand, RuleSet, parse_cards
from baofen.bots.engine import python
from baofen.bots.search.holdings import HOLDING_WEIGHTS, KITTY, category, holder_class
from baofen.order import order_for

from .helpers import played_to

VARIANTS = ("baofen", "hongwu")


def test_categories_follow_the_trump_order() -> None:
    """Trumps by their place from the top (equal orders share one), plain cards by rank."""
    baofen = order_for("baofen", "S")
    names = [category(baofen, c) for c in parse_cards("BJ LJ S2 H2 D2 SA S3 HA H3 DK")]
    assert names == ["t0", "t1", "t2", "t3", "t3", "t4", "t15", "p14", "p3", "p13"]
    hongwu = order_for("hongwu", "C")
    names = [category(hongwu, c) for c in parse_cards("H5 BJ LJ C3 S3 C2 D2 CA H3 D5")]
    assert names == ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "p3", "p5"]


def at_first_play(variant: str, seed: int) -> Hand | None:
    """A rule-bot hand at its first play (``None`` when nobody declared)."""
    hand = played_to(RuleSet.create(variant=variant), seed, 0)
    return hand if hand.phase == "playing" else None


@pytest.mark.parametrize("variant", VARIANTS)
def test_holder_classes(variant: str) -> None:
    """The declarer, the bury, and defenders by whether they bid."""
    for seed in range(40):
        hand = at_first_play(variant, seed)
        if hand is None:
            continue
        obs = hand.observation((hand.declarer + 1) % 4)
        bid = {s for s, v in obs.bids if v is not None}
        assert holder_class(obs, KITTY) == "kitty"
        assert holder_class(obs, hand.declarer) == ("declarer" if bid else "forced")
        for seat in range(4):
            if seat != hand.declarer:
                assert holder_class(obs, seat) == ("bidder" if seat in bid else "passer")


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_holder_is_ruled_out_by_the_prior(variant: str) -> None:
    """Every weight is positive: a card the rule bots never give a holder (a trump in the bury)
    can still be dealt there when the play shows it."""
    table = HOLDING_WEIGHTS[variant]
    assert {"declarer", "kitty", "bidder"} <= set(table)
    assert all(0 < w < 100 for row in table.values() for w in row.values())


def declarer_hit(variant: str, seeds: range, worlds: int) -> float:
    """Share of the declarer's cards that a defender's worlds at the first play give it."""
    rng = random.Random(5)
    hits = []
    for seed in seeds:
        hand = at_first_play(variant, seed)
        if hand is None:
            continue
        seat = (hand.declarer + 1) % 4
        sampler = python().worlds(hand.observation(seat))
        for _ in range(worlds):
            dealt = sampler.sample(rng)
            assert dealt is not None
            left = list(hand.hand_of(hand.declarer))
            hit = 0
            for card in dealt[hand.declarer]:
                if card in left:
                    left.remove(card)
                    hit += 1
            hits.append(hit / len(dealt[hand.declarer]))
    return statistics.fmean(hits)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_prior_places_the_declarers_cards_better_than_a_flat_one(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before any play, worlds drawn with the fitted prior give the declarer more of its true
    cards than worlds where every holder is as likely as any other to hold any card."""
    fitted = declarer_hit(variant, range(60), 4)
    monkeypatch.setitem(HOLDING_WEIGHTS, variant, {})
    flat = declarer_hit(variant, range(60), 4)
    assert fitted > flat + 0.03
