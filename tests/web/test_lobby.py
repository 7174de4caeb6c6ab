"""The lobby and the static client: every setting in the form, joining by link, the
languages, and the files shipped in the package."""

from __future__ import annotations

from importlib.resources import files

import httpx
from playwright.sync_api import Browser, expect

from baofen import RuleSet

from ..server.harness import ThreadServer, create_table
from .ui import PHONE, Person

BAOFEN_FIELDS = {
    "bid_values", "must_follow_structure", "eight_of_a_kind", "throw_penalty_per_card",
    "no_bid_mode", "direct_penalty", "pot_caller_stake", "pot_other_stake", "pot_split_above",
    "wangfen_all_bonus", "wangfen_none_penalty", "full_sweep_score", "half_sweep_score",
    "shutout_score", "settlement", "hands",
}
HONGWU_FIELDS = {
    "bid_min", "bid_step", "bid_max", "must_follow_structure", "throw_penalty_per_card",
    "red5_capture_points", "kitty_multiplier_trump", "kitty_multiplier_plain",
    "points_per_level", "coins_per_level", "hands",
}
TABLE_FIELDS = {"timer_seconds", "bot_level", "private", "name"}


def open_lobby(person: Person) -> None:
    """Go to the lobby and wait for its form."""
    person.page.goto(person.base + "/")
    expect(person.page.locator("form.create [data-field='hands']")).to_be_attached()


def shown_fields(person: Person) -> dict[str, str]:
    """Each field of the form: its default as shown."""
    fields: dict[str, str] = person.page.eval_on_selector_all(
        "form.create .settings [data-field]",
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.field,"
        " n.querySelector('.default').textContent]))",
    )
    return fields


def test_every_setting_is_in_the_form(chromium: Browser, web_server: ThreadServer) -> None:
    assert set(RuleSet.model_fields) - {"variant"} == (BAOFEN_FIELDS | HONGWU_FIELDS)
    person = Person(chromium, web_server.base, PHONE)
    page = person.page
    open_lobby(person)
    baofen = shown_fields(person)
    assert set(baofen) == BAOFEN_FIELDS | TABLE_FIELDS
    assert baofen["bid_values"] == "默认 85, 90, 95"
    assert baofen["throw_penalty_per_card"] == "默认 3"
    assert baofen["no_bid_mode"] == "默认 暂时扣分法（捞水草）"
    expect(page.locator("[data-field='direct_penalty']")).to_be_hidden()  # pot mode
    page.eval_on_selector("details.rules", "details => { details.open = true; }")
    page.select_option("#f-no_bid_mode", "direct")
    expect(page.locator("[data-field='direct_penalty']")).to_be_visible()
    expect(page.locator("[data-field='pot_caller_stake']")).to_be_hidden()
    expect(page.locator("[data-field='no_bid_mode'].changed")).to_be_visible()

    page.click("label.game:has(input[value='hongwu'])")
    expect(page.locator("[data-field='red5_capture_points']")).to_have_count(1)
    hongwu = shown_fields(person)
    assert set(hongwu) == HONGWU_FIELDS | TABLE_FIELDS
    assert hongwu["throw_penalty_per_card"] == "默认 0"
    assert hongwu["must_follow_structure"] == "默认 否"
    assert hongwu["bid_max"] == "默认 200"

    page.eval_on_selector("details.rules", "details => { details.open = true; }")
    page.fill("#f-bid_step", "0")  # out of range: the server names the field
    page.click("#create")
    expect(page.locator(".toast.error")).to_contain_text("bid_step")
    assert page.url.endswith("/")
    person.close()


def test_create_with_settings_and_join_by_link(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    page = person.page
    open_lobby(person)
    page.click("label.game:has(input[value='hongwu'])")
    expect(page.locator("#f-bid_step")).to_be_visible()
    page.fill("#f-bid_step", "10")
    page.fill("#f-bid_max", "150")
    page.fill("#f-timer_seconds", "45")
    page.check("#f-private")
    page.fill("#f-name", "周五")
    page.click("#create")
    page.wait_for_url("**/t/*")
    person.wait_connected()
    code = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{web_server.base}/api/tables/{code}").json()
    assert info["rules"]["variant"] == "hongwu"
    assert (info["rules"]["bid_step"], info["rules"]["bid_max"]) == (10, 150)
    assert info["settings"]["timer_seconds"] == 45 and info["settings"]["private"]
    assert info["settings"]["name"] == "周五"
    expect(page.locator(".head .game-name")).to_have_text("周五")
    link = page.input_value("#share-link")
    assert link == f"{web_server.base}/t/{code}"

    other = Person(chromium, web_server.base)
    open_lobby(other)
    other.page.fill("#join-code", link)
    other.page.click("form.join button")
    other.page.wait_for_url(f"**/t/{code}")
    other.wait_connected()
    expect(other.page.locator("[data-sit='0']")).to_be_visible()
    open_lobby(other)
    other.page.fill("#join-code", code)
    other.page.click("form.join button")
    other.page.wait_for_url(f"**/t/{code}")

    public = create_table(web_server.base, {"variant": "baofen"}, name="公开桌")
    open_lobby(other)
    expect(other.page.locator(f".open-tables a[href='/t/{public}']")).to_contain_text("公开桌")
    expect(other.page.locator(f".open-tables a[href='/t/{code}']")).to_have_count(0)  # private
    person.close()
    other.close()


def test_both_languages_have_every_string(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/")
    keys = person.page.evaluate("import('/static/js/i18n.js').then(m => m.keys())")
    assert keys["zh"] and sorted(keys["zh"]) == sorted(keys["en"])
    person.close()


def test_unknown_table_is_reported(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/t/nosuchtable")
    expect(person.page.locator("#conn")).to_have_attribute("data-status", "gone")
    person.close()


def test_the_client_ships_in_the_package(web_server: ThreadServer) -> None:
    static = files("baofen") / "web" / "static"
    names = ["index.html", "css/style.css"] + [
        f"js/{name}.js" for name in (
            "main", "api", "cards", "connection", "dom", "i18n", "lobby", "prefs", "replay",
            "result", "settings", "table",
        )
    ]
    for name in names:
        assert static.joinpath(name).is_file(), name
        answer = httpx.get(f"{web_server.base}/static/{name}")
        assert answer.status_code == 200 and answer.text == static.joinpath(name).read_text()
    for path in ("/", "/t/anything"):
        answer = httpx.get(web_server.base + path)
        assert answer.status_code == 200
        assert '<script type="module" src="/static/js/main.js">' in answer.text
    assert httpx.get(f"{web_server.base}/static/../server/app.py").status_code == 404
