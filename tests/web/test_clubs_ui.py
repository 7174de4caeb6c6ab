"""亲友圈 in a real Chromium, at phone size in Chinese and desktop size in English: an organiser
creates a club, sets a preset and invites two members by link; each member plays the computer
at a club table with the preset; the standings show their results as the hand records have
them; 禁止同桌 and the address rule refuse a seat with their reason; a non-member probing the
club's URLs learns nothing; an admin removes a member, whose open club page then stops."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from ..server.harness import ThreadServer
from .ui import VIEW_IDS, VIEWS, Person, api_call, member_in


def _play_the_computer(person: Person, club: str) -> str:
    """和电脑玩 from the club page with its preset; bid the highest (South bids first), let
    托管 play the rest; the table's code."""
    page = person.page
    page.goto(f"{person.base}/clubs/{club}")
    page.select_option("#club-preset", "saturday")
    page.click("#club-computer")
    page.wait_for_url("**/t/*")
    assert person.my_turn_or_result() == "turn" and person.body("phase") == "bidding"
    person.bid(person.highest_bid())
    page.click("#btn-auto")
    expect(page.locator(".result-dialog")).to_be_visible(timeout=60_000)
    return page.url.rsplit("/", 1)[1].split("#")[0]


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_a_club_from_invitation_to_standings_and_removal(
    chromium: Browser, web_server: ThreadServer, screenshots: Path,
    viewport: dict[str, int], language: str,
) -> None:
    base, tag = web_server.base, secrets.token_hex(3)
    names = [f"org{tag}", f"ann{tag}", f"bob{tag}", f"eve{tag}"]
    organiser, ann, bob, eve = (member_in(chromium, base, viewport, language, n) for n in names)
    page = organiser.page
    page.goto(f"{base}/clubs")
    page.fill("#club-name", f"圈{tag}")
    page.click("#club-create")
    page.wait_for_url("**/clubs/*")
    club = page.url.rsplit("/", 1)[1]
    expect(page.locator("#club-title")).to_have_text(f"圈{tag}")
    _make_preset(organiser, club, language, screenshots, f"{viewport['width']}-{language}")
    page.click("#invite-new")
    link = page.locator(".invite-link").first
    expect(page.locator(".invitation img").first).to_be_visible()
    url = link.input_value()
    assert "/clubs/join/" in url
    page.screenshot(path=str(screenshots / f"clubs-admin-{viewport['width']}-{language}.png"),
                    full_page=True)
    for member in (ann, bob):
        member.page.goto(url)
        expect(member.page.locator("#club-join")).to_be_visible()
        if member is ann:
            member.page.screenshot(
                path=str(screenshots / f"clubs-invited-{viewport['width']}-{language}.png"))
        member.page.click("#club-join")
        member.page.wait_for_url(f"**/clubs/{club}")
        expect(member.page.locator("#club-title")).to_be_visible()
    codes = [_play_the_computer(member, club) for member in (ann, bob)]
    # The standings, as the page shows them, are the hand records' sums.
    expected = {}
    for name, code in zip(names[1:3], codes, strict=True):
        _, hands = api_call(organiser, "GET", f"/api/tables/{code}/hands")
        expected[name] = sum(hand["deltas"][0] for hand in hands)
    page.goto(f"{base}/clubs/{club}")
    expect(page.locator("#club-preset-list")).to_be_visible()
    for name, total in expected.items():
        row = page.locator(f"#club-standings-table tr[data-player='{name}'] td").last
        expect(row).to_have_text(str(total))
    page.screenshot(path=str(screenshots / f"clubs-page-{viewport['width']}-{language}.png"),
                    full_page=True)
    _seating_refused(organiser, ann, bob, club, names, language)
    _probing_learns_nothing(eve, club)
    # Bob's club page is open; the organiser removes him: his page stops showing the club.
    bob.page.goto(f"{base}/clubs/{club}")
    expect(bob.page.locator("#club-title")).to_be_visible()
    page.goto(f"{base}/clubs/{club}")
    page.locator(f"#club-member-list li[data-member='{names[2]}'] button.remove").click()
    expect(page.locator(f"#club-member-list li[data-member='{names[2]}']")).to_have_count(0)
    expect(bob.page.locator("#club-gone")).to_be_visible(timeout=10_000)
    expect(bob.page.locator("#club-title")).to_have_count(0)
    expect(bob.page.locator("#club-standings-table")).to_have_count(0)
    bob.page.screenshot(path=str(screenshots / f"clubs-gone-{viewport['width']}-{language}.png"))
    for person in (organiser, ann, bob, eve):
        person.close()


