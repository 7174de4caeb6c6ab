"""The puzzle page's answer time: from the click on "Play this" to the answer drawn, in headless
Chromium against a local server (SQLite), and the REST call alone.

    PYTHONPATH=src nice python3 -m bench.puzzles.answer_time [--answers 20]

Prints the median and the 90th percentile of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from playwright.sync_api import sync_playwright

from baofen.puzzles.shipped import shipped
from baofen.server import ServerConfig
from baofen.server.app import create_app

CHROMIUM = "/usr/bin/chromium"


def serve(db: Path) -> tuple[uvicorn.Server, str]:
    """A server on a free loopback port, in a thread."""
    server = uvicorn.Server(uvicorn.Config(create_app(ServerConfig(db=f"sqlite:///{db}")),
                                           host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}"


def body(puzzle: dict[str, object]) -> dict[str, object]:
    """The best answer of ``puzzle`` as a request body."""
    move = str(puzzle["best"])
    if puzzle["kind"] == "play":
        return {"cards": move.split()}
    if puzzle["kind"] == "bid":
        return {"bid": move if move == "pass" else int(move)}
    trump, _, bury = move.partition(":")
    return {"trump": trump.strip(), "bury": bury.split()}


def percentiles(name: str, times: list[float]) -> None:
    """Print the median and 90th percentile of ``times`` (seconds) in ms."""
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"{name}: median {1000 * statistics.median(times):.0f} ms, "
          f"p90 {1000 * p90:.0f} ms over {len(times)}")


def main() -> None:
    """Answer puzzles in the page and over REST, timing each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=20)
    args = parser.parse_args()
    puzzles = {p["id"]: p for p in shipped("hongwu")}
    with tempfile.TemporaryDirectory() as tmp:
        server, base = serve(Path(tmp) / "bench.db")
        rest = []
        with httpx.Client(base_url=base) as client:
            client.get("/api/puzzles/next", params={"game": "hongwu"})  # stores the set
            for puzzle in list(puzzles.values())[: args.answers]:
                started = time.perf_counter()
                client.post(f"/api/puzzles/{puzzle['id']}/answer", json=body(puzzle))
                rest.append(time.perf_counter() - started)
        page_times = []
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--headless=new"])
            page = browser.new_page(viewport={"width": 360, "height": 740})
            page.goto(f"{base}/puzzles?game=hongwu")
            for _ in range(args.answers):
                board = page.locator("#puzzle-board")
                board.wait_for()
                puzzle = puzzles[board.get_attribute("data-puzzle") or ""]
                answer = body(puzzle)
                if "trump" in answer:
                    page.locator(f'#puzzle-controls button[data-suit="{answer["trump"]}"]').click()
                taken: dict[str, int] = {}
                for card in answer.get("cards") or answer.get("bury") or []:  # type: ignore[attr-defined]
                    n = taken.get(card, 0)
                    taken[card] = n + 1
                    page.locator(f'#puzzle-hand .card[data-id="{card}#{n}"]').click(
                        position={"x": 5, "y": 12})
                started = time.perf_counter()
                page.locator("#puzzle-submit").click()
                page.locator("#puzzle-result").wait_for()
                page_times.append(time.perf_counter() - started)
                page.locator("#puzzle-next").click()
                page.locator("#puzzle-result").wait_for(state="detached")
            browser.close()
        server.should_exit = True
    percentiles("REST answer", rest)
    percentiles("page: click to answer drawn", page_times)


if __name__ == "__main__":
    main()
