"""A real server on loopback (uvicorn in a thread, or ``baofen serve`` in a subprocess) and
WebSocket clients that record every message they receive."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from baofen import RuleSet
from baofen.bots import make_bot
from baofen.server import ServerConfig
from baofen.server.app import create_app
from baofen.server.transport import uvicorn_options
from baofen.wire.actions import action_message
from baofen.wire.messages import server_message
from baofen.wire.observation import ObservationView
from baofen.wire.patch import apply as apply_patch

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0
STOP_SECONDS = 30.0
"""A stopped server's connections and each of its parts get 5 s to close."""
"""Seconds a test waits for a message it expects (never reached when all is well)."""

FAST = {
    "bot_delay": 0.0, "drop_grace": 0.3, "rate_per_second": 1000.0, "create_burst": 1000.0,
}
"""Server settings that keep tests fast (computer players act at once, so players act more
often than people can, and one address creates many tables: the rate limits are raised,
except where a test checks them)."""


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: a browser test's Playwright (sync API)
    keeps an event loop running in the test thread, where ``asyncio.run`` refuses to start when
    both kinds of tests share a pytest worker."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class ThreadServer:
    """uvicorn serving ``create_app(settings)`` on a free loopback port, in a thread."""

    def __init__(self, settings: ServerConfig) -> None:
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=0, log_level="warning", **uvicorn_options(settings)
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        """Shut down (as on SIGTERM)."""
        self.server.should_exit = True
        self.thread.join(TIMEOUT)


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ProcessServer:
    """``baofen serve`` in a subprocess (so that it can be killed)."""

    def __init__(
        self, db: str, port: int, env: dict[str, str] | None = None, whole_log: bool = False
    ) -> None:
        """``whole_log``: stdout (uvicorn's access log) goes to :meth:`stderr` too."""
        environment = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            **{f"BAOFEN_{k.upper()}": str(v) for k, v in FAST.items()},
            **(env or {}),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "baofen", "serve", "--port", str(port), "--db", db],
            env=environment,
            stdout=subprocess.PIPE if whole_log else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if whole_log else subprocess.PIPE,
        )
        # Read the log as it comes: a pipe nobody reads fills after about 64 KiB (some hundred
        # connections' log lines), and the server then blocks on its next line.
        self._log: list[bytes] = []
        output = self.process.stderr or self.process.stdout
        assert output is not None
        self._reader = threading.Thread(
            target=lambda: self._log.extend(iter(lambda: output.read1(65536), b"")),  # type: ignore[attr-defined]
            daemon=True,
        )
        self._reader.start()
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # importing the server takes long on a busy machine
        while True:
            try:
                if httpx.get(f"{self.base}/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {self.stderr()}")
            time.sleep(0.05)

    def stderr(self) -> str:
        """What the server wrote to stderr (once it has exited)."""
        if self.process.poll() is None:
            return ""
        self._reader.join(TIMEOUT)
        return b"".join(self._log).decode(errors="replace")

    def kill(self) -> None:
        """Kill -9: no shutdown handler runs."""
        self.process.kill()
        self.process.wait(TIMEOUT)

    def stop(self) -> None:
        """Terminate and wait: the server closes in its ``shutdown_seconds`` (5) for each
        stage, or the test fails with its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(TIMEOUT)
                raise AssertionError(
                    f"the server did not stop in {STOP_SECONDS} s: {self.stderr()[-6000:]}"
                ) from None


def create_table(
    base: str, rules: dict[str, Any], timer: float | None = 30.0, **settings: Any
) -> str:
    """Create a table through REST, with ``timer`` seconds for every turn (None: no timer);
    its code."""
    timers = {"bid_seconds": timer, "kitty_seconds": timer, "play_seconds": timer}
    body = {"rules": rules, "settings": {"bot_level": "random", **timers, **settings}}
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    return code


class Client:
    """A WebSocket client of one table that validates and records every message."""

    def __init__(
        self, base: str, code: str, session: str | None = None, origin: str | None = None,
        **options: Any,
    ) -> None:
        """``session``: the session cookie to send; ``origin``: the Origin header (as a
        browser sends it); ``options``: websockets' (``ping_interval``, ``open_timeout``…)."""
        self.url = base.replace("http", "ws", 1) + f"/ws/tables/{code}"
        headers = {"Cookie": f"baofen_session={session}"} if session else {}
        if origin is not None:
            headers["Origin"] = origin
        self.ws: ClientConnection = connect(
            self.url, max_size=None, additional_headers=headers or None, **options
        ).__enter__()
        self.received: list[dict[str, Any]] = []
        """Every message received (a ``patch`` as the ``state`` it makes, and the ack a view
        carries as the ``ack`` message it stands for, after the view)."""
        self._acks: list[dict[str, Any]] = []
        """Acks carried by a view already returned, each still to return as a message."""
        self.patches = 0
        """How many of them came as a ``patch``."""
        self.sizes: Counter[str] = Counter()
        """Characters received, by message type (a ``patch`` as sent)."""
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.token: str | None = None

    def send(self, **message: Any) -> None:
        """Send one message."""
        self.ws.send(json.dumps(message))

    def send_raw(self, text: str | bytes) -> None:
        """Send a frame as is."""
        self.ws.send(text)

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (validated against the protocol's models); a ``patch`` comes back
        as the whole ``state`` it makes of the view before it, and a view's ack next."""
        if self._acks:
            ack = self._acks.pop(0)
            self.received.append(ack)
            return ack
        raw = self.ws.recv(timeout=timeout)
        message: dict[str, Any] = json.loads(raw)
        server_message.validate_python(message)
        self.sizes[message["type"]] += len(raw)
        if "ack" in message:
            assert message["type"] in ("state", "patch"), message
            self._acks.append({"type": "ack", **message.pop("ack")})
        if message["type"] == "patch":
            assert self.state is not None and self.state["view"] == message["since"], (
                "a patch of a view this connection does not have", message
            )
            self.patches += 1
            message = apply_patch(self.state, message)
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "joined":
            self.seat, self.token = message["seat"], message["token"]
        return message

    def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until a message of type ``kind`` arrives; return it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.0, deadline - time.monotonic()))
            if message["type"] == kind:
                return message

    def drain(self, timeout: float = 0.01) -> None:
        """Read every message already waiting (the first within ``timeout``); fail on an error."""
        while True:
            try:
                message = self.recv(timeout=timeout)
            except TimeoutError:
                return
            assert message["type"] != "error", message
            timeout = 0.0

    def snapshot(self) -> dict[str, Any]:
        """The connection's full view now (``sync``), less the clock and the view's number (it
        numbers the views sent, not a change of the table)."""
        self.drain()
        self.send(type="sync")
        state = self.expect("state")
        state["table"]["deadline"] = None
        del state["view"]
        return state

    def join(self, seat: int, name: str = "player") -> dict[str, Any]:
        """Take a seat; the ``joined`` message."""
        self.send(type="join", seat=seat, name=name)
        joined = self.expect("joined")
        self.expect("state")
        return joined

    def close(self) -> None:
        """Close the connection."""
        self.ws.close()


