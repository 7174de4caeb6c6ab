"""Helpers of the account tests: sign up and sign in over REST, keeping the session cookie;
a finished hand stored with the accounts that held its seats."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import httpx
from sqlalchemy import insert, update

from baofen.store import Store
from baofen.store import schema as db
from baofen.store.accounts import SeatResult, hand_results

PASSWORD = "correct horse battery"


def sign_up(base: str, username: str, password: str = PASSWORD) -> httpx.Client:
    """A client signed in as a new account (its cookie jar holds the session)."""
    client = httpx.Client(base_url=base)
    response = client.post("/api/accounts", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    return client


def refused(response: httpx.Response, status: int, reason: str, key: str = "reason") -> None:
    """Asserts that ``response`` is a refusal of ``status`` whose detail names ``reason`` (under
    ``key``: clubs say ``reason``, tournaments ``code``)."""
    assert response.status_code == status, response.text
    assert response.json()["detail"][key] == reason


def session(client: httpx.Client) -> str:
    """The session cookie of a signed-in client."""
    token = client.cookies.get("baofen_session")
    assert token
    return token


def finished_hand(store: Store, code: str, seats: list[int | None], status: str = "finished",
                  variant: str = "hongwu", record: dict[str, Any] | None = None) -> None:
    """Table ``code`` (its match ``status``) with one finished hand (``record``), seats 0–3
    held by the accounts ``seats`` (None: a guest)."""
    store.create_table(code, {"variant": variant}, {}, 1)
    with store.engine.begin() as conn:
        conn.execute(update(db.tables).where(db.tables.c.code == code).values(status=status))
        conn.execute(insert(db.hands).values(table_code=code, number=1, summary={},
                                              record=record or {"hand": 1}))
    people = [SeatResult(seat, "human", account, None) for seat, account in enumerate(seats)]
    store.commit([hand_results(code, 1, variant, False, False, people,
                               SimpleNamespace(declarer=0, made=True), [3, -1, -1, -1])])
