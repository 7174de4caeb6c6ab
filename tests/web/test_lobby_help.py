"""The lobby and the words of the table, in the real browser against the real server: the rules
page and the legend of the marks, one glossary per language, the open tables saying what a
visitor can do, and a signed-out page without a console error."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, expect

from baofen import RuleSet

from ..server.harness import Client, ThreadServer, create_table, start_with_bots
from .ui import DESKTOP, PHONE, VIEW_IDS, VIEWS, Person, person_in

INTERNAL_CODE = re.compile(r"^([SHCD][2-9TJQKA]|BJ|LJ)$")
"""A card's notation: never what a player reads."""


# -- 9. the rules --------------------------------------------------------------------------------

WORDS = {
    "zh": ["王分", "捞水草", "保底", "抓底", "甩牌", "拖拉机", "红五", "参谋"],
    "en": ["王分", "捞水草", "保底", "抓底", "throw", "tractor", "red five", "参谋"],
}
"""What the rules page must explain, in each language."""


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_rules_page_from_the_lobby_and_the_legend_at_the_table(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    page.goto(person.base + "/")
    page.click("#nav-rules")
    page.wait_for_url("**/rules")
    expect(page.locator("h1")).to_have_text({"zh": "规则说明", "en": "How to play"}[language])
    for word in WORDS[language]:
        expect(page.locator("main")).to_contain_text(word)
    for section in ("marks", "baofen", "hongwu", "throw"):
        expect(page.locator(f"section#{section}")).to_be_visible()
    legend = page.locator("#marks .legend")
    expect(legend.locator(".card.trump")).to_have_count(3)  # trump, 参谋, 红五
    expect(legend.locator(".card.staff")).to_have_count(1)
    expect(legend.locator(".card.red5")).to_have_count(1)
    expect(page.locator("#units .chip").first).to_be_visible()  # examples with cards
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(screenshots / f"rules-{language}-{viewport['width']}.png"))
    page.locator("#marks").screenshot(
        path=str(screenshots / f"legend-{language}-{viewport['width']}.png")
    )

    # at a table: the marks explained in place, the rules beside the game (a new tab)
    code = create_table(person.base, {"variant": "hongwu"}, timer=None)
    person.open_table(code)
    expect(page.locator("#nav-rules")).to_have_attribute("target", "_blank")
    page.click("#btn-legend")
    expect(page.locator(".modal #legend li")).to_have_count(7)
    expect(page.locator(".modal #legend-rules")).to_have_attribute("target", "_blank")
    page.screenshot(path=str(screenshots / f"legend-table-{language}-{viewport['width']}.png"))


# -- 10. one glossary per language ---------------------------------------------------------------


def test_english_words_at_a_bao_hong_wu_table(chromium: Browser, web_server: ThreadServer) -> None:
    person = person_in(chromium, web_server.base, DESKTOP, "en")
    page = person.page
    page.goto(web_server.base + "/")
    page.click("label.game:has(input[value='hongwu'])")
    page.click("#quickplay")
    page.wait_for_url("**/t/*")
    for _ in range(10):  # bid the top (200) when asked: South declares
        person.my_turn_or_result()
        if person.body("phase") == "playing":
            break
        person.take_turn()
    assert person.body("phase") == "playing" and person.body("declarer") == "0"
    expect(page.locator(".seat.bottom .badge.declarer")).to_have_text("declarer")
    scores = page.locator(".seat .score").all_inner_texts()
    assert scores and all(re.fullmatch(r"levels −?\d+", text) for text in scores), scores
    expect(page.locator("#actions")).not_to_contain_text("Tap")
    titles = page.eval_on_selector_all("#hand .card, #counter .cell", "ns => ns.map(n => n.title)")
    assert titles and not [title for title in titles if INTERNAL_CODE.match(title.split(":")[0])]
    jokers = page.evaluate(
        "import('/static/js/cards.js').then(m => [m.cardEl('BJ').textContent,"
        " m.cardEl('LJ').textContent, m.chipsEl(['BJ', 'LJ']).textContent, m.cardEl('BJ').title])"
    )
    assert not [text for text in jokers if re.search(r"BIG|LIT", text)], jokers
    assert jokers[3] == "Big joker"

    # a refusal stays said when the language changes mid-turn
    groups = page.locator("#hand .suit-group")
    person.click_card(groups.nth(0).locator(".card").first)
    person.click_card(groups.nth(1).locator(".card").first)
    expect(page.locator("#play-note.error")).to_be_visible()
    english = page.inner_text("#play-note")
    page.click("#lang")
    expect(page.locator("#play-note.error")).to_be_visible()
    expect(page.locator("#play-note")).not_to_have_text(english)
    expect(page.locator("#play-note")).to_contain_text("领出")
    page.click("#lang")
    expect(page.locator("#play-note.error")).to_have_text(english)

    # 托管 has one English name
    page.click("#btn-auto")
    expect(page.locator("#auto-banner")).to_contain_text("Auto-play:")
    expect(page.locator(".seat.bottom .badge.auto")).to_have_text("auto-play")
    expect(page.locator("#btn-auto")).to_have_text("Stop auto-play")
    person.close()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_lobby_words_on_a_phone(
    chromium: Browser, web_server: ThreadServer, screenshots: Path, language: str
) -> None:
    person = person_in(chromium, web_server.base, PHONE, language)
    page = person.page
    page.goto(web_server.base + "/")
    expect(page.locator("#quickplay")).to_be_visible()
    page.screenshot(path=str(screenshots / f"lobby-top-{language}-360.png"))
    cut = page.eval_on_selector("#brand", "b => b.scrollWidth > b.clientWidth")
    assert not cut, "the top bar cuts the page's name"
    right = page.eval_on_selector_all(
        "#topbar > *", "ns => Math.max(...ns.map(n => n.getBoundingClientRect().right))"
    )
    assert right <= PHONE["width"]
    # a guest is not promised a rating
    note = page.locator(".choice:has(#quickmatch) small")
    expect(note).to_contain_text({"zh": "登录后", "en": "once you sign in"}[language])
    # a bad join code says what was wrong
    page.fill("#join-code", "foo bar!")
    page.press("#join-code", "Enter")
    expect(page.locator(".toast.error")).to_contain_text("“foo bar!”")
    expect(page.locator(".toast.error")).to_contain_text("/t/")
    # a rating below zero reads with its sign, not in green
    rating = page.evaluate(
        "import('/static/js/ratings.js').then(m => { const r = m.ratingEl({display: -1.7,"
        " mu: 23.3, sigma: 8.3}); document.body.append(r);"
        " const v = r.querySelector('.rating-value');"
        " return [v.textContent, getComputedStyle(v).color]; })"
    )
    assert rating[0] == "−1.7" and rating[1] != "rgb(13, 92, 58)", rating
    person.close()


