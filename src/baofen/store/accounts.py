"""Accounts in the store: sign-up, sessions, passwords, deletion, and each seat's hand results
with the rating changes they bring.

Only hashes are stored: an argon2 hash of each password (made by the server, never seen here in
clear) and the SHA-256 hash of each session cookie. Every method is one transaction, run in a
caller's worker thread (the server awaits them off its event loop). The results of a finished
hand are written with the hand itself (:func:`hand_results`, a step of the writer's
transaction), so a hand is rated exactly once and never without its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, and_, case, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..accounts import ratings as rating
from ..accounts.usernames import DELETED_NAME
from . import schema as db
from .club_records import club_results_copied
from .clubs import forget_account
from .database import Store, Write
from .puzzles import forget_player

RECENT = 20
"""Hands listed in a player's history."""


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player."""

    id: int
    username: str
    created: datetime


@dataclass(frozen=True, slots=True)
class SeatResult:
    """Who held a seat in a finished hand (for its result row and the ratings)."""

    seat: int
    kind: str
    account_id: int | None
    bot_level: str | None


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's record in one game."""

    hands: int
    as_declarer: int
    made: int
    result_sum: int
    rating: rating.Rating
    rated_hands: int


@dataclass(frozen=True, slots=True)
class RecentHand:
    """One hand of a player's history."""

    table_code: str
    hand_number: int
    variant: str
    role: str
    result: int
    made: bool
    finished: datetime
    listed: bool
    """False while the hand's table is private and not finished: its code stays secret."""


_GONE = ""
"""The password hash of a deleted account's row. The row stays, as a tombstone, so that its id
is never given to a new account (SQLite reuses the highest rowid once its row is gone, and a
stale socket, session or 匹配 ticket would then act for the newcomer)."""


def _tombstone(account_id: int) -> str:
    """The canonical form and skeleton of a deleted account: no username has a colon, so the
    name is free again."""
    return f"deleted:{account_id}"


def _alive() -> ColumnElement[bool]:
    return db.accounts.c.password_hash != _GONE


