"""``GET /api/tables/{code}/hands/{number}/analysis``: the 复盘 of a finished hand.

The review (:mod:`baofen.analysis`) takes seconds of CPU, so it runs off the event loop in a
process pool, one task per reviewed decision (each decision is reviewed on worlds of its own
seed, so the split changes nothing); the first request starts it and answers 202 with its
progress (decisions reviewed of all), later requests the same until it is done, then 200 with the
review, which is kept in the store (computed once, then served from there by any server). Only a
finished hand has a record, so only a finished hand is reviewed; the review reads nothing but
that record (public once the hand is over), and each seat's moves are judged from that seat's
view.

The pool is shared by everyone, so what one client may ask of it is bounded: a review is at one
of a few :data:`LEVELS` (not any budget), at most :data:`MAX_REVIEWS` are unfinished at once and
one of them per client address (more are answered 429), and a review nobody asked about for
:data:`ABANDONED_SECONDS` is dropped (its tasks not yet started never run).

A worker that dies (the OOM killer, a crash) breaks the pool: the next review, or the one it was
working on, starts a new pool, and a review whose tasks were lost with the worker starts again,
once (a second loss is the review's failure, 500); each is logged.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from ..analysis import VERSION, decisions, review_of_moves, review_record
from ..hand import Hand
from ..store.async_store import StoreUnavailable
from . import rest, sessions

log = logging.getLogger(__name__)

router = APIRouter()

WORKERS = 1
"""Worker processes of the review pool (reviews are background work beside the tables)."""

Level = Literal["quick", "standard", "deep"]
LEVELS: dict[Level, tuple[int, int]] = {"quick": (2, 3), "standard": (16, 3), "deep": (48, 6)}
"""Sampled worlds per stage of a move's review and the rule bot's candidate plays per move, of
each review level (:func:`baofen.analysis.review_hand`). The standard level reviews a hand in
2–4 s of one core with the native core built (bench/review_quality.py); in pure Python
(``BAOFEN_ENGINE=python``) 35–60 s. Each pair differs from those of the review's first format
(2 and 2, 16 and 6, 64 and 12), so no review kept in that format is served."""

MAX_REVIEWS = 4
"""Reviews unfinished (running or waiting for the pool) at most, on this server."""

ABANDONED_SECONDS = 30.0
"""A review nobody asked about for this long is dropped (the page asks once a second)."""

Key = tuple[str, int, int, int]
"""A review: table code, hand number, worlds and candidates."""


class Busy(Exception):
    """No review can start now for this client."""


@dataclass
class Job:
    """One review underway: its tasks (one per decision), who asked, and when it was last
    asked."""

    record: dict[str, Any]
    tasks: list[Future[list[dict[str, Any]]]]
    address: str
    asked: float = field(default_factory=time.monotonic)
    retried: bool = False
    """Started again once already, its worker having died."""

    @property
    def done(self) -> bool:
        """True once every task is over."""
        return all(task.done() for task in self.tasks)


class Reviews:
    """Reviews running and done, by table, hand and level, with their worker pool."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.jobs: dict[Key, Job] = {}

    def asked(self, key: Key) -> Job | None:
        """The review underway for ``key`` (now counted as asked about), if any."""
        self._drop_abandoned()
        job = self.jobs.get(key)
        if job is not None:
            job.asked = time.monotonic()
        return job

    def start(self, key: Key, record: dict[str, Any], address: str) -> Job:
        """Start the review; :class:`Busy` when the pool has all it may take, or ``address``
        already has a review unfinished."""
        unfinished = [job for job in self.jobs.values() if not job.done]
        if len(unfinished) >= MAX_REVIEWS:
            raise Busy("the server reviews as many hands as it can: try again later")
        if any(job.address == address for job in unfinished):
            raise Busy("a review you asked for is still running: wait for it first")
        job = self.jobs[key] = Job(record, self._submit(key, record), address)
        return job

    def retry(self, key: Key, job: Job) -> bool:
        """Start ``job`` again when its worker died (a task of it failed with
        :class:`BrokenProcessPool`) and it was not started again already; False else."""
        lost = any(task.done() and not task.cancelled()
                   and isinstance(task.exception(), BrokenProcessPool) for task in job.tasks)
        if not lost or job.retried:
            return False
        log.warning("the review pool's worker died during the review of table %s hand %d: "
                    "reviewing it again", key[0], key[1])
        job.retried, job.tasks = True, self._submit(key, job.record)
        return True

    def _submit(self, key: Key, record: dict[str, Any]) -> list[Future[list[dict[str, Any]]]]:
        """The review's tasks, one per decision, on the pool (a new pool when it has none, or
        when its worker died)."""
        if self.pool is not None:
            try:
                return self._tasks(self.pool, key, record)
            except BrokenProcessPool:
                log.warning("the review pool's worker died: starting a new pool")
                self.pool.shutdown(wait=False, cancel_futures=True)
        # spawn, not fork: the server runs threads, which a forked child must not inherit
        self.pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"))
        return self._tasks(self.pool, key, record)

    @staticmethod
    def _tasks(pool: ProcessPoolExecutor, key: Key,
               record: dict[str, Any]) -> list[Future[list[dict[str, Any]]]]:
        _, _, worlds, candidates = key
        return [pool.submit(review_record, record, [index], worlds, candidates)
                for index in decisions(Hand.from_record(record))]

    def _drop_abandoned(self) -> None:
        limit = time.monotonic() - ABANDONED_SECONDS
        for key, job in list(self.jobs.items()):
            if job.asked < limit:
                for task in job.tasks:
                    task.cancel()  # those not started yet; a running one ends on its own
                del self.jobs[key]


def _reviews(request: Request) -> Reviews:
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        reviews = request.app.state.reviews = Reviews()
    return reviews


@router.get(
    "/api/tables/{code}/hands/{number}/analysis",
    responses={429: {"description": "too many reviews underway (on the server, or yours)"}},
)
async def get_analysis(
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
        try:
            job = reviews.start(key, record, request.client.host if request.client else "")
        except Busy as busy:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, str(busy),
                                headers={"Retry-After": "10"}) from None
    reviews.retry(key, job)
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
