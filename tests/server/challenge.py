"""每日复式挑战 in the server tests: entering as a browser (its own cookies), playing a deal's
table to its end at random, and moving the server's challenge clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from baofen import RuleSet

from .harness import Client, Seated, ThreadServer, finished


def play_next(browser: httpx.Client, variant: str = "baofen") -> dict[str, Any]:
    """Ask for the next deal's table; the answer's body."""
    answer = browser.post(f"/api/challenge/{variant}/play", json={})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def play_deal(base: str, table: dict[str, Any], variant: str = "baofen",
              seed: int = 0) -> dict[str, Any]:
    """Take the deal's seat with its token and play at random until the hand is over; the last
    state."""
    client = Client(base, table["code"])
    try:
        client.send(type="reclaim", token=table["token"])
        assert client.expect("joined")["seat"] == table["seat"]
        player = Seated(client, RuleSet.create(variant=variant, hands=1), seed=seed)
        return player.until(finished)
    finally:
        client.close()


def move_clock(server: ThreadServer, days: int) -> None:
    """Move the challenge's clock ``days`` days from now (the service is made on first use)."""
    httpx.get(f"{server.base}/api/challenge/baofen").raise_for_status()
    moved = datetime.now(UTC) + timedelta(days=days)
    server.app.state.challenge.days.clock = lambda: moved
