"""People playing in the browser against the real server: whole hands of 包分 and 包红五, two
people at one table, a reload mid-hand, and screenshots on a phone and a desktop."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from ..server.harness import ProcessServer, ThreadServer, create_table, free_port
from .ui import DESKTOP, FAST_REVIEW, HAND_TURNS, PHONE, Person, chip, fast_review, play_to_result


def create_in_lobby(person: Person, variant: str, hands: int, name: str) -> str:
    """Create a table in the lobby's form (no timers) as ``name``, who sits at South; the new
    table's code."""
    page = person.page
    page.goto(person.base + "/")
    page.fill("#f-player", name)
    page.click(f"label.game:has(input[value='{variant}'])")
    expect(page.locator(f"label.game.chosen:has(input[value='{variant}'])")).to_be_visible()
    page.click("#more > summary")
    page.eval_on_selector("details.rules", "details => { details.open = true; }")
    page.fill("#f-hands", str(hands))
    for timer in ("bid", "kitty", "play"):
        page.fill(f"#f-{timer}_seconds", "")
    page.select_option("#f-bot_level", "easy")
    page.fill("#f-name", f"{variant} test")
    page.click("#create")
    page.wait_for_url("**/t/*")
    person.wait_connected()
    person.wait_for("document.body.dataset.seat === '0'")
    return page.url.rsplit("/", 1)[1].split("#")[0]


def lead_a_failing_throw(person: Person) -> None:
    """At a lead: two cards of different suit groups keep the play button disabled, with the
    engine's reason in Chinese; then the highest and the lowest card of the longest plain suit,
    a throw (甩牌) that is legal but fails (someone holds a higher card than its lowest): the last
    trick shows all its cards, what was played, and the penalty."""
    page = person.page
    groups = page.locator("#hand .suit-group")
    assert groups.count() >= 2
    person.click_card(groups.nth(0).locator(".card").first)
    person.click_card(groups.nth(1).locator(".card").first)
    expect(page.locator("#play-note.error")).to_be_visible()
    # the engine's reason, said in the page's language (Chinese) from its reason code
    expect(page.locator("#play-note")).to_contain_text("领出（含甩牌）必须同一门")
    expect(page.locator("#btn-play")).to_be_disabled()
    page.click("#btn-hint")  # the hint replaces the selection with a legal play
    expect(page.locator("#btn-play")).to_be_enabled()
    selected = page.locator("#hand .card.selected")
    for remaining in range(selected.count(), 0, -1):
        person.click_card(selected.first)
        expect(selected).to_have_count(remaining - 1)
    plain = page.locator("#hand .suit-group:not(.trumps)").all()
    longest = max(plain, key=lambda group: group.locator(".card").count()).locator(".card")
    assert longest.count() >= 4
    high, low = longest.first.get_attribute("data-card"), longest.last.get_attribute("data-card")
    person.click_card(longest.first)
    person.click_card(longest.last)
    expect(page.locator("#btn-play")).to_be_enabled()  # a throw that will fail is legal
    person.act_and_wait(lambda: page.click("#btn-play"))
    assert person.my_turn_or_result() == "turn"
    page.click("#btn-last")
    failed = page.locator(".last-trick #failed-throw")
    expect(failed).to_be_visible()
    expect(failed).to_contain_text("罚 6 分")  # 3 per attempted card
    assert failed.locator(".chip").all_inner_texts()[:2] == [chip(high), chip(low)]
    page.click(".modal .close")


def check_baofen_result(person: Person) -> None:
    """The result dialog shows the 包分 breakdown and each seat's change."""
    page = person.page
    dialog = page.locator(".result-dialog")
    expect(dialog.locator(".headline")).to_be_visible()
    rows = dialog.locator(".breakdown th").all_inner_texts()
    assert {"叫分", "抓分", "其中王分", "底牌分", "庄家得分", "本局得分"} <= set(rows), rows
    expect(dialog.locator(".seats-result")).to_be_visible()


