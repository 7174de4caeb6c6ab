"""Invitations to a club table against a live server: a member invites another to a seat, the
invited member's list shows it until they sit; inviting a stranger, oneself, to a table that is
not the club's or to a member seated already is refused with its reason and changes nothing;
invitations are rate-limited; a dismissed invitation is gone."""

from __future__ import annotations

from .accounts import refused, session, sign_up
from .harness import Client, ThreadServer


def test_members_invite_each_other_to_a_club_table(db_server: ThreadServer) -> None:
    base = db_server.base
    owner, ann, bob, eve = (sign_up(base, n) for n in ("Owner", "Ann", "Bob", "Eve"))
    club = owner.post("/api/clubs", json={"name": "周六包分"}).json()["id"]
    link = owner.post(f"/api/clubs/{club}/invitations", json={}).json()
    for member in (ann, bob):
        assert member.post(f"/api/club-invitations/{link['code']}").json()["member"]
    code = owner.post(f"/api/clubs/{club}/tables", json={}).json()["code"]
    invite = f"/api/clubs/{club}/tables/{code}/invitations"
    # The table page learns its club (to offer 邀请圈友) from a member's request only.
    assert ann.get(f"/api/tables/{code}/club").json() == {"club": club, "club_name": "周六包分"}
    refused(eve.get(f"/api/tables/{code}/club"), 404, "not_found")
    plain = owner.post("/api/tables", json={"rules": {"variant": "baofen"}}).json()["code"]
    refused(owner.get(f"/api/tables/{plain}/club"), 404, "not_found")
    made = owner.post(invite, json={"username": "ann"})
    assert made.status_code == 201, made.text
    [shown] = ann.get("/api/table-invitations").json()
    assert (shown["club"], shown["club_name"], shown["table"], shown["by"], shown["seat"]) == (
        club, "周六包分", code, "Owner", f"/t/{code}#sit")
    assert shown["expires"] > shown["created"]
    # Refusals name their reason and change nothing.
    refused(owner.post(invite, json={"username": "Eve"}), 404, "no_such_member")
    refused(eve.post(invite, json={"username": "Ann"}), 404, "not_found")
    refused(owner.post(invite, json={"username": "Owner"}), 422, "self_invitation")
    refused(owner.post(f"/api/clubs/{club}/tables/ZZZZZZ/invitations",
                        json={"username": "Ann"}), 404, "no_such_table")
    assert eve.get("/api/table-invitations").json() == []
    assert bob.get("/api/table-invitations").json() == []
    # A second invitation to the same table replaces the first.
    assert bob.post(invite, json={"username": "Ann"}).status_code == 201
    assert [i["by"] for i in ann.get("/api/table-invitations").json()] == ["Bob"]
    # Seated, Ann's invitation is no longer shown, and she is not invited again.
    socket = Client(base, code, session(ann))
    socket.send(type="join", seat=1, name="Ann")
    assert socket.recv()["type"] == "joined"
    assert ann.get("/api/table-invitations").json() == []
    refused(owner.post(invite, json={"username": "Ann"}), 409, "already_seated")
    socket.close()
    # Dismissed (忽略): gone.
    assert owner.post(invite, json={"username": "Bob"}).status_code == 201
    assert bob.delete(f"/api/table-invitations/{code}").status_code == 204
    assert bob.get("/api/table-invitations").json() == []
    refused(bob.delete(f"/api/table-invitations/{code}"), 404, "no_such_invitation")
    # Rate-limited per account (bursts of 20): refused, nothing kept.
    answers = [owner.post(invite, json={"username": "Bob"}).status_code for _ in range(25)]
    assert 429 in answers
    refused(owner.post(invite, json={"username": "Bob"}), 429, "rate_limited")
