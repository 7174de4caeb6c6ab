"""What a newcomer reads at the table, in the real browser against the real server, at a
phone's and a desktop's size in both languages: 包分's caller (主叫) marked while bidding and in
the result, with one line on why a hand nobody bid cost what it did; the seat panels' running
total; the last trick's seat names; the top bar's words whole."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from baofen import RuleSet

from ..server.harness import Client, ThreadServer, create_table
from .ui import DESKTOP, PHONE, person_in

SIZES = [PHONE, DESKTOP]
ALL = [(size, language) for size in SIZES for language in ("zh", "en")]
ALL_IDS = [f"{size['width']}-{language}" for size, language in ALL]


def pass_when_asked(client: Client) -> None:
    """Wait until ``client``'s seat is to bid, and pass."""
    state: dict[str, Any] | None = client.state
    while not (state and state.get("observation") and state["observation"]["phase"] == "bidding"
               and state["observation"]["to_act"] == client.seat):
        state = client.expect("state")
    client.send(type="bid", value=None)


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_the_caller_is_marked_and_a_hand_nobody_bid_says_its_cost(
    chromium: Browser,
    web_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    base = web_server.base
    code = create_table(base, RuleSet.baofen(hands=2).to_dict(), timer=None)
    person = person_in(chromium, base, viewport, language)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    friends = [Client(base, code) for _ in range(3)]
    try:
        for seat, friend in enumerate(friends, start=1):
            friend.join(seat, f"F{seat}")
        page.click("#btn-start")
        person.wait_for("document.body.dataset.phase === 'bidding'")
        caller = page.locator("#seat-bottom .badge.caller")
        expect(caller).to_have_text({"zh": "主叫", "en": "caller"}[language])
        expect(page.locator(".badge.caller")).to_have_count(1)
        assert caller.get_attribute("title")
        page.screenshot(path=str(screenshots / f"caller-bidding-{language}-{viewport['width']}.png"))
        # the seat panels' match total reads as a total, not as points captured
        expect(page.locator("#seat-right .score")).to_have_text(
            {"zh": "总分 0", "en": "total 0"}[language])
        person.bid(None)
        for friend in friends:
            pass_when_asked(friend)
        dialog = page.locator(".result-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".caller-mark")).to_have_count(1)
        expect(dialog.locator("th:has(.caller-mark)")).to_contain_text(
            {"zh": "南", "en": "South"}[language])
        stakes = dialog.locator("#result-stakes")
        expect(stakes).to_contain_text("40")
        expect(stakes).to_contain_text("20")
        expect(stakes).to_contain_text(re.compile(r"“.+”"))  # the setting that decides it
        box = stakes.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        page.screenshot(path=str(screenshots / f"caller-result-{language}-{viewport['width']}.png"))
        page.keyboard.press("Escape")  # Escape is 继续 as ✕ is
        expect(dialog).to_have_count(0)
        person.close()
    finally:
        for friend in friends:
            friend.close()
