"""比赛 in the browser: a guest opens the 比赛 page, plays today's challenge deal by deal at the
table against the computer, comes back to see each deal's result, percentage and traveller,
and once every deal is played the day's standings. Screenshots on a phone in Chinese and a
desktop in English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from baofen.server import ServerConfig

from ..server.accounts import session, sign_up
from ..server.challenge import play_deal, play_next
from ..server.harness import ThreadServer
from .conftest import FAST
from .ui import PHONE, VIEW_IDS, VIEWS, person_in, play_to_result

DEALS = 2


@pytest.fixture(scope="module")
def compete_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server whose challenge has two deals against random computer players (quick hands)."""
    db = tmp_path_factory.mktemp("compete") / "baofen.db"
    live = ThreadServer(ServerConfig(db=f"sqlite:///{db}", challenge_deals=DEALS,
                                     challenge_level="random", **FAST))
    yield live
    live.stop()


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_a_guest_plays_the_day_s_challenge_through_the_compete_page(
    chromium: Browser, compete_server: ThreadServer, screenshots: Path,
    viewport: dict[str, int], language: str,
) -> None:
    person = person_in(chromium, compete_server.base, viewport, language)
    page = person.page
    name = f"compete-{viewport['width']}-{language}"
    page.goto(compete_server.base + "/")
    page.click("#nav-compete")
    expect(page.locator("#challenge-deals li")).to_have_count(DEALS)
    expect(page.locator("#challenge-board .empty")).to_be_visible()  # today's: only once done
    page.screenshot(path=screenshots / f"{name}-start.png", full_page=True)
    for number in range(1, DEALS + 1):
        page.click("#challenge-play")
        page.wait_for_url("**/t/*")
        play_to_result(person)
        if number == 1:
            page.screenshot(path=screenshots / f"{name}-table.png")
        page.click("#btn-compete")  # the result of a challenge deal leads back to 比赛
        deal = page.locator(f"#challenge-deals li[data-deal='{number}']")
        expect(deal).to_have_class("deal finished")
        expect(deal.locator(".deal-pct")).to_contain_text("%")
    expect(page.locator("#challenge-done")).to_be_visible()
    expect(page.locator("#challenge-standing")).to_contain_text("%")
    expect(page.locator("#challenge-board table tbody tr.me")).to_have_count(1)
    page.screenshot(path=screenshots / f"{name}-done.png", full_page=True)
    page.locator("#challenge-deals li[data-deal='1'] .traveller-open").click()
    expect(page.locator("#traveller table tbody tr.me")).to_have_count(1)
    page.screenshot(path=screenshots / f"{name}-traveller.png")
    assert not person.errors, person.errors
    person.close()


def test_a_signed_in_player_sees_its_history_of_challenges(
    chromium: Browser, compete_server: ThreadServer, screenshots: Path
) -> None:
    account = sign_up(compete_server.base, "cheng")
    table = play_next(account)
    play_deal(compete_server.base, table)
    person = person_in(chromium, compete_server.base, PHONE, "zh")
    person.context.add_cookies([{"name": "baofen_session", "value": session(account),
                                 "url": compete_server.base}])
    page = person.page
    page.goto(compete_server.base + "/compete")
    expect(page.locator("#challenge-history tbody tr")).to_have_count(1)
    expect(page.locator("#challenge-deals li[data-deal='1']")).to_have_class("deal finished")
    expect(page.locator("#challenge-play")).to_contain_text("2")
    page.screenshot(path=screenshots / "compete-360-zh-history.png", full_page=True)
    assert not person.errors, person.errors
    person.close()


def test_a_result_not_ranked_yet_gets_its_percentage_at_the_next_reading(
    chromium: Browser, compete_server: ThreadServer
) -> None:
    """A busy day is ranked again in the background, its board served meanwhile from the
    ranking before: a deal just finished may come without its percentage. The page shows it as
    not ranked yet, and reads the challenge again until it is (the answers given to the page)."""
    state = httpx.get(f"{compete_server.base}/api/challenge/baofen").json()
    deal = {**state["deals"][0], "status": "finished", "seat": 0, "table_code": "ABCDEF",
            "result": 20, "percentage": None}
    state["deals"][0] = deal
    person = person_in(chromium, compete_server.base, PHONE, "zh")
    page = person.page
    page.route("**/api/challenge/baofen", lambda route: route.fulfill(json=state))
    page.goto(compete_server.base + "/compete")
    shown = page.locator("#challenge-deals li[data-deal='1'] .deal-pct")
    expect(shown).to_have_text("…")
    deal["percentage"] = 62.5
    expect(shown).to_have_text("62.5%")
    assert not person.errors, person.errors
    person.close()
