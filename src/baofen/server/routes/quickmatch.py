"""The routes of 匹配 (quick match): ask for a ticket, follow it, leave the line
(:class:`~..quickmatch.matchmaker.Matchmaker`). A browser asking for a ticket is marked by
:data:`BROWSER_COOKIE`, so that two tickets of one browser are never seated at one table
(:func:`~..quickmatch.line.table_group`)."""

from __future__ import annotations

import re
import secrets
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request, Response, status

from ...wire.quickmatch import MatchRequest, MatchTicket
from ..quickmatch.line import QueueUnavailable
from ..quickmatch.matchmaker import Matchmaker
from ..security.sessions import session_account
from .rest import check_creation_rate, default_name

router = APIRouter()

Ticket = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]

BROWSER_COOKIE = "baofen_browser"
"""The cookie that marks a browser asking for tickets (128 random bits, set on its first)."""
BROWSER_MARK = re.compile(r"[A-Za-z0-9_-]{22}")


def _matchmaker(request: Request) -> Matchmaker:
    matchmaker: Matchmaker = request.app.state.matchmaker
    return matchmaker


def _unavailable() -> HTTPException:
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE, "the quick-match line is not answering: try again"
    )


def _missing(ticket: str) -> HTTPException:
    return HTTPException(status.HTTP_404_NOT_FOUND, f"no quick-match ticket {ticket!r}")


@router.post(
    "/api/match", status_code=status.HTTP_201_CREATED,
    responses={429: {"description": "this address asks too often"}},
)
async def ask_match(body: MatchRequest, request: Request, response: Response) -> MatchTicket:
    """匹配: wait for a game of ``variant`` with other players; follow the ticket with
    ``GET /api/match/{ticket}`` (about every second: a ticket nobody asks about for
    10 seconds leaves the line)."""
    check_creation_rate(request)
    account = await session_account(request)
    browser = request.cookies.get(BROWSER_COOKIE, "")
    if not BROWSER_MARK.fullmatch(browser):
        browser = secrets.token_urlsafe(16)
        response.set_cookie(BROWSER_COOKIE, browser, max_age=365 * 86400, path="/api/match",
                            httponly=True, samesite="lax", secure=request.url.scheme == "https")
    try:
        return await _matchmaker(request).ask(body.variant, body.name or default_name(), account,
                                              request.client.host if request.client else "",
                                              browser)
    except QueueUnavailable:
        raise _unavailable() from None


@router.get("/api/match/{ticket}")
async def get_match(ticket: Ticket, request: Request) -> MatchTicket:
    """The ticket's news: players waiting, seconds left, and once seated the table."""
    try:
        view = await _matchmaker(request).view(ticket)
    except QueueUnavailable:
        raise _unavailable() from None
    if view is None:
        raise _missing(ticket)
    return view


@router.delete("/api/match/{ticket}", responses={409: {"description": "already seated"}})
async def cancel_match(ticket: Ticket, request: Request) -> MatchTicket:
    """Leave the line; 409 once the ticket is seated (the table has started)."""
    matchmaker = _matchmaker(request)
    try:
        cancelled = await matchmaker.queue.cancel(ticket)
        view = await matchmaker.view(ticket, claim=False)  # a 409 is no place for a token
    except QueueUnavailable:
        raise _unavailable() from None
    if view is None:
        raise _missing(ticket)
    if not cancelled and view.status != "cancelled":
        where = f" at table {view.code}" if view.code else ""
        raise HTTPException(status.HTTP_409_CONFLICT, f"the ticket is already seated{where}")
    return view
