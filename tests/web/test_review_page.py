"""The 复盘 a player believes, in the real browser against the real server: a finished hand's
review, where every flagged move's figure gives its label by the legend's thresholds and says
why; the summary's accuracy and best k of n agree. Screenshots at phone and desktop sizes."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from baofen.review import Reason
from baofen.review.reasons import describe

from ..server.harness import ThreadServer, create_table
from .ui import FAST_REVIEW, VIEWS, Person, fast_review, person_in

CATEGORIES = ("inaccuracy", "mistake", "blunder")


def category_of(low: float, thresholds: dict[str, float]) -> str:
    """The worst category whose threshold the figure's lower end reaches (the legend's rule)."""
    found = ""
    for name in CATEGORIES:
        if low >= thresholds[name]:
            found = name
    return found


def reviewed_hand(person: Person, base: str, variant: str) -> dict[str, Any]:
    """A one-hand table, South and three 简单 players (erring 30% of the time) played out by
    the computer, its replay's 复盘 open on ``person``'s page; the review as served."""
    code = create_table(base, {"variant": variant, "hands": 1}, timer=None)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    person.wait_for("document.body.dataset.myTurn === '1'")
    page.click("#btn-auto")  # the computer plays South's hand too
    expect(page.locator(".result-dialog")).to_be_visible(timeout=90_000)
    page.click("#btn-result-replay")
    expect(page.locator(".replay-step")).to_be_visible()
    fast_review(page)
    page.click("#replay-review")
    expect(page.locator(".review-summary")).to_be_visible(timeout=120_000)
    review: dict[str, Any] = httpx.get(
        f"{base}/api/tables/{code}/hands/1/analysis{FAST_REVIEW}").json()["review"]
    return review


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=["phone-zh", "desktop-en"])
def test_a_review_shows_one_figure_one_label_and_why(
    chromium: Browser, web_server: ThreadServer, screenshots: Path, viewport: dict[str, int],
    language: str,
) -> None:
    variant = "hongwu" if viewport["width"] < 700 else "baofen"
    person = person_in(chromium, web_server.base, viewport, language)
    page = person.page
    for _ in range(4):  # the deals are the server's: until one where a play is flagged
        review = reviewed_hand(person, web_server.base, variant)
        if any(m["category"] and m["kind"] == "play" for m in review["moves"]):
            break
    summary = page.locator(".review-summary")
    # Accuracy and best k of n: defined in words on the page, and consistent per seat.
    caption = summary.locator("caption").inner_text()
    assert ("k/n" in caption) and ("100" in caption), caption
    for row, seat in zip(summary.locator("tr").all()[1:], review["seats"], strict=True):
        cells = row.locator("td").all_inner_texts()
        matched, choices = (int(x) for x in cells[1].split("/"))
        assert (matched, choices) == (seat["matched"], seat["choices"])
        assert (cells[0] == "100%") == (matched == choices), cells
    page.screenshot(path=str(screenshots / f"review-summary-{viewport['width']}-{language}.png"))
    flagged = [m for m in review["moves"] if m["category"] and m["kind"] == "play"]
    shown = 0
    for move in flagged:
        page.locator(".replay-viewer input[type=range]").fill(str(move["trick"]))
        expect(page.locator(".replay-label")).to_contain_text(f"{move['trick']}/")
        notes = page.locator(f".replay-play .review-note.flagged.{move['category']}")
        expect(notes.first).to_be_visible()
        for note in notes.all():
            figure = note.locator(".review-loss")
            if figure.count():  # the figure's lower end gives the label, by the thresholds
                low = float(re.findall(r"\d+(?:\.\d+)?", figure.inner_text())[0])
                assert category_of(low, review["thresholds"]) == move["category"] or (
                    move["reason"]["kind"] == "wasted_winner"), figure.inner_text()
            reason = note.locator(".review-reason")
            expect(reason).to_be_visible()
            assert len(reason.inner_text()) > 20  # the reason in words, from its facts
            shown += 1
        if shown == 1:
            page.screenshot(path=str(screenshots / f"review-reason-{viewport['width']}-"
                                                   f"{language}.png"))
    assert flagged and shown >= len(flagged)
    # The browser words a reason as the CLI does (cards aside: glyphs there, codes here).
    for reason in (Reason("bid", {"made": "pass", "best": "70", "declares_made": 0.0,
                                  "makes_made": None, "declares_best": 0.83, "makes_best": 0.76}),
                   Reason("value", {"points": 7}),
                   Reason("value", {"points": 7, "loss": 6.5, "unit": "points"}),
                   Reason("value", {"points": 30, "loss": 2.349, "unit": "levels"}),
                   Reason("trick", {"trick": 7, "points": 5, "share": 0.4, "against": 0.1,
                                    "last": False, "keeps": "", "loss": 6.6,
                                    "unit": "points"})):
        shown_text = page.evaluate(
            "async (r) => (await import('/static/js/review.js')).reasonText(r)", asdict(reason))
        assert shown_text == describe(reason, language)
    person.close()
