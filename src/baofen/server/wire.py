"""Client side of the wire: rebuild an engine :class:`~baofen.Observation` from a ``state``.

A Python client (a remote bot, the tests, the load benchmark) can then decide with any engine
bot, exactly as the server's own computer players do. Only what the wire carries is rebuilt:
``actions`` is empty and ``result`` is not rebuilt (bots never act on a finished hand).
"""

from __future__ import annotations

from typing import Any

from ..actions import Action, Bid, Declare, Play
from ..cards import Card, parse_cards
from ..observation import Observation
from ..order import order_for
from ..ruleset import RuleSet
from ..tricks import Trick, TrickJudge


def _cards(names: list[str] | None) -> tuple[Card, ...]:
    return tuple(parse_cards(names)) if names else ()


def observation_from_wire(data: dict[str, Any], rules: RuleSet) -> Observation:
    """The observation a ``state`` message's ``observation`` describes (see the module doc)."""
    trump = data["trump"]
    order = order_for(rules.variant, trump)
    judge = TrickJudge(rules, order) if trump is not None else None
    by_group: list[list[Card]] = [[], [], [], [], []]
    for card in sorted(_cards(data["hand"]), key=order.display_rank.__getitem__):
        by_group[order.group[card]].append(card)
    current = tuple((seat, _cards(cards)) for seat, cards in data["current_trick"])
    tricks = tuple(
        Trick(
            t["leader"],
            tuple((seat, _cards(cards)) for seat, cards in t["plays"]),
            t["winner"],
            t["points"],
            _cards(t["attempted"]) if t["attempted"] is not None else None,
            t["penalty"],
        )
        for t in data["tricks"]
    )
    return Observation(
        rules=rules,
        seat=data["seat"],
        phase=data["phase"],
        to_act=data["to_act"],
        first=data["first"],
        bids=tuple((seat, value) for seat, value in data["bids"]),
        declarer=data["declarer"],
        target=data["target"],
        trump=trump,
        by_group=tuple(tuple(g) for g in by_group) if data["seat"] is not None else (),
        kitty=_cards(data["kitty"]) if data["kitty"] is not None else None,
        buried=_cards(data["buried"]) if data["buried"] is not None else None,
        tricks=tricks,
        current_trick=current,
        current_attempt=(
            _cards(data["current_attempt"]) if data["current_attempt"] is not None else None
        ),
        leader=data["leader"],
        lead_shape=judge.shape(current[0][1]) if judge is not None and current else None,
        hand_sizes=tuple(data["hand_sizes"]),
        penalties=tuple(data["penalties"]),
        declarer_points=data["declarer_points"],
        result=None,
        judge=judge,
        actions=(),
    )


def action_message(action: Action) -> dict[str, Any]:
    """The client message that makes ``action``."""
    if isinstance(action, Bid):
        return {"type": "bid", "value": action.value}
    if isinstance(action, Declare):
        return {"type": "declare", "trump": action.trump, "bury": [str(c) for c in action.bury]}
    if isinstance(action, Play):
        return {"type": "play", "cards": [str(c) for c in action.cards]}
    raise TypeError(f"not an action: {action!r}")
