"""Time full random hands (deal → score), an observation built for every decision.

    python3 -m bench.speed.random_hands [--hands N] [--runs R] [--variant baofen|hongwu|both]

Prints hands per second for each run and the median, per variant, on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

from baofen import RuleSet, play_hand
from baofen.bots import make_bot


def play_hands(rules: RuleSet, hands: int, seed: int) -> float:
    """Play ``hands`` random hands; return hands per second."""
    bots = [make_bot("random", seed=seed * 10 + seat) for seat in range(4)]
    start = time.perf_counter()
    for number in range(hands):
        play_hand(rules, seed * 1_000_003 + number, bots)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    args = parser.parse_args()
    variants = ["baofen", "hongwu"] if args.variant == "both" else [args.variant]
    for variant in variants:
        rules = RuleSet.create(variant=variant)
        rates = [play_hands(rules, args.hands, seed) for seed in range(args.runs)]
        print(
            f"{variant:7s} median {statistics.median(rates):7.0f} hands/s  "
            f"(runs: {', '.join(f'{r:.0f}' for r in rates)}; {args.hands} hands each)"
        )


if __name__ == "__main__":
    main()
