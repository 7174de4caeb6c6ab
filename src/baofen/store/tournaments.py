"""Tournaments (比赛) in the database: the events, their entrants, each round's tables.

A request that breaks a rule of registration is refused with :class:`Refused` (a reason code
and a sentence) inside the transaction that checked it, so a refusal writes nothing. The
tournament's row is locked (``FOR UPDATE`` where the database has it) while an entrant is
added, so that two registrations at once cannot pass the seat limit together.

A club's event (亲友圈) names its club: only the club's owner or admins create it, only its
members register, and only they see it (:meth:`Tournaments.listing` shows everyone else the
events of no club).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from . import schema as db
from .clubs import ClubError, require, role_of
from .database import Store

STATUSES = ("registering", "playing", "break", "finished", "cancelled")
"""Where an event is: taking entrants, playing a round, between rounds, over, or called off
(nobody had registered at the start)."""

ACTIVE = ("registering", "playing", "break")
"""The statuses of an event its director still moves on."""


class Refused(Exception):
    """A request refused, nothing changed: ``code`` says why (``registration_closed``, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class StoredEntrant:
    """An entrant: a person (account or guest) or, from the start, a computer filler."""

    number: int
    name: str
    account_id: int | None
    token_hash: str | None
    """A guest's token (hashed): it seats them at each round's table."""
    filler: bool


@dataclass(frozen=True)
class StoredRoundTable:
    """A table of a round: its game table's code and its entrants (numbers) by seat."""

    round: int
    table: int
    code: str
    entrants: tuple[int, int, int, int]


@dataclass(frozen=True)
class StoredTournament:
    """One event as stored."""

    code: str
    organiser_id: int
    organiser: str
    """The organiser's username when the event was made."""
    rules: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    round: int
    """The round being played, or the last one played (0 before the start)."""
    next_start: datetime | None
    """When the next round starts (the first: the event's start time)."""
    created: datetime
    entrants: tuple[StoredEntrant, ...]
    tables: tuple[StoredRoundTable, ...]
    club_id: str | None = None
    """The club whose members only the event is for (None: open to everyone)."""

    def round_tables(self, number: int) -> list[StoredRoundTable]:
        """The tables of round ``number``, in order."""
        return [t for t in self.tables if t.round == number]


def _utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they are UTC."""
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Tournaments:
    """The tournaments of ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, code: str, organiser: tuple[int, str], rules: dict[str, Any],
               settings: dict[str, Any], seed: int, start: datetime,
               club_id: str | None = None) -> None:
        """Store a new event of ``organiser`` (account id, username), taking entrants until
        ``start``; a club's (``club_id``) only by its owner or an admin (``not_found`` for a
        non-member, ``not_admin``)."""
        with self.engine.begin() as conn:
            if club_id is not None:
                try:
                    require(conn, club_id, organiser[0], "owner", "admin")
                except ClubError as error:
                    raise Refused(error.reason, error.message) from None
            conn.execute(insert(db.tournaments).values(
                code=code, organiser_id=organiser[0], organiser=organiser[1], rules=rules,
                settings=settings, seed=seed, club_id=club_id,
                status="registering", round=0, next_start=start, created=datetime.now(UTC),
            ))

    def member(self, club_id: str, account_id: int | None) -> bool:
        """Whether ``account_id`` (None: a guest) is a member of the club."""
        if account_id is None:
            return False
        with self.engine.connect() as conn:
            return role_of(conn, club_id, account_id) is not None

    def get(self, code: str) -> StoredTournament | None:
        """The event of ``code`` with its entrants and tables, or None."""
        with self.engine.connect() as conn:
            return _read(conn, code)

    def listing(self, limit: int = 100, club_id: str | None = None) -> list[StoredTournament]:
        """The latest events (upcoming and running first, then finished), newest first: the
        club's events (``club_id``), or those of no club."""
        events = db.tournaments.c
        with self.engine.connect() as conn:
            codes = conn.execute(
                select(events.code).where(
                    events.club_id.is_(None) if club_id is None else events.club_id == club_id
                ).order_by(
                    db.tournaments.c.status.in_(ACTIVE).desc(), db.tournaments.c.created.desc()
                ).limit(limit)
            ).scalars().all()
            return [t for t in (_read(conn, c) for c in codes) if t is not None]

    def active(self) -> list[str]:
        """The codes of the events not over."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(db.tournaments.c.code).where(
                db.tournaments.c.status.in_(ACTIVE))).scalars())

    def register(self, code: str, name: str, account_id: int | None, token_hash: str | None,
                 limit: int) -> int:
        """Add an entrant (an account, or a guest by name and token); their number."""
        with self.engine.begin() as conn:
            event = conn.execute(select(db.tournaments.c.status, db.tournaments.c.club_id).where(
                db.tournaments.c.code == code).with_for_update()).first()
            if event is None:
                raise Refused("no_tournament", f"no tournament has the code {code!r}")
            if event.club_id is not None and (
                    account_id is None or role_of(conn, event.club_id, account_id) is None):
                raise Refused("not_member", "only the club's members register for its event")
            if event.status != "registering":
                raise Refused("registration_closed", "the tournament has started: registration "
                              "is closed")
            rows = conn.execute(select(db.entrants).where(
                db.entrants.c.tournament_code == code)).all()
            if account_id is not None and any(r.account_id == account_id for r in rows):
                raise Refused("already_registered", "you are registered already")
            if any(r.name.casefold() == name.casefold() for r in rows):
                raise Refused("name_taken", f"an entrant is called {name!r} already")
            if len(rows) >= limit:
                raise Refused("tournament_full", f"the tournament is full ({limit} entrants)")
            number = max((r.number for r in rows), default=0) + 1
            conn.execute(insert(db.entrants).values(
                tournament_code=code, number=number, name=name, account_id=account_id,
                token_hash=token_hash, filler=False))
            return number

    def withdraw(self, code: str, number: int) -> None:
        """Remove an entrant before the start."""
        with self.engine.begin() as conn:
            status = conn.execute(select(db.tournaments.c.status).where(
                db.tournaments.c.code == code).with_for_update()).scalar()
            if status != "registering":
                raise Refused("registration_closed", "the tournament has started: its entrants "
                              "are fixed")
            gone = conn.execute(delete(db.entrants).where(
                db.entrants.c.tournament_code == code, db.entrants.c.number == number))
            if gone.rowcount == 0:
                raise Refused("not_registered", f"no entrant {number} is registered")

    def close_registration(self, code: str, fillers: list[str]) -> bool:
        """At the start: add the computer fillers and leave registering (``playing``, or
        ``cancelled`` with no entrant); False when another call did it first."""
        with self.engine.begin() as conn:
            status = conn.execute(select(db.tournaments.c.status).where(
                db.tournaments.c.code == code).with_for_update()).scalar()
            if status != "registering":
                return False
            people = conn.execute(select(func.count()).select_from(db.entrants).where(
                db.entrants.c.tournament_code == code)).scalar_one()
            top = conn.execute(select(func.max(db.entrants.c.number)).where(
                db.entrants.c.tournament_code == code)).scalar() or 0
            for offset, name in enumerate(fillers if people else [], start=1):
                conn.execute(insert(db.entrants).values(
                    tournament_code=code, number=top + offset, name=name, account_id=None,
                    token_hash=None, filler=True))
            conn.execute(update(db.tournaments).where(db.tournaments.c.code == code).values(
                status="playing" if people else "cancelled", next_start=None))
            return True

    def start_round(self, code: str, number: int, tables: list[StoredRoundTable]) -> None:
        """Record round ``number``'s tables; the event plays it."""
        with self.engine.begin() as conn:
            for table in tables:
                conn.execute(insert(db.tournament_tables).values(
                    tournament_code=code, round=number, table=table.table,
                    table_code=table.code, entrants=list(table.entrants)))
            conn.execute(update(db.tournaments).where(db.tournaments.c.code == code).values(
                status="playing", round=number, next_start=None))

    def set_status(self, code: str, status: str, next_start: datetime | None = None) -> None:
        """Move the event on: a break until ``next_start``, or finished."""
        with self.engine.begin() as conn:
            conn.execute(update(db.tournaments).where(db.tournaments.c.code == code).values(
                status=status, next_start=next_start))


def _read(conn: Connection, code: str) -> StoredTournament | None:
    row = conn.execute(select(db.tournaments).where(db.tournaments.c.code == code)).first()
    if row is None:
        return None
    entrants = conn.execute(select(db.entrants).where(
        db.entrants.c.tournament_code == code).order_by(db.entrants.c.number)).all()
    tables = conn.execute(select(db.tournament_tables).where(
        db.tournament_tables.c.tournament_code == code).order_by(
        db.tournament_tables.c.round, db.tournament_tables.c.table)).all()
    created = _utc(row.created)
    assert created is not None
    return StoredTournament(
        row.code, row.organiser_id, row.organiser, row.rules, row.settings, row.seed,
        row.status, row.round,
        _utc(row.next_start), created,
        tuple(StoredEntrant(e.number, e.name, e.account_id, e.token_hash, e.filler)
              for e in entrants),
        tuple(StoredRoundTable(t.round, t.table, t.table_code,
                               (t.entrants[0], t.entrants[1], t.entrants[2], t.entrants[3]))
              for t in tables),
        row.club_id,
    )