def _seating_refused(organiser: Person, ann: Person, bob: Person, club: str,
                     names: list[str], language: str) -> None:
    status, _ = api_call(organiser, "PUT", f"/api/clubs/{club}/pairs",
                     {"first": names[1], "second": names[2]})
    assert status == 204
    status, opened = api_call(ann, "POST", f"/api/clubs/{club}/tables", {"preset": "saturday"})
    assert status == 201
    ann.open_table(opened["code"])
    ann.sit(0, names[1])
    bob.open_table(opened["code"])
    bob.page.fill("#seat-name", names[2])
    bob.page.click("[data-sit='1']")
    expect(bob.page.locator("#refusal")).to_contain_text("禁止同桌")
    # Said in the page's language, naming the member already seated.
    expect(bob.page.locator("#refusal")).to_contain_text(
        f"你和 {names[1]} 禁止同桌" if language == "zh" else f"one table with {names[1]}")
    expect(bob.page.locator("#refusal strong")).to_have_text(
        "没有成功" if language == "zh" else "Not possible")
    # Every browser of the test is at 127.0.0.1: with the rule on at every club table, the
    # organiser's seat beside Ann's is refused.
    status, _ = api_call(organiser, "PATCH", f"/api/clubs/{club}/settings",
                     {"same_address": "always"})
    assert status == 200
    organiser.open_table(opened["code"])
    organiser.page.fill("#seat-name", names[0])
    organiser.page.click("[data-sit='2']")
    expect(organiser.page.locator("#refusal")).to_contain_text("同IP禁止同桌")
    expect(organiser.page.locator("#refusal")).to_contain_text(
        "同一网络地址" if language == "zh" else "your network address")
    api_call(organiser, "PATCH", f"/api/clubs/{club}/settings", {"same_address": "rated"})


def _make_preset(organiser: Person, club: str, language: str, screenshots: Path,
                 size: str) -> None:
    """The organiser sets a preset with the lobby's settings form: an invalid value is named
    and nothing is saved; then the rules and table settings given are the preset's."""
    page = organiser.page
    page.click("#preset-new summary")
    page.fill("#preset-name", "saturday")
    page.locator("#preset-form details.rules").evaluate("node => { node.open = true; }")
    page.fill("#f-hands", "0")
    page.click("#preset-save")
    error = page.locator("[data-field='hands'] .field-error")
    expect(error).to_have_text("不能小于 1" if language == "zh" else "at least 1")
    expect(page.locator(".toast").last).to_contain_text("局数" if language == "zh" else "Hands")
    assert api_call(organiser, "GET", f"/api/clubs/{club}/presets")[1] == []
    page.screenshot(path=str(screenshots / f"clubs-preset-form-{size}.png"), full_page=True)
    page.fill("#f-hands", "1")
    page.fill("#f-throw_penalty_per_card", "5")
    page.select_option("#f-no_bid_mode", "direct")
    page.fill("#f-direct_penalty", "60")
    page.select_option("#f-bot_level", "easy")
    page.fill("#f-name", "周六场")
    page.click("#preset-save")
    expect(page.locator("#club-preset-list")).to_contain_text("saturday")
    expect(page.locator("[data-field='hands'] .field-error")).to_have_count(0)
    [preset] = api_call(organiser, "GET", f"/api/clubs/{club}/presets")[1]
    assert (preset["rules"]["hands"], preset["rules"]["throw_penalty_per_card"],
            preset["rules"]["no_bid_mode"], preset["rules"]["direct_penalty"]) == (
        1, 5, "direct", 60)
    assert (preset["settings"]["bot_level"], preset["settings"]["name"]) == ("easy", "周六场")
    summary = page.locator("#club-preset-list li[data-preset='saturday'] .preset-summary")
    expect(summary).to_contain_text("60")


def _probing_learns_nothing(eve: Person, club: str) -> None:
    answers = []
    for probe in (club, "x" * len(club)):
        for suffix in ("", "/members", "/standings", "/tables", "/presets", "/invitations"):
            status, body = api_call(eve, "GET", f"/api/clubs/{probe}{suffix}")
            answers.append((status, body["detail"]["reason"]))
    assert set(answers) == {(404, "not_found")}
    eve.page.goto(f"{eve.base}/clubs/{club}")
    expect(eve.page.locator("#club-gone")).to_be_visible()
    expect(eve.page.locator("#club-title")).to_have_count(0)
