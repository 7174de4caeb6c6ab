"""Time the decisions of a bot (bids, kitty, plays) in hands against rule bots.

    python bench/decision_time.py [--bot rule|hard|NAME:key=value] [--hands N] [--variant V]
                                  [--cpu]

The bot sits at seat ``hand % 4`` of every hand; the other seats are rule bots. Prints the
median, p95 and maximum decision time per variant: wall clock of one process, or with ``--cpu``
the process's CPU time (what one core spends, whatever else the machine runs).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from baofen import Hand, RuleSet
from baofen.arena import BotSpec
from baofen.bots import make_bot


def decision_times(rules: RuleSet, spec: BotSpec, hands: int, seed: int,
                   clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds (of ``clock``) taken by each decision of ``spec``'s bot over ``hands`` hands."""
    times: list[float] = []
    for number in range(hands):
        seat_of_bot = number % 4
        bot = spec.make(seed * 1000 + number)
        others = [make_bot("rule") for _ in range(4)]
        hand = Hand(rules, seed=seed * 1_000_003 + number)
        while hand.phase != "done":
            seat = hand.to_act
            assert seat is not None
            observation = hand.observation(seat)
            if seat == seat_of_bot:
                start = clock()
                action = bot.act(observation)
                times.append(clock() - start)
            else:
                action = others[seat].act(observation)
            hand.apply(seat, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="rule")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    parser.add_argument("--cpu", action="store_true", help="CPU time instead of wall clock")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    spec = BotSpec.parse(args.bot)
    for variant in ["baofen", "hongwu"] if args.variant == "both" else [args.variant]:
        times = sorted(decision_times(RuleSet.create(variant=variant), spec, args.hands, args.seed,
                                      clock))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{variant:7s} {spec.label} ({'CPU' if args.cpu else 'wall'}): {len(times)} decisions, "
            f"median "
            f"{statistics.median(times) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms, "
            f"max {times[-1] * 1e3:.2f} ms, mean {statistics.fmean(times) * 1e3:.2f} ms"
        )


if __name__ == "__main__":
    main()
