"""Accounts in the browser: signing up and in from the top bar (with the refusals a player can
meet: passwords that differ, a wrong password, too many tries), the 战绩 page with a rated hand
and its replay, the leaderboard, changing the password, signing out, deleting the account, the
consent to puzzles from one's hands; and a signed-in player's seat taken back from a second
browser. Screenshots at phone and desktop sizes, in both languages, and axe checks of every new
page."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from baofen.server import ServerConfig

from ..server.harness import ThreadServer
from .accessibility import check_axe
from .conftest import FAST
from .ui import DESKTOP, PHONE, VIEW_IDS, VIEWS, Person, fast_review

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def accounts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server of its own: its sign-in limits (per address) concern this module alone."""
    db = tmp_path_factory.mktemp("accounts") / "baofen.db"
    live = ThreadServer(ServerConfig(db=f"sqlite:///{db}", login_failures=3, **FAST))
    yield live
    live.stop()


def fresh_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def open_dialog(person: Person, tab: str) -> None:
    """Open the sign-in dialog from the top bar, on the sign-in ("in") or sign-up ("up") tab."""
    person.page.click("#nav-signin")
    person.page.click(f"#tab-sign{tab}")
    expect(person.page.locator(f"#tab-sign{tab}")).to_have_attribute("aria-pressed", "true")


def submit(person: Person, username: str, password: str, again: str | None = None) -> None:
    page = person.page
    page.fill("#account-username", username)
    page.fill("#account-password", password)
    if again is not None:
        page.fill("#account-again", again)
    page.click("#account-submit")


def sign_up(person: Person, username: str) -> None:
    person.page.goto(person.base + "/")
    open_dialog(person, "up")
    submit(person, username, PASSWORD, PASSWORD)
    expect(person.page.locator("#nav-me")).to_have_text(username)


def sign_in(person: Person, username: str, password: str = PASSWORD) -> None:
    open_dialog(person, "in")
    submit(person, username, password)
    expect(person.page.locator("#nav-me")).to_have_text(username)


def declare_then_let_the_computer_play(person: Person, more_hands: bool = False) -> None:
    """Bid the highest (South bids first in 包分), so that the hand has a declarer and counts in
    the record; then 托管 plays the rest, until the hand's result. With ``more_hands`` (the
    match goes on) 托管 is turned off before 继续: it would play the next hand too, whose result
    could cover the table again before the test looks."""
    assert person.my_turn_or_result() == "turn" and person.body("phase") == "bidding"
    person.bid(person.highest_bid())
    person.page.click("#btn-auto")
    expect(person.page.locator(".result-dialog")).to_be_visible()
    if more_hands:  # the result dialog covers the tools: the click is dispatched
        person.page.locator("#btn-auto").dispatch_event("click")
        expect(person.page.locator(".seat.bottom .badge.auto")).to_have_count(0)
    person.close_result()


def play_one_rated_hand(person: Person) -> None:
    """和电脑玩 from the lobby (rated when signed in), 托管 on, until the hand's result."""
    page = person.page
    page.goto(person.base + "/")
    page.select_option("#quick-level", "easy")
    page.click("#quickplay")
    page.wait_for_url("**/t/*")
    person.wait_for("document.body.dataset.status === 'playing'")
    declare_then_let_the_computer_play(person, more_hands=True)


def play_a_rated_one_hand_match(person: Person) -> None:
    """A rated table of one hand from the lobby's form, the computer in the other seats, 托管
    on, until the match's result."""
    page = person.page
    page.goto(person.base + "/")
    page.click("#more > summary")
    page.eval_on_selector("details.rules", "details => { details.open = true; }")
    page.fill("#f-hands", "1")
    page.check("#f-rated")
    page.select_option("#f-bot_level", "easy")
    page.click("#create")
    page.wait_for_url("**/t/*")
    person.wait_for("document.body.dataset.seat === '0'")
    person.fill_bots()
    person.start()
    declare_then_let_the_computer_play(person)


