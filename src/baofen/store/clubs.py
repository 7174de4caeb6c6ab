"""亲友圈 (clubs) in the store: clubs, their members and roles, invitations and join requests.

A club has one owner, any number of admins and members (accounts only). Every method is one
transaction and checks who asks in it: a refusal raises :class:`ClubError` with a reason code
and changes nothing. A club is found only by its members: for anybody else (and for a club
that does not exist) the reason is ``not_found``, so probing club ids tells nothing.

Club names follow the rules of usernames (:mod:`baofen.accounts.usernames`): no control
characters, NFKC, and no two clubs whose names look alike (the skeleton). Club ids and
invitation codes are random (``secrets.token_urlsafe``): 96 and 128 bits.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..accounts.usernames import UsernameError, canonical, display_form, skeleton
from . import schema as db
from .database import Store

ROLES = ("owner", "admin", "member")
"""A member's role, most powerful first."""

DEFAULT_SETTINGS: dict[str, Any] = {"same_address": "rated"}
"""A new club's settings. ``same_address`` (同IP禁止同桌): ``rated`` refuses two seats of one
network address at the club's rated and event tables, ``always`` at every club table,
``never`` nowhere."""


class ClubError(Exception):
    """A refused club request: ``reason`` is the protocol's code (``not_found``,
    ``not_admin``, ``club_full``, ``invitation_expired``, …), the message says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True, slots=True)
class Club:
    """A club as its members see it."""

    id: str
    name: str
    owner_id: int
    settings: dict[str, Any]
    created: datetime
    members: int


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a club."""

    account_id: int
    username: str
    role: str
    joined: datetime


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation link of a club; ``approval``: joining by it asks the admins."""

    code: str
    club_id: str
    created: datetime
    expires: datetime | None
    max_uses: int | None
    uses: int
    revoked: bool
    approval: bool

    def problem(self, now: datetime) -> str | None:
        """Why the invitation no longer admits anybody, or None."""
        if self.revoked:
            return "the invitation was revoked"
        if self.expires is not None and self.expires <= now:
            return "the invitation has expired"
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "the invitation has been used as often as it may be"
        return None


@dataclass(frozen=True, slots=True)
class Request:
    """An account asking to join a club."""

    account_id: int
    username: str
    created: datetime


def now() -> datetime:
    """The current moment, in UTC."""
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def not_found(club_id: str) -> ClubError:
    """The refusal for a club that does not exist or that the asker is not a member of."""
    return ClubError("not_found", f"no club {club_id!r} of yours")


def role_of(conn: Connection, club_id: str, account_id: int) -> str | None:
    """The account's role in the club, or None."""
    return conn.execute(select(db.club_members.c.role).where(
        db.club_members.c.club_id == club_id, db.club_members.c.account_id == account_id
    )).scalar()


def require(conn: Connection, club_id: str, account_id: int, *roles: str) -> str:
    """The account's role; ``not_found`` for a non-member, ``not_admin``/``not_owner`` when
    its role is not one of ``roles`` (any role when none are given)."""
    role = role_of(conn, club_id, account_id)
    if role is None:
        raise not_found(club_id)
    if roles and role not in roles:
        if "admin" in roles:
            raise ClubError("not_admin", "only the club's admins may do this")
        raise ClubError("not_owner", "only the club's owner may do this")
    return role


def _invitation(row: Any) -> Invitation:
    return Invitation(row.code, row.club_id, utc(row.created),
                      None if row.expires is None else utc(row.expires), row.max_uses,
                      row.uses, row.revoked, row.approval)


