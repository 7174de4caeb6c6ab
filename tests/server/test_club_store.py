"""The club store on its own (SQLite and PostgreSQL): names, roles, invitations (expiry, uses,
revocation), requests, limits, ownership, 禁止同桌 pairs, and the standings made of the finished
hands of club tables; every refusal names its reason and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from baofen.store import Store
from baofen.store import schema as db
from baofen.store.accounts import Accounts, SeatResult, hand_results
from baofen.store.club_records import ClubRecords
from baofen.store.clubs import ClubError, Clubs

from .databases import database


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh store on SQLite, then on PostgreSQL."""
    for where in database(request.param, tmp_path):
        opened = Store(where.url, where.schema)
        yield opened
        opened.close()


def _accounts(store: Store, *names: str) -> list[int]:
    accounts = Accounts(store)
    return [accounts.create(n, n.lower(), n.lower(), "hash").id for n in names]


def _refused(reason: str, call: object, *args: object) -> None:
    with pytest.raises(ClubError) as refused:
        call(*args)  # type: ignore[operator]
    assert refused.value.reason == reason


def _snapshot(store: Store) -> list[object]:
    with store.engine.connect() as conn:
        return [sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in (
            db.clubs, db.club_members, db.club_invitations, db.club_requests, db.club_pairs)]


def test_membership_roles_and_invitations(store: Store) -> None:
    owner, ann, bob, cid = _accounts(store, "Owner", "Ann", "Bob", "Cid")
    clubs = Clubs(store, member_limit=3, clubs_per_account=2)
    club = clubs.create(owner, "周六包分")
    assert len(club.id) >= 16
    _refused("name_taken", clubs.create, ann, "周六包分")
    _refused("bad_name", clubs.create, ann, "bad\u202ename")
    _refused("not_found", clubs.club, club.id, ann)  # not a member: as if there were none
    _refused("not_found", clubs.club, "nosuchclub", owner)
    once = clubs.invite(club.id, owner, timedelta(hours=1), 1)
    before = _snapshot(store)
    _refused("not_found", clubs.invite, club.id, ann, None, None)
    assert clubs.join(once.code, ann) == (club.id, True)
    _refused("not_admin", clubs.invite, club.id, ann, None, None)
    _refused("invitation_expired", clubs.join, once.code, bob)  # used up
    expired = clubs.invite(club.id, owner, timedelta(seconds=-1), None)
    before = _snapshot(store)
    _refused("invitation_expired", clubs.join, expired.code, bob)
    assert _snapshot(store) == before
    revoked = clubs.invite(club.id, owner, None, None)
    clubs.revoke(club.id, owner, revoked.code)
    _refused("invitation_expired", clubs.join, revoked.code, bob)
    asking = clubs.invite(club.id, owner, None, None, approval=True)
    assert clubs.join(asking.code, bob) == (club.id, False)
    assert [r.username for r in clubs.requests(club.id, owner)] == ["Bob"]
    clubs.decide(club.id, owner, bob, True)
    assert [m.role for m in clubs.members(club.id, bob)] == ["owner", "member", "member"]
    _refused("club_full", clubs.join, clubs.invite(club.id, owner, None, None).code, cid)
    # Roles: the owner hands over and stays an admin; an admin cannot remove the owner.
    clubs.set_role(club.id, owner, ann, "admin")
    _refused("not_owner", clubs.remove, club.id, ann, owner)
    _refused("owner_must_hand_over", clubs.leave, club.id, owner)
    clubs.hand_over(club.id, owner, bob)
    assert clubs.club(club.id, owner)[1] == "admin"
    clubs.remove(club.id, bob, owner)
    _refused("not_found", clubs.members, club.id, owner)
    clubs.leave(club.id, ann)
    assert [(m.username, m.role) for m in clubs.members(club.id, bob)] == [("Bob", "owner")]
    # A club per account at most two: Bob owns one, makes another, and is refused a third.
    clubs.create(bob, "second")
    _refused("too_many_clubs", clubs.create, bob, "third")


def test_standings_come_from_the_club_tables_hands(store: Store) -> None:
    owner, ann, stranger = _accounts(store, "Owner", "Ann", "Stranger")
    clubs, records = Clubs(store), ClubRecords(store)
    club = clubs.create(owner, "club-one")
    clubs.join(clubs.invite(club.id, owner, None, None).code, ann)
    records.forbid(club.id, owner, owner, ann, True)
    assert records.seat("t1", ann) is None  # not a club table yet
    for code in ("t1", "t2"):
        store.create_table(code, {"variant": "baofen"}, {}, 1)
    records.opened("t1", club.id, ann, None)
    seat = records.seat("t1", ann)
    assert seat is not None and seat.member and seat.forbidden == {owner}
    outsider = records.seat("t1", stranger)
    assert outsider is not None and not outsider.member
    seats = [SeatResult(0, "human", owner, None), SeatResult(1, "human", ann, None),
             SeatResult(2, "bot", None, "easy"), SeatResult(3, "human", stranger, None)]
    for number, (declarer, made) in enumerate([(0, True), (1, False), (0, False)], start=1):
        result = SimpleNamespace(declarer=declarer, made=made)
        deltas = [30, -10, -10, -10] if made else [-20, 10, 10, 0]
        for code in ("t1", "t2"):  # t2 is no club's: it never counts
            store.commit([hand_results(code, number, "baofen", False, True, seats, result,
                                       deltas)])
    standing = {s.username: s for s in records.standings(club.id, ann, "baofen", "week")}
    assert set(standing) == {"Owner", "Ann"}  # members only; no bots, no strangers
    mine = standing["Owner"]
    assert (mine.matches, mine.hands, mine.made, mine.failed, mine.result) == (1, 3, 1, 1, -10)
    assert [h.hand_number for h in records.history(club.id, owner, ann)] == [3, 2, 1]
    assert records.standings(club.id, ann, "baohongwu", "all") == []
    _refused("bad_period", records.standings, club.id, ann, "baofen", "year")
    assert len(records.export(club.id)) == 9
    # A deleted owner's club goes to its member; its results stay, anonymised.
    Accounts(store).delete(owner)
    assert clubs.club(club.id, ann)[1] == "owner"
    with store.engine.connect() as conn:
        kept = conn.execute(select(func.count()).select_from(db.club_results)).scalar_one()
    assert kept == 9
