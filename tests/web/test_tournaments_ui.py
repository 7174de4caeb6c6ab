"""Tournaments in the browser: the list, an event's page (register as a guest, the countdown,
my table, live and final standings, a traveller), at phone and desktop sizes in both
languages, with screenshots and axe checks."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from ..server.harness import ThreadServer
from .accessibility import check_axe
from .ui import ALL, ALL_IDS, VIEW_IDS, VIEWS, person_in

ROUNDS = 3
EVENT_SECONDS = 150_000
"""How long an event may take to play out here (ms): three rounds of one deal, absent players
played on one-second timers."""

NOT_PLAYING = {"zh": "现在没有正在进行的一轮", "en": "No round is being played now"}
SEATING = {"zh": "第 1 轮正在排座…", "en": "Round 1 is being seated…"}


def _event(base: str, start_in: float) -> str:
    organiser = httpx.Client(base_url=base)
    name = f"org{secrets.token_hex(3)}"
    made = organiser.post("/api/accounts", json={"username": name, "password": "correct horse b"})
    assert made.status_code == 201, made.text
    start = (datetime.now(UTC) + timedelta(seconds=start_in)).isoformat()
    response = organiser.post("/api/tournaments", json={"settings": {
        "name": "周末复式赛 Weekend duplicate", "start": start, "rounds": ROUNDS, "hands": 1,
        "bot_level": "easy", "play_seconds": 1.0, "break_seconds": 3.0, "seat_limit": 8}})
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    guests = httpx.Client(base_url=base)
    for guest in ("王芳", "Li Lei", "陈静", "Zhang Wei"):
        assert guests.post(f"/api/tournaments/{code}/entrants",
                              json={"name": guest}).status_code == 201
    return code


def _open_my_table(page: Page, language: str) -> None:
    """Open the guest's table with 我的牌桌. Easy computers on one-second timers can finish a
    round between the page showing the button and the click: the page then says that no round
    is being played, and the next round's button opens the table."""
    button = page.locator("#tour-my-table")
    missed = page.locator(".toast.error", has_text=NOT_PLAYING[language])
    table = page.locator("body[data-view=table]")
    for _ in range(ROUNDS):
        expect(button).to_be_visible(timeout=60_000)
        button.click()
        expect(table.or_(missed)).to_be_visible()
        if table.count():
            page.wait_for_url("**/t/**")
            return
        expect(missed).to_have_count(0)
    pytest.fail(f"no round of {ROUNDS} lasted from the page showing 我的牌桌 to its click")


@pytest.mark.parametrize(("size", "language"), ALL, ids=ALL_IDS)
def test_a_guest_registers_plays_and_reads_the_standings(
    chromium: Browser, web_server: ThreadServer, screenshots: Path, size: dict[str, int],
    language: str,
) -> None:
    look = f"{size['width']}-{language}"
    code = _event(web_server.base, start_in=12)
    person = person_in(chromium, web_server.base, size, language)
    page = person.page
    page.goto(f"{web_server.base}/tournaments")
    item = page.locator(f'.tour-item[data-code="{code}"]')
    expect(item).to_be_visible()
    check_axe(person, "the tournament list")
    page.screenshot(path=str(screenshots / f"tournaments-list-{look}.png"), full_page=True)

    item.locator("a").click()
    expect(page.locator("#tour-countdown")).to_be_visible()
    page.fill("#tour-guest-name", "王芳")  # an entrant's name already: refused in the page's words
    page.click("#tour-register")
    expect(page.locator(".toast.error")).to_contain_text(
        "已经有参赛者叫这个名字" if language == "zh" else "An entrant already has that name")
    page.fill("#tour-guest-name", "Guest测试")
    page.click("#tour-register")
    expect(page.locator("#tour-withdraw")).to_be_visible()
    expect(page.locator("#tour-entrants li.me")).to_contain_text("Guest测试")
    check_axe(person, "an event taking entrants")
    page.screenshot(path=str(screenshots / f"tournament-registering-{look}.png"), full_page=True)

    expect(page.locator("#tour-my-table")).to_be_visible(timeout=60_000)
    page.screenshot(path=str(screenshots / f"tournament-playing-{look}.png"), full_page=True)
    _open_my_table(page, language)
    person.wait_for("document.body.dataset.seat !== undefined && document.body.dataset.seat !== ''")
    page.goto(f"{web_server.base}/tournaments/{code}")
    expect(page.locator("#tournament[data-status=finished]")).to_be_visible(timeout=EVENT_SECONDS)
    standings = page.locator("#tour-standings tbody tr")
    expect(standings).to_have_count(8)  # five people and three computers
    expect(page.locator("#tour-standings tr.me")).to_contain_text("Guest测试")
    expect(page.locator("#tour-standings tr.filler")).to_have_count(3)
    page.locator('.tour-round[data-round="1"] summary').click()
    page.locator('.tour-round[data-round="1"] .tour-deals button').first.click()
    expect(page.locator('.tour-round[data-round="1"] .traveller tbody tr')).to_have_count(2)
    check_axe(person, "a finished event")
    page.screenshot(path=str(screenshots / f"tournament-final-{look}.png"), full_page=True)
    person.close()


@pytest.mark.parametrize(("size", "language"), VIEWS, ids=VIEW_IDS)
def test_my_table_is_offered_once_the_entrants_table_is_seated(
    chromium: Browser, web_server: ThreadServer, size: dict[str, int], language: str,
) -> None:
    """Registration closed, the event reads ``playing`` before the round's tables are stored:
    the page says the round is being seated and offers 我的牌桌 only once the entrant's table
    is listed (the event as read in each moment, given to the page)."""
    code = _event(web_server.base, start_in=600)
    person = person_in(chromium, web_server.base, size, language)
    page = person.page
    page.goto(f"{web_server.base}/tournaments/{code}")
    page.fill("#tour-guest-name", "Guest测试")
    page.click("#tour-register")
    expect(page.locator("#tour-withdraw")).to_be_visible()
    event = httpx.get(f"{web_server.base}/api/tournaments/{code}").json()
    me = next(e["number"] for e in event["entrants"] if e["name"] == "Guest测试")
    others = [e["number"] for e in event["entrants"] if e["number"] != me]
    shown = {**event, "status": "playing", "round": 0, "next_start": None}
    page.route(f"**/api/tournaments/{code}", lambda route: route.fulfill(json=shown))
    page.reload()
    expect(page.locator("#tour-status")).to_contain_text(SEATING[language])
    expect(page.locator("#tour-my-table")).to_have_count(0)
    shown.update(round=1, tables=[{"round": 1, "table": 0, "code": None,
                                   "entrants": [others[0], me, *others[1:3]]}])
    expect(page.locator("#tour-my-table")).to_be_visible()  # at the page's next reading
    expect(page.locator("#tour-status")).not_to_contain_text(SEATING[language])
    person.close()
