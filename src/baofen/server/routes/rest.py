"""The REST side of the lobby: create tables, read their public information and hand records.

Nothing here ever returns a card that is still hidden: table information is public by
construction, and hand records exist only for finished hands. Every handler runs on the event
loop (the lobby is never changed from another thread); the store's reads are awaited.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ...ruleset import RuleSet
from ...store.async_store import AsyncStore, StoreUnavailable
from ...wire.rest import CreateTable, QuickPlay, QuickPlayed, TableCreated
from ...wire.settings import TableSettings
from ...wire.table import HandSummary, ListedTable, TableInfo
from ..lobby.directory import Tables
from ..lobby.lobby import listed
from ..schema import protocol_schema
from ..security.rate_limits import CreationLimits
from ..security.sessions import session_account, unavailable
from ..table import thinking
from ..table.seats import TableError
from ..table.table import Table

router = APIRouter()


def tables_of(request: Request) -> Tables:
    """The server's :class:`Tables` (one server's, or a cluster node's)."""
    tables: Tables = request.app.state.tables
    return tables


def store_of(request: Request) -> AsyncStore:
    """The server's store."""
    store: AsyncStore = request.app.state.store
    return store


async def table_of(request: Request, code: str) -> Table:
    """The table of ``code``; 404 where there is none, 503 where the database does not answer."""
    try:
        table = await tables_of(request).view(code)
    except StoreUnavailable:
        raise unavailable() from None
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table has the code {code!r}")
    return table


def _public(table: Table, record: dict[str, Any]) -> dict[str, Any]:
    """A finished hand's record as served: while the match goes on, without the hand's seed,
    since enough seeds in a row would let one work out the deals still to come."""
    if table.status == "finished":
        return record
    return {**record, "seed": None}


SECRET_PATHS = ("/api/accounts", "/api/login", "/api/me")
"""Routes whose bodies hold passwords: their 422 answers never echo the refused input."""


async def invalid_request(request: Request, error: Exception) -> Response:
    """422 for a request that does not validate, as FastAPI answers it, but in ASCII JSON: the
    refused input may hold a lone surrogate (``"\\ud800"``), which no UTF-8 text can carry."""
    assert isinstance(error, RequestValidationError)
    errors = error.errors()
    if request.url.path.startswith(SECRET_PATHS):
        errors = [{k: v for k, v in e.items() if k != "input"} for e in errors]
    detail = json.dumps({"detail": jsonable_encoder(errors)}, ensure_ascii=True)
    return Response(detail, status.HTTP_422_UNPROCESSABLE_CONTENT, media_type="application/json")


async def unreadable_body(request: Request, error: Exception) -> Response:
    """An HTTP error as FastAPI answers it, but for a body that is not UTF-8 text (FastAPI:
    400): refused like any other bad body, 422."""
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == status.HTTP_400_BAD_REQUEST and isinstance(
        error.__cause__, UnicodeDecodeError
    ):
        problem = {"type": "json_invalid", "loc": ("body",), "msg": "the body is not UTF-8 text"}
        return await invalid_request(request, RequestValidationError([problem]))
    return await http_exception_handler(request, error)


def default_name() -> str:
    """A readable name for a player who gave none, e.g. 玩家4821."""
    return f"玩家{secrets.randbelow(9000) + 1000}"


def check_creation_rate(request: Request) -> None:
    """429 when this client address creates tables too fast."""
    limits: CreationLimits = request.app.state.creations
    if not limits.allow(request.client.host if request.client else ""):
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS, "too many tables created: try again later"
        )


@router.post(
    "/api/tables", status_code=status.HTTP_201_CREATED,
    responses={429: {"description": "this address creates tables too fast"}},
)
async def create_table(body: CreateTable, request: Request) -> TableCreated:
    """Create a table with a rule set and settings; returns its code and shareable link."""
    check_creation_rate(request)
    try:
        table = await tables_of(request).create(body.rules, body.settings)
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    return TableCreated(
        code=table.code,
        link=f"{request.base_url}t/{table.code}",
        websocket=f"/ws/tables/{table.code}",
        table=table.public,
    )


