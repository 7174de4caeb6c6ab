"""The puzzle page in a real Chromium: a signed-in player solves one puzzle (rating up) and fails
the next (rating down); a guest plays unrated with a streak kept in the browser; screenshots of
the question and the answer at phone and desktop sizes, in Chinese and English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from baofen.puzzles.shipped import shipped

from ..server.harness import ThreadServer
from .ui import ALL, ALL_IDS, Person, person_in

PUZZLES = {p["id"]: p for game in ("baofen", "hongwu") for p in shipped(game)}


def current(person: Person) -> dict[str, Any]:
    """The shipped puzzle the page shows now."""
    board = person.page.locator("#puzzle-board")
    expect(board).to_be_visible()
    return PUZZLES[board.get_attribute("data-puzzle") or ""]


def answer(person: Person, puzzle: dict[str, Any], move: str) -> None:
    """Pick ``move`` (an option's text) on the page the way a player does, and submit it."""
    page = person.page
    kind = puzzle["kind"]
    if kind == "bid":
        page.locator(f'#puzzle-controls button[data-bid="{move}"]').click()
        return
    cards = move.split()
    if kind == "declare":
        trump, _, bury = move.partition(":")
        page.locator(f'#puzzle-controls button[data-suit="{trump.strip()}"]').click()
        cards = bury.split()
    taken: dict[str, int] = {}
    for card in cards:
        n = taken.get(card, 0)
        taken[card] = n + 1
        person.click_card(page.locator(f'#puzzle-hand .card[data-id="{card}#{n}"]'))
    page.locator("#puzzle-submit").click()


def wrong(puzzle: dict[str, Any]) -> str:
    """An option that is not the best (the runner-up)."""
    return str(next(o["move"] for o in puzzle["options"] if o["move"] != puzzle["best"]))


def test_a_signed_in_player_solves_and_fails(chromium: Browser, web_server: ThreadServer,
                                              screenshots: Path) -> None:
    person = person_in(chromium, web_server.base, {"width": 1280, "height": 800}, "en")
    made = person.context.request.post(
        f"{web_server.base}/api/accounts",
        data={"username": "puzzler", "password": "correct horse battery"})
    assert made.ok, made.text()
    page = person.page
    page.goto(f"{web_server.base}/puzzles?game=hongwu")
    first = current(person)
    answer(person, first, first["best"])
    result = page.locator("#puzzle-result")
    expect(result).to_have_attribute("data-solved", "true")
    expect(page.locator("#puzzle-change b.up")).to_be_visible()
    up = float(page.locator("#my-puzzle-rating").inner_text())
    assert up > 1500
    expect(page.locator("#puzzle-streak")).to_have_text("1")
    page.locator("#puzzle-next").click()
    expect(page.locator("#puzzle-result")).to_have_count(0)
    second = current(person)
    assert second["id"] != first["id"]
    answer(person, second, wrong(second))
    expect(result).to_have_attribute("data-solved", "false")
    expect(page.locator("#puzzle-change b.down")).to_be_visible()
    assert float(page.locator("#my-puzzle-rating").inner_text()) < up
    expect(page.locator("#puzzle-streak")).to_have_text("0")
    expect(page.locator("#puzzle-options tr.made")).to_have_count(
        1 if any(o["move"] == wrong(second) for o in second["options"]) else 0)
    person.close()


@pytest.mark.parametrize(("size", "language"), ALL, ids=ALL_IDS)
def test_the_page_as_a_guest(chromium: Browser, web_server: ThreadServer, screenshots: Path,
                             size: dict[str, int], language: str) -> None:
    person = person_in(chromium, web_server.base, size, language)
    page = person.page
    page.goto(f"{web_server.base}/")
    page.locator("#nav-puzzles").click()
    puzzle = current(person)
    name = f"puzzles-{size['width']}-{language}"
    page.screenshot(path=screenshots / f"{name}-question.png", full_page=True)
    answer(person, puzzle, puzzle["best"])
    expect(page.locator("#puzzle-result")).to_have_attribute("data-solved", "true")
    expect(page.locator("#puzzle-streak")).to_have_text("1")
    assert page.locator("#puzzle-change").count() == 0  # a guest is unrated
    page.screenshot(path=screenshots / f"{name}-solved.png", full_page=True)
    page.locator("#puzzle-mode-daily").click()
    expect(page.locator(".daily-tag")).to_be_visible()
    daily = current(person)
    answer(person, daily, wrong(daily))
    expect(page.locator("#puzzle-result")).to_have_attribute("data-solved", "false")
    expect(page.locator("#puzzle-streak")).to_have_text("0")
    page.screenshot(path=screenshots / f"{name}-failed.png", full_page=True)
    person.close()
