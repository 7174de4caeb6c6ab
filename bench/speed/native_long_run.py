"""The long differential run of the native core: many native hands, each replayed in
the Python engine (the reference), results and trick winners compared.

    python3 -m bench.speed.native_long_run --hands 1000000 --variant baofen [--rule-share 0.2]
        [--state runs/native-long-baofen.json]

Hands are dealt from consecutive seeds, a chunk of 5,000 at a time; a share of the chunks
(``--rule-share``) is played by four native rule players, the others by native random players.
Each hand's actions are applied to a Python ``Hand`` dealt from the same seed, and every 1,000th
goes through its JSON hand record (``Hand.from_record`` checks the recorded result). The state
file keeps the hands done and the differences found, so a stopped run goes on from there; the
end is fixed in advance by ``--hands``. Prints the totals and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from baofen import Hand, RuleSet
from baofen._native import available, why_unavailable
from baofen._native.batch import play_random
from baofen.bots.native_players import player_hands

CHUNK = 5000


def check_chunk(rules: RuleSet, start: int, rule_players: bool) -> list[str]:
    """Play hands ``start`` … ``start + CHUNK - 1`` natively and replay them; the differences."""
    hands = [Hand(rules, seed=seed) for seed in range(start, start + CHUNK)]
    played = player_hands(hands, "rule") if rule_players else play_random(hands, start)
    differences = []
    for number, (hand, native) in enumerate(zip(hands, played, strict=True)):
        try:
            if number % 1000 == 0:
                hand = Hand.from_record(native.to_record())
            else:
                for seat, action in native.actions:
                    hand.apply(seat, action)
        except ValueError as error:  # an action the Python engine refuses
            differences.append(f"seed {native.seed}: {error}")
            continue
        if hand.result != native.result or [t.winner for t in hand.tricks] != list(native.winners):
            differences.append(f"seed {native.seed}: the results or trick winners differ")
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--variant", choices=["baofen", "hongwu"], default="baofen")
    parser.add_argument("--rule-share", type=float, default=0.2,
                        help="share of the chunks played by rule players")
    parser.add_argument("--state", type=Path, help="progress file (resumable)")
    args = parser.parse_args()
    if not available():
        sys.exit(f"no native core: {why_unavailable()}")
    rules = RuleSet.create(variant=args.variant)
    state: dict[str, Any] = {"done": 0, "rule_hands": 0, "differences": [], "seconds": 0.0}
    if args.state and args.state.exists():
        state = json.loads(args.state.read_text())
    every = max(1, round(1 / args.rule_share)) if args.rule_share > 0 else 0
    while state["done"] < args.hands:
        start = state["done"]
        rule_players = bool(every) and (start // CHUNK) % every == 0
        began = time.perf_counter()
        state["differences"] += check_chunk(rules, start, rule_players)
        state["seconds"] += time.perf_counter() - began
        state["done"] = start + CHUNK
        state["rule_hands"] += CHUNK if rule_players else 0
        if args.state:
            args.state.parent.mkdir(parents=True, exist_ok=True)
            args.state.write_text(json.dumps(state))
        print(f"{args.variant}: {state['done']:,} hands ({state['rule_hands']:,} by rule players), "
              f"{len(state['differences'])} differences, {state['seconds']:.0f} s", flush=True)
    sys.exit(1 if state["differences"] else 0)


if __name__ == "__main__":
    main()
