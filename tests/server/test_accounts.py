"""Accounts over REST on a live server (SQLite and PostgreSQL): sign-up, sign-in, sessions,
password change, the consent to puzzles from one's hands, deletion, and the hostile cases:
wrong passwords, look-alike usernames, overlong input, passwords never sent back or logged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from baofen import RuleSet
from baofen.server import ServerConfig
from baofen.store import Store, schema
from baofen.store.accounts import Accounts
from baofen.store.puzzles import Puzzles

from .accounts import PASSWORD, sign_up
from .databases import Database, database
from .harness import FAST, ProcessServer, ThreadServer, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """Each account test runs on SQLite and on PostgreSQL."""
    yield from database(request.param, tmp_path)


@pytest.fixture
def live(db: Database) -> Iterator[ThreadServer]:
    """A server on the test's database."""
    server = ThreadServer(ServerConfig(db=db.url, db_schema=db.schema, **FAST))
    yield server
    server.stop()


def test_sign_up_sign_in_and_out(live: ThreadServer) -> None:
    ann = httpx.Client(base_url=live.base)
    created = ann.post("/api/accounts", json={"username": "Ann_1", "password": PASSWORD})
    assert created.status_code == 201
    assert created.json()["username"] == "Ann_1"
    cookie = created.headers["set-cookie"]
    assert cookie.startswith("baofen_session=")
    for flag in ("HttpOnly", "Path=/", "SameSite=lax"):
        assert flag in cookie
    assert "Secure" not in cookie  # plain http on loopback
    # Behind a TLS proxy (trusted on loopback by uvicorn), the cookie is Secure.
    proxied = httpx.post(f"{live.base}/api/accounts", headers={"X-Forwarded-Proto": "https"},
                         json={"username": "Ann_2", "password": PASSWORD})
    assert "; Secure" in proxied.headers["set-cookie"]
    me = ann.get("/api/me").json()
    assert me["username"] == "Ann_1"
    assert me["ratings"]["baofen"] == {"mu": 25.0, "sigma": 8.333, "display": 0.0}
    assert set(me["ratings"]) == {"baofen", "hongwu"}

    assert ann.post("/api/logout").status_code == 204
    assert ann.get("/api/me").json() == {"signed_in": False}
    assert ann.post("/api/logout").status_code == 204  # again: nothing to end, no error

    wrong = ann.post("/api/login", json={"username": "ann_1", "password": "not the one"})
    assert (wrong.status_code, wrong.json()["detail"]) == (401, "wrong username or password")
    nobody = ann.post("/api/login", json={"username": "nobody", "password": PASSWORD})
    assert (nobody.status_code, nobody.json()) == (wrong.status_code, wrong.json())
    back = ann.post("/api/login", json={"username": "ANN_1", "password": PASSWORD})
    assert back.status_code == 200
    assert back.json()["username"] == "Ann_1"
    assert ann.get("/api/me").status_code == 200
    first = ann.cookies["baofen_session"]
    assert ann.post("/api/login", json={"username": "ann_1", "password": PASSWORD}).is_success
    assert ann.cookies["baofen_session"] != first  # signing in again ends the old session
    stale = httpx.Client(base_url=live.base, cookies={"baofen_session": first})
    assert stale.get("/api/me").json() == {"signed_in": False}
    for response in (created, back, wrong):
        assert PASSWORD not in response.text


def test_look_alike_usernames_are_refused(live: ThreadServer) -> None:
    sign_up(live.base, "Ann")
    sign_up(live.base, "bob1")
    sign_up(live.base, "张三丰")

    def refused(name: str) -> httpx.Response:
        response = httpx.post(f"{live.base}/api/accounts",
                              json={"username": name, "password": PASSWORD})
        assert response.status_code in (409, 422), (name, response.text)
        assert "username" in response.text
        return response

    for same in ("ann", "ANN", "Ａｎｎ", "bOB1"):  # case, full-width: the same name
        assert "is taken" in refused(same).json()["detail"]
    for alike in ("bobl", "B0B1", "boBI"):  # 1/l/I and 0/O look alike
        assert "looks too much like" in refused(alike).json()["detail"]
    for foreign in ("Аnn", "Αnn", "bob\u200b1", "an n", "ann!"):  # Cyrillic А, Greek Α, …
        response = refused(foreign)
        assert response.status_code == 422
        assert "not allowed in a username" in response.text
    # Nothing was created: only the three accounts have profiles.
    for name in ("bobl", "B0B1", "Аnn", "Αnn"):
        assert httpx.get(f"{live.base}/api/players/{name}").status_code == 404
    assert httpx.get(f"{live.base}/api/players/ANN").json()["username"] == "Ann"
    assert httpx.get(f"{live.base}/api/players/张三丰").status_code == 200


