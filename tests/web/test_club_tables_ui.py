"""A club's tables in a real Chromium, at phone size in Chinese and desktop size in English:
members invite each other to a table from the club page (the invited see it on their lobby and
club page within seconds, and its button seats them); a stranger opening a club table is told
why in the page's language; a club event's table is listed to follow its event, never to watch
(and never in the lobby's list)."""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from ..server.harness import ThreadServer
from .ui import VIEW_IDS, VIEWS, Person, api_call, member_in


def _club(organiser: Person, others: list[Person], tag: str) -> str:
    status, club = api_call(organiser, "POST", "/api/clubs", {"name": f"圈{tag}"})
    assert status == 201, club
    _, link = api_call(organiser, "POST", f"/api/clubs/{club['id']}/invitations", {})
    for person in others:
        status, joined = api_call(person, "POST", f"/api/club-invitations/{link['code']}")
        assert status == 200 and joined["member"], joined
    return str(club["id"])


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_members_invite_each_other_from_the_club_page_and_the_table(
    chromium: Browser, web_server: ThreadServer, screenshots: Path,
    viewport: dict[str, int], language: str,
) -> None:
    base, tag = web_server.base, secrets.token_hex(3)
    names = [f"org{tag}", f"ann{tag}", f"bob{tag}", f"eve{tag}"]
    organiser, ann, bob, eve = (member_in(chromium, base, viewport, language, n) for n in names)
    club = _club(organiser, [ann, bob], tag)
    size = f"{viewport['width']}-{language}"
    # Ann waits in the lobby, Bob on the club page.
    ann.page.goto(f"{base}/")
    bob.page.goto(f"{base}/clubs/{club}")
    expect(bob.page.locator("#club-title")).to_be_visible()
    expect(bob.page.locator("#club-invites")).to_be_hidden()
    # The organiser opens a table and invites both at once.
    page = organiser.page
    page.goto(f"{base}/clubs/{club}")
    page.click("#club-open-invite")
    dialog = page.locator("#invite-pick")
    expect(dialog.locator("label")).to_have_count(2)  # the others, not oneself
    page.screenshot(path=str(screenshots / f"club-invite-pick-{size}.png"))
    dialog.locator(f"label[data-member='{names[1]}'] input").check()
    dialog.locator(f"label[data-member='{names[2]}'] input").check()
    page.click("#invite-send")
    page.wait_for_url("**/t/*")
    organiser.wait_for("document.body.dataset.seat === '0'")
    code = page.url.rsplit("/", 1)[1].split("#")[0]
    # At the table too: 邀请圈友 offers the members not seated.
    page.click("#btn-club-invite")
    expect(page.locator("#invite-pick label")).to_have_count(2)
    page.screenshot(path=str(screenshots / f"club-invite-table-{size}.png"))
    page.keyboard.press("Escape")
    expect(page.locator("#invite-pick")).to_have_count(0)
    # Each sees it within the page's 4-second poll: the lobby naming the club, the club page.
    lobby_invite = ann.page.locator(f"#table-invites li[data-table='{code}']")
    expect(lobby_invite).to_contain_text(names[0], timeout=10_000)
    expect(lobby_invite).to_contain_text(f"圈{tag}")
    ann.page.screenshot(path=str(screenshots / f"club-invite-lobby-{size}.png"))
    club_invite = bob.page.locator(f"#club-invites li[data-table='{code}']")
    expect(club_invite).to_contain_text(names[0], timeout=10_000)
    bob.page.screenshot(path=str(screenshots / f"club-invite-club-{size}.png"), full_page=True)
    # Its button seats Bob at the first free seat (South is the organiser's).
    club_invite.locator(".invite-sit").click()
    bob.page.wait_for_url(f"**/t/{code}")
    bob.wait_for("document.body.dataset.seat === '1'")
    # Ann dismisses hers: gone from the lobby.
    lobby_invite.locator(".invite-dismiss").click()
    expect(lobby_invite).to_have_count(0)
    # From the club page's list: the table's 邀请 offers only the members not seated.
    page.goto(f"{base}/clubs/{club}")
    page.locator(f"#club-table-list li[data-code='{code}'] .club-invite").click()
    expect(page.locator("#invite-pick label")).to_have_count(1)
    page.locator(f"#invite-pick label[data-member='{names[1]}'] input").check()
    page.click("#invite-send")
    expect(page.locator("#invite-pick")).to_have_count(0)
    expect(ann.page.locator(f"#table-invites li[data-table='{code}']")).to_be_visible(
        timeout=10_000)
    # Refusals are said in the page's language and change nothing: a stranger is no member.
    status, refused = api_call(organiser, "POST", f"/api/clubs/{club}/tables/{code}/invitations",
                           {"username": names[3]})
    assert (status, refused["detail"]["reason"]) == (404, "no_such_member")
    # A stranger opening the club's table is told why, in the page's language, in its place.
    eve.page.goto(f"{base}/t/{code}")
    expect(eve.page.locator("#gone[data-code='not_member'] #refused-text")).to_contain_text(
        "只有圈内成员" if language == "zh" else "only the club's members")
    eve.page.screenshot(path=str(screenshots / f"club-table-stranger-{size}.png"))
    for person in (organiser, ann, bob, eve):
        person.close()


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_a_club_event_table_is_listed_to_follow_not_to_watch(
    chromium: Browser, web_server: ThreadServer, screenshots: Path,
    viewport: dict[str, int], language: str,
) -> None:
    base, tag = web_server.base, secrets.token_hex(3)
    organiser = member_in(chromium, base, viewport, language, f"org{tag}")
    club = _club(organiser, [], tag)
    start = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
    status, event = api_call(organiser, "POST", "/api/tournaments", {
        "rules": {"variant": "baofen"}, "club": club,
        "settings": {"name": f"周六杯{tag}", "start": start, "rounds": 1, "hands": 3,
                     "bot_level": "easy", "play_seconds": 30, "break_seconds": 0}})
    assert status == 201, event
    status, _ = api_call(organiser, "POST", f"/api/tournaments/{event['code']}/entrants", {})
    assert status in (200, 201)
    deadline = time.monotonic() + 30
    while (mine := api_call(organiser, "GET", f"/api/tournaments/{event['code']}/mine"))[0] != 200:
        assert time.monotonic() < deadline, mine
        time.sleep(0.2)
    table = mine[1]["code"]  # the organiser's table in round 1 (its code hidden from others)
    page = organiser.page
    page.goto(f"{base}/clubs/{club}")
    entry = page.locator(f"#club-table-list li[data-code='{table}']")
    expect(entry).to_have_attribute("data-event", event["code"])
    expect(entry.locator("a")).to_have_attribute("href", f"/tournaments/{event['code']}")
    expect(entry.locator("a[href^='/t/']")).to_have_count(0)
    expect(entry.locator(".club-invite")).to_have_count(0)
    page.screenshot(path=str(screenshots / f"club-event-table-{viewport['width']}-{language}.png"),
                    full_page=True)
    # Never in the lobby's list of open tables.
    _, listed = api_call(organiser, "GET", "/api/tables")
    assert table not in {t["code"] for t in listed}
    organiser.close()
