"""A club's events in a real Chromium, at phone size in Chinese and desktop size in English:
the club's admin follows the club page's link to the tournament form with the club chosen,
organises an event, and the club page lists it (linking to the event's page)."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from ..server.harness import ThreadServer
from .ui import VIEW_IDS, VIEWS, person_in


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_an_admin_organises_a_club_event(
    chromium: Browser, web_server: ThreadServer, screenshots: Path,
    viewport: dict[str, int], language: str,
) -> None:
    base, tag = web_server.base, secrets.token_hex(3)
    organiser = person_in(chromium, base, viewport, language)
    answer = organiser.context.request.post(
        f"{base}/api/accounts", data={"username": f"org{tag}", "password": "correct horse battery"})
    assert answer.status == 201, answer.text()
    page = organiser.page
    page.goto(f"{base}/clubs")
    page.fill("#club-name", f"赛{tag}")
    page.click("#club-create")
    page.wait_for_url("**/clubs/*")
    club = page.url.rsplit("/", 1)[1]
    expect(page.locator("#club-events .empty")).to_be_visible()
    page.click("#club-event-new")
    page.wait_for_url(f"**/tournaments?club={club}*")
    expect(page.locator("#tf-club")).to_be_visible()
    expect(page.locator("#tf-guests")).to_have_count(0)
    page.fill("#tf-name", f"周六杯{tag}")
    page.click("#tf-create")
    page.wait_for_url("**/tournaments/*")
    code = page.url.rsplit("/", 1)[1]
    status, event = (lambda r: (r.status, r.json()))(
        organiser.context.request.get(f"{base}/api/tournaments/{code}"))
    assert status == 200 and event["club"] == club and not event["settings"]["guests"]
    page.goto(f"{base}/clubs/{club}")
    item = page.locator(f"#club-event-list li[data-code='{code}']")
    expect(item).to_contain_text(f"周六杯{tag}")
    assert item.get_attribute("data-group") == "upcoming"
    assert item.locator("a").get_attribute("href") == f"/tournaments/{code}"
    page.screenshot(path=str(screenshots / f"club-events-{viewport['width']}-{language}.png"),
                    full_page=True)
    organiser.close()
