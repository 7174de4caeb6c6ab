"""每日复式挑战 in the store: each game's deals of a day, its entrants (an account, or a guest
by the hash of its browser's token) and the deals they played, with each seat's result.

Every method is one transaction, run in a caller's worker thread (the server awaits them off
its event loop). A play's result is not written by the table: :meth:`Challenges.settle` reads it
from the hand the table stored (its first and only hand), so that a result exists exactly when
the hand's record does, whoever played the seat to its end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import schema as db
from .database import Store

ENTRIES = db.challenge_entries.c
PLAYS = db.challenge_plays.c


@dataclass(frozen=True, slots=True)
class Entrant:
    """Who plays a day's challenge: an account, or a guest's browser (its token's hash)."""

    account_id: int | None
    guest_hash: str | None

    def __post_init__(self) -> None:
        if (self.account_id is None) == (self.guest_hash is None):
            raise ValueError("an entrant is an account or a guest, exactly one of them")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entrant's entry in one game's challenge of one day."""

    id: int
    variant: str
    day: str
    name: str
    account_id: int | None


@dataclass(frozen=True, slots=True)
class Play:
    """One deal an entry started: its table and seat, and once the hand is over its result."""

    entry_id: int
    deal: int
    table_code: str
    seat: int
    result: int | None
    contract: dict[str, Any] | None
    name: str = ""

    @property
    def finished(self) -> bool:
        """True once the deal's hand is over (its result is known)."""
        return self.result is not None


def _play(row: Row[Any]) -> Play:
    return Play(row.entry_id, row.deal, row.table_code, row.seat, row.result, row.contract,
                getattr(row, "name", ""))


def contract_of(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    """What a traveller shows of a finished hand, seen from the entrant's ``seat``: the declarer
    (relative to the seat: 0 the entrant, 1 the next seat in turn…; None with no bid), the
    target, the declarer's points and whether the contract was made."""
    result = summary["result"]
    declarer = result.get("declarer")
    return {
        "declarer": None if declarer is None else (declarer - seat) % 4,
        "target": result.get("target"),
        "declarer_points": result.get("declarer_points"),
        "made": result.get("made"),
        "kind": result.get("kind"),
    }


def deal_result(summary: dict[str, Any], seat: int) -> int:
    """The seat's result on a deal: the hand's own score change for it (rules.md: 包分 points,
    包红五 levels; not the match's pot, which a one-hand table has no use for), and nothing won
    by a player who left the table before the hand was over (逃跑)."""
    result = int(summary["result"]["deltas"][seat])
    return min(result, 0) if seat in summary.get("left", []) else result


class Challenges:
    """The daily challenges of ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def deals(self, variant: str, day: str, drawn: list[dict[str, int]]) -> list[dict[str, int]]:
        """The day's deals (``{"seed", "seat"}`` each), kept the first time they are asked for:
        ``drawn`` then, the kept ones ever after (also when the number of deals was changed
        during the day, or another server of a cluster asked at the same moment)."""
        days = db.challenge_days.c
        query = select(days.deals).where(days.variant == variant, days.day == day)
        kept = self.kept_deals(variant, day)
        if kept:
            return kept
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.challenge_days).values(
                    variant=variant, day=day, deals=drawn, created=datetime.now(UTC)))
        except IntegrityError:
            with self.engine.connect() as conn:
                return list(conn.execute(query).scalar_one())
        return drawn

    def kept_deals(self, variant: str, day: str) -> list[dict[str, int]]:
        """The day's deals as kept (none: the day had no challenge)."""
        days = db.challenge_days.c
        with self.engine.connect() as conn:
            kept = conn.execute(select(days.deals).where(
                days.variant == variant, days.day == day)).scalar()
        return list(kept or [])

    def entry(self, variant: str, day: str, entrant: Entrant) -> Entry | None:
        """The entrant's entry of the day, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(db.challenge_entries).where(
                ENTRIES.variant == variant, ENTRIES.day == day, *_is(entrant))).first()
        return None if row is None else Entry(row.id, row.variant, row.day, row.name,
                                              row.account_id)

    def enter(self, variant: str, day: str, entrant: Entrant, name: str) -> Entry:
        """The entrant's entry of the day, made now when there is none (once a day)."""
        found = self.entry(variant, day, entrant)
        if found is not None:
            return found
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.challenge_entries).values(
                    variant=variant, day=day, account_id=entrant.account_id,
                    guest_hash=entrant.guest_hash, name=name, created=datetime.now(UTC)))
        except IntegrityError:  # entered at the same moment from another device
            pass
        entry = self.entry(variant, day, entrant)
        assert entry is not None
        return entry

    def plays(self, entry_id: int) -> list[Play]:
        """The deals the entry started, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.challenge_plays).where(PLAYS.entry_id == entry_id)
                                .order_by(PLAYS.deal)).all()
        return [_play(row) for row in rows]

    def start(self, entry: Entry, deal: int, table_code: str, seat: int) -> bool:
        """Record that the entry plays ``deal`` at ``table_code``; False when it already does
        (asked twice at once: the other table is the one)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.challenge_plays).values(
                    entry_id=entry.id, deal=deal, variant=entry.variant, day=entry.day,
                    table_code=table_code, seat=seat))
        except IntegrityError:
            return False
        return True

    def settle(self, variant: str, day: str, entry_id: int | None = None) -> int:
        """Write the result of every play of the day (of one entry only, when given) whose hand
        is stored now; how many."""
        hands = db.hands.c
        which = [PLAYS.variant == variant, PLAYS.day == day, PLAYS.result.is_(None)]
        if entry_id is not None:
            which.append(PLAYS.entry_id == entry_id)
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(PLAYS.entry_id, PLAYS.deal, PLAYS.seat, hands.summary)
                .join(db.hands, and_(hands.table_code == PLAYS.table_code, hands.number == 1))
                .where(*which)
            ).all()
            now = datetime.now(UTC)
            for row in rows:
                conn.execute(update(db.challenge_plays).where(
                    PLAYS.entry_id == row.entry_id, PLAYS.deal == row.deal
                ).values(result=deal_result(row.summary, row.seat),
                         contract=contract_of(row.summary, row.seat), finished=now))
        return len(rows)

    def traveller(self, variant: str, day: str, deal: int) -> list[Play]:
        """Every finished play of one deal of the day, with its entrant's name."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(db.challenge_plays, ENTRIES.name)
                .join(db.challenge_entries, ENTRIES.id == PLAYS.entry_id)
                .where(PLAYS.variant == variant, PLAYS.day == day, PLAYS.deal == deal,
                       PLAYS.result.is_not(None))
            ).all()
        return [_play(row) for row in rows]

    def results(self, variant: str, first: str, last: str) -> list[tuple[str, int, int, int]]:
        """``(day, entry, deal, result)`` of every finished play from day ``first`` to
        ``last`` (ISO dates, both included)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(PLAYS.day, PLAYS.entry_id, PLAYS.deal, PLAYS.result)
                .where(PLAYS.variant == variant, PLAYS.day >= first, PLAYS.day <= last,
                       PLAYS.result.is_not(None))
            ).all()
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    def days(self, variant: str, first: str, last: str) -> list[str]:
        """The days from ``first`` to ``last`` (ISO dates, both included) whose deals were
        drawn, in order."""
        days = db.challenge_days.c
        with self.engine.connect() as conn:
            return list(conn.execute(select(days.day).where(
                days.variant == variant, days.day >= first, days.day <= last
            ).order_by(days.day)).scalars())

    def entrants(self, entry_ids: list[int]) -> dict[int, tuple[str, int | None]]:
        """Each entry's name and account (None: a guest)."""
        found: dict[int, tuple[str, int | None]] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(entry_ids), 500):
                chunk = entry_ids[start:start + 500]
                for row in conn.execute(select(ENTRIES.id, ENTRIES.name, ENTRIES.account_id)
                                        .where(ENTRIES.id.in_(chunk))):
                    found[row.id] = (row.name, row.account_id)
        return found

    def entries_of(self, variant: str, account_id: int) -> list[Entry]:
        """The account's entries in ``variant``'s challenges, newest day first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.challenge_entries).where(
                ENTRIES.variant == variant, ENTRIES.account_id == account_id
            ).order_by(ENTRIES.day.desc())).all()
        return [Entry(row.id, row.variant, row.day, row.name, row.account_id) for row in rows]


def _is(entrant: Entrant) -> list[Any]:
    if entrant.account_id is not None:
        return [ENTRIES.account_id == entrant.account_id]
    return [ENTRIES.guest_hash == entrant.guest_hash]
