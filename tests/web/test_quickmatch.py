"""快速匹配 (quick match) in the browser: two people ask for a game, see each other waiting and
the countdown, and land at the same started table with the computer in the other seats; a
player who cancels leaves the line. Screenshots at phone and desktop sizes, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from baofen.server import ServerConfig

from ..server.harness import ThreadServer
from .accessibility import check_axe
from .conftest import FAST
from .ui import DESKTOP, PHONE, Person


@pytest.fixture
def match_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server of each test's own, waiting 4 s: its quick-match line is that test's alone, so a
    test that fails with people still waiting leaves nobody in the next test's line."""
    db = tmp_path / "baofen.db"
    live = ThreadServer(ServerConfig(db=f"sqlite:///{db}", match_wait_seconds=4, **FAST))
    yield live
    live.stop()


def open_lobby(person: Person, name: str, english: bool = False) -> None:
    """The lobby, drawn in the language asked for, with ``name`` typed and remembered.

    The lobby draws itself once its session and the rules' defaults have come; the language
    switch draws it again. The name is typed only once the last drawing is in place, and the
    test goes on only once the page has remembered it, so no redraw can lose it."""
    page = person.page
    page.goto(person.base + "/")
    expect(page.locator(".open-tables li").first).to_be_visible()
    if english:
        page.click("#lang")
        expect(page.locator("#quickmatch")).to_have_text("Quick match")
        expect(page.locator(".open-tables li").first).to_be_visible()
    page.fill("#f-player", name)
    expect(page.locator("#f-player")).to_have_value(name)
    person.wait_for(f"localStorage.getItem('baofen.name') === {name!r}")


def ask(person: Person) -> None:
    person.page.click("#quickmatch")
    expect(person.page.locator("#match")).to_be_visible()


def test_two_people_are_seated_together(
    chromium: Browser, match_server: ThreadServer, screenshots: Path
) -> None:
    ann = Person(chromium, match_server.base, PHONE)
    bo = Person(chromium, match_server.base, DESKTOP)
    # On another machine: one address's tickets never share a table (the loopback is a
    # trusted proxy, so the server takes Bo's address from the header).
    bo.context.set_extra_http_headers({"X-Forwarded-For": "10.0.0.2"})
    open_lobby(ann, "Ann")
    open_lobby(bo, "Bo", english=True)
    ask(ann)
    expect(ann.page.locator("#match-count")).to_have_text("已有 1/4 位玩家")
    ask(bo)
    expect(bo.page.locator("#match-count")).to_have_text("2/4 players here")
    expect(ann.page.locator("#match-count")).to_have_text("已有 2/4 位玩家")  # news each second
    expect(ann.page.locator("#match-countdown")).to_contain_text("秒后电脑补齐空位并开局")
    expect(ann.page.locator(".match-seat.taken")).to_have_count(2)
    check_axe(ann, "quick-match dialog")
    ann.page.screenshot(path=str(screenshots / "phone-quickmatch.png"))
    bo.page.screenshot(path=str(screenshots / "desktop-quickmatch-en.png"))
    for person, seat in ((ann, "0"), (bo, "1")):  # after the wait: the table opens, started
        person.page.wait_for_url("**/t/*")
        person.wait_for(f"document.body.dataset.seat === '{seat}'"
                        " && document.body.dataset.status === 'playing'")
    assert ann.page.url == bo.page.url
    expect(bo.page.locator(".seat.bottom .who")).to_contain_text("Bo")
    ann.close()
    bo.close()


def test_cancel_leaves_the_line(chromium: Browser, match_server: ThreadServer) -> None:
    cy = Person(chromium, match_server.base, PHONE)
    open_lobby(cy, "Cy")
    ask(cy)
    cy.page.click("#match-cancel")
    expect(cy.page.locator("#match")).to_have_count(0)
    cy.wait_for("document.body.dataset.match === 'cancelled'")
    expect(cy.page.locator("#quickmatch")).to_be_enabled()
    other = httpx.post(f"{match_server.base}/api/match", json={"name": "Di"}).json()
    assert other["waiting_players"] == 1  # Cy is no longer in the line
    httpx.delete(f"{match_server.base}/api/match/{other['ticket']}")
    cy.close()
