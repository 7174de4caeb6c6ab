"""Puzzles (残局练习) over REST: the next puzzle by rating, the daily puzzle, a puzzle by id,
an answer judged, and a solver's record.

A puzzle is sent as its seat saw the hand (:func:`..puzzles.position.question`), never with
the hand's record or the answer; the answer is revealed with the judgement of an answer. A
signed-in solver's attempt is stored and rates the solver and the puzzle (Glicko-2,
:mod:`baofen.puzzles.glicko2`); a guest's is judged the same but rates nothing. The shipped
starting set is stored on the first request after the server's first start
(:func:`..puzzles.starting.stock`).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, status

from ...puzzles.glicko2 import Rating, attempt
from ...setting import Variant
from ...store.puzzles import Puzzles, Solver, Stored
from ...wire.puzzles import (
    PuzzleAnswer,
    PuzzleQuestion,
    PuzzleResult,
    RatingChange,
    SolverRecord,
)
from ..puzzles.position import BadAnswer, answer_text, judgement, question
from ..puzzles.starting import stock
from ..security.sessions import run, session_account, signed_in

router = APIRouter()

SKIP = 50
"""Puzzle ids a guest may name to skip (those it has just seen)."""


async def _puzzles(request: Request) -> Puzzles:
    """The store's puzzles, the starting set stored first on a server's first request."""
    state = request.app.state
    if getattr(state, "puzzles", None) is None:
        lock = state.__dict__.setdefault("_puzzles_lock", asyncio.Lock())
        async with lock:
            if getattr(state, "puzzles", None) is None:
                puzzles = Puzzles(state.store.store)
                await run(request, stock, puzzles)
                state.puzzles = puzzles
    found: Puzzles = state.puzzles
    return found


def _refuse(code: int, reason: str, message: str) -> HTTPException:
    return HTTPException(code, {"reason": reason, "message": message})


def _question(stored: Stored, daily: str | None = None) -> PuzzleQuestion:
    return PuzzleQuestion(**question(stored.puzzle, stored.rating), daily=daily)


def _record(solver: Solver) -> SolverRecord:
    return SolverRecord(rating=round(solver.rating, 1), rd=round(solver.rd, 1),
                        attempts=solver.attempts, solved=solver.solved, streak=solver.streak,
                        best_streak=solver.best_streak)


@router.get("/api/puzzles/next", responses={404: {"description": "no puzzle of the game"}})
async def next_puzzle(
    request: Request, game: Variant = "baofen",
    rating: Annotated[float | None, Query(ge=0, le=4000)] = None,
    skip: Annotated[str, Query(max_length=SKIP * 13)] = "",
) -> PuzzleQuestion:
    """A puzzle near the solver's rating that it has not tried: a signed-in solver's own
    rating; a guest's ``rating`` (its own estimate, unrated; 1500 by default), skipping the
    ids in ``skip`` (comma-separated)."""
    puzzles = await _puzzles(request)
    account = await session_account(request)
    target = rating if rating is not None else 1500.0
    if account is not None:
        target = (await run(request, puzzles.solver, account.id, game)).rating
    skipped = [s for s in skip.split(",") if s][:SKIP]
    found = await run(request, puzzles.near, game, target,
                      None if account is None else account.id, skipped)
    if found is None:
        raise _refuse(status.HTTP_404_NOT_FOUND, "no_puzzles", f"no puzzle of {game}")
    return _question(found)


@router.get("/api/puzzles/daily", responses={404: {"description": "no puzzle of the game"}})
async def daily_puzzle(request: Request, game: Variant = "baofen") -> PuzzleQuestion:
    """The day's puzzle (UTC): the same for every solver all day."""
    puzzles = await _puzzles(request)
    today = datetime.now(UTC).date()
    found = await run(request, puzzles.daily, game, today)
    if found is None:
        raise _refuse(status.HTTP_404_NOT_FOUND, "no_puzzles", f"no puzzle of {game}")
    return _question(found, today.isoformat())


@router.get("/api/puzzles/me")
async def my_record(request: Request, game: Variant = "baofen") -> dict[str, Any]:
    """The signed-in solver's record in ``game`` and latest attempts; 401 for a guest."""
    account = await signed_in(request)
    puzzles = await _puzzles(request)
    solver = await run(request, puzzles.solver, account.id, game)
    history = await run(request, puzzles.history, account.id)
    return {"solver": _record(solver).model_dump(), "history": history}


@router.get("/api/puzzles/{puzzle_id}", responses={404: {"description": "no such puzzle"}})
async def one_puzzle(puzzle_id: str, request: Request) -> PuzzleQuestion:
    """The puzzle ``puzzle_id`` (a shared link)."""
    return _question(await _stored(request, puzzle_id))


async def _stored(request: Request, puzzle_id: str) -> Stored:
    puzzles = await _puzzles(request)
    found = await run(request, puzzles.get, puzzle_id[:16])
    if found is None:
        raise _refuse(status.HTTP_404_NOT_FOUND, "no_such_puzzle", "no such puzzle")
    return found


@router.post("/api/puzzles/{puzzle_id}/answer",
             responses={404: {"description": "no such puzzle"},
                        422: {"description": "not a legal move of the position"}})
async def answer(puzzle_id: str, body: PuzzleAnswer, request: Request) -> PuzzleResult:
    """Judge an answer: solved or not, the answer with every option's value and the reason;
    a signed-in solver's rating change (a guest's attempt is unrated)."""
    stored = await _stored(request, puzzle_id)
    try:
        made = await asyncio.to_thread(answer_text, stored.puzzle,
                                       body.model_dump(exclude_none=True))
    except BadAnswer as error:
        raise _refuse(status.HTTP_422_UNPROCESSABLE_CONTENT, error.code, str(error)) from None
    judged = judgement(stored.puzzle, made)
    account = await session_account(request)
    change, record, puzzle_rating = None, None, stored.rating
    if account is not None:
        puzzles = await _puzzles(request)
        before, after = await run(request, puzzles.attempt, puzzle_id, account.id, made,
                                  judged["solved"], _rate)
        change = RatingChange(before=round(before.rating, 1), after=round(after.rating, 1),
                              change=round(after.rating - before.rating, 1))
        record = _record(after)
        puzzle_rating = _rate((before.rating, before.rd, before.volatility),
                              (stored.rating, stored.rd, stored.volatility),
                              judged["solved"])[1][0]
    return PuzzleResult(**judged, rating=change, solver=record,
                        puzzle_rating=round(puzzle_rating))


def _rate(solver: tuple[float, float, float], puzzle: tuple[float, float, float],
          solved: bool) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    mine, theirs = attempt(Rating(*solver), Rating(*puzzle), solved)
    return (mine.rating, mine.rd, mine.volatility), (theirs.rating, theirs.rd, theirs.volatility)
