"""The REST side of the lobby: create tables, read their public information and hand records.

Nothing here ever returns a card that is still hidden: table information is public by
construction, and hand records exist only for finished hands.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import JSONResponse

from ..ruleset import RuleSet
from ..wire.rest import CreateTable, QuickPlay, QuickPlayed, TableCreated
from ..wire.table import HandSummary, TableInfo
from .lobby import Lobby
from .schema import protocol_schema
from .table_settings import TableSettings
from .tables import Table, TableError

router = APIRouter()


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _table(request: Request, code: str) -> Table:
    table = _lobby(request).get(code)
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table has the code {code!r}")
    return table


def _public(table: Table, record: dict[str, Any]) -> dict[str, Any]:
    """A finished hand's record as served: while the match goes on, without the hand's seed,
    since enough seeds in a row would let one work out the deals still to come."""
    if table.status == "finished":
        return record
    return {**record, "seed": None}


@router.post("/api/tables", status_code=status.HTTP_201_CREATED)
def create_table(body: CreateTable, request: Request) -> TableCreated:
    """Create a table with a rule set and settings; returns its code and shareable link."""
    try:
        table = _lobby(request).create(body.rules, body.settings)
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    return TableCreated(
        code=table.code,
        link=f"{request.base_url}t/{table.code}",
        websocket=f"/ws/tables/{table.code}",
        table=table.info(),
    )


@router.post("/api/quickplay", status_code=status.HTTP_201_CREATED)
async def quickplay(body: QuickPlay, request: Request) -> QuickPlayed:
    """和电脑玩: a new private table of the game's default rules with this player at South and
    the computer in the other seats, started; the player connects with the seat token.
    (On the event loop, where a table's driver and timers live.)"""
    settings = TableSettings(private=True)
    if body.level is not None:
        settings = settings.model_copy(update={"bot_level": body.level})
    name = body.name or f"玩家{secrets.randbelow(9000) + 1000}"  # readable, e.g. 玩家4821
    try:
        table = _lobby(request).create(RuleSet.create(variant=body.variant), settings)
        token = table.seat_player(0, name)
        table.fill_bots(None)
        table.start()
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    return QuickPlayed(
        code=table.code, seat=0, name=name, token=token,
        link=f"{request.base_url}t/{table.code}", websocket=f"/ws/tables/{table.code}",
    )


@router.get("/api/tables")
def list_tables(request: Request) -> list[TableInfo]:
    """Open tables that are not private."""
    return _lobby(request).listing()


@router.get("/api/tables/{code}")
def get_table(code: str, request: Request) -> TableInfo:
    """Public information of one table."""
    return _table(request, code).info()


@router.get("/api/tables/{code}/hands", response_model=list[HandSummary])
def list_hands(code: str, request: Request) -> list[dict[str, Any]]:
    """The table's finished hands: number, result and score changes."""
    table = _table(request, code)
    return table.store.hand_summaries(table.code)


@router.get("/api/tables/{code}/hands/{number}")
def get_hand(code: str, number: int, request: Request) -> JSONResponse:
    """The record of one finished hand (``Hand.from_record`` replays it), as a download."""
    table = _table(request, code)
    record = table.store.hand_record(table.code, number)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
    return JSONResponse(
        _public(table, record),
        headers={"Content-Disposition": f'attachment; filename="{code}-hand-{number}.json"'},
    )


@router.get("/api/tables/{code}/records")
def get_records(code: str, request: Request) -> JSONResponse:
    """Every finished hand's record, as one JSON list (a download)."""
    table = _table(request, code)
    records = [_public(table, r) for r in table.store.hand_records(table.code)]
    return JSONResponse(
        records, headers={"Content-Disposition": f'attachment; filename="{code}-hands.json"'}
    )


@router.get("/api/protocol")
def get_protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every message and REST body (docs/protocol.schema.json)."""
    return protocol_schema()


@router.get("/health")
def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok"}
