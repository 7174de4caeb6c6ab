"""The WebSocket endpoint ``/ws/tables/{code}``: read, check and dispatch client messages.

Every message is checked in this order, each failure answered by an ``error`` that changes
nothing and keeps the connection open: frame kind, rate limit, size, JSON, schema (pydantic),
who the connection is (a player acts only for its own seat, which it holds by joining or by its
token), and finally the rules of the game (the engine's :class:`IllegalAction`). The first three
are checked by the :class:`Gate` of the node the client is connected to, before a frame is read
or relayed to another node; a client that keeps sending frames the gate refuses is disconnected
(1008). A connection's messages are answered one at a time, in order; everything but ``ping``
holds the table's lock (:attr:`Table.lock`), so it sees only committed changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter, HTTPException, WebSocket

from ...errors import IllegalAction
from ...store.accounts import Accounts
from ...store.async_store import StoreUnavailable
from ...wire.actions import ACTION_MESSAGES
from ...wire.messages import (
    Ack,
    Auto,
    Check,
    ClientMessage,
    FillBots,
    Hint,
    Join,
    Joined,
    Leave,
    Ping,
    Pong,
    Ready,
    Reclaim,
    Start,
    Sync,
    Watch,
)
from ..clubs.seating import check_club_seat
from ..config import ServerConfig
from ..lobby.directory import Tables
from ..security.sessions import COOKIE, session_account
from ..security.tokens import token_hash
from ..table import assist
from ..table.seats import TableError, check_host
from ..table.table import Table
from ..transport.broadcast import Answer
from ..transport.connections import Connection, Frame, Receive, Refusal
from ..transport.gate import Gate, Refused, error_text, message_id, parse_json, validate_message
from .rest import default_name

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_UNKNOWN_TABLE = 4404
"""Close code after the ``unknown_table`` error."""
CLOSE_TRY_AGAIN = 1013
"""Close code when the store could not say whether the table exists (try again later)."""


@router.websocket("/ws/tables/{code}")
async def table_socket(websocket: WebSocket, code: str) -> None:
    """One client's connection to one table (see docs/protocol.md); in cluster mode, through
    the node that owns the table."""
    tables: Tables = websocket.app.state.tables
    config: ServerConfig = websocket.app.state.config
    await websocket.accept()
    connection = Connection(websocket, config.send_queue)
    connection.address = websocket.client.host if websocket.client else None
    gate = Gate(config, connection)
    writer = asyncio.create_task(connection.write())
    try:
        try:
            table = await tables.route(code, connection)
        except StoreUnavailable:
            connection.send(
                error_text("unavailable", "the database is not answering: try again", None)
            )
            connection.close(CLOSE_TRY_AGAIN)
            return
        if table is None:
            connection.send(error_text("unknown_table", f"no table has the code {code!r}", None))
            connection.close(CLOSE_UNKNOWN_TABLE)
            return
        with contextlib.suppress(HTTPException):  # the store is down: a guest for now
            connection.account = await session_account(websocket)
            if connection.account is not None:
                connection.session = token_hash(websocket.cookies[COOKIE])

        def receive() -> Awaitable[Frame | None]:
            return gate.receive(websocket)

        if isinstance(table, Table):
            await converse(connection, table, receive)
        else:  # the table is owned by another node: relay to it
            await table.relay(receive)
    finally:
        connection.close()
        await writer


async def converse(connection: Connection, table: Table, receive: Receive) -> None:
    """Answer a connection's frames in order until it ends (or is closed), then take it off
    the table. A frame from a client of another node (cluster mode) comes in through here too."""
    try:
        while not connection.closing:
            frame = await receive()
            if frame is None:
                break
            if table.closed:  # no longer served here (cluster mode: another node owns it)
                connection.close(1001)
                break
            if isinstance(frame, Refusal):
                connection.send(frame.answer)
                continue
            await _handle(connection, table, frame)
    finally:
        async with table.lock:
            table.disconnect(connection)


async def _handle(connection: Connection, table: Table, text: str) -> None:
    """Answer one text frame (one the :class:`Gate` let through)."""
    ident: Any = None
    try:
        data = parse_json(text)
        ident = message_id(data)
        message = validate_message(data)
        if isinstance(message, Ping):
            connection.send(Pong(id=message.id).model_dump_json())
            return
        async with table.lock:
            await _dispatch(connection, table, message)
    except Refused as error:
        connection.send(error_text(error.code, error.message, ident, error.reason))
    except TableError as error:
        connection.send(error_text(error.code, error.message, ident))
    except IllegalAction as error:
        connection.send(error_text("illegal_action", str(error), ident, error.reason))
    except Exception:  # a server bug: answer, log, and keep the connection
        log.exception("table %s: failed to handle a message", table.code)
        connection.send(error_text("unavailable", "the server failed on this message", ident))


async def _dispatch(connection: Connection, table: Table, message: ClientMessage) -> None:
    ident = message.id
    if isinstance(message, Join | Reclaim | Watch):
        await _identify(connection, table, message)
        return
    if connection.role == "new":
        raise Refused("not_joined", "join a seat, reclaim yours or watch first")
    if isinstance(message, Sync):
        table.views.send_state(connection)
        return
    seat = connection.seat
    if connection.role != "player" or seat is None:
        raise Refused("spectator", "spectators cannot act: join a seat first")
    if isinstance(message, Check):
        connection.send(assist.check(table, seat, message).model_dump_json())
        return
    if isinstance(message, Hint):
        connection.send(assist.suggest(table, seat, message).model_dump_json())
        return
    if isinstance(message, ACTION_MESSAGES):
        answer = Answer(connection, ident)
        await table.act(seat, message.to_action(), answer=answer)
        if answer.sent:  # the view the action caused carried its ack
            return
    elif isinstance(message, FillBots):
        if table.status == "waiting":
            check_host(table.seats, seat, "fill the seats with computer players")
        await table.fill_bots(message.level)
    elif isinstance(message, Start):
        if table.status == "waiting":
            check_host(table.seats, seat, "start the match")
        await table.start()
    elif isinstance(message, Auto):
        table.set_auto(seat, message.on)
    elif isinstance(message, Ready):
        table.set_ready(seat)
    elif isinstance(message, Leave):
        await table.leave(connection)
    connection.send(Ack(id=ident, version=table.version).model_dump_json())


async def _identify(
    connection: Connection, table: Table, message: Join | Reclaim | Watch
) -> None:
    """Make the connection a player (join, reclaim) or a spectator (watch)."""
    if connection.role == "player":
        raise Refused("already_joined", f"this connection already plays seat {connection.seat}")
    if not isinstance(message, Watch):
        await _check_session(connection, table)
    # A club table: its members, its seating rules (a seat reclaimed: an event's address rule).
    await check_club_seat(connection, table, message.seat if isinstance(message, Join) else None,
                          reclaim=isinstance(message, Reclaim))
    if isinstance(message, Join):
        given = message.name or default_name()
        token: str | None = await table.join(connection, message.seat, given)
        seat: int | None = message.seat
    elif isinstance(message, Reclaim):
        taken, token = await table.reclaim(connection, message.token)
        seat = taken.number
    else:
        if connection.role == "spectator":
            raise Refused("already_joined", "this connection already watches the table")
        table.watch(connection)
        seat = token = None
    name = None if seat is None else table.seats[seat].name
    connection.send(
        Joined(table=table.code, seat=seat, name=name, token=token, id=message.id)
        .model_dump_json()
    )
    if isinstance(message, Watch):
        table.views.send_state(connection)
    else:
        table.publish()


async def _check_session(connection: Connection, table: Table) -> None:
    """Refuse a seat to a connection whose session ended since its handshake."""
    if connection.session is None:
        return
    store = table.store
    try:
        account = await asyncio.wait_for(
            asyncio.to_thread(Accounts(store.store).session, connection.session), store.timeout
        )
    except Exception:
        raise Refused("unavailable", "the database is not answering: try again") from None
    if account is None or connection.account is None or account.id != connection.account.id:
        connection.account = None
        connection.session = None
        raise Refused("not_signed_in", "the session of this connection ended: sign in again "
                      "and reconnect")
