"""The lobby and the static client: every setting in the form, joining by link, the
languages, and the files shipped in the package."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from baofen.ruleset import FIELDS
from baofen.setting import GAMES
from baofen.wire.settings import TableSettings

from ..server.harness import ThreadServer, create_table
from .ui import PHONE, Person

SETTING = "x-setting"
"""Key of a field's setting metadata in the served schema (baofen.setting.SCHEMA_KEY)."""


def served_settings(base: str, model: str, game: str) -> dict[str, str]:
    """The settings of ``model`` in ``game`` as the server's schema declares them: name → group."""
    properties = httpx.get(f"{base}/api/protocol").json()["$defs"][model]["properties"]
    return {
        name: prop[SETTING]["group"]
        for name, prop in properties.items()
        if SETTING in prop and game in prop[SETTING]["games"]
    }


def open_lobby(person: Person) -> None:
    """Go to the lobby, unfold the table with one's own rules and wait for its form."""
    person.page.goto(person.base + "/")
    expect(person.page.locator("form.create [data-field='hands']")).to_be_attached()
    expect(person.page.locator("#more")).not_to_have_attribute("open", "")  # folded at first
    person.page.click("#more > summary")


def shown_fields(person: Person) -> dict[str, tuple[str, str]]:
    """Each field of the form: the group it is shown in, and its default as shown."""
    fields: dict[str, list[str]] = person.page.eval_on_selector_all(
        "form.create .settings [data-field]",
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.field,"
        " [n.closest('[data-group]').dataset.group, n.querySelector('.default').textContent]]))",
    )
    return {name: (group, default) for name, (group, default) in fields.items()}


def test_every_setting_is_in_the_form(chromium: Browser, web_server: ThreadServer) -> None:
    base = web_server.base
    expected = {
        game: served_settings(base, "RuleSet", game) | served_settings(base, "TableSettings", game)
        for game in GAMES
    }
    # every field but the game itself is a setting of some game; the table's are of both
    assert set().union(*expected.values()) == (
        set(FIELDS) - {"variant"} | set(TableSettings.model_fields)
    )
    assert all(set(TableSettings.model_fields) <= set(fields) for fields in expected.values())
    person = Person(chromium, base, PHONE)
    page = person.page
    open_lobby(person)
    baofen = shown_fields(person)
    assert {name: group for name, (group, _) in baofen.items()} == expected["baofen"]
    assert baofen["bid_values"][1] == "默认 85, 90, 95"
    assert baofen["throw_penalty_per_card"][1] == "默认 3"
    assert baofen["no_bid_mode"][1] == "默认 暂时扣分法（捞水草）"
    assert baofen["hands"][1] == "默认 不限"
    assert baofen["play_seconds"][1] == "默认 30" and baofen["bid_seconds"][1] == "默认 20"
    assert baofen["card_counter"][1] == "默认 是"
    assert baofen["bot_level"][1] == "默认 普通"
    expect(page.locator("[data-field='direct_penalty']")).to_be_hidden()  # pot mode
    page.eval_on_selector("details.rules", "details => { details.open = true; }")
    page.select_option("#f-no_bid_mode", "direct")
    expect(page.locator("[data-field='direct_penalty']")).to_be_visible()
    expect(page.locator("[data-field='pot_caller_stake']")).to_be_hidden()
    expect(page.locator("[data-field='no_bid_mode'].changed")).to_be_visible()
    assert page.locator("fieldset legend").all_inner_texts() == [
        "叫分", "出牌", "计分", "无人叫分（捞水草）", "比赛", "牌桌设置"
    ]

    page.click("label.game:has(input[value='hongwu'])")
    expect(page.locator("[data-field='red5_capture_points']")).to_have_count(1)
    hongwu = shown_fields(person)
    assert {name: group for name, (group, _) in hongwu.items()} == expected["hongwu"]
    assert hongwu["throw_penalty_per_card"][1] == "默认 0"
    assert hongwu["must_follow_structure"][1] == "默认 否"
    assert hongwu["bid_max"][1] == "默认 200"

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
    page.fill("#f-play_seconds", "45")
    page.check("#f-private")
    page.fill("#f-name", "周五")
    page.click("#create")
    page.wait_for_url("**/t/*")
    person.wait_connected()
    code = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{web_server.base}/api/tables/{code}").json()
    assert info["rules"]["variant"] == "hongwu"
    assert (info["rules"]["bid_step"], info["rules"]["bid_max"]) == (10, 150)
    assert info["settings"]["play_seconds"] == 45 and info["settings"]["private"]
    assert info["seats"][0]["kind"] == "human"  # the creator sits at South
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
    expect(other.page.locator("[data-sit='1']")).to_be_visible()  # South is the creator's
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


def test_unknown_table_is_reported(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/t/nosuchtable")
    expect(person.page.locator("#gone")).to_contain_text("找不到这张牌桌")
    person.page.click("#gone a")
    person.page.wait_for_url(web_server.base + "/")
    expect(person.page.locator("#quickplay")).to_be_visible()
    person.close()


def test_the_client_ships_in_the_package(web_server: ThreadServer) -> None:
    static = Path(str(files("baofen") / "web" / "static"))
    names = sorted(str(path.relative_to(static)) for path in static.rglob("*") if path.is_file())
    assert {"index.html", "css/style.css", "js/main.js"} <= set(names)
    for name in names:  # every module a module imports is shipped
        if name.endswith(".js"):
            for target in re.findall(r'from "(\./[^"]+|\.\./[^"]+)"', (static / name).read_text()):
                path = (static / name).parent / target
                assert path.resolve().is_file(), f"{name} imports {target}"
    for name in names:
        answer = httpx.get(f"{web_server.base}/static/{name}")
        assert answer.status_code == 200 and answer.text == (static / name).read_text(), name
    for path in ("/", "/t/anything"):
        answer = httpx.get(web_server.base + path)
        assert answer.status_code == 200
        assert '<script type="module" src="/static/js/main.js">' in answer.text
    assert httpx.get(f"{web_server.base}/static/../server/app.py").status_code == 404