class NameTaken(Exception):
    """The username (or one that looks like it) belongs to another account."""


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Accounts:
    """The accounts of ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, username: str, canonical: str, skeleton: str, password_hash: str) -> Account:
        """A new account; :class:`NameTaken` when the canonical form or skeleton is in use."""
        created = _now()
        try:
            with self.engine.begin() as conn:
                _check_free(conn, username, canonical, skeleton)
                ident = conn.execute(insert(db.accounts).values(
                    username=username, canonical=canonical, skeleton=skeleton,
                    password_hash=password_hash, created=created,
                )).inserted_primary_key
                assert ident is not None
        except IntegrityError:  # signed up at the same moment by somebody else
            raise NameTaken(f"the username {username!r} is taken") from None
        return Account(int(ident[0]), username, created)

    def check_free(self, username: str, canonical: str, skeleton: str) -> None:
        """:class:`NameTaken` when an account has this canonical form or skeleton (checked
        before a password is hashed for it; :meth:`create` checks again)."""
        with self.engine.connect() as conn:
            _check_free(conn, username, canonical, skeleton)

    def credentials(self, canonical: str) -> tuple[Account, str] | None:
        """The account of a canonical username and its password hash, or None."""
        if "\x00" in canonical:  # no name holds one, and PostgreSQL cannot even compare it
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.accounts).where(db.accounts.c.canonical == canonical, _alive())
            ).first()
        if row is None:
            return None
        return Account(row.id, row.username, _utc(row.created)), row.password_hash

    def password_hash(self, account_id: int) -> str | None:
        """The account's password hash (None once it is deleted)."""
        with self.engine.connect() as conn:
            return conn.execute(select(db.accounts.c.password_hash).where(
                db.accounts.c.id == account_id, _alive()
            )).scalar()

    def open_session(self, account_id: int, token_hash: str, lifetime: timedelta) -> None:
        """Store a session of the account, valid for ``lifetime``."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(delete(db.sessions).where(db.sessions.c.expires < now))
            conn.execute(insert(db.sessions).values(
                token_hash=token_hash, account_id=account_id, created=now,
                expires=now + lifetime,
            ))

    def session(self, token_hash: str) -> Account | None:
        """The account signed in with the session of this hash, or None (unknown, expired)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(db.accounts.c.id, db.accounts.c.username, db.accounts.c.created,
                       db.sessions.c.expires)
                .join(db.accounts, db.accounts.c.id == db.sessions.c.account_id)
                .where(db.sessions.c.token_hash == token_hash)
            ).first()
        if row is None or _utc(row.expires) <= _now():
            return None
        return Account(row.id, row.username, _utc(row.created))

    def close_session(self, token_hash: str) -> None:
        """End one session (log out)."""
        with self.engine.begin() as conn:
            conn.execute(delete(db.sessions).where(db.sessions.c.token_hash == token_hash))

    def set_password(self, account_id: int, password_hash: str, keep: str) -> None:
        """Change the password and end every session of the account but ``keep``."""
        with self.engine.begin() as conn:
            conn.execute(update(db.accounts).where(db.accounts.c.id == account_id)
                         .values(password_hash=password_hash))
            conn.execute(delete(db.sessions).where(
                db.sessions.c.account_id == account_id, db.sessions.c.token_hash != keep
            ))

    def delete(self, account_id: int) -> None:
        """Delete the account: its sessions and ratings go, and the puzzles made from its
        hands; its hands stay, anonymised (no account, and its seats show
        :data:`~baofen.accounts.usernames.DELETED_NAME`); its row stays as a tombstone without
        name, password or consent, keeping its id from a new account."""
        with self.engine.begin() as conn:
            conn.execute(update(db.results).where(db.results.c.account_id == account_id)
                         .values(account_id=None))
            conn.execute(update(db.seats).where(db.seats.c.account_id == account_id)
                         .values(account_id=None, name=DELETED_NAME))
            for table in (db.sessions, db.ratings):
                conn.execute(delete(table).where(table.c.account_id == account_id))
            forget_account(conn, account_id)
            forget_player(conn, account_id)
            conn.execute(update(db.accounts).where(db.accounts.c.id == account_id).values(
                username=DELETED_NAME, canonical=_tombstone(account_id),
                skeleton=_tombstone(account_id), password_hash=_GONE, puzzle_consent=False,
            ))

    def puzzle_consent(self, account_id: int) -> bool:
        """Whether the account lets its finished hands be searched for puzzles."""
        with self.engine.connect() as conn:
            return bool(conn.execute(select(db.accounts.c.puzzle_consent)
                                     .where(db.accounts.c.id == account_id)).scalar())

    def set_puzzle_consent(self, account_id: int, allowed: bool) -> int:
        """Give or withdraw the account's consent to puzzles from its finished hands;
        withdrawn, the puzzles already made from them are deleted: how many."""
        with self.engine.begin() as conn:
            conn.execute(update(db.accounts).where(db.accounts.c.id == account_id)
                         .values(puzzle_consent=allowed))
            return 0 if allowed else forget_player(conn, account_id)

    def ratings(self, account_id: int) -> dict[str, tuple[rating.Rating, int]]:
        """The account's rating and rated hands in each game it has played rated."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.ratings).where(db.ratings.c.account_id == account_id))
            return {row.variant: (rating.Rating(row.mu, row.sigma), row.hands) for row in rows}

    def stats(self, account_id: int) -> dict[str, GameStats]:
        """The account's record in each game it has played (every hand, rated or not, but the
        daily challenge's)."""
        results = db.results.c
        declarer = results.role == "declarer"
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    results.variant,
                    func.count(),
                    func.sum(case((declarer, 1), else_=0)),
                    func.sum(case((and_(declarer, results.made), 1), else_=0)),
                    func.sum(results.result),
                )
                # A challenge deal's result is the challenge's to show, to those who may see
                # it (docs/competition.md): no statistic here counts it.
                .where(results.account_id == account_id,
                       results.table_code.not_in(select(db.challenge_plays.c.table_code)))
                .group_by(results.variant)
            ).all()
        rated = self.ratings(account_id)
        stats = {}
        for variant, hands, as_declarer, made, total in rows:
            current, rated_hands = rated.get(variant, (rating.NEW, 0))
            stats[variant] = GameStats(
                int(hands), int(as_declarer or 0), int(made or 0), int(total or 0), current,
                rated_hands,
            )
        return stats

    def recent(self, account_id: int, limit: int = RECENT) -> list[RecentHand]:
        """The account's latest hands, newest first."""
        results = db.results.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(results.table_code, results.hand_number, results.variant, results.role,
                       results.result, results.made, results.finished, results.private,
                       db.tables.c.status, db.challenge_plays.c.deal)
                .join(db.tables, db.tables.c.code == results.table_code)
                .outerjoin(db.challenge_plays,
                           db.challenge_plays.c.table_code == results.table_code)
                .where(results.account_id == account_id)
                .order_by(results.finished.desc(), results.hand_number.desc())
                .limit(limit)
            ).all()
        return [
            RecentHand(row.table_code, row.hand_number, row.variant, row.role, row.result,
                       row.made, _utc(row.finished),
                       # A challenge deal's table is shown by the challenge's traveller,
                       # to those who may see it (docs/competition.md), never here.
                       listed=(not row.private or row.status == "finished")
                       and row.deal is None)
            for row in rows
        ]

    def leaderboard(self, variant: str, limit: int) -> list[tuple[str, rating.Rating, int]]:
        """The accounts with a rated hand in ``variant``, best shown rating first."""
        ratings = db.ratings.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(db.accounts.c.username, ratings.mu, ratings.sigma, ratings.hands)
                .join(db.accounts, db.accounts.c.id == ratings.account_id)
                .where(ratings.variant == variant, ratings.hands > 0)
                .order_by((ratings.mu - 3 * ratings.sigma).desc(), db.accounts.c.canonical)
                .limit(limit)
            ).all()
        return [(row.username, rating.Rating(row.mu, row.sigma), row.hands) for row in rows]


