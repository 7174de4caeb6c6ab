"""Ending a session reaches the WebSockets opened with it: after a password
change, a sign-out or the account's deletion, a socket opened earlier with that session takes
no seat of the account."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from baofen import RuleSet
from baofen.server import ServerConfig

from .accounts import PASSWORD, session, sign_up
from .harness import FAST, Client, ThreadServer, create_table

ENDINGS = {
    "password": ("POST", "/api/me/password",
                 {"old_password": PASSWORD, "new_password": "another horse battery"}),
    "sign-out": ("POST", "/api/logout", None),
    "deletion": ("DELETE", "/api/me", {"password": PASSWORD}),
}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    path: Path = tmp_path_factory.mktemp("sessions") / "baofen.db"
    server = ThreadServer(ServerConfig(db=f"sqlite:///{path}", **FAST))
    yield server
    server.stop()


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_socket_of_an_ended_session_takes_no_seat(live: ThreadServer, ending: str) -> None:
    victim = sign_up(live.base, f"Victim{ending[:4]}")
    stolen = session(victim)
    code = create_table(live.base, RuleSet.baofen(hands=1).to_dict(), timer=None)
    seated = Client(live.base, code, stolen)
    seated.join(0)  # and stays: the thief would take the seat over from it
    thief = Client(live.base, code, stolen)  # opened while the session was still good
    # The session ends: from another device (password change), or the victim's own.
    device = httpx.Client(base_url=live.base)
    if ending == "password":
        device.post("/api/login", json={"username": f"Victim{ending[:4]}", "password": PASSWORD})
        method, path, body = ENDINGS[ending]
        assert device.request(method, path, json=body).status_code == 204
    else:
        method, path, body = ENDINGS[ending]
        assert victim.request(method, path, json=body).status_code == 204
    thief.send(type="reclaim")
    refused = thief.expect("error")
    assert refused["code"] == "not_signed_in", refused
    assert not any(m["type"] == "joined" for m in thief.received)
    thief.send(type="join", seat=1, name="thief")  # and then plays as a guest, not the victim
    joined = thief.expect("joined")
    assert joined["name"] != f"Victim{ending[:4]}"
    thief.close()
    seated.close()


def test_another_sites_page_cannot_sign_a_player_out(live: ThreadServer) -> None:
    player = sign_up(live.base, "Stays")
    foreign = player.post("/api/logout", headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403, foreign.text
    assert "set-cookie" not in foreign.headers  # the cookie is not cleared either
    assert player.get("/api/me").json()["username"] == "Stays"
    own = player.post("/api/logout", headers={"Origin": live.base})
    assert own.status_code == 204
    assert player.get("/api/me").json() == {"signed_in": False}
