"""A club's house rules, tables and records in the store: rule presets, the pairs of members who
may not sit at one table (禁止同桌), the tables opened in the club, and the results of their
hands with the standings and 战绩 made of them.

A finished hand's results are copied into ``club_results`` in the hand's own transaction
(:func:`club_results_copied`, a step of :func:`~.accounts.hand_results`), so that a club's
standings read one club's rows through one index, never the whole server's results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    and_,
    case,
    delete,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from . import schema as db
from .clubs import DEFAULT_SETTINGS, ClubError, now, require, utc
from .database import Store

PERIODS: dict[str, timedelta | None] = {
    "week": timedelta(days=7), "month": timedelta(days=30), "all": None,
}
"""The standings' periods: the last 7 days, the last 30 days, all time."""
HISTORY = 50
"""Hands listed in a member's club history."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set and table settings of a club (as dicts the server validates)."""

    name: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    updated: datetime


@dataclass(frozen=True, slots=True)
class Standing:
    """One member's record in a club over a period, in one game."""

    account_id: int
    username: str
    matches: int
    hands: int
    made: int
    failed: int
    result: int
    """Points (包分) or levels (包红五) won, summed over the hands."""


@dataclass(frozen=True, slots=True)
class ClubHand:
    """One hand of a member's club history."""

    table_code: str
    hand_number: int
    variant: str
    role: str
    made: bool
    result: int
    finished: datetime


@dataclass(frozen=True, slots=True)
class ClubSeat:
    """What decides whether an account may sit at a club table."""

    club_id: str
    event: str | None
    member: bool
    same_address: str
    """The club's 同IP禁止同桌 setting (:data:`~.clubs.DEFAULT_SETTINGS`)."""
    forbidden: frozenset[int]
    """The members the account may not sit with (禁止同桌)."""


def club_results_copied(conn: Connection, code: str, number: int) -> None:
    """Copy the results of hand ``number`` of table ``code`` into its club's records, when
    the table is a club's (a step of the finished hand's transaction). ``first`` marks a
    member's first hand at the table: the standings count matches by it."""
    results, earlier = db.results.c, db.results.alias("earlier").c
    first = ~exists().where(earlier.table_code == code, earlier.hand_number < number,
                            earlier.account_id == results.account_id)
    chosen = (
        select(results.table_code, results.hand_number, results.seat, db.club_tables.c.club_id,
               results.account_id, results.variant, results.role, results.made,
               results.result, first, results.finished)
        .join(db.club_tables, db.club_tables.c.table_code == results.table_code)
        .where(results.table_code == code, results.hand_number == number,
               results.account_id.is_not(None))
    )
    columns = ["table_code", "hand_number", "seat", "club_id", "account_id", "variant", "role",
               "made", "result", "first", "finished"]
    conn.execute(insert(db.club_results).from_select(columns, chosen))
    copied = conn.execute(select(db.club_results).where(
        db.club_results.c.table_code == code, db.club_results.c.hand_number == number)).all()
    for row in copied:
        declarer = row.role == "declarer"
        counts = {"matches": int(row.first), "hands": 1, "made": int(declarer and row.made),
                  "failed": int(declarer and not row.made), "result": row.result}
        key = {"club_id": row.club_id, "variant": row.variant, "account_id": row.account_id}
        _add(conn, db.club_totals, key, counts)
        _add(conn, db.club_days, {**key, "day": utc(row.finished).date()}, counts)


def _add(conn: Connection, table: Table, key: dict[str, Any], counts: dict[str, int]) -> None:
    """Add ``counts`` to the row of ``key`` (made when missing), in one statement: two hands
    finishing at once both count."""
    dialect = sqlite_insert if conn.dialect.name == "sqlite" else postgresql_insert
    statement = dialect(table).values(**key, **counts)
    conn.execute(statement.on_conflict_do_update(
        index_elements=list(key),
        set_={name: table.c[name] + statement.excluded[name] for name in counts},
    ))


