"""亲友圈 against a live server: an organiser creates a club, invites by link, sets a preset; two
members play a club table with computer players and the standings are those of the hand
records; a non-member learns nothing from club URLs; 禁止同桌 and the address rule refuse the
seat with their reason; a removed member loses the club at once (pages and sockets)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .accounts import refused, session, sign_up
from .databases import database, serving
from .harness import Client, ThreadServer

PRESET: dict[str, Any] = {
    "rules": {"variant": "baofen", "hands": 2},
    "settings": {"bid_seconds": 0.05, "kitty_seconds": 0.05, "play_seconds": 0.05,
                 "ready_seconds": 0.05, "bot_level": "random"},
}


def _join(base: str, client: httpx.Client, code: str, seat: int | None) -> tuple[Client, dict]:
    socket = Client(base, code, session(client))
    if seat is None:
        socket.send(type="watch")
    else:
        socket.send(type="join", seat=seat, name="x")
    return socket, socket.recv()


def _finished(owner: httpx.Client, code: str) -> None:
    deadline = time.monotonic() + 60
    while owner.get(f"/api/tables/{code}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the club table never finished"
        time.sleep(0.2)


def test_a_club_from_invitation_to_standings(db_server: ThreadServer) -> None:
    base = db_server.base
    owner, ann, bob, cid, eve = (sign_up(base, n) for n in ("Owner", "Ann", "Bob", "Cid", "Eve"))
    club = owner.post("/api/clubs", json={"name": "周六包分"}).json()
    path = f"/api/clubs/{club['id']}"
    # Probing: a club that exists and one that does not answer alike to a non-member.
    for probe in (path, "/api/clubs/nosuchclub00000000000"):
        for suffix in ("", "/members", "/standings", "/tables", "/presets"):
            _refused = eve.get(probe + suffix)
            refused(_refused, 404, "not_found")
    link = owner.post(f"{path}/invitations", json={"hours": 1, "uses": 3}).json()
    assert link["link"].endswith(f"/clubs/join/{link['code']}")
    assert owner.get(link["qr"]).headers["content-type"] == "image/svg+xml"
    for member in (ann, bob, cid):
        assert member.post(f"/api/club-invitations/{link['code']}").json()["member"]
    refused(eve.post(f"/api/club-invitations/{link['code']}"), 410, "invitation_expired")
    refused(ann.post(f"{path}/invitations", json={}), 403, "not_admin")
    refused(ann.put(f"{path}/presets/x", json=PRESET), 403, "not_admin")
    assert owner.put(f"{path}/presets/周六场", json=PRESET).status_code == 200
    # Ann opens a club table from the preset; Bob joins; computers fill the rest.
    opened = ann.post(f"{path}/tables", json={"preset": "周六场"}).json()
    code = opened["code"]
    assert opened["table"]["rules"]["hands"] == 2 and opened["table"]["settings"]["private"]
    # The preset changes: the table keeps what it was.
    owner.put(f"{path}/presets/周六场", json={**PRESET, "rules": {"variant": "baofen",
                                                                  "hands": 4}})
    assert eve.get("/api/tables").json() == []  # never in the public lobby
    listed = bob.get(f"{path}/tables").json()
    assert [(t["code"], t["preset"], t["free_seats"]) for t in listed] == [
        (code, "周六场", [0, 1, 2, 3])]
    _stranger, answer = _join(base, eve, code, 2)
    assert (answer["type"], answer["code"]) == ("error", "not_member")
    guest = Client(base, code)
    guest.send(type="watch")
    assert guest.recv()["code"] == "not_member"
    ann_socket, answer = _join(base, ann, code, 0)
    assert answer["type"] == "joined"
    _bob_socket, answer = _join(base, bob, code, 1)
    assert answer["type"] == "joined"
    ann_socket.send(type="fill_bots")
    ann_socket.send(type="start")
    _finished(owner, code)
    hands = owner.get(f"/api/tables/{code}/hands").json()
    assert len(hands) == 2
    # The standings are the hand records' sums (every hand had a declarer or was thrown in).
    rows = {r["username"]: r for r in
            owner.get(f"{path}/standings", params={"period": "week"}).json()["rows"]}
    for name, seat in (("Ann", 0), ("Bob", 1)):
        mine = [h for h in hands if h["result"].get("declarer") is not None]
        # A member with no hand counted (every hand thrown in) has no row.
        row = rows.get(name, {"hands": 0, "result": 0, "matches": 0})
        assert row["hands"] == len(mine)
        assert row["result"] == sum(h["deltas"][seat] for h in mine)
        assert row["matches"] == (1 if mine else 0)
    assert set(rows) <= {"Ann", "Bob"}
    history = cid.get(f"{path}/members/Ann/history").json()
    assert len(history) == rows.get("Ann", {"hands": 0})["hands"]
    _seating_rules(base, owner, ann, bob, cid, path)
    _removal(base, owner, bob, path)


def _seating_rules(base: str, owner: httpx.Client, ann: httpx.Client, bob: httpx.Client,
                   cid: httpx.Client, path: str) -> None:
    assert owner.put(f"{path}/pairs", json={"first": "Ann", "second": "Cid"}).status_code == 204
    code = ann.post(f"{path}/tables", json={}).json()["code"]
    _ann_socket, answer = _join(base, ann, code, 0)
    assert answer["type"] == "joined"
    _, answer = _join(base, cid, code, 2)
    assert (answer["type"], answer["code"]) == ("error", "seat_forbidden")
    assert "禁止同桌" in answer["message"]
    # Every test client comes from 127.0.0.1: with the address rule on everywhere, Bob's
    # seat beside Ann's is refused; watching stays open to him.
    settings = owner.patch(f"{path}/settings", json={"same_address": "always"})
    assert settings.json()["settings"]["same_address"] == "always"
    _, answer = _join(base, bob, code, 1)
    assert (answer["type"], answer["code"]) == ("error", "seat_forbidden")
    _, answer = _join(base, bob, code, None)
    assert (answer["type"], answer["seat"]) == ("joined", None)
    assert [s["name"] for s in owner.get(f"/api/tables/{code}").json()["seats"]][1:] == [
        None, None, None]


def _removal(base: str, owner: httpx.Client, bob: httpx.Client, path: str) -> None:
    code = owner.post(f"{path}/tables", json={}).json()["code"]
    watching, answer = _join(base, bob, code, None)
    assert (answer["type"], answer["seat"]) == ("joined", None)
    assert bob.get(path).status_code == 200
    assert owner.delete(f"{path}/members/Bob").status_code == 204
    refused(bob.get(path), 404, "not_found")
    refused(bob.get(f"{path}/tables"), 404, "not_found")
    with pytest.raises(Exception):  # noqa: B017 — the socket is closed by the server
        while True:
            watching.recv(timeout=5)
    assert watching.ws.close_code == 4403
    members: list[dict[str, Any]] = owner.get(f"{path}/members").json()
    assert [m["username"] for m in members] == ["Owner", "Ann", "Cid"]


def test_requests_roles_handover_and_limits(tmp_path: Path) -> None:
    for db in database("sqlite", tmp_path):
        with serving(db, club_joins_burst=3, club_joins_per_minute=0.01) as live:
            _requests_roles_handover_and_limits(live.base)


def _requests_roles_handover_and_limits(base: str) -> None:
    owner, ann, bob = (sign_up(base, n) for n in ("Owner", "Ann", "Bob"))
    path = f"/api/clubs/{owner.post('/api/clubs', json={'name': 'club-two'}).json()['id']}"
    asking = owner.post(f"{path}/invitations", json={"approval": True, "hours": None}).json()
    assert asking["expires"] is None
    assert ann.get(f"/api/club-invitations/{asking['code']}").json() == {
        "club": "club-two", "members": 1, "approval": True}
    assert ann.post(f"/api/club-invitations/{asking['code']}").json()["member"] is False
    refused(ann.get(path), 404, "not_found")  # asked, not admitted
    assert [r["username"] for r in owner.get(f"{path}/requests").json()] == ["Ann"]
    refused(owner.post(f"{path}/requests/Bob", json={"accept": True}), 404, "no_such_request")
    assert owner.post(f"{path}/requests/ann", json={"accept": True}).status_code == 204
    assert ann.get(path).json()["role"] == "member"
    # The joins of one address are limited (a burst of 3 here): the fourth is refused, and
    # nothing is asked.
    assert bob.get(f"/api/club-invitations/{asking['code']}").status_code == 200
    refused(bob.post(f"/api/club-invitations/{asking['code']}"), 429, "rate_limited")
    assert owner.get(f"{path}/requests").json() == []
    # Roles: an admin invites; the owner hands over and stays an admin, then may leave.
    assert owner.put(f"{path}/members/Ann/role", json={"role": "admin"}).status_code == 204
    link = ann.post(f"{path}/invitations", json={}).json()
    assert [i["code"] for i in owner.get(f"{path}/invitations").json()] == [
        link["code"], asking["code"]]
    assert ann.delete(f"{path}/invitations/{link['code']}").status_code == 204
    refused(ann.post(f"{path}/owner", json={"username": "Owner"}), 403, "not_owner")
    refused(owner.delete(f"{path}/members/Owner"), 409, "owner_must_hand_over")
    assert owner.post(f"{path}/owner", json={"username": "Ann"}).status_code == 204
    roles = {m["username"]: m["role"] for m in ann.get(f"{path}/members").json()}
    assert roles == {"Ann": "owner", "Owner": "admin"}
    assert owner.delete(f"{path}/members/Owner").status_code == 204  # leaves
    refused(owner.get(path), 404, "not_found")
    refused(ann.get(f"{path}/members/Owner/history"), 404, "no_such_member")
    refused(ann.delete(f"{path}/presets/none"), 404, "no_such_preset")
    refused(ann.post("/api/clubs", json={"name": "CLUB-TWO"}), 409, "name_taken")
