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
of a few :data:`LEVELS` (not any budget), each client address has one review unfinished at once
and starts a few deep ones an hour (:mod:`.review_queue`), at most :data:`MAX_REVIEWS` are
unfinished on the server (more are answered 429 with ``Retry-After``), and a review nobody asked
about for :data:`ABANDONED_SECONDS` is dropped (its decisions not yet reviewed never are). Within
these bounds nobody is turned away: the pool reviews one decision per worker at a time, taken
from the reviews waiting in fair-share order, a player's review of their own table's hand
first (:class:`.review_queue.ReviewQueue`).

A worker that dies (the OOM killer, a crash) breaks the pool: the next decision handed to it
starts a new pool, and the decisions the worker took with it are reviewed again, once per
review (a review that loses decisions to a second death fails, 500); each is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from ..analysis import VERSION, decisions, review_of_moves, review_record
from ..hand import Hand
from ..store.accounts import Account
from ..store.async_store import StoreUnavailable
from . import rest, sessions
from .review_queue import Busy, DeepReviews, ReviewQueue, Share
from .tables import Table

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

MAX_REVIEWS = 32
"""Reviews unfinished (running or waiting for the pool) at most, on this server: a bound on
the memory they hold, far above what the pool's time is shared among."""

ABANDONED_SECONDS = 30.0
"""A review nobody asked about for this long is dropped (the page asks once a second)."""

Key = tuple[str, int, int, int]
"""A review: table code, hand number, worlds and candidates."""


@dataclass
class Job:
    """One review underway: its tasks (one per decision, each done once the pool has reviewed
    it), who asked, and when it was last asked."""

    record: dict[str, Any]
    tasks: list[Future[list[dict[str, Any]]]]
    address: str
    asked: float = field(default_factory=time.monotonic)
    share: Share[Decision] | None = None
    """Its place in the queue."""
    lost_in: int | None = None
    """The pool (by number) whose dying worker took decisions of it, which were reviewed
    again; decisions lost to another pool fail the review."""

    @property
    def done(self) -> bool:
        """True once every task is over."""
        return all(task.done() for task in self.tasks)


@dataclass(frozen=True)
class Decision:
    """One decision of a review, to hand to the pool."""

    job: Job
    key: Key
    index: int
    """The decision's action in the hand's record."""
    task: Future[list[dict[str, Any]]]


class Reviews:
    """Reviews running and done, by table, hand and level, with their worker pool."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.jobs: dict[Key, Job] = {}
        self.queue: ReviewQueue[Decision] = ReviewQueue()
        self.deep = DeepReviews()
        self._running = 0
        """Decisions on the pool now."""
        self._pools = 0
        """Pools started (the current one's number)."""
        self._closed = False

    def close(self) -> None:
        """Stop the pool (the server stops): decisions not yet reviewed never are."""
        self._closed = True
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def asked(self, key: Key) -> Job | None:
        """The review underway for ``key`` (now counted as asked about), if any."""
        self._drop_abandoned()
        job = self.jobs.get(key)
        if job is not None:
            job.asked = time.monotonic()
        return job

    def start(self, key: Key, record: dict[str, Any], address: str, own: bool = False) -> Job:
        """Queue the review (``own``: asked for by a player of the hand, served first);
        :class:`Busy` when the server holds all the reviews it may, ``address`` has one
        unfinished already or has started its deep reviews of the hour."""
        unfinished = [job for job in self.jobs.values() if not job.done]
        if len(unfinished) >= MAX_REVIEWS:
            raise Busy("the server reviews as many hands as it can: try again later")
        if any(job.address == address for job in unfinished):
            raise Busy("a review you asked for is still running: wait for it first")
        if key[2:] == LEVELS["deep"]:
            self.deep.start(address)
        _, _, worlds, candidates = key
        indices = decisions(Hand.from_record(record))
        job = self.jobs[key] = Job(record, [Future() for _ in indices], address)
        job.share = self.queue.add(own, worlds * candidates, [
            Decision(job, key, index, task) for index, task in zip(indices, job.tasks, strict=True)
        ])
        self._feed()
        return job

    def _feed(self) -> None:
        """Hand the pool the next decisions while a worker is free."""
        while (not self._closed and self._running < WORKERS
               and (decision := self.queue.next()) is not None):
            if decision.task.set_running_or_notify_cancel():
                self._submit(decision)

    def _submit(self, decision: Decision) -> None:
        """Review ``decision`` on the pool (a new pool when there is none, or its worker died);
        its task gets the outcome on the event loop."""
        _, _, worlds, candidates = decision.key
        call = partial(review_record, decision.job.record, [decision.index], worlds, candidates)
        try:
            running = self._pool().submit(call)
        except BrokenProcessPool:
            log.warning("the review pool's worker died: starting a new pool")
            assert self.pool is not None
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            running = self._pool().submit(call)
        self._running += 1
        loop, pool = asyncio.get_running_loop(), self._pools

        def finished(running: Future[list[dict[str, Any]]]) -> None:
            with contextlib.suppress(RuntimeError):  # the server has stopped: nobody waits
                loop.call_soon_threadsafe(self._finished, decision, pool, running)

        running.add_done_callback(finished)

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn, not fork: the server runs threads, which a forked child must not inherit
            self.pool = ProcessPoolExecutor(
                WORKERS, mp_context=multiprocessing.get_context("spawn"))
            self._pools += 1
        return self.pool

    def _finished(self, decision: Decision, pool: int,
                  running: Future[list[dict[str, Any]]]) -> None:
        """The pool is done with ``decision`` (reviewed on pool number ``pool``)."""
        self._running -= 1
        job, task = decision.job, decision.task
        error = None if running.cancelled() else running.exception()
        if isinstance(error, BrokenProcessPool) and job.lost_in in (None, pool) and \
                not self._closed:
            log.warning("the review pool's worker died during the review of table %s hand %d: "
                        "reviewing its lost decisions again", *decision.key[:2])
            job.lost_in = pool
            self._submit(decision)
        elif running.cancelled():
            task.set_exception(RuntimeError("the review pool was shut down"))
        elif error is not None:
            task.set_exception(error)
        else:
            task.set_result(running.result())
        self._feed()

    def _drop_abandoned(self) -> None:
        limit = time.monotonic() - ABANDONED_SECONDS
        for key, job in list(self.jobs.items()):
            if job.asked < limit:
                if job.share is not None:
                    self.queue.remove(job.share)
                for task in job.tasks:
                    task.cancel()  # those not started yet; a running one ends on its own
                del self.jobs[key]


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
        address = request.client.host if request.client else ""
        try:
            own = _plays_at(table, await _account(request), address)
            job = reviews.start(key, record, address, own)
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