class ClubRecords:
    """Presets, pairs, tables and records of the clubs in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # -- presets ----------------------------------------------------------------------------

    def presets(self, club_id: str, by: int) -> list[Preset]:
        """The club's presets by name (members)."""
        with self.engine.connect() as conn:
            require(conn, club_id, by)
            rows = conn.execute(select(db.club_presets).where(
                db.club_presets.c.club_id == club_id).order_by(db.club_presets.c.name)).all()
        return [Preset(r.name, r.rules, r.settings, utc(r.updated)) for r in rows]

    def preset(self, club_id: str, by: int, name: str) -> Preset:
        """One preset (members); ``no_such_preset``."""
        for preset in self.presets(club_id, by):
            if preset.name == name:
                return preset
        raise ClubError("no_such_preset", f"the club has no preset {name!r}")

    def put_preset(self, club_id: str, by: int, name: str, rules: dict[str, Any],
                   settings: dict[str, Any]) -> Preset:
        """Make or replace a preset (admins). Tables opened from it keep what it was."""
        preset = Preset(name, rules, settings, now())
        key = and_(db.club_presets.c.club_id == club_id, db.club_presets.c.name == name)
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            conn.execute(delete(db.club_presets).where(key))
            conn.execute(insert(db.club_presets).values(
                club_id=club_id, name=name, rules=rules, settings=settings,
                updated=preset.updated))
        return preset

    def delete_preset(self, club_id: str, by: int, name: str) -> None:
        """Delete a preset (admins)."""
        key = and_(db.club_presets.c.club_id == club_id, db.club_presets.c.name == name)
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            if not conn.execute(delete(db.club_presets).where(key)).rowcount:
                raise ClubError("no_such_preset", f"the club has no preset {name!r}")

    # -- 禁止同桌 ----------------------------------------------------------------------------

    def pairs(self, club_id: str, by: int) -> list[tuple[int, int]]:
        """The pairs of members who may not sit at one table (admins)."""
        pairs = db.club_pairs.c
        with self.engine.connect() as conn:
            require(conn, club_id, by, "owner", "admin")
            rows = conn.execute(select(pairs.first_id, pairs.second_id)
                                .where(pairs.club_id == club_id)).all()
        return [(r.first_id, r.second_id) for r in rows]

    def forbid(self, club_id: str, by: int, one: int, other: int, forbidden: bool) -> None:
        """Forbid (or allow again) two members to sit at one table (admins)."""
        if one == other:
            raise ClubError("bad_pair", "a pair is two different members")
        first, second = sorted((one, other))
        key = and_(db.club_pairs.c.club_id == club_id, db.club_pairs.c.first_id == first,
                   db.club_pairs.c.second_id == second)
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            members = set(conn.execute(select(db.club_members.c.account_id).where(
                db.club_members.c.club_id == club_id,
                db.club_members.c.account_id.in_((first, second)))).scalars())
            if len(members) < 2:
                raise ClubError("no_such_member", "both of a pair are members of the club")
            conn.execute(delete(db.club_pairs).where(key))
            if forbidden:
                conn.execute(insert(db.club_pairs).values(
                    club_id=club_id, first_id=first, second_id=second))

    # -- tables -----------------------------------------------------------------------------

    def opened(self, code: str, club_id: str, by: int | None, preset: str | None,
               event: str | None = None) -> None:
        """Record that member ``by`` opened table ``code`` in the club (from ``preset``; for
        the club event ``event``, whose director opens it: ``by`` None, no membership
        asked)."""
        with self.engine.begin() as conn:
            if by is not None:
                require(conn, club_id, by)
            try:
                conn.execute(insert(db.club_tables).values(
                    table_code=code, club_id=club_id, preset=preset, event=event,
                    opened_by=by, created=now()))
            except IntegrityError:
                raise ClubError("table_taken", "that table belongs to a club already") from None

    def open_tables(self, club_id: str, by: int) -> list[tuple[str, str | None, str | None]]:
        """The codes of the club's tables not yet over, newest first, each with its preset and
        its club event (None: a member's table)."""
        club_tables = db.club_tables.c
        with self.engine.connect() as conn:
            require(conn, club_id, by)
            rows = conn.execute(
                select(club_tables.table_code, club_tables.preset, club_tables.event)
                .join(db.tables, db.tables.c.code == club_tables.table_code)
                .where(club_tables.club_id == club_id,
                       db.tables.c.status.in_(("waiting", "playing")))
                .order_by(club_tables.created.desc())
            ).all()
        return [(r.table_code, r.preset, r.event) for r in rows]

    def table_codes(self, club_id: str) -> list[str]:
        """The codes of the club's tables not yet over (no membership check: the server's)."""
        club_tables = db.club_tables.c
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(club_tables.table_code)
                .join(db.tables, db.tables.c.code == club_tables.table_code)
                .where(club_tables.club_id == club_id,
                       db.tables.c.status.in_(("waiting", "playing")))
            ).scalars())

    def seat(self, code: str, account_id: int | None) -> ClubSeat | None:
        """What decides a seat at table ``code`` for ``account_id`` (None: a guest); None
        when the table is no club's."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.club_tables.c.club_id, db.club_tables.c.event, db.clubs.c.settings)
                .join(db.clubs, db.clubs.c.id == db.club_tables.c.club_id)
                .where(db.club_tables.c.table_code == code)
            ).first()
            if row is None:
                return None
            settings = {**DEFAULT_SETTINGS, **row.settings}
            if account_id is None:
                return ClubSeat(row.club_id, row.event, False, settings["same_address"],
                                frozenset())
            member = require_member(conn, row.club_id, account_id)
            pairs = db.club_pairs.c
            partners = conn.execute(
                select(case((pairs.first_id == account_id, pairs.second_id),
                            else_=pairs.first_id))
                .where(pairs.club_id == row.club_id,
                       or_(pairs.first_id == account_id, pairs.second_id == account_id))
            ).scalars()
            return ClubSeat(row.club_id, row.event, member, settings["same_address"],
                            frozenset(partners))

    # -- records ----------------------------------------------------------------------------

    def standings(self, club_id: str, by: int, variant: str, period: str) -> list[Standing]:
        """The members' records in ``variant`` over ``period`` (:data:`PERIODS`: all time, or
        today and the 6 or 29 UTC days before), the most points (levels) first; current
        members only. Read from the sums kept as hands finish, never the hands themselves."""
        if period not in PERIODS:
            raise ClubError("bad_period", f"a period is one of {', '.join(PERIODS)}")
        span = PERIODS[period]
        if span is None:
            sums = db.club_totals.c
            totals = select(sums.account_id, sums.matches, sums.hands, sums.made, sums.failed,
                            sums.result).where(sums.club_id == club_id,
                                               sums.variant == variant).subquery()
        else:
            days = db.club_days.c
            first_day = (now() - span + timedelta(days=1)).date()
            totals = (
                select(days.account_id, func.sum(days.matches).label("matches"),
                       func.sum(days.hands).label("hands"), func.sum(days.made).label("made"),
                       func.sum(days.failed).label("failed"),
                       func.sum(days.result).label("result"))
                .where(days.club_id == club_id, days.variant == variant, days.day >= first_day)
                .group_by(days.account_id).subquery()
            )
        members = db.club_members.c
        with self.engine.connect() as conn:
            require(conn, club_id, by)
            rows = conn.execute(
                select(totals, db.accounts.c.username)
                .join(db.club_members, and_(members.club_id == club_id,
                                            members.account_id == totals.c.account_id))
                .join(db.accounts, db.accounts.c.id == totals.c.account_id)
                .order_by(totals.c.result.desc(), totals.c.hands.desc(), db.accounts.c.canonical)
            ).all()
        return [Standing(row.account_id, row.username, int(row.matches), int(row.hands),
                         int(row.made), int(row.failed), int(row.result)) for row in rows]

    def history(self, club_id: str, by: int, account_id: int,
                limit: int = HISTORY) -> list[ClubHand]:
        """A member's latest club hands, newest first (members)."""
        r = db.club_results.c
        with self.engine.connect() as conn:
            require(conn, club_id, by)
            if not require_member(conn, club_id, account_id):
                raise ClubError("no_such_member", "that account is not a member of the club")
            rows = conn.execute(
                select(r.table_code, r.hand_number, r.variant, r.role, r.made, r.result,
                       r.finished)
                .where(r.club_id == club_id, r.account_id == account_id)
                .order_by(r.finished.desc(), r.hand_number.desc()).limit(limit)
            ).all()
        return [ClubHand(row.table_code, row.hand_number, row.variant, row.role, row.made,
                         row.result, utc(row.finished)) for row in rows]

    def export(self, club_id: str) -> list[dict[str, Any]]:
        """Every result row of the club, oldest first, with usernames (the organiser's CSV;
        no membership check: the command line runs on the database itself)."""
        r = db.club_results.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(r.finished, r.table_code, r.hand_number, r.seat, r.variant,
                       func.coalesce(db.accounts.c.username, literal("")).label("username"),
                       r.role, r.made, r.result)
                .outerjoin(db.accounts, db.accounts.c.id == r.account_id)
                .where(r.club_id == club_id)
                .order_by(r.finished, r.table_code, r.hand_number, r.seat)
            ).all()
        return [dict(row._mapping) for row in rows]


def require_member(conn: Connection, club_id: str, account_id: int) -> bool:
    """Whether the account is a member of the club."""
    return conn.execute(select(literal(1)).where(exists().where(
        db.club_members.c.club_id == club_id, db.club_members.c.account_id == account_id,
    ))).first() is not None
