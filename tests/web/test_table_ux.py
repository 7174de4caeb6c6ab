"""A table players enjoy, in the real browser against the real server: one click to play,
timers that never trap a player, tricks and the 记牌器 shown as the server says, screenshots of
every stage at phone and desktop sizes in both languages, and no serious accessibility fault
(axe-core)."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from baofen.wire.patch import apply as apply_patch

from ..server.harness import ThreadServer, create_table
from .accessibility import check_axe
from .ui import DESKTOP, PHONE, Person, fast_review, play_to_result

TALL_PHONE = {"width": 390, "height": 844}


class Watched(Person):
    """A person whose page's last ``state`` message is kept (read off its WebSocket)."""

    def __init__(self, browser: Browser, base: str, viewport: dict[str, int] = DESKTOP) -> None:
        super().__init__(browser, base, viewport)
        self.state: dict[str, Any] | None = None
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "patch" and self.state is not None:
            message = apply_patch(self.state, message)
        if message.get("type") == "state":
            self.state = message


def test_play_the_computer_from_the_lobby_to_the_first_bid_in_two_clicks(
    chromium: Browser, web_server: ThreadServer
) -> None:
    person = Person(chromium, web_server.base, PHONE)
    page = person.page
    page.goto(web_server.base + "/")
    check_axe(person, "lobby")
    expect(page.locator("#more")).not_to_have_attribute("open", "")  # the full form is folded
    expect(page.locator("#quick-level option")).to_have_text(["简单", "普通", "困难", "大师"])
    page.click("#quickplay")  # click 1
    page.wait_for_url("**/t/*")
    person.wait_for("document.body.dataset.phase === 'bidding'"
                    " && document.body.dataset.seat === '0'")
    expect(page.locator(".seat.bottom .who")).to_contain_text("玩家")  # a readable default name
    name = page.evaluate("localStorage.getItem('baofen.name')")
    assert name and name.startswith("玩家") and name[2:].isdigit()
    person.wait_for("document.body.dataset.myTurn === '1'")  # South bids first in 包分
    check_axe(person, "bidding")
    # The computers may bid, bury and lead within a second, and the bids give way to the trick:
    # the page notes the first bid drawn, whenever it is.
    page.evaluate("""window.firstBid = null;
      new MutationObserver(() => {
        const bid = document.querySelector('.bids li');
        if (bid && window.firstBid === null) window.firstBid = bid.textContent;
      }).observe(document, { subtree: true, childList: true, characterData: true });""")
    person.act_and_wait(lambda: page.click("[data-bid='pass']"))  # click 2: the first bid
    person.wait_for("window.firstBid !== null")
    assert "不叫" in page.evaluate("window.firstBid")
    person.close()


def test_the_result_stays_until_continue(chromium: Browser, web_server: ThreadServer) -> None:
    code = create_table(web_server.base, {"variant": "baofen", "hands": 2}, timer=10,
                        ready_seconds=1, bot_level="random")
    person = Person(chromium, web_server.base)
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    play_to_result(person)
    page = person.page
    page.wait_for_timeout(3000)  # three times the ready timer, with the dialog open
    expect(page.locator(".result-dialog")).to_be_visible()
    assert person.body("hand") == "1" and person.body("phase") == "done"
    expect(page.locator(".seat.bottom .badge.auto")).to_have_count(0)  # not in 托管
    page.click("#btn-continue")
    person.wait_for("document.body.dataset.hand === '2'")
    assert person.body("phase") != "done"  # dealt (the computers may have bid on already)
    person.close()