# -- 11. the open tables -------------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_lobby_says_what_a_visitor_can_do_at_each_open_table(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    base = person.base
    waiting = create_table(base, {"variant": "baofen"}, timer=None, name="Bob's table")
    host = Client(base, waiting)
    host.join(0, "Bob")
    player, playing = start_with_bots(base, RuleSet.create(variant="hongwu"), name="Cai")
    quick = httpx.post(f"{base}/api/quickplay", json={"variant": "baofen", "name": "Dee"})
    assert quick.status_code == 201, quick.text
    try:
        page = person.page
        page.goto(base + "/")
        join = page.locator(f".open-table[data-code='{waiting}']")
        watch = page.locator(f".open-table[data-code='{playing}']")
        expect(join.locator(".open-do.join")).to_contain_text(
            {"zh": "3 个空位", "en": "3 free"}[language]
        )
        expect(join).to_contain_text({"zh": "房主 Bob", "en": "host Bob"}[language])
        expect(join).to_contain_text({"zh": "等待开始", "en": "waiting to start"}[language])
        expect(join).to_contain_text({"zh": "开桌", "en": "opened"}[language])
        expect(watch.locator(".open-do.watch")).to_have_text(
            {"zh": "观战", "en": "Watch"}[language]
        )
        expect(watch).to_contain_text({"zh": "进行中", "en": "being played"}[language])
        expect(page.locator(f".open-table[data-code='{quick.json()['code']}']")).to_have_count(0)
        # full tables come under 观战, after the ones to join
        order = page.eval_on_selector_all(
            ".open-tables li", "ns => ns.map(n => n.dataset.code || n.className)"
        )
        groups = [i for i, item in enumerate(order) if item == "open-group"]
        assert len(groups) == 2 and groups[0] < order.index(waiting) < groups[1], order
        assert order.index(playing) > groups[1], order
        page.locator(".open").screenshot(
            path=str(screenshots / f"open-tables-{language}-{viewport['width']}.png")
        )
    finally:
        host.close()
        player.close()


# -- 12. signed out ------------------------------------------------------------------------------


def test_a_signed_out_visitor_sees_no_console_error(
    chromium: Browser, web_server: ThreadServer
) -> None:
    person = Person(chromium, web_server.base, PHONE)
    logged: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            logged.append(message.text)

    person.page.on("console", console)
    code = create_table(web_server.base, {"variant": "baofen"}, timer=None)
    for path in ("/", "/leaderboard", "/rules", f"/t/{code}"):
        person.page.goto(web_server.base + path)
        person.page.wait_for_load_state("networkidle")
    expect(person.page.locator("#nav-signin")).to_be_visible()  # a guest's page
    assert not logged, logged
    description = person.page.get_attribute("meta[name='description']", "content")
    assert description and "包分" in description and "Baofen" in description
    person.close()
