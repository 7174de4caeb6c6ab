"""What a newcomer reads at the table, in the real browser against the real server, at a
phone's and a desktop's size in both languages: 包分's caller (主叫) marked while bidding and in
the result, with one line on why a hand nobody bid cost what it did; the seat panels' running
total; the last trick's seat names; the top bar's words whole."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from baofen import RuleSet

from ..server.harness import Client
from .ui import ALL, ALL_IDS, Person


def pass_when_asked(client: Client) -> None:
    """Wait until ``client``'s seat is to bid, and pass."""
    state: dict[str, Any] | None = client.state
    while not (state and state.get("observation") and state["observation"]["phase"] == "bidding"
               and state["observation"]["to_act"] == client.seat):
        state = client.expect("state")
    client.send(type="bid", value=None)


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_the_caller_is_marked_and_a_hand_nobody_bid_says_its_cost(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    base = person.base
    page = person.page
    code = person.open_new_table(RuleSet.baofen(hands=2).to_dict())
    person.sit(0, "Ann")
    friends = [Client(base, code) for _ in range(3)]
    try:
        for seat, friend in enumerate(friends, start=1):
            friend.join(seat, f"F{seat}")
        page.click("#btn-start")
        person.wait_for("document.body.dataset.phase === 'bidding'")
        caller = page.locator("#seat-bottom .badge.caller")
        expect(caller).to_have_text({"zh": "主叫", "en": "caller"}[language])
        expect(page.locator(".badge.caller")).to_have_count(1)
        assert caller.get_attribute("title")
        shot = screenshots / f"caller-bidding-{language}-{viewport['width']}.png"
        page.screenshot(path=str(shot))
        # the seat panels' match total reads as a total, not as points captured
        expect(page.locator("#seat-right .score")).to_have_text(
            {"zh": "总分 0", "en": "total 0"}[language])
        person.bid(None)
        for friend in friends:
            pass_when_asked(friend)
        dialog = page.locator(".result-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".caller-mark")).to_have_count(1)
        expect(dialog.locator("th:has(.caller-mark)")).to_contain_text(
            {"zh": "南", "en": "South"}[language])
        stakes = dialog.locator("#result-stakes")
        expect(stakes).to_contain_text("40")
        expect(stakes).to_contain_text("20")
        expect(stakes).to_contain_text(re.compile(r"“.+”"))  # the setting that decides it
        box = stakes.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot = screenshots / f"caller-result-{language}-{viewport['width']}.png"
        page.screenshot(path=str(shot))
        page.keyboard.press("Escape")  # Escape is 继续 as ✕ is
        expect(dialog).to_have_count(0)
    finally:
        for friend in friends:
            friend.close()


def seated_and_playing(person: Person) -> None:
    """A one-hand 包分 table against computers, this person at South (who bids first): bid the
    top, name spades, bury the last eight, and wait for South's first lead."""
    person.open_new_table({"variant": "baofen", "hands": 1})
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    person.wait_for(
        "document.body.dataset.myTurn === '1' && document.querySelector('[data-bid]')")
    person.bid(person.highest_bid())
    person.wait_for(
        "document.body.dataset.phase === 'kitty' && document.body.dataset.myTurn === '1'")
    person.name_trump_and_bury("S")
    person.wait_for(
        "document.body.dataset.phase === 'playing' && document.body.dataset.myTurn === '1'"
        " && document.querySelector('#hand .card.selectable')")


STRIPS = """() => [...document.querySelectorAll('#hand .card')].map((card, i, all) => {
  const box = card.getBoundingClientRect();
  const next = all[i + 1] && all[i + 1].getBoundingClientRect();
  const covered = next && Math.abs(next.top - box.top) < 2 && next.left > box.left;
  return covered ? next.left - box.left : box.width;
})"""
"""How wide each card of the hand shows (up to the next card of its row, else whole)."""

RANKS_CUT = """() => [...document.querySelectorAll('#hand .card')].map((card, i, all) => {
  const rank = card.querySelector('.rank').getBoundingClientRect();
  const next = all[i + 1] && all[i + 1].getBoundingClientRect();
  const box = card.getBoundingClientRect();
  const covered = next && Math.abs(next.top - box.top) < 2 && next.left > box.left;
  return covered && rank.right > next.left + 1;
}).filter(Boolean).length"""
"""How many cards of the hand have their rank partly under the next card."""


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_a_phone_hand_is_tappable_and_the_counter_never_hides_it(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    seated_and_playing(person)
    width = viewport["width"]
    strips = page.evaluate(STRIPS)
    assert min(strips) >= 23.5, strips  # a finger's width on every card
    page.screenshot(path=str(screenshots / f"hand-strips-{language}-{width}.png"))
    # every rank readable: the rank sits inside the visible strip
    cut = page.evaluate(RANKS_CUT)
    assert cut == 0
    # a tap on a card's strip selects that card, not its neighbour
    cards = page.locator("#hand .card")
    target = cards.nth(3)
    box = target.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 20, box["y"] + box["height"] - 6)
    expect(target).to_have_class(re.compile(r"\bselected\b"))
    page.mouse.click(box["x"] + 20, box["y"] + box["height"] - 6)
    # the 记牌器, opened, leaves the whole hand in view and tappable
    summary = page.locator("#counter summary")
    if page.get_attribute("#counter", "open") is None:
        summary.click()
    expect(page.locator("#counter")).to_have_attribute("open", "")
    counter = page.locator("#counter").bounding_box()
    first = cards.first.bounding_box()
    last = cards.last.bounding_box()
    assert counter is not None and first is not None and last is not None
    assert last["y"] + last["height"] <= viewport["height"], last
    if width < 700:
        assert counter["y"] + counter["height"] <= first["y"] - 4, (counter, first)
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('#hand') !== null",
                        [last["x"] + last["width"] / 2, last["y"] + last["height"] / 2])
    assert hit, "the hand is covered"
    page.screenshot(path=str(screenshots / f"counter-open-{language}-{width}.png"))
    summary.click()  # folded again


@pytest.mark.parametrize(("viewport", "language"), ALL, ids=ALL_IDS)
def test_the_last_trick_names_its_seats_and_the_new_lead_shows_over_the_hand(
        person: Person, screenshots: Path, viewport: dict[str, int], language: str) -> None:
    page = person.page
    seated_and_playing(person)
    width = viewport["width"]
    plain = "#hand .suit-group:not(.trumps) .card"
    followed = False
    for _ in range(25):
        if person.my_turn_or_result() == "result":
            break
        if page.locator("#lead-now").count():
            lead = page.locator("#lead-now")
            expect(lead).to_contain_text({"zh": "领出", "en": "led"}[language])
            assert lead.locator(".chip").count() > 0
            box = lead.bounding_box()
            hand = page.locator("#hand").bounding_box()
            assert box is not None and hand is not None
            assert box["y"] < hand["y"] and box["y"] + box["height"] <= viewport["height"]
            assert lead.is_visible()
            if not followed:
                page.screenshot(path=str(screenshots / f"lead-now-{language}-{width}.png"))
            followed = True
        elif not followed and page.locator(plain).count():
            # South leads a low plain card, so that another seat wins the trick and leads: the
            # hint, with the top bid and the kitty, can win every trick of a deal.
            person.click_card(page.locator(plain).last)
            expect(page.locator("#btn-play")).to_be_enabled()
            person.act_and_wait(lambda: page.click("#btn-play"))
            continue
        if followed and int(person.body("tricks")) >= 2:
            break
        person.play_hint()
    assert followed, "South never followed a lead"
    page.click("#btn-last")
    dialog = page.locator(".modal")
    names = dialog.locator(".slot-name")
    expect(names).to_have_count(4)
    expect(names.first).to_contain_text(re.compile(r"[南东北西]|South|East|North|West"))
    expect(dialog).to_contain_text("Ann")
    page.screenshot(path=str(screenshots / f"last-trick-{language}-{width}.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == "btn-last"
    # the phone's top bar keeps the game's name whole
    whole = page.evaluate("(() => { const b = document.querySelector('#brand');"
                          " return b.scrollWidth <= b.clientWidth; })()")
    assert whole