def test_a_timeout_plays_one_move_and_the_second_hands_the_seat_to_the_computer(
    chromium: Browser, web_server: ThreadServer
) -> None:
    # two hands: 托管 may finish the first before the test looks, and the table then waits
    code = create_table(web_server.base, {"variant": "baofen", "hands": 2}, timer=None,
                        play_seconds=1.5)
    person = Watched(chromium, web_server.base)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    person.wait_for("document.body.dataset.myTurn === '1'")
    person.bid(95)  # the top bid: South declares at once
    person.wait_for("document.body.dataset.phase === 'kitty'")
    expect(page.locator("#hand .card.from-kitty")).to_have_count(8)  # the kitty's cards marked
    person.name_trump_and_bury("S")
    person.wait_for("document.body.dataset.phase === 'playing'"
                    " && document.body.dataset.myTurn === '1'")
    # South leads; nobody touches anything: the computer plays this one card, the seat stays hers
    person.wait_for("document.body.dataset.tricks === '1'"
                    " || document.querySelector('#trick .slot.bottom .card')")
    expect(page.locator("#auto-banner")).to_have_count(0)
    expect(page.locator(".seat.bottom .badge.auto")).to_have_count(0)
    # at her next turn the second timeout in a row: 托管, said by a banner with one button
    expect(page.locator("#auto-banner")).to_be_visible(timeout=15_000)
    expect(page.locator("#auto-banner")).to_contain_text("托管")
    # (the computer may have finished the hand meanwhile: the result dialog then covers it)
    page.locator("#btn-take-back").dispatch_event("click")
    expect(page.locator("#auto-banner")).to_have_count(0)
    expect(page.locator(".seat.bottom .badge.auto")).to_have_count(0)
    person.close()


def test_the_page_shows_the_winning_seat_and_the_counter_the_server_sends(
    chromium: Browser, web_server: ThreadServer
) -> None:
    code = create_table(web_server.base, {"variant": "hongwu", "hands": 1}, timer=None)
    person = Watched(chromium, web_server.base)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    checked = 0
    for _ in range(60):
        if person.my_turn_or_result() == "result":
            break
        state = person.state
        assert state is not None
        observation = state["observation"]
        if observation["phase"] == "playing" and observation["current_trick"]:
            winning = observation["winning"]
            expect(page.locator("#trick .slot.winner")).to_have_attribute("data-seat", str(winning))
            leader = page.locator(f"#trick .slot[data-seat='{observation['leader']}']")
            expect(leader.locator(".tag.lead")).to_be_visible()
            expect(page.locator("#trick-info")).to_contain_text(f"{observation['trick_points']} 分")
            shown = _counter_once_drawn(page, observation["counter"])
            assert shown == observation["counter"]
            checked += 1
            if checked == 1:
                check_axe(person, "trick in progress")
        person.take_turn()
    assert checked >= 3
    expect(page.locator("#counter")).to_have_attribute("open", "")  # open on a desktop
    person.close()


def _counter_once_drawn(page: Page, want: dict[str, int]) -> dict[str, int]:
    """The counter's cells as drawn, after waiting (up to the usual timeout) for them to show
    ``want``: the counter is redrawn a moment after the state arrives."""
    read = ("() => Object.fromEntries(Array.from(document.querySelectorAll('#counter .cell'),"
            " c => [c.dataset.card, Number(c.dataset.left)]))")
    same = (f"want => {{ const shown = ({read})(); const keys = Object.keys(want);"
            " return Object.keys(shown).length === keys.length"
            " && keys.every(k => shown[k] === want[k]); }")
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(same, arg=want)
    shown: dict[str, int] = page.evaluate(read)
    return shown