class Clubs:
    """The clubs of ``store``'s database; ``member_limit`` members a club at most, and
    ``clubs_per_account`` clubs an account may belong to."""

    def __init__(self, store: Store, member_limit: int = 500, clubs_per_account: int = 20) -> None:
        self.engine = store.engine
        self.member_limit = member_limit
        self.clubs_per_account = clubs_per_account

    # -- clubs ------------------------------------------------------------------------------

    def create(self, owner_id: int, name: str) -> Club:
        """A new club owned by ``owner_id``: ``bad_name``, ``name_taken``, ``too_many_clubs``."""
        try:
            shown = display_form(name, "club name")
        except UsernameError as error:
            raise ClubError("bad_name", str(error)) from None
        created = now()
        ident = secrets.token_urlsafe(12)
        try:
            with self.engine.begin() as conn:
                self._check_room_for(conn, owner_id)
                taken = conn.execute(select(db.clubs.c.id).where(or_(
                    db.clubs.c.canonical == canonical(shown),
                    db.clubs.c.skeleton == skeleton(shown),
                ))).first()
                if taken is not None:
                    raise ClubError("name_taken", f"a club named like {shown!r} exists")
                conn.execute(insert(db.clubs).values(
                    id=ident, name=shown, canonical=canonical(shown), skeleton=skeleton(shown),
                    owner_id=owner_id, settings=DEFAULT_SETTINGS, created=created,
                ))
                conn.execute(insert(db.club_members).values(
                    club_id=ident, account_id=owner_id, role="owner", joined=created,
                ))
        except IntegrityError:  # the same name at the same moment
            raise ClubError("name_taken", f"a club named like {shown!r} exists") from None
        return Club(ident, shown, owner_id, dict(DEFAULT_SETTINGS), created, 1)

    def _check_room_for(self, conn: Connection, account_id: int) -> None:
        count = conn.execute(select(func.count()).select_from(db.club_members).where(
            db.club_members.c.account_id == account_id)).scalar_one()
        if count >= self.clubs_per_account:
            raise ClubError("too_many_clubs",
                            f"an account belongs to {self.clubs_per_account} clubs at most")

    def _check_room_in(self, conn: Connection, club_id: str) -> None:
        count = conn.execute(select(func.count()).select_from(db.club_members).where(
            db.club_members.c.club_id == club_id)).scalar_one()
        if count >= self.member_limit:
            raise ClubError("club_full", f"the club has {self.member_limit} members, its limit")

    def _club(self, conn: Connection, club_id: str) -> Club:
        row = conn.execute(select(db.clubs).where(db.clubs.c.id == club_id)).first()
        if row is None:
            raise not_found(club_id)
        count = conn.execute(select(func.count()).select_from(db.club_members).where(
            db.club_members.c.club_id == club_id)).scalar_one()
        return Club(row.id, row.name, row.owner_id, {**DEFAULT_SETTINGS, **row.settings},
                    utc(row.created), int(count))

    def club(self, club_id: str, account_id: int) -> tuple[Club, str]:
        """The club and the account's role in it; ``not_found`` for a non-member."""
        with self.engine.connect() as conn:
            role = require(conn, club_id, account_id)
            return self._club(conn, club_id), role

    def mine(self, account_id: int) -> list[tuple[Club, str]]:
        """The clubs the account belongs to, with its role, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.club_members.c.club_id, db.club_members.c.role).where(
                db.club_members.c.account_id == account_id)).all()
            clubs = [(self._club(conn, row.club_id), row.role) for row in rows]
        return sorted(clubs, key=lambda pair: pair[0].name)

    def set_settings(self, club_id: str, by: int, changes: dict[str, Any]) -> Club:
        """Change the club's settings (admins)."""
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            club = self._club(conn, club_id)
            settings = {**club.settings, **changes}
            conn.execute(update(db.clubs).where(db.clubs.c.id == club_id)
                         .values(settings=settings))
            return self._club(conn, club_id)

    # -- members ----------------------------------------------------------------------------

    def members(self, club_id: str, account_id: int) -> list[Member]:
        """The club's members, owner and admins first (members only)."""
        members = db.club_members.c
        with self.engine.connect() as conn:
            require(conn, club_id, account_id)
            rows = conn.execute(
                select(members.account_id, db.accounts.c.username, members.role, members.joined)
                .join(db.accounts, db.accounts.c.id == members.account_id)
                .where(members.club_id == club_id)
            ).all()
        listed = [Member(r.account_id, r.username, r.role, utc(r.joined)) for r in rows]
        return sorted(listed, key=lambda m: (ROLES.index(m.role), m.username.casefold()))

    def _member(self, conn: Connection, club_id: str, account_id: int) -> str:
        role = role_of(conn, club_id, account_id)
        if role is None:
            raise ClubError("no_such_member", "that account is not a member of the club")
        return role

    def remove(self, club_id: str, by: int, account_id: int) -> None:
        """An admin removes a member (the owner also an admin; nobody the owner)."""
        with self.engine.begin() as conn:
            mine = require(conn, club_id, by, "owner", "admin")
            theirs = self._member(conn, club_id, account_id)
            if theirs == "owner" or (theirs == "admin" and mine != "owner") or account_id == by:
                raise ClubError("not_owner", f"an {mine} cannot remove the club's {theirs}")
            self._drop(conn, club_id, account_id)

    def leave(self, club_id: str, account_id: int) -> None:
        """A member leaves; the owner hands the club on first."""
        with self.engine.begin() as conn:
            if require(conn, club_id, account_id) == "owner":
                raise ClubError("owner_must_hand_over",
                                "the owner hands the club to another member before leaving")
            self._drop(conn, club_id, account_id)

    def _drop(self, conn: Connection, club_id: str, account_id: int) -> None:
        conn.execute(delete(db.club_members).where(
            db.club_members.c.club_id == club_id, db.club_members.c.account_id == account_id))
        pairs = db.club_pairs.c
        conn.execute(delete(db.club_pairs).where(pairs.club_id == club_id, or_(
            pairs.first_id == account_id, pairs.second_id == account_id)))

    def set_role(self, club_id: str, by: int, account_id: int, role: str) -> None:
        """The owner makes a member an admin or an admin a member."""
        if role not in ("admin", "member"):
            raise ClubError("bad_role", "a role given is admin or member (hand the club on "
                            "to make another member its owner)")
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner")
            if self._member(conn, club_id, account_id) == "owner":
                raise ClubError("not_owner", "the owner's role changes only by handing over")
            conn.execute(update(db.club_members).where(
                db.club_members.c.club_id == club_id, db.club_members.c.account_id == account_id
            ).values(role=role))

    def hand_over(self, club_id: str, by: int, account_id: int) -> None:
        """The owner hands the club to another member, and stays as an admin."""
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner")
            if self._member(conn, club_id, account_id) == "owner":
                raise ClubError("no_such_member", "the club is yours already")
            members = db.club_members.c
            conn.execute(update(db.club_members).where(
                members.club_id == club_id, members.account_id == by).values(role="admin"))
            conn.execute(update(db.club_members).where(
                members.club_id == club_id, members.account_id == account_id
            ).values(role="owner"))
            conn.execute(update(db.clubs).where(db.clubs.c.id == club_id)
                         .values(owner_id=account_id))

    def _add(self, conn: Connection, club_id: str, account_id: int) -> None:
        if role_of(conn, club_id, account_id) is not None:
            raise ClubError("already_member", "you are a member of this club already")
        self._check_room_in(conn, club_id)
        self._check_room_for(conn, account_id)
        conn.execute(insert(db.club_members).values(
            club_id=club_id, account_id=account_id, role="member", joined=now()))
        conn.execute(delete(db.club_requests).where(
            db.club_requests.c.club_id == club_id, db.club_requests.c.account_id == account_id))

    # -- invitations and requests -----------------------------------------------------------

    def invite(self, club_id: str, by: int, lifetime: timedelta | None, max_uses: int | None,
               approval: bool = False) -> Invitation:
        """A new invitation (admins): valid for ``lifetime`` (None: until revoked), for
        ``max_uses`` joins (None: any number)."""
        created = now()
        invitation = Invitation(secrets.token_urlsafe(16), club_id, created,
                                None if lifetime is None else created + lifetime, max_uses, 0,
                                False, approval)
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            conn.execute(insert(db.club_invitations).values(
                code=invitation.code, club_id=club_id, created_by=by, created=created,
                expires=invitation.expires, max_uses=max_uses, uses=0, revoked=False,
                approval=approval,
            ))
        return invitation

    def invitations(self, club_id: str, by: int) -> list[Invitation]:
        """The club's invitations that still admit somebody, newest first (admins)."""
        moment = now()
        with self.engine.connect() as conn:
            require(conn, club_id, by, "owner", "admin")
            rows = conn.execute(select(db.club_invitations).where(
                db.club_invitations.c.club_id == club_id
            ).order_by(db.club_invitations.c.created.desc())).all()
        return [inv for inv in map(_invitation, rows) if inv.problem(moment) is None]

    def revoke(self, club_id: str, by: int, code: str) -> None:
        """Revoke an invitation (admins)."""
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            done = conn.execute(update(db.club_invitations).where(
                db.club_invitations.c.club_id == club_id, db.club_invitations.c.code == code
            ).values(revoked=True)).rowcount
            if not done:
                raise ClubError("no_such_invitation", "the club has no such invitation")

    def _valid(self, conn: Connection, code: str) -> Invitation:
        row = conn.execute(select(db.club_invitations).where(
            db.club_invitations.c.code == code)).first()
        if row is None:
            raise ClubError("no_such_invitation", "there is no such invitation")
        invitation = _invitation(row)
        problem = invitation.problem(now())
        if problem is not None:
            raise ClubError("invitation_expired", problem)
        return invitation

    def invitation(self, code: str) -> tuple[Invitation, str, int]:
        """A valid invitation, its club's name and members (what the invited see)."""
        with self.engine.connect() as conn:
            invitation = self._valid(conn, code)
            club = self._club(conn, invitation.club_id)
        return invitation, club.name, club.members

    def join(self, code: str, account_id: int) -> tuple[str, bool]:
        """Join by an invitation: the club's id and True when the account is now a member,
        False when its request awaits the admins (an invitation needing approval)."""
        with self.engine.begin() as conn:
            invitation = self._valid(conn, code)
            club_id = invitation.club_id
            if invitation.approval:
                if role_of(conn, club_id, account_id) is not None:
                    raise ClubError("already_member", "you are a member of this club already")
                self._check_room_in(conn, club_id)
                pending = conn.execute(select(db.club_requests.c.created).where(
                    db.club_requests.c.club_id == club_id,
                    db.club_requests.c.account_id == account_id)).first()
                if pending is None:
                    conn.execute(insert(db.club_requests).values(
                        club_id=club_id, account_id=account_id, created=now()))
                return club_id, False
            self._add(conn, club_id, account_id)
            # Counted in the statement, so two joins at once never both take the last use.
            invitations = db.club_invitations.c
            counted = conn.execute(update(db.club_invitations).where(
                invitations.code == code,
                or_(invitations.max_uses.is_(None), invitations.uses < invitations.max_uses),
            ).values(uses=invitations.uses + 1)).rowcount
            if not counted:
                raise ClubError("invitation_expired",
                                "the invitation has been used as often as it may be")
            return club_id, True

    def requests(self, club_id: str, by: int) -> list[Request]:
        """The requests awaiting the admins, oldest first (admins)."""
        requests = db.club_requests.c
        with self.engine.connect() as conn:
            require(conn, club_id, by, "owner", "admin")
            rows = conn.execute(
                select(requests.account_id, db.accounts.c.username, requests.created)
                .join(db.accounts, db.accounts.c.id == requests.account_id)
                .where(requests.club_id == club_id).order_by(requests.created)
            ).all()
        return [Request(r.account_id, r.username, utc(r.created)) for r in rows]

    def decide(self, club_id: str, by: int, account_id: int, accept: bool) -> None:
        """An admin accepts or declines a request."""
        with self.engine.begin() as conn:
            require(conn, club_id, by, "owner", "admin")
            request = and_(db.club_requests.c.club_id == club_id,
                           db.club_requests.c.account_id == account_id)
            if conn.execute(select(db.club_requests.c.created).where(request)).first() is None:
                raise ClubError("no_such_request", "that account has not asked to join")
            if accept:
                self._add(conn, club_id, account_id)
            else:
                conn.execute(delete(db.club_requests).where(request))


