"""Bytes a player receives over whole hands against the computer, as sent and as whole states.

Starts ``baofen serve`` on a fresh SQLite database, opens N tables of one 包分 (or 包红五) hand
with this client at South and three computer players (the random level, so that hands are quick),
and plays South's moves with the random bot. Every message is counted as it came over the
WebSocket (uncompressed JSON text): the ``patch`` messages as sent, and beside them what the
``state`` each one makes would have been, had it been sent whole (today's server before patches
sent every view whole) — both figures from the same hands in one run.

    PYTHONPATH=src python3 -m bench.server.state_bytes --hands 5 --variant baofen
    PYTHONPATH=src python3 -m bench.server.state_bytes --hands 5 --number 6  # a match's 6th hand
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from baofen import RuleSet
from baofen.bots import make_bot
from baofen.wire.actions import action_message
from baofen.wire.observation import ObservationView
from baofen.wire.patch import apply as apply_patch
from bench.common.serving import ROOT, free_port, start_server


def whole(message: dict[str, Any]) -> int:
    """The size of a message as the server writes it (compact JSON, UTF-8)."""
    return len(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())


async def one_hand(
    base: str, variant: str, seed: int, number: int = 1
) -> tuple[Counter[str], Counter[str]]:
    """Play hand ``number`` of a match at South (the ones before it played too, not counted);
    bytes and messages received in it, by kind, and the whole-state bytes (``would_be``) the
    patches stand for."""
    answer = httpx.post(f"{base}/api/quickplay", json={"variant": variant, "level": "random"})
    answer.raise_for_status()
    table = answer.json()
    rules = RuleSet.create(variant=variant)
    bot = make_bot("random", seed=seed)
    sent: Counter[str] = Counter()
    count: Counter[str] = Counter()
    url = base.replace("http", "ws", 1) + table["websocket"]
    async with connect(url, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "reclaim", "token": table["token"]}))
        view: dict[str, Any] | None = None
        acted = readied = -1
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "patch":
                assert view is not None and view["view"] == message["since"], message
                message = apply_patch(view, message)
            if message["type"] == "state":
                view = message
            match = view["table"]["match"] if view is not None else None
            counted = (match["hand_number"] if match is not None else 1) == number
            if counted:
                size = len(raw.encode() if isinstance(raw, str) else raw)
                sent[kind] += size
                count[kind] += 1
            if message["type"] != "state":
                continue
            if counted:
                sent["would_be"] += whole(message) if kind == "patch" else size
            observation = message["observation"]
            if observation is None:
                continue
            version = message["table"]["version"]
            if observation["phase"] == "done":
                if counted:
                    return sent, count
                if version != readied:  # 继续
                    readied = version
                    await ws.send(json.dumps({"type": "ready"}))
                continue
            if observation["to_act"] == 0 and version != acted:
                acted = version
                action = bot.act(ObservationView.model_validate(observation).to_observation(rules))
                await ws.send(action_message(action).model_dump_json(exclude={"id"}))
    raise RuntimeError("the connection ended before the hand did")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--number", type=int, default=1,
                        help="count hand NUMBER of each match (the ones before it played too)")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the source tree whose server to run (default: this one)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(f"sqlite:///{folder}/bench.db", port, tree=args.tree)
        try:
            base = f"http://127.0.0.1:{port}"
            runs = [asyncio.run(one_hand(base, args.variant, seed, args.number))
                    for seed in range(args.hands)]
        finally:
            server.terminate()
            server.wait(30)
    totals = [sum(v for k, v in sent.items() if k != "would_be") for sent, _ in runs]
    would = [sent["would_be"] for sent, _ in runs]
    print(f"{args.variant}, hand {args.number} of {args.hands} matches against three computer "
          "players, South's bytes:")
    print(f"  as sent (state + patch + other): median {statistics.median(totals):,.0f} B a hand")
    print(f"  had every view been sent whole:  median {statistics.median(would):,.0f} B a hand")
    print(f"  ratio: {statistics.median(t / w for t, w in zip(totals, would, strict=True)):.3f}")
    kinds: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for sent, count in runs:
        kinds.update(count)
        sizes.update({k: v for k, v in sent.items() if k != "would_be"})
    for kind, n in kinds.most_common():
        print(f"  {kind:>8}: {n / args.hands:6.1f} messages, {sizes[kind] / n:8.0f} B each")


if __name__ == "__main__":
    main()
