"""``GET /api/tables/{code}/hands/{number}/analysis``: the review (复盘) of a finished hand (the
protocol's path keeps its first name, ``analysis``).

The review (:mod:`baofen.review`) takes seconds of CPU, so it runs off the event loop in the
review pool (:mod:`..reviews.pool`); the first request starts it and answers 202 with its
progress (decisions reviewed of all), later requests the same until it is done, then 200 with the
review, which is kept in the store (computed once, then served from there by any server). Only a
finished hand has a record, so only a finished hand is reviewed; the review reads nothing but
that record (public once the hand is over), and each seat's moves are judged from that seat's
view.

The pool is shared by everyone, so what one client may ask of it is bounded: a review is at one
of a few :data:`LEVELS` (not any budget), each client address has one review unfinished at once
and starts a few deep ones an hour, at most :data:`~..reviews.pool.MAX_REVIEWS` are unfinished on
the server (more are answered 429 with ``Retry-After``), and a review nobody asked about for a
while is dropped. Within these bounds nobody is turned away: the pool's time is shared among the
reviews waiting, a player's review of their own table's hand first
(:class:`..reviews.queue.ReviewQueue`).
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from ...review import VERSION, review_of_moves
from ...store.accounts import Account
from ...store.async_store import StoreUnavailable
from ..reviews.pool import Reviews
from ..reviews.queue import Busy
from ..security import sessions
from ..table.table import Table
from . import rest

router = APIRouter()

Level = Literal["quick", "standard", "deep"]
LEVELS: dict[Level, tuple[int, int]] = {"quick": (2, 3), "standard": (16, 3), "deep": (48, 6)}
"""Sampled worlds per stage of a move's review and the rule bot's candidate plays per move, of
each review level (:func:`baofen.review.review_hand`; bench/review/review_quality.py times them).
Each pair differs from those of the review's first format (2 and 2, 16 and 6, 64 and 12), so
that no review kept in that format is served."""


async def _account(request: Request) -> Account | None:
    """The account signed in on the request (None also when the store does not answer: the
    review is then not served first)."""
    with contextlib.suppress(HTTPException):
        return await sessions.session_account(request)
    return None


def _plays_at(table: Table, account: Account | None, address: str) -> bool:
    """True when the asker is a player of ``table``: its account holds a seat, or a seat's
    player is connected from its address (a guest)."""
    for seat in table.seats:
        if account is not None and seat.account_id == account.id:
            return True
        if seat.kind == "human" and seat.connection is not None and address and \
                seat.connection.address == address:
            return True
    return False


def _reviews(request: Request) -> Reviews:
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        reviews = request.app.state.reviews = Reviews()
    return reviews


@router.get(
    "/api/tables/{code}/hands/{number}/analysis",
    responses={429: {"description": "a review of yours is underway, your deep reviews of "
                               "the hour are spent, or the server holds all it may"}},
)
async def get_review(
    code: str,
    number: int,
    request: Request,
    level: Annotated[Level, Query(description="how hard to look: worlds a stage and candidates "
                                  "per move (quick 2 and 3, standard 16 and 3, deep 48 and 6)")]
    = "standard",
) -> JSONResponse:
    """The review of finished hand ``number``: 202 with ``progress`` (and ``moves`` reviewed of
    ``total``) while it runs, then 200 with ``review`` (each move's options and values, the best
    found, the hint's choice, the loss with its lower bound and category; per seat, the counts
    of each category and an accuracy)."""
    table = await rest.table_of(request, code)
    key = (table.code, number, *LEVELS[level])
    reviews = _reviews(request)
    job = reviews.asked(key)
    if job is None:  # a review running here needs no read: it is not stored yet
        try:
            record = await table.store.hand_record(table.code, number)
            if record is None:
                raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
            kept = await table.store.review(*key)
            if kept is not None and kept.get("version") == VERSION:
                return JSONResponse({"status": "done", "progress": 1.0, "review": kept})
        except StoreUnavailable:
            raise sessions.unavailable() from None
        address = request.client.host if request.client else ""
        try:
            own = _plays_at(table, await _account(request), address)
            job = reviews.start(key, record, address, own, deep=level == "deep")
        except Busy as busy:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, str(busy),
                                headers={"Retry-After": str(busy.retry_after)}) from None
    tasks = job.tasks
    done = [task for task in tasks if task.done()]
    failed = [task for task in done if task.exception() is not None]
    if failed:
        reviews.jobs.pop(key, None)  # asked again, it starts again
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR,
                            f"the review failed: {failed[0].exception()}")
    if len(done) < len(tasks):
        return JSONResponse({"status": "running", "progress": len(done) / len(tasks),
                             "moves": len(done), "total": len(tasks)},
                            status_code=status.HTTP_202_ACCEPTED)
    review = review_of_moves(job.record, key[2],
                             (move for task in tasks for move in task.result()))
    try:
        await table.store.keep_review(*key, review)
    except StoreUnavailable:
        raise sessions.unavailable() from None
    reviews.jobs.pop(key, None)  # kept in the store from now on
    return JSONResponse({"status": "done", "progress": 1.0, "review": review})
