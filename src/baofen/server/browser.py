"""REST views the browser client needs, computed by the engine so that the client never
re-implements a rule: form defaults, the card display order, and replays of finished hands.

Nothing here reveals a hidden card: the card order is the same for everyone, and a replay is
built from a finished hand's record, which is public (``GET /api/tables/{code}/hands/{n}``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, get_args

from fastapi import APIRouter, HTTPException, Request, status

from ..actions import Play
from ..bots import bot_names
from ..cards import CARDS, SUITS
from ..hand import KITTY_SIZE, Hand
from ..order import order_for
from ..ruleset import RuleSet
from ..setting import GAMES, SettingGroup
from .lobby import Lobby
from .protocol import CardOrderView, HandReplay
from .table_settings import ClientDefaults, TableSettings

router = APIRouter()

BOT_LEVELS = ("random", "rule", "search")
"""Computer player levels of the protocol, weakest first."""


@router.get("/api/defaults", response_model=ClientDefaults)
def get_defaults() -> dict[str, Any]:
    """Default rule set of each game, default table settings, the available bot levels, the
    settings form's group order, and the kitty size and trump suits of a deal."""
    available = set(bot_names())
    return {
        "rules": {variant: RuleSet.create(variant=variant) for variant in GAMES},
        "settings": TableSettings(),
        "bot_levels": [level for level in BOT_LEVELS if level in available],
        "groups": list(get_args(SettingGroup)),
        "kitty_size": KITTY_SIZE,
        "trumps": list(SUITS),
    }


@router.get("/api/order/{variant}", response_model=CardOrderView)
def get_order(
    variant: Literal["baofen", "hongwu"], trump: Literal["S", "H", "C", "D"] | None = None
) -> dict[str, Any]:
    """Display order and suit group of every card kind in ``variant`` with ``trump`` (none:
    before trump is named)."""
    order = order_for(variant, trump)
    kinds = order.pack[::2]
    return {
        "variant": variant,
        "trump": trump,
        "cards": [str(card) for card in kinds],
        "groups": [order.group[card] for card in kinds],
    }


@router.get("/api/tables/{code}/hands/{number}/replay", response_model=HandReplay)
def get_replay(code: str, number: int, request: Request) -> dict[str, Any]:
    """Finished hand ``number`` of the table, trick by trick (see :func:`replay`)."""
    lobby: Lobby = request.app.state.lobby
    table = lobby.get(code)
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table has the code {code!r}")
    record = table.store.hand_record(table.code, number)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
    return replay(record, number)


def replay(record: dict[str, Any], number: int) -> dict[str, Any]:
    """The :class:`~.protocol.HandReplay` of a finished hand's record, by replaying it."""
    finished = Hand.from_record(record)
    hand = Hand(
        finished.rules, first=finished.first, hands=finished.deal[:4], kitty=finished.kitty
    )
    deal = [_names(hand.hand_of(seat)) for seat in range(4)]
    start: list[list[str]] = []
    tricks: list[dict[str, Any]] = []
    for seat, action in finished.actions:
        outcome = hand.apply(seat, action)
        if not start and hand.phase in ("playing", "done") and hand.trump is not None:
            start = [_names(hand.hand_of(s)) for s in range(4)]
        if isinstance(action, Play) and outcome is not None and outcome.trick is not None:
            tricks.append({
                "number": len(tricks) + 1,
                "trick": outcome.trick.to_dict(),
                "declarer_points": hand.declarer_points_so_far,
                "hands": [_names(hand.hand_of(s)) for s in range(4)],
            })
    assert hand.result is not None
    return {
        "number": number,
        "rules": hand.rules,
        "first": hand.first,
        "deal": deal,
        "kitty": _names(hand.kitty),
        "bids": list(hand.bids),
        "declarer": hand.declarer,
        "target": hand.target,
        "trump": hand.trump,
        "buried": None if hand.buried is None else _names(hand.buried),
        "hands": start or deal,
        "tricks": tricks,
        "result": hand.result.to_dict(),
    }


def _names(cards: Iterable[int]) -> list[str]:
    return [str(CARDS[card]) for card in cards]
