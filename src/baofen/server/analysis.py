"""``GET /api/tables/{code}/hands/{number}/analysis``: the 复盘 of a finished hand.

The review (:mod:`baofen.analysis`) takes seconds to minutes of CPU, so it runs off the event
loop in a process pool, one task per seat; the first request starts it and answers 202 with its
progress (seats done of four), later requests the same until it is done, then 200 with the
review, which is kept in the store (computed once, then served from there by any server). Only a
finished hand has a record, so only a finished hand is reviewed; the review reads nothing but
that record (public once the hand is over), and each seat's moves are judged from that seat's
view.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from ..analysis import merge_reviews, review_record
from ..store.async_store import StoreUnavailable
from . import rest, sessions

router = APIRouter()

WORKERS = 1
"""Worker processes of the review pool (reviews are background work beside the tables)."""


class Reviews:
    """Reviews running and done, by table, hand and budget, with their worker pool."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.jobs: dict[tuple[str, int, int, int], list[Future[dict[str, Any]]]] = {}

    def start(self, key: tuple[str, int, int, int],
              record: dict[str, Any]) -> list[Future[dict[str, Any]]]:
        """The review's tasks, started now unless already started."""
        if key not in self.jobs:
            if self.pool is None:
                # spawn, not fork: the server runs threads, which a forked child must not inherit
                self.pool = ProcessPoolExecutor(
                    WORKERS, mp_context=multiprocessing.get_context("spawn"))
            _, _, worlds, candidates = key
            self.jobs[key] = [self.pool.submit(review_record, record, seat, worlds, candidates)
                              for seat in range(4)]
        return self.jobs[key]


def _reviews(request: Request) -> Reviews:
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        reviews = request.app.state.reviews = Reviews()
    return reviews


@router.get("/api/tables/{code}/hands/{number}/analysis")
async def get_analysis(
    code: str,
    number: int,
    request: Request,
    budget: Annotated[int, Query(ge=1, le=64, description="sampled worlds per move")] = 16,
    candidates: Annotated[int, Query(ge=1, le=12, description="candidate plays per move")] = 6,
) -> JSONResponse:
    """The review of finished hand ``number``: 202 with ``progress`` while it runs, then 200
    with ``review`` (moves, best moves found, expected losses, mistakes, per-seat summary)."""
    table = await rest.table_of(request, code)
    key = (table.code, number, budget, candidates)
    reviews = _reviews(request)
    if key not in reviews.jobs:  # a review running here needs no read: it is not stored yet
        try:
            kept = await table.store.review(*key)
            if kept is not None:
                return JSONResponse({"status": "done", "progress": 1.0, "review": kept})
            record = await table.store.hand_record(table.code, number)
        except StoreUnavailable:
            raise sessions.unavailable() from None
        if record is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"hand {number} is not finished")
        reviews.start(key, record)
    tasks = reviews.jobs[key]
    done = [task for task in tasks if task.done()]
    failed = [task for task in done if task.exception() is not None]
    if failed:
        reviews.jobs.pop(key, None)  # asked again, it starts again
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR,
                            f"the review failed: {failed[0].exception()}")
    progress = len(done) / len(tasks)
    if len(done) < len(tasks):
        return JSONResponse({"status": "running", "progress": progress},
                            status_code=status.HTTP_202_ACCEPTED)
    review = merge_reviews([task.result() for task in tasks])
    try:
        await table.store.keep_review(*key, review)
    except StoreUnavailable:
        raise sessions.unavailable() from None
    reviews.jobs.pop(key, None)  # kept in the store from now on
    return JSONResponse({"status": "done", "progress": 1.0, "review": review})