def test_sign_up_play_profile_leaderboard_and_account(
    chromium: Browser, accounts_server: ThreadServer, screenshots: Path
) -> None:
    ann = Person(chromium, accounts_server.base, PHONE)
    page = ann.page
    name = fresh_name("Ann")
    page.goto(ann.base + "/")
    open_dialog(ann, "up")
    check_axe(ann, "sign-up dialog")
    submit(ann, name, PASSWORD, PASSWORD + "!")
    expect(page.locator(".form-problem")).to_have_text("两次输入的密码不一样")
    submit(ann, "ab", PASSWORD, PASSWORD)
    expect(page.locator(".form-problem")).to_have_text("用户名要 3–20 个字符")
    submit(ann, "Аnn", PASSWORD, PASSWORD)  # a Cyrillic А: the server refuses the look-alike
    expect(page.locator(".form-problem")).to_have_text(
        "用户名只能用字母、数字、_ 和 -，或汉字，3–20 个字符")
    page.screenshot(path=str(screenshots / "phone-signup.png"))
    submit(ann, name, PASSWORD, PASSWORD)
    expect(page.locator("#nav-me")).to_have_text(name)
    expect(page.locator("#f-player")).to_have_value(name)  # the lobby plays under the account

    play_a_rated_one_hand_match(ann)
    page.click("#nav-me")  # the top bar leads to one's own 战绩
    page.wait_for_url(f"**/players/{name}")
    record = page.locator("[data-variant='baofen']")
    expect(record.locator("[data-stat='hands'] dd")).to_have_text("1")
    expect(record.locator("[data-stat='rated'] dd")).to_have_text("1")
    expect(page.locator("#recent tbody tr")).to_have_count(1)
    expect(page.locator("#recent tbody td").nth(2)).to_have_text("庄家")  # as declarer
    expect(record.locator("[data-stat='declarer'] dd")).to_have_text("1")
    check_axe(ann, "profile")
    page.screenshot(path=str(screenshots / "phone-profile.png"), full_page=True)
    # a new account's rating, below zero after one hand, reads with its sign and not in green
    rating = record.locator(".rating-value")
    if rating.inner_text().startswith("−"):
        expect(rating).to_have_class(re.compile(r"\bbelow\b"))
        assert rating.evaluate("r => getComputedStyle(r).color") != "rgb(13, 92, 58)"
    fast_review(page)
    page.click("#recent [data-replay]")  # 复盘: the replay with the computer's review
    expect(page.locator(".replay-viewer .replay-step")).to_be_visible()
    expect(page.locator(".replay-viewer .review-summary")).to_be_visible(timeout=60_000)
    page.keyboard.press("Escape")  # closes the replay
    expect(page.locator(".modal")).to_have_count(0)

    page.goto(ann.base + "/leaderboard")
    expect(page.locator("#leaders-table tr.me")).to_contain_text(name)
    check_axe(ann, "leaderboard")
    page.screenshot(path=str(screenshots / "phone-leaderboard.png"), full_page=True)

    page.goto(f"{ann.base}/players/{name}")
    page.click("#btn-password")
    page.fill("#password-old", "not my password")
    page.fill("#password-new", PASSWORD + "2")
    page.fill("#password-again", PASSWORD + "2")
    page.click("#password-submit")
    expect(page.locator(".form-problem")).to_have_text("密码不对")
    page.fill("#password-old", PASSWORD)
    page.click("#password-submit")
    expect(page.locator(".toast")).to_contain_text("密码已修改")

    page.click("#btn-signout")
    expect(page.locator("#nav-signin")).to_be_visible()
    expect(page.locator("#account-actions")).to_have_count(0)  # a guest sees no settings
    open_dialog(ann, "in")
    submit(ann, name, PASSWORD)  # the old password no longer works
    expect(page.locator(".form-problem")).to_have_text("用户名或密码不对")
    submit(ann, name.upper(), PASSWORD + "2")  # case does not matter
    expect(page.locator("#nav-me")).to_have_text(name)

    page.click("#nav-me")
    page.click("#btn-delete")
    expect(page.locator(".modal .warning")).to_be_visible()
    page.fill("#delete-password", PASSWORD + "2")
    page.click("#delete-submit")
    page.wait_for_url(ann.base + "/")
    expect(page.locator("#nav-signin")).to_be_visible()
    page.goto(f"{ann.base}/players/{name}")
    expect(page.locator("#profile-missing")).to_contain_text(name)
    ann.close()


def test_pages_in_english_on_a_desktop(
    chromium: Browser, accounts_server: ThreadServer, screenshots: Path
) -> None:
    bo = Person(chromium, accounts_server.base, DESKTOP)
    page = bo.page
    name = fresh_name("Bo")
    page.goto(bo.base + "/")
    page.click("#lang")
    open_dialog(bo, "up")
    page.screenshot(path=str(screenshots / "desktop-signup-en.png"))
    submit(bo, name, PASSWORD, PASSWORD)
    expect(page.locator("#nav-me")).to_have_text(name)
    play_one_rated_hand(bo)
    page.goto(f"{bo.base}/players/{name}")
    expect(page.locator("#profile h2").first).to_contain_text("Baofen")
    expect(page.locator("#recent th").first).to_have_text("When")
    expect(page.locator("#profile")).to_contain_text("replayed once its match is over")
    page.screenshot(path=str(screenshots / "desktop-profile-en.png"), full_page=True)
    page.goto(bo.base + "/leaderboard?variant=hongwu")
    expect(page.locator("#leaders")).to_contain_text("Nobody has played a rated hand yet.")
    page.click("a.tab:not(.on)")
    expect(page.locator("#leaders-table tr.me")).to_contain_text(name)
    page.screenshot(path=str(screenshots / "desktop-leaderboard-en.png"), full_page=True)
    bo.close()


