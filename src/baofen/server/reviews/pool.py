"""The 复盘 pool: the reviews underway and the worker processes that review their decisions.

A review takes seconds of CPU, so it runs off the event loop in a process pool, one task per
reviewed decision (each decision is reviewed on worlds of its own seed, so the split changes
nothing). The pool is shared by everyone: at most :data:`MAX_REVIEWS` are unfinished on the
server, one of them per client address, deep ones a few an hour per address (more are refused
with :class:`.queue.Busy`), and a review nobody asked about for :data:`ABANDONED_SECONDS` is
dropped (its decisions not yet reviewed never are). Within these bounds nobody is turned away:
the pool reviews one decision per worker at a time, taken from the reviews waiting in
fair-share order, a player's review of their own table's hand first
(:class:`.queue.ReviewQueue`).

A worker that dies (the OOM killer, a crash) breaks the pool: the next decision handed to it
starts a new pool, and the decisions the worker took with it are reviewed again, once per
review (a review that loses decisions to a second death fails); each is logged.
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
from typing import Any

from ...hand import Hand
from ...review import decisions, review_record
from .queue import Busy, DeepReviews, ReviewQueue, Share

log = logging.getLogger(__name__)

WORKERS = 1
"""Worker processes of the review pool (reviews are background work beside the tables)."""

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

    def start(self, key: Key, record: dict[str, Any], address: str, own: bool = False,
              deep: bool = False) -> Job:
        """Queue the review (``own``: asked for by a player of the hand, served first; ``deep``:
        at the deep level); :class:`Busy` when the server holds all the reviews it may,
        ``address`` has one unfinished already or has started its deep reviews of the hour."""
        unfinished = [job for job in self.jobs.values() if not job.done]
        if len(unfinished) >= MAX_REVIEWS:
            raise Busy("the server reviews as many hands as it can: try again later")
        if any(job.address == address for job in unfinished):
            raise Busy("a review you asked for is still running: wait for it first")
        if deep:
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