def test_overlong_and_malformed_input_is_refused(live: ThreadServer) -> None:
    cases = [
        ({"username": "a" * 21, "password": PASSWORD}, "username"),
        ({"username": "a" * 100_000, "password": PASSWORD}, "username"),
        ({"username": "ab", "password": PASSWORD}, "username"),
        ({"username": "fine_name", "password": "p" * 129}, "password"),
        ({"username": "fine_name", "password": "short"}, "password"),
        ({"username": "fine_name", "password": PASSWORD, "admin": True}, "admin"),
        ({"username": 7, "password": PASSWORD}, "username"),
    ]
    for body, field in cases:
        response = httpx.post(f"{live.base}/api/accounts", json=body)
        assert response.status_code == 422, body
        detail = response.json()["detail"]
        assert any(field in item["loc"] for item in detail), detail
        assert all("input" not in item for item in detail)  # never echoes a password back
        assert "p" * 129 not in response.text
    huge = httpx.post(f"{live.base}/api/login",
                      json={"username": "fine_name", "password": "x" * 10_000})
    assert huge.status_code == 422
    assert httpx.get(f"{live.base}/api/players/fine_name").status_code == 404
    assert httpx.get(f"{live.base}/api/players/{'a' * 5000}").status_code == 404
    board = httpx.get(f"{live.base}/api/leaderboard", params={"limit": 10_000})
    assert board.status_code == 422
    assert httpx.get(f"{live.base}/api/leaderboard", params={"variant": "x"}).status_code == 422


def test_wrong_passwords_are_rate_limited(live: ThreadServer) -> None:
    sign_up(live.base, "Cyd")
    sign_up(live.base, "Dina")

    def login(name: str, password: str, address: str) -> httpx.Response:
        # uvicorn trusts X-Forwarded-For from loopback: each request comes "from" ``address``.
        return httpx.post(f"{live.base}/api/login", headers={"X-Forwarded-For": address},
                          json={"username": name, "password": password})

    # (A username's own back-off: test_password_tries.py.)
    # Per address: five wrong guesses at several names, and the address is locked.
    for name in ("dina", "eve", "nobody", "cyd", "x-y-z"):
        assert login(name, "guess number", "10.0.2.2").status_code == 401
    limited = login("Dina", PASSWORD, "10.0.2.2")  # even the right password
    assert limited.status_code == 429
    assert 0 < int(limited.headers["Retry-After"]) <= 300
    assert "too many failed sign-ins" in limited.json()["detail"]
    assert login("Dina", PASSWORD, "10.0.2.3").status_code == 200


def test_password_change_ends_the_other_sessions(live: ThreadServer) -> None:
    laptop = sign_up(live.base, "Eve")
    phone = httpx.Client(base_url=live.base)
    assert phone.post("/api/login", json={"username": "eve", "password": PASSWORD}).is_success
    new = "a brand new password"
    wrong = laptop.post("/api/me/password", json={"old_password": "nope nope", "new_password": new})
    assert wrong.status_code == 403
    short = laptop.post("/api/me/password", json={"old_password": PASSWORD, "new_password": "x"})
    assert short.status_code == 422
    assert phone.get("/api/me").status_code == 200  # nothing changed yet
    changed = laptop.post("/api/me/password", json={"old_password": PASSWORD, "new_password": new})
    assert changed.status_code == 204
    assert laptop.get("/api/me").status_code == 200
    assert phone.get("/api/me").json() == {"signed_in": False}
    old = httpx.post(f"{live.base}/api/login", json={"username": "Eve", "password": PASSWORD})
    assert old.status_code == 401
    assert httpx.post(f"{live.base}/api/login",
                      json={"username": "Eve", "password": new}).status_code == 200
    anonymous = httpx.post(f"{live.base}/api/me/password",
                           json={"old_password": PASSWORD, "new_password": new})
    assert anonymous.status_code == 401


def test_a_forged_or_stale_session_is_nobody(live: ThreadServer) -> None:
    ann = sign_up(live.base, "Faye")
    forged = httpx.Client(base_url=live.base, cookies={"baofen_session": "x" * 43})
    assert forged.get("/api/me").json() == {"signed_in": False}
    assert forged.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 401
    token = ann.cookies["baofen_session"]
    ann.post("/api/logout")
    stale = httpx.Client(base_url=live.base, cookies={"baofen_session": token})
    assert stale.get("/api/me").json() == {"signed_in": False}
    assert httpx.get(f"{live.base}/api/players/Faye").status_code == 200  # still there


