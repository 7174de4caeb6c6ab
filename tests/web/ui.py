"""Driving the browser client like a person: open pages, sit, bid, bury, click cards, play.

Every step waits for what a person would see (the page's ``data-*`` state on ``<body>``), never
for a fixed time.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, expect

from ..server.harness import create_table

TIMEOUT_MS = 30_000
"""How long a step waits for the page (never reached when all is well; generous, because the
suite's other workers may load the machine's two cores meanwhile)."""
expect.set_options(timeout=TIMEOUT_MS)  # its own default is 5 s, not the context's

NETWORK_ERRORS = ("Failed to load resource", "WebSocket connection to")

HAND_TURNS = 60
"""More turns than a hand can give one seat (bids, the kitty and at most 25 plays)."""

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
VIEWS = [(PHONE, "zh"), (DESKTOP, "en")]
"""A phone in Chinese and a desktop in English: the two looks most tests check."""
VIEW_IDS = ["phone-zh", "desktop-en"]
ALL = [(size, language) for size in (PHONE, DESKTOP) for language in ("zh", "en")]
"""Both sizes in both languages: the looks a change of the table is checked in."""
ALL_IDS = [f"{size['width']}-{language}" for size, language in ALL]


def chip(card: str | None) -> str:
    """A card as the page writes it in a chip (♠A, ♥10)."""
    assert card is not None
    return {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[card[0]] + card[1].replace("T", "10")


class Person:
    """One browser (its own storage: seat tokens, language) looking at one page."""

    def __init__(self, browser: Browser, base: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.base = base
        # A Chinese browser: the page follows the browser's language until the player picks one.
        self.context = browser.new_context(viewport=viewport, locale="zh-CN")  # type: ignore[arg-type]
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.network: list[str] = []
        """What went wrong on the network meanwhile: said where the page never came up."""
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("requestfailed", lambda request: self.network.append(
            f"{request.method} {request.url}: {request.failure}"))

    def _console(self, message: ConsoleMessage) -> None:
        # The browser logs network failures (a 422 the page shows, a server that is down while
        # the page reconnects) as errors; they are not script errors.
        if message.type != "error":
            return
        if message.text.startswith(NETWORK_ERRORS):
            self.network.append(f"{message.text} ({message.location.get('url')})")
        else:
            self.errors.append(message.text)

    def close(self) -> None:
        """Close the browser context; fail on any script error seen meanwhile."""
        self.context.close()
        assert not self.errors, f"script errors in the page: {self.errors}"

    # -- reading the page ---------------------------------------------------------------------

    def body(self, name: str) -> str:
        """A ``data-*`` value of ``<body>`` (the page's state: phase, myTurn, seat, …)."""
        value: str = self.page.evaluate("name => document.body.dataset[name] || ''", name)
        return value

    def hand(self) -> list[str]:
        """The cards in this player's hand, as shown."""
        cards: list[str] = self.page.eval_on_selector_all(
            "#hand .card", "nodes => nodes.map(n => n.dataset.card)"
        )
        return cards

    def wait_for(self, script: str, arg: Any = None) -> None:
        """Wait until ``script`` (a JS expression or function) is true in the page."""
        self.page.wait_for_function(script, arg=arg, timeout=TIMEOUT_MS)

    # -- the table ------------------------------------------------------------------------------

    def open_table(self, code: str) -> None:
        """Go to the table's link and wait until connected."""
        self.page.goto(f"{self.base}/t/{code}")
        self.wait_connected()

    def open_new_table(self, rules: dict[str, Any] | None = None) -> str:
        """Create a table without timers (包分 unless ``rules``), go to it and wait until
        connected: its code."""
        code = create_table(self.base, rules or {"variant": "baofen"}, timer=None)
        self.open_table(code)
        return code

    def wait_connected(self) -> None:
        """Wait for the connection and the first view of the table."""
        try:
            expect(self.page.locator("#conn")).to_have_attribute("data-status", "open")
        except AssertionError as error:
            raise AssertionError(f"{error}\nnetwork: {self.network}\n"
                                 f"script errors: {self.errors}") from None
        self.wait_for("document.body.dataset.version !== undefined")

    def sit(self, seat: int, name: str) -> None:
        """Take a seat by clicking it in the waiting panel."""
        self.page.fill("#seat-name", name)
        self.page.click(f"[data-sit='{seat}']")
        self.wait_for(f"document.body.dataset.seat === '{seat}'")

    def fill_bots(self, level: str = "easy") -> None:
        """Add computer players of ``level`` to the empty seats."""
        self.page.select_option("#bot-level", level)
        self.page.click("#btn-bots")
        expect(self.page.locator("#btn-start")).to_be_enabled()

    def start(self) -> None:
        """Start the match."""
        self.page.click("#btn-start")
        self.wait_for("document.body.dataset.status === 'playing'")

    def click_card(self, card: Locator) -> None:
        """Click a card on its visible strip (cards in a hand overlap)."""
        card.click(position={"x": 5, "y": 12})

    def act_and_wait(self, action: Any) -> None:
        """Do ``action`` (a function of no argument), then wait until the table changed."""
        version = self.body("version")
        action()
        self.wait_for(f"document.body.dataset.version !== '{version}'")

    def my_turn_or_result(self) -> str:
        """Wait until this player is to act or a result is shown: "turn" or "result".

        A turn counts once the hand is drawn too: the hand waits for its card order (fetched
        once per trump), so ``myTurn`` can be set a moment before the cards appear."""
        self.wait_for(
            "(document.body.dataset.myTurn === '1' && document.querySelector('#hand .card'))"
            " || document.querySelector('.result-dialog')"
        )
        return "result" if self.page.locator(".result-dialog").count() else "turn"

    def bid(self, value: int | None) -> None:
        """Bid ``value`` (None passes) from the offered bids."""
        page = self.page
        target = "pass" if value is None else str(value)
        if page.locator(f"[data-bid='{target}']").count():
            self.act_and_wait(lambda: page.click(f"[data-bid='{target}']"))
        else:
            page.select_option("#bid-select", target)
            self.act_and_wait(lambda: page.click("#btn-bid"))

    def highest_bid(self) -> int:
        """The highest bid offered."""
        page = self.page
        if page.locator("#bid-select").count():
            values = page.eval_on_selector(
                "#bid-select", "s => [...s.options].map(o => Number(o.value))"
            )
        else:
            values = page.eval_on_selector_all(
                "[data-bid]:not([data-bid='pass'])",
                "nodes => nodes.map(n => Number(n.dataset.bid))",
            )
        return max(values)

    def name_trump_and_bury(self, trump: str) -> list[str]:
        """Name ``trump``, click the last eight cards of the hand and bury them."""
        page = self.page
        page.click(f"[data-trump='{trump}']")
        expect(page.locator(f"[data-trump='{trump}']")).to_have_attribute("aria-pressed", "true")
        cards = page.locator("#hand .card")
        expect(cards).to_have_count(33)  # the hand with the kitty, once it is drawn
        expect(page.locator("#bury-count")).to_contain_text("0/8")  # the server's kitty size
        count = cards.count()
        for index in range(count - 8, count):
            self.click_card(cards.nth(index))
        expect(page.locator("#hand .card.selected")).to_have_count(8)
        expect(page.locator("#bury-count")).to_contain_text("8/8")
        buried = page.eval_on_selector_all(
            "#hand .card.selected", "nodes => nodes.map(n => n.dataset.card)"
        )
        expect(page.locator("#btn-bury")).to_be_enabled()
        self.act_and_wait(lambda: page.click("#btn-bury"))
        return list(buried)

    def play_hint(self) -> None:
        """Ask for a hint (提示) and play what it selects."""
        page = self.page
        page.click("#btn-hint")
        expect(page.locator("#btn-play")).to_be_enabled()
        self.act_and_wait(lambda: page.click("#btn-play"))

    def take_turn(self) -> None:
        """Act once, whatever the phase: bid the highest offered (so that the hand is played),
        name spades and bury the last eight cards, or play the hint."""
        phase = self.body("phase")
        if phase == "bidding":
            self.bid(self.highest_bid())
        elif phase == "kitty":
            self.name_trump_and_bury("S")
        else:
            self.play_hint()

    def close_result(self) -> None:
        """Close the result dialog."""
        self.page.click("#btn-continue")
        expect(self.page.locator(".result-dialog")).to_have_count(0)


FAST_REVIEW = "?level=quick"
"""The quickest review level, for the tests (the browser asks for the server's default)."""


def fast_review(page: Page) -> None:
    """Make the page's 复盘 requests ask for :data:`FAST_REVIEW`."""
    page.route("**/hands/*/analysis", lambda route: route.continue_(
        url=route.request.url.split("?")[0] + FAST_REVIEW))


def person_in(chromium: Browser, base: str, viewport: dict[str, int], language: str) -> Person:
    """A person whose pages are in ``language``."""
    person = Person(chromium, base, viewport)
    person.context.add_init_script(f"localStorage.setItem('baofen.lang', '{language}')")
    return person


MEMBER_PASSWORD = "correct horse battery"
"""The password of the accounts :func:`member_in` signs up."""


def member_in(chromium: Browser, base: str, viewport: dict[str, int], language: str,
              name: str) -> Person:
    """A person in ``language`` signed up (and in) as the account ``name``."""
    person = person_in(chromium, base, viewport, language)
    answer = person.context.request.post(f"{base}/api/accounts",
                                         data={"username": name, "password": MEMBER_PASSWORD})
    assert answer.status == 201, answer.text()
    return person


def api_call(person: Person, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A REST call with the person's cookies: the status and the JSON answer (None for 204)."""
    answer = person.context.request.fetch(f"{person.base}{path}", method=method, data=body)
    return answer.status, (answer.json() if answer.status != 204 else None)


def play_to_result(person: Person) -> None:
    """Take every turn (hints) until the hand's result is shown."""
    for _ in range(HAND_TURNS):
        if person.my_turn_or_result() == "result":
            return
        person.take_turn()
    raise AssertionError("no result after a whole hand of turns")
