"""The load benchmarks' clients: K tables of four WebSocket players (and spectators) playing the
random bot's moves from the states they receive, and the figures of one run (bench/server/)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from baofen import Observation, RuleSet
from baofen.bots import make_bot
from baofen.tricks import Trick
from baofen.wire.actions import action_message
from baofen.wire.observation import ObservationView
from baofen.wire.patch import apply as apply_patch
from baofen.wire.tricks import TrickView
from bench.common.serving import percentile

RUN_LIMIT = 600.0
"""Seconds one K may take before the benchmark gives up."""


class Seen:
    """A client's engine observations, rebuilt from its views for its bot: each finished trick
    converted once (a view's tricks are the same objects from one patch to the next), and the
    记牌器 left out (the engine's observation has none); the client's CPU is not the server's."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._tricks: dict[int, tuple[dict[str, Any], Trick]] = {}

    def of(self, observation: dict[str, Any]) -> Observation:
        """The engine observation of a view's ``observation``."""
        seen = ObservationView.model_validate(
            {**observation, "tricks": [], "counter": None}
        ).to_observation(self.rules)
        return dataclasses.replace(seen, tricks=tuple(map(self._trick, observation["tricks"])))

    def _trick(self, data: dict[str, Any]) -> Trick:
        known = self._tricks.get(id(data))
        if known is None or known[0] is not data:
            known = self._tricks[id(data)] = (data, TrickView.model_validate(data).to_trick())
        return known[1]


@dataclass
class TableRun:
    """Timings of one table: when each action was sent, when each seat received its result."""

    sent: dict[int, float] = field(default_factory=dict)
    """Resulting version → send time of the action that makes it."""
    actor: dict[int, int] = field(default_factory=dict)
    received: dict[int, dict[int, float]] = field(default_factory=dict)
    """Version → seat → receive time."""
    actions: int = 0


async def player(
    url: str, seat: int, rules: RuleSet, run: TableRun, seed: int, pace: float = 0.0,
    first: dict[str, Any] | None = None,
) -> None:
    """One client: join ``seat`` (or send ``first``, e.g. a ``reclaim`` of a seat given to it),
    then play the random bot's moves until the match is over, each after a think time of
    ``pace`` seconds on average (none: at once)."""
    bot = make_bot("random", seed=seed)
    think = random.Random(seed)
    seen = Seen(rules)
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps(first or {"type": "join", "seat": seat, "name": f"p{seat}"}))
        acted = readied = -1
        waiting = False
        """An action sent, its ack not received: the views meanwhile may predate it."""
        view: dict[str, Any] | None = None
        async for raw in ws:
            now = time.perf_counter()
            message = orjson.loads(raw)
            if message["type"] == "error":
                raise RuntimeError(f"seat {seat}: {message}")
            if message["type"] == "ack" or message.pop("ack", None) is not None:
                waiting = False  # an ack of its own (an older server's), or in the view
            if message["type"] == "patch":
                assert view is not None and view["view"] == message["since"], message
                message = apply_patch(view, message)
            if message["type"] == "state":
                view = message
                table = message["table"]
                run.received.setdefault(table["version"], {})[seat] = now
                if table["status"] == "finished":
                    return
                if seat == table["host"] and table["status"] == "waiting" and all(
                    s["kind"] for s in table["seats"]
                ):
                    await ws.send(json.dumps({"type": "start"}))
                observation = message["observation"]
                if (observation and observation["phase"] == "done" and seat not in table["ready"]
                        and table["version"] != readied):  # 继续 after a hand of a match
                    readied = table["version"]
                    await ws.send(json.dumps({"type": "ready"}))
            elif message["type"] != "ack" or view is None:
                continue
            observation, version = view["observation"], view["table"]["version"]
            if observation and observation["to_act"] == seat and version != acted and not waiting:
                acted, waiting = version, True
                action = bot.act(seen.of(observation))
                if pace:
                    await asyncio.sleep(think.uniform(0.5 * pace, 1.5 * pace))
                run.sent[version + 1] = time.perf_counter()
                run.actor[version + 1] = seat
                run.actions += 1
                await ws.send(action_message(action).model_dump_json(exclude={"id"}))


async def spectator(url: str) -> None:
    """One client watching a table until its match is over."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "watch"}))
        view: dict[str, Any] | None = None
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "patch":
                assert view is not None and view["view"] == message["since"], message
                message = apply_patch(view, message)
            if message["type"] == "state":
                view = message
                if message["table"]["status"] == "finished":
                    return


async def run_tables(
    base: str, k: int, rules: RuleSet, pace: float = 0.0, spectators: int = 0
) -> tuple[float, list[TableRun]]:
    """Create and play ``k`` tables at once (each watched by ``spectators`` more clients);
    wall time from the first start, and the runs."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        codes = []
        for _ in range(k):
            response = await http.post("/api/tables", json={
                "rules": rules.to_dict(),
                "settings": {"bid_seconds": None, "kitty_seconds": None, "play_seconds": None},
            })
            response.raise_for_status()
            codes.append(response.json()["code"])
    ws_base = base.replace("http", "ws", 1)
    runs = [TableRun() for _ in codes]
    started = time.perf_counter()
    watching = [
        asyncio.create_task(spectator(f"{ws_base}/ws/tables/{code}"))
        for code in codes for _ in range(spectators)
    ]
    tasks = [
        player(f"{ws_base}/ws/tables/{code}", seat, rules, run, seed=n * 4 + seat, pace=pace)
        for n, (code, run) in enumerate(zip(codes, runs, strict=True))
        for seat in range(4)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks, *watching), RUN_LIMIT)
    return time.perf_counter() - started, runs


def summarise(
    k: int, wall: float, runs: list[TableRun], server_cpu: float, client_cpu: float
) -> dict[str, Any]:
    """Actions per second, latency quantiles (milliseconds) and CPU per action of one K."""
    to_all, to_actor = [], []
    for run in runs:
        for version, sent in run.sent.items():
            seats = run.received.get(version, {})
            if len(seats) == 4:
                to_all.append(max(seats.values()) - sent)
                to_actor.append(seats[run.actor[version]] - sent)
    actions = sum(run.actions for run in runs)
    return {
        "K": k,
        "actions": actions,
        "seconds": round(wall, 2),
        "actions/s": round(actions / wall),
        "p50 ms": round(1000 * statistics.median(to_all), 1),
        "p99 ms": round(1000 * percentile(to_all, 0.99), 1),
        "p50 actor ms": round(1000 * statistics.median(to_actor), 1),
        "p99 actor ms": round(1000 * percentile(to_actor, 0.99), 1),
        "server CPU ms/action": round(1000 * server_cpu / actions, 2),
        "client CPU ms/action": round(1000 * client_cpu / actions, 2),
    }


