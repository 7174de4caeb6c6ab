"""The second audit's 匹配 defects (issue 24): a table with guests' tickets is not rated; a seat
token is handed out once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from baofen.server import ServerSettings

from .accounts import sign_up
from .harness import FAST, ThreadServer
from .quick_match import ask, poll, reclaimed, until_seated


@pytest.fixture
def quick(db_url: str) -> Iterator[ThreadServer]:
    live = ThreadServer(ServerSettings(db=db_url, match_wait_seconds=0.3, **FAST))
    yield live
    live.stop()


def test_a_table_with_a_guest_is_not_rated(quick: ThreadServer) -> None:
    guest = until_seated(quick.base, ask(quick.base, name="Guest")["ticket"])
    assert not reclaimed(quick.base, guest)["table"]["settings"]["rated"]  # before: rated
    ann = sign_up(quick.base, "Annmatch")
    ticket = ann.post("/api/match", json={}).json()["ticket"]
    seated = until_seated(quick.base, ticket)
    assert reclaimed(quick.base, seated)["table"]["settings"]["rated"]  # only accounts: rated


def test_a_seat_token_is_handed_out_once(quick: ThreadServer) -> None:
    ticket = ask(quick.base, name="Once")["ticket"]
    seated = until_seated(quick.base, ticket)
    assert seated["status"] == "seated" and seated["token"]
    again = poll(quick.base, ticket)
    assert again["status"] == "seated" and again["code"] == seated["code"]
    assert again["token"] is None  # before: the token on every poll, to whoever polls
    assert reclaimed(quick.base, seated)["table"]["seats"][0]["name"] == "Once"