def test_a_taken_name_and_too_many_wrong_passwords_are_refused(
    chromium: Browser, tmp_path: Path
) -> None:
    live = ThreadServer(ServerConfig(db=f"sqlite:///{tmp_path / 'b.db'}", login_failures=2,
                                       **FAST))
    try:
        cy = Person(chromium, live.base, PHONE)
        name = fresh_name("Cy")
        sign_up(cy, name)
        cy.page.click("#nav-me")
        cy.page.click("#btn-signout")
        open_dialog(cy, "up")
        submit(cy, name.upper(), PASSWORD, PASSWORD)  # the same name in capitals is taken
        expect(cy.page.locator(".form-problem")).to_contain_text("这个用户名已有人用了")
        cy.page.click("#tab-signin")
        for _ in range(2):
            submit(cy, name, "wrong password")
            expect(cy.page.locator(".form-problem")).to_have_text("用户名或密码不对")
            cy.page.locator(".form-problem").evaluate("node => { node.textContent = ''; }")
        submit(cy, name, PASSWORD)  # even the right password waits now
        expect(cy.page.locator(".form-problem")).to_contain_text("尝试次数太多，请")
        expect(cy.page.locator("#nav-signin")).to_be_visible()
        cy.close()
    finally:
        live.stop()


def test_a_second_browser_signs_in_and_takes_the_seat_back(
    chromium: Browser, accounts_server: ThreadServer, screenshots: Path
) -> None:
    name = fresh_name("Di")
    phone = Person(chromium, accounts_server.base, PHONE)
    sign_up(phone, name)
    phone.page.click("#friends")  # 和朋友玩: a table, this player at South
    phone.page.wait_for_url("**/t/*")
    phone.wait_for("document.body.dataset.seat === '0'")
    phone.fill_bots()
    phone.start()
    expect(phone.page.locator(".seat.bottom .who")).to_contain_text(name)
    link = phone.page.url

    desktop = Person(chromium, accounts_server.base, DESKTOP)  # no seat token in this browser
    desktop.open_table(link.rsplit("/", 1)[1])
    expect(desktop.page.locator("#nav-signin")).to_be_visible()
    assert desktop.body("seat") == ""  # a guest watches
    sign_in(desktop, name)  # signing in on the table's page takes the account's seat back
    desktop.wait_for("document.body.dataset.seat === '0'")
    expect(desktop.page.locator(".seat.bottom .who")).to_contain_text(name)
    # a registered player's seat is marked, the computers' are not
    expect(desktop.page.locator(".seat.bottom .badge.account")).to_be_visible()
    expect(desktop.page.locator(".seat .badge.account")).to_have_count(1)
    expect(phone.page.locator("#conn")).to_have_attribute("data-status", "replaced")
    desktop.page.screenshot(path=str(screenshots / "desktop-seat-taken-back.png"))
    assert desktop.my_turn_or_result() in ("turn", "result")  # and plays on

    phone.page.reload()  # signed in there too: its old token is void, the account is not
    phone.wait_for("document.body.dataset.seat === '0'")
    expect(desktop.page.locator("#conn")).to_have_attribute("data-status", "replaced")
    desktop.close()
    phone.close()


CONSENT = {"zh": "允许用我打过的牌局生成残局练习",
           "en": "Allow my finished hands to be used for puzzles"}
CONSENT_SAVED = {"zh": ("已允许", "不再用"), "en": ("may now be used", "no longer used")}


@pytest.fixture
def page_server(accounts_server: ThreadServer) -> ThreadServer:
    """The pages of :func:`person` are this module's server's."""
    return accounts_server


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_consent_to_puzzles_from_ones_hands_is_a_switch_on_ones_profile(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    name = fresh_name("Pz")
    sign_up(person, name)
    page.goto(f"{person.base}/players/{name}")
    box = page.locator("#puzzle-consent")
    expect(box).not_to_be_checked()  # off until the player turns it on
    expect(page.locator("#account-actions label.check")).to_have_text(CONSENT[language])
    page.locator("#account-actions").screenshot(
        path=str(screenshots / f"puzzle-consent-{language}-{viewport['width']}.png"))
    saved_on, saved_off = CONSENT_SAVED[language]
    box.check()
    expect(page.locator(".toast").last).to_contain_text(saved_on)
    page.reload()
    expect(page.locator("#puzzle-consent")).to_be_checked()
    assert person.context.request.get(f"{person.base}/api/me").json()["puzzle_consent"] is True
    page.locator("#puzzle-consent").uncheck()
    expect(page.locator(".toast").last).to_contain_text(saved_off)
    page.reload()
    expect(page.locator("#puzzle-consent")).not_to_be_checked()