def test_passwords_are_never_logged(db: Database) -> None:
    env = {"BAOFEN_DB_SCHEMA": db.schema} if db.schema else {}
    server = ProcessServer(db.url, free_port(), env, whole_log=True)
    secrets = ["first secret pw", "wrong secret pw", "second secret pw", "p" * 129]
    try:
        gus = sign_up(server.base, "Gus", secrets[0])
        httpx.post(f"{server.base}/api/login", json={"username": "Gus", "password": secrets[1]})
        gus.post("/api/me/password", json={"old_password": secrets[0], "new_password": secrets[2]})
        gus.post("/api/me/password", json={"old_password": secrets[2], "new_password": secrets[3]})
        httpx.post(f"{server.base}/api/accounts", json={"username": "Hal", "password": secrets[3]})
        assert gus.request("DELETE", "/api/me", json={"password": secrets[2]}).status_code == 204
    finally:
        server.stop()
    log = server.stderr()
    assert "POST /api/login" in log  # the log was captured
    for secret in secrets:
        assert secret not in log


def test_sign_ups_from_one_address_are_rate_limited(db: Database) -> None:
    settings = ServerConfig(db=db.url, db_schema=db.schema, signup_burst=2,
                              signup_per_minute=0.01, **FAST)
    server = ThreadServer(settings)
    try:
        sign_up(server.base, "Ida")
        sign_up(server.base, "Jon")
        third = httpx.post(f"{server.base}/api/accounts",
                           json={"username": "Kim", "password": PASSWORD})
        assert third.status_code == 429
        assert "too many accounts" in third.json()["detail"]
        assert httpx.get(f"{server.base}/api/players/Kim").status_code == 404
    finally:
        server.stop()


def test_look_alike_kana_and_the_deleted_players_name_are_refused(live: ThreadServer) -> None:
    sign_up(live.base, "力士王")
    sign_up(live.base, "ロボット")
    for name, code in (("カ士王", 409), ("口ボッ卜", 409), ("已注销玩家", 422)):
        answer = httpx.post(f"{live.base}/api/accounts",
                            json={"username": name, "password": PASSWORD})
        assert answer.status_code == code, (name, answer.text)
    assert httpx.get(f"{live.base}/api/players/カ士王").status_code == 404


def test_only_a_table_of_the_default_rules_is_rated(live: ThreadServer) -> None:
    def create(rules: dict[str, object]) -> httpx.Response:
        return httpx.post(f"{live.base}/api/tables",
                          json={"rules": rules, "settings": {"rated": True}})

    for variant in ("baofen", "hongwu"):
        assert create({"variant": variant}).status_code == 201
        refused = create({**RuleSet.create(variant=variant).to_dict(), "eight_of_a_kind": False})
        assert refused.status_code == 422, refused.text
        assert "default rules" in refused.text
    assert httpx.post(f"{live.base}/api/tables",
                      json={"rules": {"hands": 1}, "settings": {"rated": False}}).status_code == 201


def test_a_signed_out_visitor_asks_who_they_are_without_an_error(server: ThreadServer) -> None:
    answer = httpx.get(f"{server.base}/api/me")
    assert (answer.status_code, answer.json()) == (200, {"signed_in": False})
    forged = httpx.get(f"{server.base}/api/me", cookies={"baofen_session": "x" * 40})
    assert (forged.status_code, forged.json()) == (200, {"signed_in": False})


def test_the_consent_to_puzzles_from_ones_hands(live: ThreadServer, db: Database) -> None:
    """Off until the player turns it on, in ``GET /api/me``; only a JSON boolean changes it;
    a guest has none to change; a deleted account's puzzles and consent are gone."""
    ann = sign_up(live.base, "Ann")
    assert ann.get("/api/me").json()["puzzle_consent"] is False
    for bad in ({"allowed": "yes"}, {"allowed": 1}, {}, {"allowed": True, "more": 1}):
        refused = ann.put("/api/me/puzzle-consent", json=bad)
        assert refused.status_code == 422, bad
    assert ann.get("/api/me").json()["puzzle_consent"] is False  # nothing changed
    on = ann.put("/api/me/puzzle-consent", json={"allowed": True})
    assert on.status_code == 200 and on.json() == {"allowed": True}
    assert ann.get("/api/me").json()["puzzle_consent"] is True
    guest = httpx.put(f"{live.base}/api/me/puzzle-consent", json={"allowed": True})
    assert guest.status_code == 401
    store = Store(db.url, db.schema)
    try:
        with store.engine.connect() as conn:
            account_id = conn.execute(select(schema.accounts.c.id)
                                      .where(schema.accounts.c.canonical == "ann")).scalar_one()
        puzzles = Puzzles(store)
        mine = {"id": "mine", "game": "hongwu", "kind": "play", "source": f"player:{account_id}"}
        assert puzzles.add([mine]) == 1
        off = ann.put("/api/me/puzzle-consent", json={"allowed": False})
        assert off.json() == {"allowed": False} and puzzles.get("mine") is None
        ann.put("/api/me/puzzle-consent", json={"allowed": True})
        assert puzzles.add([{**mine, "id": "again"}]) == 1
        assert ann.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        assert puzzles.get("again") is None
        assert not Accounts(store).puzzle_consent(account_id)
    finally:
        store.close()
