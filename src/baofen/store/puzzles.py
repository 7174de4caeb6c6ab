"""Puzzles (残局练习) in the store: the set of puzzles with their Glicko-2 ratings, signed-in
solvers' attempts, and each solver's puzzle rating and streak per game. A puzzle made from a
player's finished hand names that player's account; it is kept only while the account consents
(:func:`forget_player`).

Every method is one transaction, run in a caller's worker thread. An attempt updates the solver
and the puzzle together (:meth:`Puzzles.attempt`), each rated against the other's rating before
it; a guest's attempt is not stored and changes no rating.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from . import schema as db
from .database import Store

NEAR = 24
"""Puzzles nearest the solver's rating among which the next one is drawn."""

HISTORY = 20
"""Attempts listed in a solver's history."""

START = (1500.0, 350.0, 0.06)
"""A new solver's (and a new puzzle's) rating, deviation and volatility."""


@dataclass(frozen=True, slots=True)
class Solver:
    """A signed-in solver's puzzle record in one game."""

    rating: float
    rd: float
    volatility: float
    attempts: int
    solved: int
    streak: int
    best_streak: int


NEW_SOLVER = Solver(START[0], START[1], START[2], 0, 0, 0, 0)

Triple = tuple[float, float, float]
Rate = Callable[[Triple, Triple, bool], tuple[Triple, Triple]]
"""New (rating, deviation, volatility) of a solver and a puzzle after an attempt."""


def player_of(puzzle: dict[str, Any]) -> int | None:
    """The account whose finished hand ``puzzle`` comes from (its source ``player:<id>``), or
    None for an arena hand's."""
    kind, _, ident = str(puzzle.get("source", "")).partition(":")
    return int(ident) if kind == "player" and ident.isdigit() else None


def forget_player(conn: Connection, account_id: int) -> int:
    """Delete the puzzles made from the account's hands, with every attempt at them (the
    player withdrew their consent, or deleted the account): how many were deleted."""
    made = select(db.puzzles.c.id).where(db.puzzles.c.account_id == account_id)
    conn.execute(delete(db.puzzle_attempts).where(db.puzzle_attempts.c.puzzle_id.in_(made)))
    gone = conn.execute(delete(db.puzzles).where(db.puzzles.c.account_id == account_id))
    return gone.rowcount


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """A finished hand a consenting player played, and their seat in it."""

    table_code: str
    number: int
    seat: int
    account_id: int
    record: dict[str, Any]

    @property
    def key(self) -> str:
        """The hand and seat, as a generation's progress file names them."""
        return f"{self.table_code}/{self.number}/{self.seat}"


