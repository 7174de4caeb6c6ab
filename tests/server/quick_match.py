"""Asking for a quick match (匹配) over REST as the browser does: a ticket, its news, and the
seat it leads to."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .harness import TIMEOUT, Client


def ask(base: str, variant: str = "baofen", name: str = "") -> dict[str, Any]:
    response = httpx.post(f"{base}/api/match", json={"variant": variant, "name": name})
    assert response.status_code == 201, response.text
    ticket: dict[str, Any] = response.json()
    return ticket


def poll(base: str, ticket: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/match/{ticket}")
    assert response.status_code == 200, response.text
    news: dict[str, Any] = response.json()
    return news


def until_seated(base: str, ticket: str) -> dict[str, Any]:
    """Poll about every tenth of a second (as the browser does each second) until seated."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        news = poll(base, ticket)
        if news["status"] != "waiting":
            return news
        time.sleep(0.1)
    raise AssertionError("the ticket was not seated")


def reclaimed(base: str, news: dict[str, Any]) -> dict[str, Any]:
    """Connect to the ticket's table with its seat token; the first state."""
    client = Client(base, news["code"])
    client.send(type="reclaim", token=news["token"])
    assert client.expect("joined")["seat"] == news["seat"]
    state = client.expect("state")
    client.close()
    return state
