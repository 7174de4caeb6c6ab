"""What the table shows during and between hands, in the real browser against the real server:
the declarer's 33 cards with the kitty inside the screen, a failed throw on a phone (inside the
screen, the penalty at once, no card of a hand), the finished
trick held long enough to read, the trick's cards readable at 360 px, and between hands whom the
table waits for."""

from __future__ import annotations

import copy
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from baofen import RuleSet
from baofen.server import ServerConfig
from baofen.wire.patch import apply as apply_patch

from ..server.harness import Client, Seated, ThreadServer, create_table
from .ui import HAND_TURNS, VIEW_IDS, VIEWS, Person, chip, person_in

HOLD_S = 1.5
"""The least time a finished trick stays on the table before the next one replaces it."""


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server whose computer players pause as they do for players (0.6 s), not at once."""
    db = tmp_path_factory.mktemp("paced") / "baofen.db"
    live = ThreadServer(
        ServerConfig(
            db=f"sqlite:///{db}",
            bot_delay=0.6,
            drop_grace=30.0,
            rate_per_second=1000.0,
            rate_burst=1000.0,
        )
    )
    yield live
    live.stop()


def fits_screen(person: Person, viewport: dict[str, int]) -> None:
    """The page is no wider than the screen, the whole hand is on it, and on a phone the page
    is no taller than the screen either."""
    size = person.page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= viewport["width"], size
    if viewport["width"] < 700:
        assert size[1] <= viewport["height"], size
    last = person.page.locator("#hand .card").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= viewport["height"], last


def settled(person: Person) -> None:
    """Wait until the cards that just landed have stopped moving (for a screenshot)."""
    person.wait_for("document.getAnimations().length === 0")


# -- the table, played: a person against paced computers -----------------------------------------


def declare_and_bury(person: Person) -> None:
    """Bid 95 as South (who bids first in 包分's first hand), name spades, bury the last eight."""
    person.wait_for("document.body.dataset.myTurn === '1' && document.querySelector('[data-bid]')")
    person.bid(95)
    person.wait_for(
        "document.body.dataset.phase === 'kitty' && document.body.dataset.myTurn === '1'"
    )
    person.name_trump_and_bury("S")
    person.wait_for(
        "document.body.dataset.phase === 'playing' && document.body.dataset.myTurn === '1'"
        " && document.querySelector('#hand .card.selectable')"
    )


def seated_against_computers(person: Person, base: str) -> str:
    """A one-hand 包分 table (no timers) with this person at South and three computers,
    started; its code."""
    code = create_table(base, {"variant": "baofen", "hands": 1}, timer=None)
    person.open_table(code)
    person.sit(0, "Ann")
    person.fill_bots("easy")
    person.start()
    return code


class Relay:
    """The page's table connection through the test: what the server sends is kept; the test
    may hold the server's messages back from a given state on (to look at the page in that
    state as long as it needs, however fast the computers play) and let them go again, or
    send the page a state it made from the last one."""

    def __init__(self, person: Person) -> None:
        self.page_side: WebSocketRoute | None = None
        self.last: dict[str, Any] | None = None
        self.pause_at: Callable[[dict[str, Any]], bool] | None = None
        self.held: list[str | bytes] | None = None
        """The server's messages held back (None: none is)."""
        person.page.route_web_socket(re.compile(r".*/ws/tables/.*"), self._route)

    def _route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        self.page_side = socket
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.held is not None:
            self.held.append(message)
            return
        data = json.loads(message)
        if data.get("type") == "patch" and self.last is not None:
            data = apply_patch(self.last, data)
        if data.get("type") == "state":
            self.last = data
            if self.pause_at is not None and self.pause_at(data):
                self.pause_at, self.held = None, []
        assert self.page_side is not None
        self.page_side.send(message)

    def pause(self, at: Callable[[dict[str, Any]], bool]) -> None:
        """Hold back what the server sends after the first state for which ``at`` is true."""
        self.pause_at = at

    def resume(self) -> None:
        """Let the held messages go, and the later ones."""
        held, self.held = self.held or [], None
        assert self.page_side is not None
        for message in held:
            self.page_side.send(message)

    def show(self, change: Callable[[dict[str, Any]], None]) -> None:
        """Send the page the last state, changed by ``change`` (a newer version); the
        server's later messages are held back."""
        assert self.last is not None and self.page_side is not None
        state = copy.deepcopy(self.last)
        state["table"]["version"] += 1000
        change(state)
        self.held = []
        self.page_side.send(json.dumps(state))


def thrown(state: dict[str, Any]) -> bool:
    """True for a state of a failed throw being played."""
    return bool(state["observation"] and state["observation"]["current_attempt"])


def thrown_and_done(state: dict[str, Any]) -> bool:
    """True for a state where the trick a failed throw led is over."""
    obs = state["observation"]
    return bool(
        obs and not obs["current_trick"] and obs["tricks"] and obs["tricks"][-1]["attempted"]
    )


# -- the kitty: 33 cards in hand ------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_declarers_hand_with_the_kitty_fits_the_screen(
    chromium: Browser,
    paced_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    """Holding the kitty (33 cards), the declarer sees every card without scrolling."""
    person = person_in(chromium, paced_server.base, viewport, language)
    seated_against_computers(person, paced_server.base)
    person.wait_for("document.body.dataset.myTurn === '1' && document.querySelector('[data-bid]')")
    person.bid(95)
    person.wait_for(
        "document.body.dataset.phase === 'kitty' && document.body.dataset.myTurn === '1'"
    )
    settled(person)
    person.page.screenshot(path=str(screenshots / f"kitty-{language}-{viewport['width']}.png"))
    assert person.page.locator("#hand .card").count() == 33
    fits_screen(person, viewport)


# -- a failed throw ------------------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_a_failed_throw_fits_the_screen_and_shows_no_hidden_card(
    chromium: Browser,
    paced_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    person = person_in(chromium, paced_server.base, viewport, language)
    relay = Relay(person)
    page = person.page
    seated_against_computers(person, paced_server.base)
    declare_and_bury(person)
    # the highest and the lowest card of the longest plain suit: a throw that fails
    plain = page.locator("#hand .suit-group:not(.trumps)").all()
    longest = max(plain, key=lambda group: group.locator(".card").count()).locator(".card")
    high, low = longest.first.get_attribute("data-card"), longest.last.get_attribute("data-card")
    person.click_card(longest.first)
    person.click_card(longest.last)
    expect(page.locator("#btn-play")).to_be_enabled()
    relay.pause(thrown)  # the page stays at the throw, before the others play to it
    page.click("#btn-play")
    live = page.wait_for_function("""() => {
      const note = document.querySelector('#trick.live #failed-throw');
      return note && { text: note.textContent, height: document.documentElement.scrollHeight,
        chips: [...note.querySelectorAll('.chip')].map(c => c.textContent),
        stopper: note.querySelectorAll('.stopper').length };
    }""").json_value()
    settled(person)
    page.screenshot(path=str(screenshots / f"throw-live-{language}-{viewport['width']}.png"))
    penalty = {"zh": "罚 6 分", "en": "penalty 6"}[language]  # 3 per attempted card, at once
    assert penalty in live["text"], live
    assert live["chips"][:2] == [chip(high), chip(low)], live
    # who stopped it, with which cards of a hand, is not said: only the throw's cards are
    # public, as in the computers' Observation (docs/rules.md §2)
    assert {"zh": "管住", "en": "stopped by"}[language] not in live["text"], live
    assert live["stopper"] == 0 and len(live["chips"]) == 2, live
    if viewport["width"] < 700:
        assert live["height"] <= viewport["height"], live
    # the finished trick: its winner's label visible, not under the note
    relay.pause(thrown_and_done)
    relay.resume()
    done = page.wait_for_function("""() => {
      const note = document.querySelector('#trick.done #failed-throw');
      const won = document.querySelector('#trick.done .won');
      if (!note || !won) return null;
      const r = note.getBoundingClientRect(), s = won.getBoundingClientRect();
      const cards = [...document.querySelectorAll('#hand .card')];
      return {
        overlap: r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom,
        height: document.documentElement.scrollHeight,
        hand: cards[cards.length - 1].getBoundingClientRect().bottom };
    }""").json_value()
    settled(person)
    page.screenshot(path=str(screenshots / f"throw-done-{language}-{viewport['width']}.png"))
    assert not done["overlap"], done
    assert done["hand"] <= viewport["height"], done
    if viewport["width"] < 700:
        assert done["height"] <= viewport["height"], done
    relay.resume()
    person.close()


# -- the finished trick stays --------------------------------------------------------------------

TRICK_LOG = """
window.trickLog = [];
window.besideCounts = [];
new MutationObserver(() => {
  const trick = document.querySelector('#trick');
  const last = window.trickLog[window.trickLog.length - 1];
  const now = trick ? [trick.className, document.body.dataset.tricks,
    trick.querySelector('.slot.winner')?.dataset.seat ?? '', document.body.dataset.myTurn] : null;
  const entry = now && now.join('|');
  if (entry && (!last || last[1] !== entry)) window.trickLog.push([performance.now(), entry]);
  // this player to act while a trick a computer won is still held: the computer has led the
  // next one, and its cards must show beside the held trick
  const winner = now ? now[2] : '';
  if (now && now[0] === 'trick done' && now[3] === '1' && winner !== '' && winner !== '0') {
    window.besideCounts.push(document.querySelectorAll('#next-trick .chip').length);
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""
"""Records in the page each change of the trick shown: when, its class (live or done), the
number of finished tricks, the winning seat and whether it is this player's turn; and, each time
this player is to act while a computer's won trick is held, how many cards #next-trick shows."""


def held_times(log: list[list[Any]]) -> list[tuple[float, str, str]]:
    """For each finished trick a computer won that was replaced by the next one being played:
    how long (s) it stayed, its winner, and whether this player was to act when it went."""
    shown: list[tuple[float, str, str]] = []  # [when, the trick shown, whose turn]
    for when, entry in log:
        trick, _, mine = entry.rpartition("|")
        if not shown or shown[-1][1] != trick:  # the turn moving on alone changes no trick
            shown.append((when, trick, mine))
    held = []
    for (start, trick, _), (end, after, mine) in itertools.pairwise(shown):
        kind, _, winner = trick.split("|")
        if kind == "trick done" and after.startswith("trick live") and winner not in ("", "0"):
            held.append(((end - start) / 1000, winner, mine))
    return held


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_the_finished_trick_stays_long_enough_to_read(
    chromium: Browser,
    paced_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    person = person_in(chromium, paced_server.base, viewport, language)
    person.context.add_init_script(TRICK_LOG)
    page = person.page
    seated_against_computers(person, paced_server.base)
    declare_and_bury(person)
    # Twelve turns, and on until the computer has won a trick (a strong declarer may win the
    # first dozen alone), or the hand is over.
    for turn in range(HAND_TURNS):
        if turn >= 12 and held_times(page.evaluate("window.trickLog")):
            break
        if person.my_turn_or_result() == "result":
            break
        # a person reads the table before playing: wait while a finished trick is held.
        # One look (the held trick may go any moment): the next trick's cards beside it.
        beside = page.evaluate(
            "document.querySelector('#next-trick')?.querySelectorAll('.chip').length ?? null"
        )
        if beside is not None:
            assert beside > 0, "the next trick is shown beside the held one without its cards"
            page.screenshot(path=str(screenshots / f"held-{language}-{viewport['width']}.png"))
        person.wait_for("!document.querySelector('#next-trick')")
        person.play_hint()
    log = page.evaluate("window.trickLog")
    held = held_times(log)
    assert held, f"no trick won by a computer was seen: {log}"
    assert all(seconds >= HOLD_S for seconds, _, _ in held), held
    # watched in the page at every change, not by one look per turn that a hold ending races
    beside_counts = page.evaluate("window.besideCounts")
    assert all(count > 0 for count in beside_counts), (
        f"the new trick's lead was not shown beside the held one: {beside_counts}"
    )
    person.close()


# -- the trick's cards at 360 px -----------------------------------------------------------------


TRACTORS = [
    [1, ["ST", "ST", "S9", "S9"]],
    [2, ["SK", "SQ", "SJ", "S8"]],
    [3, ["HT", "HT", "H9", "H9"]],
]
"""A trick being played: East leads a tractor of tens and nines, North and West follow."""


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_trick_cards_are_readable_and_their_ranks_never_cut(
    chromium: Browser,
    web_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    person = person_in(chromium, web_server.base, viewport, language)
    relay = Relay(person)
    page = person.page
    seated_against_computers(person, web_server.base)
    declare_and_bury(person)

    def trick(state: dict[str, Any]) -> None:
        obs = state["observation"]
        obs.update(current_trick=TRACTORS, leader=1, winning=1, to_act=0, current_attempt=None)

    relay.show(trick)
    expect(page.locator("#trick.live .slot .card")).to_have_count(12)
    expect(page.locator("#trick .tag.lead")).to_be_visible()
    settled(person)
    page.screenshot(path=str(screenshots / f"tractor-{language}-{viewport['width']}.png"))
    cut = page.evaluate("""() => {
      const cut = [];
      for (const row of document.querySelectorAll('#trick .cards')) {
        const cards = [...row.querySelectorAll('.card')];
        cards.forEach((card, i) => {
          const rank = card.querySelector('.rank').getBoundingClientRect();
          const next = cards[i + 1];
          if (next && next.getBoundingClientRect().top < rank.bottom
              && next.getBoundingClientRect().left < rank.right - 0.5) cut.push(card.dataset.card);
        });
      }
      return cut;
    }""")
    assert not cut, f"ranks covered by the next card: {cut}"
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#trick .card .rank')]"
        ".map(r => parseFloat(getComputedStyle(r).fontSize)))"
    )
    assert smallest >= 11, f"trick ranks at {smallest}px"
    lines = page.evaluate(
        "[...document.querySelectorAll('#trick .tag')]"
        ".map(t => t.getClientRects().length === 1 && t.getBoundingClientRect().height <= 20)"
    )
    assert lines and all(lines), "a trick tag wraps"
    fits_screen(person, viewport)
    person.close()


# -- between hands -------------------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "language"), VIEWS, ids=VIEW_IDS)
def test_between_hands_the_table_says_who_has_not_continued(
    chromium: Browser,
    web_server: ThreadServer,
    screenshots: Path,
    viewport: dict[str, int],
    language: str,
) -> None:
    rules = RuleSet.create(variant="baofen", hands=2)
    code = create_table(web_server.base, rules.to_dict(), timer=None)
    person = person_in(chromium, web_server.base, viewport, language)
    page = person.page
    person.open_table(code)
    person.sit(0, "Ann")
    friend = Client(web_server.base, code)
    friend.join(1, "Bob")
    seated = Seated(friend, rules, seed=1, presses_ready=False)
    stop = threading.Event()

    def play() -> None:
        while not stop.is_set():
            seated.poll(0.05)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        person.fill_bots("easy")
        person.start()
        for _ in range(80):
            if person.my_turn_or_result() == "result":
                break
            person.take_turn()
        page.click("#btn-continue")
        deadline = time.monotonic() + 30
        while 0 not in (friend.state or {}).get("table", {}).get("ready", []):  # taken
            assert time.monotonic() < deadline, "继续 was not taken"
            time.sleep(0.05)
        page.screenshot(path=str(screenshots / f"between-{language}-{viewport['width']}.png"))
        waiting = {"zh": "等待 东·Bob", "en": "waiting for East·Bob"}[language]
        expect(page.locator("#actions")).to_contain_text(waiting)
        expect(page.locator("#actions")).not_to_contain_text(
            {"zh": "点“继续”", "en": "Press Continue"}[language]
        )
        expect(page.locator(".seat[data-seat='1'] .badge[data-ready='0']")).to_be_visible()
        expect(page.locator(".seat[data-seat='0'] .badge[data-ready='1']")).to_be_visible()
        # nothing drawn over the last trick's cards
        covered = page.evaluate("""() => {
          const cards = [...document.querySelectorAll('#center .card')]
            .map(c => c.getBoundingClientRect());
          return [...document.querySelectorAll('#center p, #center .ready-note')].some(n => {
            const r = n.getBoundingClientRect();
            return cards.some(c => r.left < c.right && c.left < r.right
              && r.top < c.bottom && c.top < r.bottom);
          });
        }""")
        assert not covered
        stop.set()
        thread.join(5)
        friend.send(type="ready")
        person.wait_for("document.body.dataset.hand === '2'")
    finally:
        stop.set()
        thread.join(5)
        friend.close()
    person.close()