def test_baofen_hand_against_three_computers(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    code = create_in_lobby(person, "baofen", hands=1, name="安娜")
    page = person.page
    expect(page.locator(".seat.bottom")).to_contain_text("安娜")
    person.fill_bots("easy")
    person.start()

    assert person.my_turn_or_result() == "turn" and person.body("phase") == "bidding"
    expect(page.locator("[data-bid]")).to_have_count(4)  # 不叫, 85, 90, 95
    person.bid(95)  # the top value ends the bidding at once: South declares
    person.wait_for("document.body.dataset.phase === 'kitty'")
    expect(page.locator("#hand .card")).to_have_count(33)
    buried = person.name_trump_and_bury("S")
    assert len(buried) == 8
    person.wait_for("document.body.dataset.phase === 'playing'")
    expect(page.locator("#hand .card")).to_have_count(25)
    expect(page.locator(".seat.bottom .badge.declarer")).to_be_visible()
    expect(page.locator(".suit-group.trumps").first).to_be_visible()

    lead_a_failing_throw(person)
    play_to_result(person)
    check_baofen_result(person)
    expect(page.locator(".result-dialog .scoreboard")).to_be_visible()  # the match is over
    person.close_result()

    expect(page.locator("#btn-last")).to_be_enabled()
    page.click("#btn-last")
    expect(page.locator(".last-trick .slot.winner")).to_have_count(1)
    expect(page.locator(".last-trick .slot .card")).not_to_have_count(0)
    page.click(".modal .close")

    page.click("#btn-replay")
    expect(page.locator(".replay-step")).to_be_visible()
    expect(page.locator(".replay-bids")).to_contain_text("95")
    page.click("#replay-next")
    expect(page.locator(".replay-label")).to_contain_text("第 1/")
    expect(page.locator(".replay-play.winner")).to_have_count(1)
    expect(page.locator(".replay-play")).to_have_count(4)
    page.locator(".replay-viewer input[type=range]").fill("1000")
    summary = httpx.get(f"{web_server.base}/api/tables/{code}/hands").json()[0]
    assert summary["result"]["declarer"] == 0
    expect(page.locator(".replay-step .result")).to_be_visible()
    check_review(person, f"{web_server.base}/api/tables/{code}/hands/1/analysis{FAST_REVIEW}")
    person.close()


def check_review(person: Person, url: str) -> None:
    """The replay's 复盘 shows each player's summary and, trick by trick, a note on every play,
    marking exactly the moves the server's review flagged (不精确, 失误, 大错)."""
    page = person.page
    fast_review(page)
    page.click("#replay-review")
    summary = page.locator(".review-summary")
    expect(summary).to_be_visible(timeout=60_000)
    review = httpx.get(url).json()["review"]
    expect(summary.locator("tr")).to_have_count(5)  # a header and four players
    plays = [move for move in review["moves"] if move["kind"] == "play"]
    contract = [move for move in review["moves"] if move["kind"] != "play"]
    assert sum(move["kind"] == "declare" for move in contract) == 1
    page.locator(".replay-viewer input[type=range]").fill("0")  # the bids and the bury
    expect(page.locator(".replay-step .review-note")).to_have_count(len(contract))
    expect(page.locator(".replay-step .review-note.flagged")).to_have_count(
        sum(bool(move["category"]) for move in contract))
    mistakes = {move["trick"]: 0 for move in plays}
    for move in plays:
        mistakes[move["trick"]] += bool(move["category"])
    assert summary.locator("td.minus").count() == sum(
        (s["mistakes"] > 0) + (s["blunders"] > 0) for s in review["seats"])
    assert summary.locator("td.accuracy").count() == 4
    for trick, count in sorted(mistakes.items()):
        page.locator(".replay-viewer input[type=range]").fill(str(trick))
        expect(page.locator(".replay-label")).to_contain_text(f"{trick}/")
        expect(page.locator(".replay-play .review-note")).to_have_count(4)
        expect(page.locator(".review-note.flagged")).to_have_count(count)


def test_hongwu_hand_in_english(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    page = person.page
    page.goto(person.base + "/")
    expect(page.locator("#quickplay")).to_have_text("和电脑玩")
    page.click("#lang")
    expect(page.locator("#quickplay")).to_have_text("Play the computer")
    code = create_in_lobby(person, "hongwu", hands=4, name="Ann")
    # the choice is kept across pages
    expect(page.locator("#lang")).to_have_attribute("title", "中文")
    person.fill_bots("easy")
    person.start()
    for _ in range(4):  # until Ann declares (a computer may bid 200 before her)
        declared = False
        for _ in range(HAND_TURNS):
            if person.my_turn_or_result() == "result":
                break
            if person.body("phase") == "kitty":
                declared = True
                person.name_trump_and_bury("H")
            else:
                person.take_turn()
        if declared:
            break
        person.close_result()
    assert declared, "Ann never got to declare"
    expect(page.locator(".result-dialog .headline")).to_contain_text("Ann")
    rows = page.locator(".result-dialog .breakdown th").all_inner_texts()
    assert {"Bid", "Captured", "Kitty points", "Declarer's points", "Levels"} <= set(rows), rows
    assert {"Kitty kept (保底)", "Kitty caught (抓底)"} & set(rows), rows
    person.close_result()
    page.click("#lang")
    expect(page.locator("#btn-scores")).to_have_text("记分")
    assert httpx.get(f"{web_server.base}/api/tables/{code}/hands").json()
    person.close()


def test_two_people_and_two_computers(chromium: Browser, web_server: ThreadServer) -> None:
    code = create_table(web_server.base, {"variant": "baofen", "hands": 1}, timer=None)
    ann, bo = Person(chromium, web_server.base), Person(chromium, web_server.base)
    ann.open_table(code)
    ann.sit(0, "Ann")
    bo.open_table(code)
    expect(bo.page.locator("[data-sit='0']")).to_have_count(0)  # Ann's seat is taken
    bo.sit(2, "")  # a friend who types no name gets a readable one from the server
    expect(ann.page.locator(".pick[data-seat='2']")).to_contain_text("玩家")
    expect(ann.page.locator(".pick[data-seat='2']")).not_to_contain_text("你")
    bo_name = bo.page.evaluate("localStorage.getItem('baofen.name')")
    assert re.fullmatch(r"玩家\d{4}", bo_name or ""), bo_name  # remembered for the next table
    # Only the host (Ann, seated first) starts and fills the seats; Bo is told he waits for her.
    expect(bo.page.locator("#wait-host")).to_contain_text("Ann")
    expect(bo.page.locator("#btn-start")).to_have_count(0)
    expect(bo.page.locator("#btn-bots")).to_have_count(0)
    expect(ann.page.locator("#wait-host")).to_have_count(0)
    ann.fill_bots("easy")
    ann.start()
    expect(ann.page.locator(".seat.top")).to_contain_text(bo_name)
    expect(bo.page.locator(".seat.top")).to_contain_text("Ann")
    done: set[Person] = set()
    deadline = time.monotonic() + 120
    while len(done) < 2 and time.monotonic() < deadline:
        for person in (ann, bo):
            if person.page.locator(".result-dialog").count():
                done.add(person)
            elif person.body("myTurn") == "1":
                person.take_turn()
        ann.page.wait_for_timeout(20)
    assert done == {ann, bo}
    assert ann.body("status") == bo.body("status") == "finished"
    assert int(bo.body("tricks")) > 0 and bo.body("declarer") == "0"  # South bid 95 first
    ann.close()
    bo.close()


def test_reload_mid_hand_and_continue(chromium: Browser, web_server: ThreadServer) -> None:
    # two hands: 托管 may finish the first, and the table then waits for 继续 (not the end)
    code = create_table(web_server.base, {"variant": "baofen", "hands": 2}, timer=None)
    person = Person(chromium, web_server.base)
    person.open_table(code)
    person.sit(1, "Cy")
    person.fill_bots("easy")
    person.start()
    while int(person.body("tricks") or 0) < 3:
        assert person.my_turn_or_result() == "turn", "the hand ended before three tricks"
        person.take_turn()
    person.my_turn_or_result()
    before = person.hand()
    assert before, "the hand is shown at this player's turn"
    tricks = person.body("tricks")
    person.page.reload()
    person.wait_connected()
    person.wait_for("document.body.dataset.seat === '1'")
    assert person.body("tricks") == tricks
    expect(person.page.locator("#hand .card")).to_have_count(len(before))
    assert sorted(person.hand()) == sorted(before)
    expect(person.page.locator("[data-sit]")).to_have_count(0)

    person.page.click("#btn-auto")  # 托管: the computer plays this seat
    expect(person.page.locator(".seat.bottom .badge.auto")).to_be_visible()
    person.wait_for("n => Number(document.body.dataset.tricks) > n", int(tricks) + 1)
    # the computer may have finished the hand meanwhile: its result dialog then covers the tools
    person.page.locator("#btn-auto").dispatch_event("click")
    expect(person.page.locator(".seat.bottom .badge.auto")).to_have_count(0)
    play_to_result(person)
    person.close()


def test_screenshots_phone_and_desktop(
    chromium: Browser, web_server: ThreadServer, screenshots: Path
) -> None:
    code = create_table(web_server.base, {"variant": "hongwu", "hands": 2}, timer=60)
    phone = Person(chromium, web_server.base, PHONE)
    phone.page.goto(web_server.base + "/")
    expect(phone.page.locator("#quickplay")).to_be_visible()
    phone.page.screenshot(path=str(screenshots / "phone-lobby.png"), full_page=True)
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.open_table(code)
    phone.sit(0, "手机")
    phone.fill_bots("easy")
    phone.start()
    while int(phone.body("tricks") or 0) < 4:
        assert phone.my_turn_or_result() == "turn"
        if phone.body("phase") == "kitty":  # when this player is the declarer
            phone.page.screenshot(path=str(screenshots / "phone-kitty.png"))
        phone.take_turn()
    phone.my_turn_or_result()
    phone.page.click("#btn-hint")
    expect(phone.page.locator("#hand .card.selected")).not_to_have_count(0)
    expect(phone.page.locator("#btn-play")).to_be_enabled()
    expect(phone.page.locator(".actions .timer")).to_have_text(re.compile(r"^\d+秒$"))
    phone.page.screenshot(path=str(screenshots / "phone-table.png"))
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for selector in ("#hand .card", "#btn-hint", "#btn-play", ".seat.top", ".seat.left"):
        box = phone.page.locator(selector).first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    desktop = Person(chromium, web_server.base, DESKTOP)
    desktop.open_table(code)  # a spectator's view of the same table
    expect(desktop.page.locator(".actions .status")).to_have_text("旁观中")
    desktop.page.screenshot(path=str(screenshots / "desktop-spectator.png"))
    phone.play_hint()
    play_to_result(phone)
    phone.page.screenshot(path=str(screenshots / "phone-result.png"))
    desktop.wait_for("document.body.dataset.phase === 'done' || document.body.dataset.hand === '2'")
    desktop.page.set_viewport_size(DESKTOP)
    desktop.page.screenshot(path=str(screenshots / "desktop-table.png"))
    phone.close()
    desktop.close()


def test_reconnects_after_a_server_restart(
    chromium: Browser, tmp_path: Path
) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    server = ProcessServer(db, port, {"BAOFEN_DROP_GRACE": "30", "BAOFEN_BOT_DELAY": "0.01"})
    person = Person(chromium, server.base)
    try:
        code = create_table(server.base, {"variant": "hongwu", "hands": 1}, timer=None)
        person.open_table(code)
        person.sit(2, "Di")
        person.fill_bots("easy")
        person.start()
        person.my_turn_or_result()
        before = person.hand()
        assert before, "the hand is shown at this player's turn"
        server.kill()
        expect(person.page.locator("#conn")).to_have_attribute("data-status", "closed")
        server = ProcessServer(db, port, {"BAOFEN_DROP_GRACE": "30"})
        person.wait_connected()  # reconnected by itself, and reclaimed the seat
        person.wait_for("document.body.dataset.seat === '2'")
        expect(person.page.locator("#hand .card")).to_have_count(len(before))
        assert sorted(person.hand()) == sorted(before)
        play_to_result(person)
    finally:
        server.stop()
    person.close()
