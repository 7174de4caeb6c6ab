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
from ..data import load_table

KITTY = 4
"""Holder index of the buried kitty among a sampler's holders (seats are 0–3)."""

HOLDING_WEIGHTS: dict[str, dict[str, dict[str, float]]] = load_table("holdings")
"""How readily an unseen card goes to a holder, per game, by the holder's class
(:func:`holder_class`) and the card's category (:func:`category`), over a defender who passed
throughout (weight 1; so is any class or category not listed), as ``data/holdings.json`` holds
it. Fitted on rule-bot hands by ``bench/calibration/calibrate_holdings.py`` so that sampled worlds
hold, at the start of play, what the rule bots' declarers, bury and defenders hold on average.
No weight is 0: a human may bury a trump."""


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
