"""Who holds which hidden card, on average: the prior a sampler deals unseen cards by.

A sampler (:class:`~baofen.bots.search.determinize.Determinizer`) deals the cards a seat has not
seen to the other seats and, for a defender, to the buried kitty; each holder takes a card more or
less readily by its class (a declarer, a defender who bid, one who passed, the bury) and the card's
category (a trump by its place from the top, a plain card by its rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ...cards import KINDS, Card
from ...observation import Observation
from ...order import TRUMP, Order, order_for

KITTY = 4
"""Holder index of the buried kitty among a sampler's holders (seats are 0–3)."""

HOLDING_WEIGHTS: dict[str, dict[str, dict[str, float]]] = {
    "baofen": {
        "bidder": {
            "t0": 2.35, "t1": 2.25, "t2": 1.44, "t3": 1.82, "t4": 0.951, "t5": 0.992, "t6": 0.828,
            "t7": 0.787, "t8": 0.922, "t9": 0.796, "t10": 0.86, "t11": 0.552, "t12": 0.808,
            "t13": 0.639, "t14": 0.676, "t15": 0.614, "p3": 0.817, "p4": 0.658, "p5": 0.923,
            "p6": 0.947, "p7": 0.876, "p8": 1.02, "p9": 0.877, "p10": 1.09, "p11": 1.05,
            "p12": 0.969, "p13": 1.11, "p14": 1.22,
        },
        "declarer": {
            "t0": 2.94, "t1": 2.74, "t2": 2.22, "t3": 2.25, "t4": 2.53, "t5": 2.7, "t6": 2.42,
            "t7": 2.35, "t8": 2.76, "t9": 2.54, "t10": 2.5, "t11": 2.64, "t12": 2.85, "t13": 2.93,
            "t14": 2.89, "t15": 3.28, "p3": 0.02, "p4": 0.232, "p5": 1.4, "p6": 0.376, "p7": 0.513,
            "p8": 0.735, "p9": 0.95, "p10": 2.31, "p11": 1.21, "p12": 1.44, "p13": 2.1,
            "p14": 2.01,
        },
        "kitty": {
            "t0": 0.02, "t1": 0.02, "t2": 0.02, "t3": 0.02, "t4": 0.02, "t5": 0.02, "t6": 0.02,
            "t7": 0.02, "t8": 0.02, "t9": 0.02, "t10": 0.02, "t11": 0.02, "t12": 0.02, "t13": 0.02,
            "t14": 0.02, "t15": 0.02, "p3": 50.0, "p4": 2.8, "p5": 0.278, "p6": 1.3, "p7": 1.13,
            "p8": 1.01, "p9": 0.852, "p10": 0.117, "p11": 0.782, "p12": 0.555, "p13": 0.02,
            "p14": 0.02,
        },
    },
    "hongwu": {
        "bidder": {
            "t0": 2.15, "t1": 1.78, "t2": 1.5, "t3": 0.854, "t4": 1.07, "t5": 1.7, "t6": 1.53,
            "t7": 0.83, "t8": 0.895, "t9": 0.761, "t10": 0.796, "t11": 0.978, "t12": 0.843,
            "t13": 0.791, "t14": 0.532, "t15": 0.732, "t16": 0.804, "t17": 0.587, "p3": 1.49,
            "p4": 0.558, "p5": 0.928, "p6": 0.878, "p7": 0.991, "p8": 0.862, "p9": 0.869,
            "p10": 0.974, "p11": 0.951, "p12": 0.955, "p13": 1.09, "p14": 1.15,
        },
        "declarer": {
            "t0": 3.05, "t1": 2.41, "t2": 2.06, "t3": 2.41, "t4": 2.43, "t5": 2.17, "t6": 2.16,
            "t7": 2.15, "t8": 3.02, "t9": 2.55, "t10": 2.45, "t11": 3.2, "t12": 2.46, "t13": 2.62,
            "t14": 2.75, "t15": 2.82, "t16": 3.25, "t17": 2.95, "p3": 0.02, "p4": 0.02, "p5": 1.18,
            "p6": 0.269, "p7": 0.427, "p8": 0.583, "p9": 0.821, "p10": 2.41, "p11": 1.03,
            "p12": 1.32, "p13": 2.36, "p14": 2.35,
        },
        "forced": {
            "t0": 1.51, "t1": 1.56, "t2": 1.44, "t3": 1.86, "t4": 2.0, "t5": 1.54, "t6": 1.47,
            "t7": 1.75, "t8": 2.37, "t9": 2.34, "t10": 2.41, "t11": 2.32, "t12": 2.25, "t13": 2.21,
            "t14": 2.44, "t15": 2.53, "t16": 2.87, "t17": 2.55, "p3": 0.02, "p4": 0.0212,
            "p5": 1.72, "p6": 0.438, "p7": 0.609, "p8": 0.872, "p9": 1.02, "p10": 2.51,
            "p11": 1.35, "p12": 1.7, "p13": 2.06, "p14": 2.08,
        },
        "kitty": {
            "t0": 0.02, "t1": 0.02, "t2": 0.02, "t3": 0.02, "t4": 0.02, "t5": 0.02, "t6": 0.02,
            "t7": 0.02, "t8": 0.02, "t9": 0.02, "t10": 0.02, "t11": 0.02, "t12": 0.02, "t13": 0.02,
            "t14": 0.02, "t15": 0.02, "t16": 0.02, "t17": 0.02, "p3": 50.0, "p4": 14.0, "p5": 0.395,
            "p6": 1.51, "p7": 1.14, "p8": 1.03, "p9": 0.904, "p10": 0.124, "p11": 0.825,
            "p12": 0.587, "p13": 0.02, "p14": 0.02,
        },
    },
}
"""How readily an unseen card goes to a holder, per game, by the holder's class
(:func:`holder_class`) and the card's category (:func:`category`), over a defender who passed
throughout (weight 1; so is any class or category not listed). Fitted on rule-bot hands by
``bench/calibrate_holdings.py`` so that sampled worlds hold, at the start of play, what the rule
bots' declarers, bury and defenders hold on average. No weight is 0: a human may bury a trump."""