STAGES = ("lobby", "bidding", "kitty", "trick", "result", "replay", "review-bids", "review")


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("size", ["360x740", "390x844", "1280x800"])
def test_screenshots_of_every_stage(
    chromium: Browser, web_server: ThreadServer, screenshots: Path, size: str, language: str
) -> None:
    width, height = map(int, size.split("x"))
    viewport = {"width": width, "height": height}
    person = Person(chromium, web_server.base, viewport)
    page = person.page

    def shot(stage: str) -> None:
        page.screenshot(path=str(screenshots / f"{stage}-{size}-{language}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width, stage

    page.goto(web_server.base + "/")
    expect(page.locator("#quickplay")).to_have_text("和电脑玩")
    if language == "en":
        page.click("#lang")
        expect(page.locator("#quickplay")).to_have_text("Play the computer")
    expect(page.locator(".open-tables li").first).to_be_visible()
    shot("lobby")
    page.click("#quickplay")
    page.wait_for_url("**/t/*")
    person.wait_for("document.body.dataset.myTurn === '1' && document.querySelector('[data-bid]')")
    shot("bidding")
    person.bid(95)
    person.wait_for("document.body.dataset.phase === 'kitty'"
                    " && document.querySelector('#hand .card')")
    page.click("[data-trump='S']")
    expect(page.locator("#hand .card")).to_have_count(33)
    page.click("#btn-hint")
    expect(page.locator("#hand .card.selected")).to_have_count(8)
    shot("kitty")
    person.act_and_wait(lambda: page.click("#btn-bury"))
    for _ in range(30):  # play until a turn where others' cards are on the table
        assert person.my_turn_or_result() == "turn"
        if page.locator("#trick .slot .card").count() and int(person.body("tricks") or 0) >= 2:
            break
        person.play_hint()
    page.click("#btn-hint")
    expect(page.locator("#btn-play")).to_be_enabled()
    if width < 700:  # the whole hand is in view during play, without scrolling
        # Looked at until the layout settles (a notice or the held trick can move it for a
        # moment while the browser is slow under load), then the bottom of the last card.
        page.wait_for_function(
            "() => { const c = [...document.querySelectorAll('#hand .card')].pop();"
            " return c && c.getBoundingClientRect().bottom <= innerHeight; }", timeout=5_000)
        last = page.locator("#hand .card").last.bounding_box()
        assert last is not None and last["y"] + last["height"] <= height, "hand below the screen"
    shot("trick")
    page.click("#btn-auto")  # the computer finishes the hand
    expect(page.locator(".result-dialog")).to_be_visible(timeout=30_000)
    shot("result")
    page.click("#btn-result-replay")
    expect(page.locator(".replay-step")).to_be_visible()
    page.click("#replay-next")
    shot("replay")
    fast_review(page)
    page.click("#replay-review")
    expect(page.locator(".review-summary")).to_be_visible(timeout=60_000)
    fits = page.evaluate("(t => t.getBoundingClientRect().right"
                         " <= t.parentElement.getBoundingClientRect().right + 1)"
                         "(document.querySelector('.review-summary'))")
    assert fits, "the review's summary table is wider than the replay"
    page.locator(".replay-viewer input[type=range]").fill("0")
    expect(page.locator(".replay-bids .review-note").first).to_be_visible()
    shot("review-bids")
    page.locator(".replay-viewer input[type=range]").fill("3")
    expect(page.locator(".replay-play .review-note")).to_have_count(4)
    shot("review")
    person.close()


def test_keyboard_play(chromium: Browser, web_server: ThreadServer) -> None:
    code = create_table(web_server.base, {"variant": "baofen", "hands": 1}, timer=None)
    person = Person(chromium, web_server.base)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    for _ in range(60):
        assert person.my_turn_or_result() == "turn"
        if person.body("phase") == "playing" and page.locator("#trick .slot .card").count() == 0:
            break  # a lead: any single card is legal
        person.take_turn()
    page.locator("#hand .card.selectable").first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.id")
    assert focused == page.locator("#hand .card.selectable").nth(1).get_attribute("data-id")
    page.keyboard.press(" ")
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    expect(page.locator("#btn-play")).to_be_enabled()
    name = focused.split("#")[0]
    copies = ("[...document.querySelectorAll('#hand .card')]"
              ".filter((c) => c.dataset.id.startsWith(n + '#')).length")
    before = page.evaluate(f"(n) => {copies}", name)
    person.act_and_wait(lambda: page.keyboard.press("Enter"))
    # The chosen card left South's hand (or that lead was the hand's last trick: the result).
    # Not "South's card on the table": when a bot wins the trick and South plays next in the
    # new one, the finished trick is not held and the table shows the new trick at once.
    person.wait_for(f"(n) => {copies} === {before - 1} || document.querySelector('.result-dialog')",
                    name)
    person.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_review_note_names_a_winner_thrown_away(
    chromium: Browser, web_server: ThreadServer, screenshots: Path, viewport: dict[str, int]
) -> None:
    """A play flagged for a sure winner thrown on a lost trick (its expected loss may be 0) is
    shown as flagged (at least 不精确) with its reason and the better play, never as a match; a
    blunder shows its loss (its interval), its reason, the better play and, where the hint
    would play otherwise, what the hint plays and why they differ; a move close to the best is
    ≈, never a loss; drawn in a trick of the replay, each note fits the row."""
    person = Person(chromium, web_server.base, viewport)
    page = person.page
    page.goto(web_server.base + "/")
    # The notes replace the page's body: only once the lobby has drawn itself (its drawing
    # after the session comes would find its top bar gone).
    expect(page.locator(".open-tables li").first).to_be_visible()
    notes = page.evaluate("""async () => {
        const { noteEl } = await import('/static/js/review.js');
        const { cardsEl } = await import('/static/js/cards.js');
        const { el } = await import('/static/js/dom.js');
        const review = { unit: 'points' };
        const play = { kind: 'play', made: 'BJ', best: 'C3', hint: 'C3', loss: 0, loss_low: 0,
                       candidates: 3, worlds: 32, category: '', reason: null };
        const trick = { kind: 'trick', facts: { trick: 9, share: 0.71, against: 0.02, points: 10,
                                                last: false, keeps: 'H5', wins_with: 'H5' } };
        const notes = [
          noteEl(review, { ...play, category: 'inaccuracy',
                           reason: { kind: 'wasted_winner', facts: { keeps: 'BJ' } } }),
          noteEl(review, { ...play, made: 'C3' }),
          noteEl(review, { ...play, made: 'H5', best: 'SA', hint: 'C3', loss: 32.4,
                           loss_low: 26.2, category: 'blunder', reason: trick }),
          noteEl(review, { ...play, made: 'D4', best: 'D6', loss: 2.1 }),
        ];
        const row = (name, card, note) => el('div', { class: 'replay-play' },
          el('span', { class: 'who', text: name }), cardsEl([card], 'small'), note);
        document.body.replaceChildren(el('div', { class: 'replay-step' },
          el('div', { class: 'replay-trick' }, row('南·玩家7216', 'BJ', notes[0]),
            row('东·普通', 'C3', notes[1]), row('北·玩家1234', 'H5', notes[2]),
            row('西·简单', 'D4', notes[3]))));
        return notes.map((node) => [node.className, node.textContent]);
    }""")
    (wasted_class, wasted), (good_class, good), (blunder_class, blunder), (close_class, close) \
        = notes
    assert "flagged" in wasted_class and "inaccuracy" in wasted_class, wasted_class
    assert "不精确" in wasted and "浪费大牌" in wasted, wasted
    assert "−" not in wasted  # no loss to show
    assert "good" in good_class and "✓" in good
    assert "blunder" in blunder_class and "大错" in blunder and "26–32 分" in blunder, blunder
    assert "71%" in blunder and "第9轮" in blunder, blunder  # the reason, from its facts
    assert "提示会出" in blunder  # the hint plays otherwise: said, with why in the title
    assert "close" in close_class and "≈" in close and "−" not in close, close
    why = page.locator(".review-why")
    expect(why.first).to_have_attribute("title", re.compile("稳赢"))
    expect(why.last).to_have_attribute("title", re.compile("32 个模拟牌局"))
    for row in page.locator(".replay-play").all():
        box = row.bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"]
    page.screenshot(path=str(screenshots / f"review-wasted-{viewport['width']}.png"))
    person.close()
