"""REST views the browser client needs, computed by the engine so that the client never
re-implements a rule: form defaults, the card display order, and replays of finished hands.

Nothing here reveals a hidden card: the card order is the same for everyone, and a replay is
built from a finished hand's record, which is public (``GET /api/tables/{code}/hands/{n}``).
"""

from __future__ import annotations

import io
from typing import Any, get_args

import segno
from fastapi import APIRouter, HTTPException, Request, Response, status

from ...bots import BOT_LEVELS
from ...cards import SUITS, Card
from ...hand import KITTY_SIZE, Hand
from ...order import order_for
from ...ruleset import RuleSet
from ...setting import GAMES, SettingGroup, Variant
from ...store.async_store import StoreUnavailable
from ...wire.cards import Suit
from ...wire.rest import CardOrderView, HandReplay, ReplayTrick
from ...wire.results import ResultView
from ...wire.settings import ClientDefaults, TableSettings
from ...wire.tricks import TrickView
from ..security import sessions
from . import rest

router = APIRouter()


@router.get("/api/defaults")
def get_defaults() -> ClientDefaults:
    """Default rule set of each game, default table settings, the bot levels, the settings
    form's group order, and the kitty size and trump suits of a deal."""
    return ClientDefaults(
        rules={variant: RuleSet.create(variant=variant) for variant in GAMES},
        settings=TableSettings(),
        bot_levels=list(BOT_LEVELS),
        groups=list(get_args(SettingGroup)),
        kitty_size=KITTY_SIZE,
        trumps=list(SUITS),
    )


@router.get("/api/order/{variant}")
def get_order(
    variant: Variant, trump: Suit | None = None
) -> CardOrderView:
    """Display order and suit group of every card kind in ``variant`` with ``trump`` (none:
    before trump is named)."""
    order = order_for(variant, trump)
    kinds = order.pack[::2]
    return CardOrderView(
        variant=variant, trump=trump, cards=list(kinds), groups=[order.group[c] for c in kinds]
    )


@router.get("/t/{code}/qr.svg")
async def get_link_qr(code: str, request: Request) -> Response:
    """The table's link as a QR code (SVG), for friends to scan from the waiting table."""
    await rest.table_of(request, code)  # 404 for a code no table has
    # A standalone SVG document (with its namespace): an inline fragment draws nothing in <img>.
    svg = io.BytesIO()
    segno.make(f"{request.base_url}t/{code}", error="m").save(
        svg, kind="svg", scale=4, border=2, xmldecl=False
    )
    return Response(
        svg.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
    )


@router.get("/api/tables/{code}/hands/{number}/replay")
async def get_replay(code: str, number: int, request: Request) -> HandReplay:
    """Finished hand ``number`` of the table, trick by trick (see :func:`replay`)."""
    table = await rest.table_of(request, code)
    try:
        record = await table.store.hand_record(table.code, number)
    except StoreUnavailable:
        raise sessions.unavailable() from None
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
    return replay(record, number)


def replay(record: dict[str, Any], number: int) -> HandReplay:
    """The replay of a finished hand's record, worked out by replaying it."""
    hand = Hand.from_record(record)
    dealt = hand.redeal()
    deal = [dealt.hand_of(seat) for seat in range(4)]
    start: list[list[Card]] = []
    tricks: list[ReplayTrick] = []
    for step in hand.steps():
        outcome, again = step.outcome, step.hand
        if not start and again.phase in ("playing", "done") and again.trump is not None:
            start = [again.hand_of(s) for s in range(4)]
        if outcome is not None and outcome.trick is not None:
            tricks.append(ReplayTrick(
                number=len(tricks) + 1,
                trick=TrickView.of(outcome.trick),
                declarer_points=again.declarer_points_so_far,
                hands=[again.hand_of(s) for s in range(4)],
            ))
    assert hand.result is not None
    return HandReplay(
        number=number,
        rules=hand.rules,
        first=hand.first,
        deal=deal,
        kitty=list(hand.kitty),
        bids=hand.bids,
        declarer=hand.declarer,
        target=hand.target,
        trump=hand.trump,
        buried=None if hand.buried is None else list(hand.buried),
        hands=start or deal,
        tricks=tricks,
        result=ResultView.of(hand.result),
    )
