"""A newcomer's first screens, in the real browser against the real server: a friend arriving
by the link sees the seats and the name field first (the invitation kit is the host's), the
page speaks the browser's language before any choice, default names are in the player's
language, the open tables never start with a stray "0", and Escape closes a dialog with the
focus back where it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from ..server.harness import ThreadServer
from .ui import ALL, ALL_IDS, DESKTOP, PHONE, TIMEOUT_MS, Person

DEFAULT_NAME = {"zh": r"玩家\d{4}", "en": r"Player\d{4}"}


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_a_friend_by_link_sees_the_seats_and_the_name_first(
        person: Person, friend: Person, screenshots: Path, viewport: dict[str, int],
        language: str) -> None:
    host = person
    code = host.open_new_table()
    host.sit(0, "Ann")
    expect(host.page.locator("#share-qr")).to_be_visible()  # the kit is the host's
    page = friend.page
    friend.open_table(code)
    height = viewport["height"]
    for selector in ("#seat-name", "[data-sit='1']", "[data-sit='3']"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, (selector, box)
    expect(page.locator("#share-qr")).to_be_hidden()  # folded under 邀请朋友
    placeholder = page.get_attribute("#seat-name", "placeholder") or ""
    assert page.evaluate(
        "i => i.scrollWidth <= i.clientWidth", page.query_selector("#seat-name")
    ), placeholder
    page.screenshot(path=str(screenshots / f"friend-arrives-{language}-{viewport['width']}.png"))
    friend.sit(1, "")
    name = page.evaluate("localStorage.getItem('baofen.name')") or ""
    assert re.fullmatch(DEFAULT_NAME[language], name), name
    expect(host.page.locator(".pick[data-seat='1']")).to_contain_text(name)
    expect(page.locator("#share-qr")).to_be_hidden()
    expect(page.locator("#wait-host")).to_contain_text("Ann")
    page.click("#invite-more summary")  # the friend may still pass the link on
    expect(page.locator("#share-qr")).to_be_visible()
    page.click("#invite-more summary")
    page.screenshot(path=str(screenshots / f"friend-seated-{language}-{viewport['width']}.png"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
@pytest.mark.parametrize(
    ("locale", "language"), [("en-US", "en"), ("zh-CN", "zh"), ("fr-FR", "zh")]
)
def test_the_page_speaks_the_browsers_language_until_the_player_picks_one(
    chromium: Browser,
    web_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    locale: str,
    language: str,
) -> None:
    context = chromium.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(web_server.base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en" if language == "en" else "zh-CN")
    expect(page.locator("#quickplay").first).to_be_visible()
    assert page.evaluate("localStorage.getItem('baofen.lang')") is None  # followed, not kept
    if locale == "en-US":
        expect(page.locator("body")).to_contain_text("Play the computer")
        page.screenshot(path=str(screenshots / f"lobby-browser-en-{viewport['width']}.png"))
        page.click("#lang")  # the player's choice wins, and is kept
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    context.close()


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_the_lobby_names_a_player_in_the_pages_language(
        person: Person, viewport: dict[str, int], language: str) -> None:
    page = person.page
    page.goto(person.base + "/")
    page.click("#friends")
    person.wait_for("document.body.dataset.seat === '0'")
    name = page.evaluate("localStorage.getItem('baofen.name')") or ""
    assert re.fullmatch(DEFAULT_NAME[language], name), name
    expect(page.locator(".pick[data-seat='0']")).to_contain_text(name)


WATCH_ONLY = [{
    "code": "ABCDEF", "rules": {"variant": "baofen"}, "settings": {"name": ""},
    "free_seats": [], "stage": "playing", "match": {"hand_number": 2}, "host_name": "Bob",
    "created": 0,
}]


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_the_open_tables_have_no_stray_zero(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    page.route("**/api/tables", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(WATCH_ONLY)))
    page.goto(person.base + "/")
    expect(page.locator(".open-table[data-code='ABCDEF']")).to_be_visible()
    texts = page.eval_on_selector_all(".open-tables > *", "ns => ns.map(n => n.textContent)")
    assert texts[0] == {"zh": "观战", "en": "Watch"}[language] or "0" not in texts, texts
    assert all(text.strip() != "0" for text in texts), texts
    listing = page.eval_on_selector(".open-tables", "n => n.firstChild.nodeType")
    assert listing == 1, "the list starts with an element, not a text"
    page.locator(".open").screenshot(
        path=str(screenshots / f"open-watch-only-{language}-{viewport['width']}.png"))


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_escape_closes_a_dialog_and_the_focus_comes_back(
        person: Person, viewport: dict[str, int], language: str) -> None:
    page = person.page
    person.open_new_table()
    page.focus("#btn-legend")
    page.keyboard.press("Enter")
    expect(page.locator(".modal")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".modal")).to_have_count(0)
    expect(page.locator("#overlay")).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "btn-legend"


def test_escape_on_the_result_is_continue(chromium: Browser, web_server: ThreadServer) -> None:
    """Escape closes the result like ✕ (this player's 继续)."""
    person = Person(chromium, web_server.base, PHONE)
    page = person.page
    page.goto(web_server.base + "/")
    page.evaluate(
        "import('/static/js/dom.js').then(m => { window.closes = 0;"
        " m.modal('a', 'b', { onClose: () => { window.closes += 1; } }); })")
    expect(page.locator(".modal")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".modal")).to_have_count(0)
    page.keyboard.press("Escape")
    assert page.evaluate("window.closes") == 1
    person.close()


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_a_new_players_rating_says_it_is_provisional_and_what_it_means(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    username = f"new{viewport['width']}{language}"
    answer = person.context.request.post(
        f"{person.base}/api/accounts",
        data={"username": username, "password": "a long pass 12"},
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{person.base}/players/{username}")
    record = page.locator(".game-record").first
    expect(record.locator(".rating-provisional")).to_contain_text(
        {"zh": "暂定：还差 20 局", "en": "provisional: 20 more"}[language])
    explain = record.locator(".rating").get_attribute("title") or ""
    assert ("三倍" if language == "zh" else "three times") in explain, explain
    help_text = record.locator(".rating-help")
    expect(help_text).to_be_hidden()
    record.locator(".rating-what").click()  # a tap explains it where there is no hover
    expect(help_text).to_be_visible()
    expect(help_text).to_contain_text({"zh": "暂定", "en": "provisional"}[language])
    box = help_text.bounding_box()
    assert box is not None and box["x"] + box["width"] <= viewport["width"]
    page.screenshot(path=str(screenshots / f"rating-new-{language}-{viewport['width']}.png"))
    # the top bar keeps the game's name and the username whole, here and at a table
    whole = ("() => ['#brand', '#nav-me'].map(s => document.querySelector(s))"
             ".every(n => n && n.scrollWidth <= n.clientWidth && n.getBoundingClientRect().right"
             " <= window.innerWidth)")
    person.wait_for("document.querySelector('#nav-me')")
    assert page.evaluate(whole)
    person.open_new_table()
    assert page.evaluate(whole)
    page.locator("#topbar").screenshot(
        path=str(screenshots / f"topbar-table-{language}-{viewport['width']}.png"))