def consenting_hands(store: Store, game: str) -> list[PlayerHand]:
    """The seats of finished hands of ``game`` held by accounts that consent to puzzles from
    their hands (a guest's seat never counts), oldest table first. Only hands whose match is
    over, and none of a daily challenge or of an event still being played: their deals are
    others' to play yet."""
    results, hands, tables = db.results.c, db.hands.c, db.tables.c
    running = (select(db.tournament_tables.c.table_code)
               .join(db.tournaments,
                     db.tournaments.c.code == db.tournament_tables.c.tournament_code)
               .where(db.tournaments.c.status != "finished"))
    query = (
        select(results.table_code, results.hand_number, results.seat, results.account_id,
               hands.record)
        .join(db.hands, and_(hands.table_code == results.table_code,
                             hands.number == results.hand_number))
        .join(db.tables, tables.code == results.table_code)
        .join(db.accounts, db.accounts.c.id == results.account_id)
        .where(db.accounts.c.puzzle_consent, results.variant == game,
               tables.status == "finished",
               results.table_code.not_in(select(db.challenge_plays.c.table_code)),
               results.table_code.not_in(running))
        .order_by(tables.created, results.table_code, results.hand_number, results.seat)
    )
    with store.engine.connect() as conn:
        return [PlayerHand(code, number, seat, account_id, record)
                for code, number, seat, account_id, record in conn.execute(query)]


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored puzzle and its rating."""

    puzzle: dict[str, Any]
    rating: float
    rd: float
    volatility: float
    attempts: int
    solved: int


class Puzzles:
    """The puzzle tables of a :class:`~baofen.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def add(self, puzzles: Iterable[dict[str, Any]]) -> int:
        """Store ``puzzles`` (data of :class:`baofen.puzzles.Puzzle`) not stored yet; the
        number added. A puzzle from a player's hand is stored only while that player's account
        consents (it may have withdrawn since the puzzle was made)."""
        with self.engine.begin() as conn:
            have = set(conn.execute(select(db.puzzles.c.id)).scalars())
            wanted = [p for p in puzzles if p["id"] not in have]
            players = sorted({i for p in wanted if (i := player_of(p)) is not None})
            # Locked: a consent withdrawn meanwhile either waits for these rows (and deletes
            # them) or is seen here.
            consenting = set(conn.execute(select(db.accounts.c.id).where(
                db.accounts.c.id.in_(players), db.accounts.c.puzzle_consent
            ).with_for_update()).scalars()) if players else set()
            rows = [{"id": p["id"], "game": p["game"], "kind": p["kind"], "puzzle": p,
                     "rating": p.get("rating", START[0]), "rd": START[1],
                     "volatility": START[2], "attempts": 0, "solved": 0,
                     "account_id": player_of(p)}
                    for p in wanted if player_of(p) in consenting or player_of(p) is None]
            if rows:
                conn.execute(insert(db.puzzles), rows)
        return len(rows)

    def count(self, game: str) -> int:
        """Puzzles of ``game``."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(db.puzzles)
                                    .where(db.puzzles.c.game == game)).scalar_one())

    def get(self, puzzle_id: str) -> Stored | None:
        """The puzzle ``puzzle_id``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.puzzles).where(db.puzzles.c.id == puzzle_id)).first()
        return None if row is None else _stored(row)

    def near(self, game: str, rating: float, account_id: int | None,
             skip: Iterable[str] = (), rng: random.Random | None = None) -> Stored | None:
        """A puzzle of ``game`` drawn among the :data:`NEAR` nearest ``rating`` that the account
        has not tried (and not in ``skip``); any puzzle when it has tried them all."""
        c = db.puzzles.c
        avoid = set(skip)
        with self.engine.connect() as conn:
            if account_id is not None:
                avoid |= set(conn.execute(select(db.puzzle_attempts.c.puzzle_id).where(
                    db.puzzle_attempts.c.account_id == account_id)).scalars())
            query = select(db.puzzles).where(c.game == game)
            if avoid:
                query = query.where(c.id.not_in(sorted(avoid)))
            rows = conn.execute(query.order_by(func.abs(c.rating - rating), c.id)
                                .limit(NEAR)).all()
            if not rows:
                rows = conn.execute(select(db.puzzles).where(c.game == game)
                                    .order_by(func.abs(c.rating - rating)).limit(NEAR)).all()
        return _stored((rng or random.Random()).choice(rows)) if rows else None

    def daily(self, game: str, day: date) -> Stored | None:
        """The puzzle of the day: the same for everyone all day, another each day."""
        with self.engine.connect() as conn:
            ids = list(conn.execute(select(db.puzzles.c.id).where(db.puzzles.c.game == game)
                                    .order_by(db.puzzles.c.id)).scalars())
        if not ids:
            return None
        digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
        return self.get(ids[int.from_bytes(digest[:8], "big") % len(ids)])

    def solver(self, account_id: int, game: str) -> Solver:
        """The account's puzzle record in ``game`` (a new solver's when it has none)."""
        with self.engine.connect() as conn:
            return _solver(conn, account_id, game)

    def history(self, account_id: int, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The account's latest attempts, newest first."""
        a = db.puzzle_attempts.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.puzzle_id, a.move, a.solved, a.rating_before,
                                       a.rating_after, a.created)
                                .where(a.account_id == account_id)
                                .order_by(a.id.desc()).limit(limit)).all()
        return [{"puzzle": r.puzzle_id, "move": r.move, "solved": r.solved,
                 "rating_before": round(r.rating_before, 1),
                 "rating_after": round(r.rating_after, 1),
                 "at": r.created.replace(tzinfo=UTC).isoformat()} for r in rows]

    def attempt(self, puzzle_id: str, account_id: int, move: str, solved: bool,
                rate: Rate) -> tuple[Solver, Solver]:
        """Record a signed-in solver's attempt; ``rate(solver, puzzle, solved)`` gives both
        new ratings (:func:`baofen.puzzles.glicko2.attempt`, on ``(rating, rd, volatility)``
        triples). The solver's record before and after."""
        p = db.puzzles.c
        with self.engine.begin() as conn:
            row = conn.execute(select(db.puzzles).where(p.id == puzzle_id)).first()
            if row is None:
                raise KeyError(puzzle_id)
            game = row.game
            before = _solver(conn, account_id, game)
            mine, theirs = rate((before.rating, before.rd, before.volatility),
                                (row.rating, row.rd, row.volatility), solved)
            streak = before.streak + 1 if solved else 0
            after = Solver(mine[0], mine[1], mine[2], before.attempts + 1,
                           before.solved + int(solved), streak, max(before.best_streak, streak))
            conn.execute(update(db.puzzles).where(p.id == puzzle_id).values(
                rating=theirs[0], rd=theirs[1], volatility=theirs[2],
                attempts=p.attempts + 1, solved=p.solved + int(solved)))
            values = {"rating": after.rating, "rd": after.rd, "volatility": after.volatility,
                      "attempts": after.attempts, "solved": after.solved,
                      "streak": after.streak, "best_streak": after.best_streak}
            s = db.puzzle_solvers.c
            if before.attempts:
                conn.execute(update(db.puzzle_solvers).where(
                    s.account_id == account_id, s.game == game).values(**values))
            else:
                conn.execute(insert(db.puzzle_solvers).values(
                    account_id=account_id, game=game, **values))
            conn.execute(insert(db.puzzle_attempts).values(
                puzzle_id=puzzle_id, account_id=account_id, move=move[:200], solved=solved,
                rating_before=before.rating, rating_after=after.rating,
                created=datetime.now(UTC)))
        return before, after


def _solver(conn: Connection, account_id: int, game: str) -> Solver:
    s = db.puzzle_solvers.c
    row = conn.execute(select(db.puzzle_solvers).where(
        s.account_id == account_id, s.game == game)).first()
    if row is None:
        return NEW_SOLVER
    return Solver(row.rating, row.rd, row.volatility, row.attempts, row.solved, row.streak,
                  row.best_streak)


def _stored(row: Any) -> Stored:
    return Stored(row.puzzle, row.rating, row.rd, row.volatility, row.attempts, row.solved)
