"""Inviting friends to a table, in the real browser against the real server: the invitation's
QR code drawn, a friend who types no name given a default one and waiting for the host to
start, and 复制 of the table's link with the Clipboard API, with the share sheet, or with
neither (a plain-http LAN address)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from ..server.harness import ThreadServer, create_table
from .ui import DESKTOP, PHONE, VIEW_IDS, VIEWS, Person, person_in

# -- the QR code --------------------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_invitation_qr_code_is_drawn(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    code = person.open_new_table()
    person.wait_for("document.querySelector('#share-qr').complete")
    page.screenshot(path=str(screenshots / f"qr-{language}-{viewport['width']}.png"))
    assert page.eval_on_selector("#share-qr", "img => img.naturalWidth") > 0
    svg = httpx.get(f"{person.base}/t/{code}/qr.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg.text


# -- a friend without a name; only the host starts -----------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_a_friend_gets_a_name_and_waits_for_the_host(
        person: Person, friend: Person, screenshots: Path, viewport: dict[str, int],
        language: str) -> None:
    host = person
    code = host.open_new_table()
    host.sit(0, "Ann")
    friend.open_table(code)
    friend.sit(1, "")  # typed no name
    expect(host.page.locator(".pick[data-seat='1']")).to_contain_text(re.compile(r"\d{4}"))
    name = friend.page.evaluate("localStorage.getItem('baofen.name')")
    # the default of the page's language, kept
    assert re.fullmatch({"zh": r"玩家\d{4}", "en": r"Player\d{4}"}[language], name or ""), name
    expect(friend.page.locator("#wait-host")).to_contain_text("Ann")
    expect(friend.page.locator("#btn-start, #btn-bots")).to_have_count(0)
    expect(host.page.locator("#btn-start")).to_be_visible()
    expect(host.page.locator("#btn-bots")).to_be_visible()
    friend.page.screenshot(path=str(screenshots / f"wait-host-{language}-{viewport['width']}.png"))


# -- 复制 ------------------------------------------------------------------------------------------

NO_CLIPBOARD = """
Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
delete Navigator.prototype.share;
"""
"""A plain-http LAN address: no Clipboard API and no share sheet (both need a secure context;
the tests' loopback address is one)."""

SHARE_SHEET = (
    NO_CLIPBOARD
    + """
window.shared = [];
Navigator.prototype.share = function (data) { window.shared.push(data); return Promise.resolve(); };
"""
)
"""A phone without the Clipboard API but with the share sheet."""


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_copy_says_what_happened_without_the_clipboard_api(
        person: Person, viewport: dict[str, int], language: str) -> None:
    person.context.add_init_script(NO_CLIPBOARD)
    page = person.page
    code = person.open_new_table()
    link = page.input_value("#share-link")
    assert link.endswith(f"/t/{code}")
    page.click("#btn-copy")
    # copied the old way (execCommand), or at least selected for the player to copy: said
    copied = {"zh": "已复制链接", "en": "Link copied"}[language]
    selected = {"zh": "链接已选中", "en": "the link is selected"}[language]
    expect(page.locator(".toast")).to_contain_text(re.compile(f"{copied}|{selected}"))
    selection = page.evaluate(
        "(i => [i.selectionStart, i.selectionEnd])(document.querySelector('#share-link'))"
    )
    assert selection == [0, len(link)]
    # the server's own address is loopback here: the page says how friends on other devices
    # get in
    expect(page.locator("#share-lan")).to_contain_text("--host 0.0.0.0")


def test_copy_opens_the_share_sheet_on_a_phone_without_the_clipboard_api(
    chromium: Browser, web_server: ThreadServer
) -> None:
    code = create_table(web_server.base, {"variant": "baofen"}, timer=None)
    person = person_in(chromium, web_server.base, PHONE, "zh")
    person.context.add_init_script(SHARE_SHEET)
    page = person.page
    person.open_table(code)
    page.click("#btn-copy")
    expect(page.locator(".toast")).to_contain_text("已打开分享")
    shared = page.evaluate("window.shared")
    assert [item["url"] for item in shared] == [page.input_value("#share-link")]
    person.close()


def test_copy_uses_the_clipboard_where_it_may(chromium: Browser, web_server: ThreadServer) -> None:
    code = create_table(web_server.base, {"variant": "baofen"}, timer=None)
    person = person_in(chromium, web_server.base, DESKTOP, "en")
    person.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web_server.base)
    page = person.page
    person.open_table(code)
    page.click("#btn-copy")
    expect(page.locator(".toast")).to_contain_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#share-link")
    person.close()