def forget_account(conn: Connection, account_id: int) -> None:
    """A deleted account leaves its clubs (a step of the account's deletion): a club it owned
    goes to its longest-standing admin, else to its longest-standing member, and is dissolved
    when nobody is left; its club results stay, anonymised, as its other results do."""
    members = db.club_members.c
    owned = conn.execute(select(db.clubs.c.id).where(db.clubs.c.owner_id == account_id)).scalars()
    for club_id in list(owned):
        heir = conn.execute(
            select(members.account_id).where(members.club_id == club_id,
                                             members.account_id != account_id)
            .order_by(members.role != "admin", members.joined).limit(1)
        ).scalar()
        if heir is None:
            _dissolve(conn, club_id)
            continue
        conn.execute(update(db.club_members).where(
            members.club_id == club_id, members.account_id == heir).values(role="owner"))
        conn.execute(update(db.clubs).where(db.clubs.c.id == club_id).values(owner_id=heir))
    pairs = db.club_pairs.c
    conn.execute(delete(db.club_pairs).where(
        or_(pairs.first_id == account_id, pairs.second_id == account_id)))
    for table in (db.club_members, db.club_requests):
        conn.execute(delete(table).where(table.c.account_id == account_id))
    conn.execute(update(db.club_results).where(db.club_results.c.account_id == account_id)
                 .values(account_id=None))
    for sums in (db.club_totals, db.club_days):
        conn.execute(delete(sums).where(sums.c.account_id == account_id))


def _dissolve(conn: Connection, club_id: str) -> None:
    """Delete a club nobody is left in (its tables and hands stay, as any table's do)."""
    for table in (db.club_days, db.club_totals, db.club_results, db.club_tables, db.club_pairs,
                  db.club_presets, db.club_requests, db.club_invitations, db.club_members):
        conn.execute(delete(table).where(table.c.club_id == club_id))
    conn.execute(delete(db.clubs).where(db.clubs.c.id == club_id))