def _check_free(conn: Connection, username: str, canonical: str, skeleton: str) -> None:
    taken = conn.execute(select(db.accounts.c.canonical).where(
        (db.accounts.c.canonical == canonical) | (db.accounts.c.skeleton == skeleton)
    )).first()
    if taken is not None:
        raise NameTaken(
            f"the username {username!r} is taken" if taken.canonical == canonical
            else f"the username {username!r} looks too much like an existing one"
        )


def hand_results(
    code: str, number: int, variant: str, rated: bool, private: bool,
    seats: Sequence[SeatResult], result: Any, deltas: Sequence[int],
) -> Write:
    """The write of a finished hand's results (a row per seat) and, at a rated table, the
    rating changes of its players' accounts; nothing for a hand nobody declared. ``result`` is
    the hand's :class:`~baofen.scoring.HandResult`, ``deltas`` each seat's score change in the
    match (the result's, with the match's pot and penalties)."""
    declarer = result.declarer

    def write(conn: Connection) -> None:
        if declarer is None:
            return
        finished = _now()
        # An account deleted while its table played is a guest by now.
        bound = {seat.account_id for seat in seats if seat.account_id is not None}
        alive = set(conn.execute(
            select(db.accounts.c.id).where(db.accounts.c.id.in_(bound), _alive())
        ).scalars()) if bound else set()
        players = [
            seat if seat.account_id in alive or seat.account_id is None
            else SeatResult(seat.seat, seat.kind, None, seat.bot_level)
            for seat in seats
        ]
        conn.execute(insert(db.results), [
            {
                "table_code": code, "hand_number": number, "seat": seat.seat,
                "account_id": seat.account_id, "kind": seat.kind, "variant": variant,
                "role": "declarer" if seat.seat == declarer else "defender",
                "result": deltas[seat.seat], "made": bool(result.made),
                "rated": rated, "private": private, "finished": finished,
            }
            for seat in players
        ])
        club_results_copied(conn, code, number)
        if rated:
            _rate(conn, variant, players, declarer, bool(result.made))

    return write


def _rate(
    conn: Connection, variant: str, seats: Sequence[SeatResult], declarer: int, made: bool
) -> None:
    accounts = {seat.account_id for seat in seats if seat.account_id is not None}
    stored = {
        row.account_id: (rating.Rating(row.mu, row.sigma), row.hands)
        for row in conn.execute(select(db.ratings).where(
            db.ratings.c.account_id.in_(accounts), db.ratings.c.variant == variant
        ))
    }

    def current(seat: SeatResult) -> rating.Rating:
        if seat.account_id is not None:
            return stored.get(seat.account_id, (rating.NEW, 0))[0]
        if seat.kind == "bot":
            return rating.bot_rating(variant, seat.bot_level)
        return rating.Rating(*rating.GUEST)

    ordered = sorted(seats, key=lambda seat: seat.seat != declarer)
    new_declarer, new_defenders = rating.update(
        current(ordered[0]), [current(seat) for seat in ordered[1:]], made
    )
    for seat, new in zip(ordered, [new_declarer, *new_defenders], strict=True):
        if seat.account_id is None:
            continue
        hands = stored.get(seat.account_id, (rating.NEW, 0))[1]
        values = {"mu": new.mu, "sigma": new.sigma, "hands": hands + 1}
        if seat.account_id in stored:
            conn.execute(update(db.ratings).where(
                db.ratings.c.account_id == seat.account_id, db.ratings.c.variant == variant
            ).values(**values))
        else:
            conn.execute(insert(db.ratings).values(
                account_id=seat.account_id, variant=variant, **values
            ))
        stored[seat.account_id] = (new, hands + 1)
