"""The checks of a client's frame, in order, each failure answered by an ``error`` that changes
nothing: frame kind, rate limit and size (the :class:`Gate`, where the client is connected,
before a frame is read or relayed to another node), then JSON and schema (:func:`read_message`).
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError

from ...errors import Reason
from ...wire.messages import ClientMessage, ErrorCode, ErrorMessage, ReasonCode, client_message
from ..config import ServerConfig
from ..security.rate_limits import RateLimiter
from .connections import Connection, Frame, Refusal

log = logging.getLogger(__name__)

CLOSE_ABUSE = 1008
"""Close code of a client that kept sending frames the :class:`Gate` refuses."""
MAX_ID_LENGTH = 64
"""Longest string ``id`` echoed back (as the protocol's ``MessageId``)."""


class Gate:
    """The checks of a client's frame made before it is read, where the client is connected.

    Each refusal takes one frame from a second bucket, of the rate limit's pace and twice its
    burst: an honest client (which never hits the limit for long) keeps it full, a flooding
    one empties it within two bursts and is closed.
    """

    def __init__(self, config: ServerConfig, connection: Connection) -> None:
        self.connection = connection
        self.limit = config.max_message_bytes
        self.limiter = RateLimiter(config.rate_per_second, config.rate_burst)
        self.refusals = RateLimiter(config.rate_per_second, 2 * config.rate_burst)

    def check(self, frame: str | bytes) -> Frame:
        """The frame, or the refusal answering it (closing an abusive connection)."""
        if isinstance(frame, bytes):
            refusal = error_text("binary_frame", "send JSON in text frames", None)
        elif (refused := self._refusal(frame)) is None:
            return frame
        else:
            refusal = refused
        if not self.refusals.allow():
            log.warning("disconnecting a client that keeps sending refused frames")
            self.connection.close(CLOSE_ABUSE)
        return Refusal(refusal)

    def _refusal(self, frame: str) -> str | None:
        limit = self.limit
        too_large = len(frame) > limit or len(frame.encode()) > limit
        if not self.limiter.allow():
            ident = None
            if not too_large:
                with contextlib.suppress(Refused):
                    ident = message_id(parse_json(frame))
            return error_text("rate_limited", "too many messages: slow down", ident)
        if too_large:
            return error_text("too_large", f"a message is at most {limit} bytes", None)
        return None

    async def receive(self, websocket: WebSocket) -> Frame | None:
        """The next frame of a client, checked (None once it disconnected)."""
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        return self.check(message.get("bytes", b"") if text is None else text)


class Refused(Exception):
    """A message answered by an error; ``reason``: why, as a code a client translates."""

    def __init__(self, code: ErrorCode, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.reason = reason


def parse_json(text: str) -> Any:
    """The JSON value of a text frame, in valid Unicode."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise Refused("bad_json", f"not JSON: {error}") from None
    except RecursionError:
        raise Refused("bad_json", "JSON nested too deeply") from None
    # A \u escape may decode to half a surrogate pair, which no answer could carry.
    if "\\u" in text and not _is_unicode(json.dumps(data, ensure_ascii=False)):
        raise Refused("invalid_message", "a string holds a lone surrogate (not valid Unicode)")
    return data


def _is_unicode(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def message_id(data: Any) -> int | str | None:
    """The message's ``id``, when it is one that can be echoed back."""
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    if isinstance(ident, str) and len(ident) > MAX_ID_LENGTH:
        return None
    return ident


def validate_message(data: Any) -> ClientMessage:
    if not isinstance(data, dict):
        raise Refused("invalid_message", "a message is a JSON object with a 'type' field")
    try:
        return client_message.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        if first["type"] == "union_tag_invalid":
            raise Refused("unknown_type", f"unknown message type {data.get('type')!r}; "
                          f"expected one of {first['ctx']['expected_tags']}") from None
        if first["type"] == "union_tag_not_found":
            raise Refused("invalid_message", "a message needs a 'type' field") from None
        details = "; ".join(
            f"{'.'.join(str(p) for p in item['loc'][1:]) or 'message'}: "
            f"{item['msg'].removeprefix('Value error, ')}"
            for item in error.errors()
        )
        raise Refused("invalid_message", f"invalid {data.get('type')} message: {details}") from None


def error_text(code: ErrorCode, message: str, ident: Any, reason: Reason | None = None) -> str:
    return ErrorMessage(
        code=code, message=message, id=ident, reason_code=ReasonCode.of(reason)
    ).model_dump_json()
