"""Helpers of the account tests: sign up and sign in over REST, keeping the session cookie."""

from __future__ import annotations

import httpx

PASSWORD = "correct horse battery"


def sign_up(base: str, username: str, password: str = PASSWORD) -> httpx.Client:
    """A client signed in as a new account (its cookie jar holds the session)."""
    client = httpx.Client(base_url=base)
    response = client.post("/api/accounts", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    return client


def session(client: httpx.Client) -> str:
    """The session cookie of a signed-in client."""
    token = client.cookies.get("baofen_session")
    assert token
    return token