@router.post(
    "/api/quickplay", status_code=status.HTTP_201_CREATED,
    responses={429: {"description": "this address creates tables too fast"}},
)
async def quickplay(body: QuickPlay, request: Request) -> QuickPlayed:
    """和电脑玩: a new private table of the game's default rules with this player at South and
    the computer in the other seats, started; the player connects with the seat token.
    (On the event loop, where a table's driver and timers live.)"""
    check_creation_rate(request)
    account = await session_account(request)
    # Against the computer a signed-in player's hands are rated (the levels' ratings are fixed),
    # one rated match at a time.
    try:
        rated = account is not None and await store_of(request).rated_table_of(account.id) is None
    except StoreUnavailable as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(error)) from None
    settings = TableSettings(private=True, rated=rated)
    if body.level is not None:
        settings = settings.model_copy(update={"bot_level": body.level})
    name = body.name or default_name()
    try:
        table = await tables_of(request).create(RuleSet.create(variant=body.variant), settings)
        async with table.lock:
            token = await table.seat_player(0, name, account)
            await table.fill_bots(None)
            await table.start()
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    return QuickPlayed(
        code=table.code, seat=0, name=table.seats[0].name or name, token=token,
        link=f"{request.base_url}t/{table.code}", websocket=f"/ws/tables/{table.code}",
    )


@router.get("/api/tables")
async def list_tables(request: Request) -> list[ListedTable]:
    """Open tables that are not private (in cluster mode: of every node), with what a visitor
    can do there: tables with a free seat first, then the latest active."""
    return listed(await tables_of(request).listing())


@router.get("/api/tables/{code}")
async def get_table(code: str, request: Request) -> TableInfo:
    """Public information of one table (in cluster mode, another node's as its owner published
    it: no database read)."""
    try:
        info = await tables_of(request).info(code)
    except StoreUnavailable:
        raise unavailable() from None
    if info is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table has the code {code!r}")
    return info


@router.get("/api/tables/{code}/hands", response_model=list[HandSummary])
async def list_hands(code: str, request: Request) -> list[dict[str, Any]]:
    """The table's finished hands: number, result and score changes."""
    table = await table_of(request, code)
    try:
        return await table.store.hand_summaries(table.code)
    except StoreUnavailable:
        raise unavailable() from None


@router.get("/api/tables/{code}/hands/{number}")
async def get_hand(code: str, number: int, request: Request) -> JSONResponse:
    """The record of one finished hand (``Hand.from_record`` replays it), as a download."""
    table = await table_of(request, code)
    try:
        record = await table.store.hand_record(table.code, number)
    except StoreUnavailable:
        raise unavailable() from None
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
    return JSONResponse(
        _public(table, record),
        headers={"Content-Disposition": f'attachment; filename="{code}-hand-{number}.json"'},
    )


@router.get("/api/tables/{code}/records")
async def get_records(code: str, request: Request) -> JSONResponse:
    """Every finished hand's record, as one JSON list (a download)."""
    table = await table_of(request, code)
    try:
        stored = await table.store.hand_records(table.code)
    except StoreUnavailable:
        raise unavailable() from None
    records = [_public(table, r) for r in stored]
    return JSONResponse(
        records, headers={"Content-Disposition": f'attachment; filename="{code}-hands.json"'}
    )


@router.get("/api/protocol")
async def get_protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every message and REST body (docs/protocol.schema.json)."""
    return protocol_schema()


@router.get("/health")
async def health() -> dict[str, str | int]:
    """Liveness check, with the computer players' decisions that failed on this server (the
    rule bot made each instead)."""
    return {"status": "ok", "computer_failures": thinking.FAILURES.count}