def start_with_bots(
    base: str, rules: RuleSet, seat: int = 0, name: str = "Ann"
) -> tuple[Client, str]:
    """A new table (no timer) with one person at ``seat`` and three random bots, started."""
    code = create_table(base, rules.to_dict(), timer=None)
    me = Client(base, code)
    me.join(seat, name)
    me.send(type="fill_bots", level="random")
    me.expect("ack")
    me.send(type="start")
    me.expect("ack")
    return me, code


def south_bids_the_top(base: str, timer: float) -> tuple[Client, dict[str, Any]]:
    """A one-hand 包分 table with ``timer`` on every move but the bids, Ann at South (who bids
    first) and three computers, started; South has bid the top value, which ends the bidding at
    once, so the next turns are all South's (naming trump and burying, then leading the first
    trick) whatever the deal. Ann's client and the state she was sent before her bid."""
    code = create_table(base, RuleSet.baofen(hands=1).to_dict(), timer=timer, bid_seconds=None)
    me = Client(base, code)
    me.join(0, "Ann")
    me.send(type="fill_bots")
    me.send(type="start")
    state = me.expect("state")
    while to_act(state) != 0:
        state = me.expect("state")
    me.send(type="bid", value=95)
    return me, state


class RandomPlayer:
    """Decides like the random bot from a client's latest ``state``."""

    def __init__(self, rules: RuleSet, seed: int) -> None:
        self.rules = rules
        self.bot = make_bot("random", seed=seed)
        self.rng = random.Random(seed)

    def message(self, state: dict[str, Any]) -> dict[str, Any]:
        """The action message for the observation in ``state``."""
        observation = ObservationView.model_validate(state["observation"])
        return action_message(self.bot.act(observation.to_observation(self.rules))).model_dump(
            mode="json", exclude={"id"}
        )