def category(order: Order, kind: int) -> str:
    """A card's category for :data:`HOLDING_WEIGHTS`: a trump by its place from the top of the
    trump order (``"t0"`` the highest; equal orders share a place), a plain card by its rank
    (``"p14"`` an ace)."""
    if order.group[kind] == TRUMP:
        return f"t{max(order.strength) - order.strength[kind]}"
    return f"p{kind % 13 + 2}"


@cache
def categories(variant: str, trump: str | None) -> tuple[str, ...]:
    """:func:`category` of every kind, once per game and trump (a sampler is built every
    decision)."""
    order = order_for(variant, trump)
    return tuple(category(order, kind) for kind in range(KINDS))


def holder_class(obs: Observation, holder: int) -> str:
    """The class of a holder of hidden cards for :data:`HOLDING_WEIGHTS`: ``"kitty"`` (the bury),
    ``"declarer"`` (包红五: ``"forced"`` when everyone passed and it declares at the lowest bid),
    ``"bidder"`` (a defender who bid) or ``"passer"``."""
    if holder == KITTY:
        return "kitty"
    if holder == obs.declarer:
        return "declarer" if any(v is not None for _, v in obs.bids) else "forced"
    return "bidder" if any(s == holder and v is not None for s, v in obs.bids) else "passer"


def start_of_hand(
    obs: Observation, me: int, dealt: dict[int, list[Card]]
) -> tuple[list[list[Card]], list[Card], Sequence[Card]]:
    """The deal a sampled world stands for: each seat's hand before play (``me``'s from the
    observation, the others' ``dealt`` with the cards they played since), the kitty, and the
    bury to replay (the declarer's own when ``me`` declared, else the sampled kitty)."""
    played = played_cards(obs)
    current = [own_cards(obs, me, played) if s == me else list(dealt[s]) + played[s]
               for s in range(4)]
    if obs.buried is None:
        return current, dealt[KITTY], dealt[KITTY]
    assert obs.kitty is not None
    return current, list(obs.kitty), obs.buried


def played_cards(obs: Observation) -> list[list[Card]]:
    """The cards each seat has played this hand, in the order played."""
    played: list[list[Card]] = [[] for _ in range(4)]
    history = [t.plays for t in obs.tricks]
    if obs.current_trick:
        history.append(obs.current_trick)
    for plays in history:
        for seat, cards in plays:
            played[seat].extend(cards)
    return played


def own_cards(obs: Observation, me: int, played: list[list[Card]]) -> list[Card]:
    """``me``'s hand before play: its cards, those it played, and where it declared, its bury
    back and the kitty's cards out."""
    cards = list(obs.hand) + played[me]
    if obs.buried is not None:
        assert obs.kitty is not None
        cards.extend(obs.buried)
        for card in obs.kitty:
            cards.remove(card)
    return cards