def to_act(state: dict[str, Any] | None) -> int | None:
    """Seat to act in ``state`` (None before the start or between hands)."""
    if state is None or state["observation"] is None:
        return None
    seat: int | None = state["observation"]["to_act"]
    return seat


class Seated:
    """A player's client plus a random decision maker, remembering every acknowledged action.

    It acts on the latest state where its seat is to act, one action at a time: after acting
    it waits for the ``ack`` (states that arrive meanwhile may predate its action).
    """

    def __init__(
        self, client: Client, rules: RuleSet, seed: int = 0, presses_ready: bool = True
    ) -> None:
        self.client = client
        self.presses_ready = presses_ready
        """Whether it presses 继续 (ready) after each hand."""
        self.player = RandomPlayer(rules, seed)
        self.acked: dict[int, dict[str, Any]] = {}
        """Version of each acknowledged action → the message that made it."""
        self._sent: dict[int, dict[str, Any]] = {}
        self._floor = 0
        self._acted_at = -1

    def _take(self, message: dict[str, Any]) -> None:
        assert message["type"] != "error", message
        if message["type"] == "ack" and message["id"] in self._sent:
            self.acked[message["version"]] = self._sent.pop(message["id"])
            self._floor = message["version"]

    def _maybe_act(self) -> None:
        state = self.client.state
        if state is None or self._sent:
            return
        version = state["table"]["version"]
        seat = self.client.seat
        if self._between_hands(state) and seat not in state["table"]["ready"]:
            if self.presses_ready and self._acted_at != version:  # 继续, once per finished hand
                self._acted_at = version
                self.client.send(type="ready")
            return
        if (to_act(state) == self.client.seat and version >= self._floor
                and version != self._acted_at):
            self.act(state)

    @staticmethod
    def _between_hands(state: dict[str, Any]) -> bool:
        observation = state["observation"]
        return bool(observation and observation["phase"] == "done"
                    and state["table"]["status"] == "playing")

    def act(self, state: dict[str, Any]) -> None:
        """Send this seat's action for ``state``."""
        self._acted_at = state["table"]["version"]
        action = self.player.message(state)
        ident = len(self.acked) + len(self._sent) + 1
        self._sent[ident] = action
        self.client.send(id=ident, **action)

    def poll(self, timeout: float) -> None:
        """Read what has arrived (waiting up to ``timeout`` for the first), then act if due."""
        while True:
            try:
                message = self.client.recv(timeout)
            except TimeoutError:
                break
            self._take(message)
            timeout = 0.0
        self._maybe_act()

    def until(self, done: Any, limit: float = 120.0) -> dict[str, Any]:
        """Play until a state satisfies ``done(state)`` (checked before acting on it)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            message = self.client.recv(TIMEOUT)
            self._take(message)
            if message["type"] == "state" and done(message):
                return message
            self._maybe_act()
        raise AssertionError(f"no such state within {limit} s")


def finished(state: dict[str, Any]) -> bool:
    """True for the state of a finished match."""
    return bool(state["table"]["status"] == "finished")


MATCH_TIMEOUT = 120.0


def play_until_finished(clients: list[Client], rules: RuleSet) -> dict[str, Any]:
    """Every seated client plays at random on its turns (spectators just read) until every
    client has seen the match end; that last state."""
    seated = [Seated(c, rules, seed=c.seat) for c in clients if c.seat is not None]
    watching = [c for c in clients if c.seat is None]
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        for player in seated:
            player.poll(0.05 / len(clients))
        for client in watching:
            client.drain(0.0)
        if all(c.state is not None and finished(c.state) for c in clients):
            state = clients[0].state
            assert state is not None
            return state
    raise AssertionError(f"the match did not finish in {MATCH_TIMEOUT} s")


def my_turn_at_new_table(base: str) -> Client:
    """A started 包分 table: me in seat 0 with three computer players, at my turn."""
    code = create_table(base, RuleSet.baofen().to_dict(), timer=None)
    me = Client(base, code)
    me.join(0, "me")
    me.send(type="fill_bots", level="random")
    me.send(type="start")
    state = me.expect("state")
    while to_act(state) != 0:
        state = me.expect("state")
    me.drain()
    return me
