"""Time the decisions of a bot (bids, kitty, plays) in hands against rule bots.

    python3 -m bench.speed.decision_time [--bot rule|hard|NAME:key=value] [--hands N] \
        [--variant V] [--cpu] [--engines python,native]

The bot sits at seat ``hand % 4`` of every hand; the other seats are rule bots. Prints the
median, p95 and maximum decision time per variant: wall clock of one process, or with ``--cpu``
the process's CPU time (what one core spends, whatever else the machine runs).

``--engines python,native``: the same hands played once a engine, alternating hand by hand (the
order swapped every hand), the bot made with that engine in use (the rule bots of the other seats
too); the decisions are the same on both engines (tests/test_search_native.py), so are the
hands, and the ratio of the times is the native core's speed-up of the bot's decisions.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from baofen import Hand, RuleSet
from baofen.arena import BotSpec
from baofen.bots import make_bot
from baofen.bots.engine import current, native, python, use

ENGINES = {"native": native, "python": python}


def decision_times(rules: RuleSet, spec: BotSpec, hands: int, seed: int,
                   clock: Callable[[], float] = time.perf_counter, first: int = 0,
                   engine: str | None = None) -> list[float]:
    """Seconds (of ``clock``) taken by each decision of ``spec``'s bot over hands ``first`` …
    ``first + hands - 1`` (``engine``: the bots' and rule bots' engine, else the default)."""
    times: list[float] = []
    for number in range(first, first + hands):
        seat_of_bot = number % 4
        with use(current() if engine is None else ENGINES[engine]()):
            bot = spec.make(seed * 1000 + number)
            others = [make_bot("rule") for _ in range(4)]
        hand = Hand(rules, seed=seed * 1_000_003 + number)
        for seat in hand.turns():
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
    parser.add_argument("--engines", default="",
                        help="comma-separated engines timed in turn on the same hands "
                             "(e.g. python,native)")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    engines = [e for e in args.engines.split(",") if e]
    for variant in ["baofen", "hongwu"] if args.variant == "both" else [args.variant]:
        rules = RuleSet.create(variant=variant)
        if not engines:
            report(variant, BotSpec.parse(args.bot).label, args.cpu,
                   decision_times(rules, BotSpec.parse(args.bot), args.hands, args.seed, clock))
            continue
        specs = {e: BotSpec.parse(args.bot) for e in engines}
        found: dict[str, list[float]] = {e: [] for e in engines}
        for number in range(args.hands):
            order = engines if number % 2 == 0 else engines[::-1]
            for engine in order:
                found[engine] += decision_times(rules, specs[engine], 1, args.seed, clock,
                                                first=number, engine=engine)
        medians = {e: report(variant, f"{specs[e].label} ({e})", args.cpu, found[e])
                   for e in engines}
        if len(engines) == 2:
            slow, fast = engines
            ratio = medians[slow][0] / medians[fast][0]
            print(f"{variant:7s} {slow} / {fast}: median {ratio:.1f}×,"
                  f" p95 {medians[slow][1] / medians[fast][1]:.1f}×, "
                  f"mean {medians[slow][2] / medians[fast][2]:.1f}×")


def report(variant: str, label: str, cpu: bool, found: list[float]) -> tuple[float, float, float]:
    """Print the median, p95, max and mean of the decision times ``found``; return the median,
    p95 and mean."""
    times = sorted(found)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    median = statistics.median(times)
    mean = statistics.fmean(times)
    print(
        f"{variant:7s} {label} ({'CPU' if cpu else 'wall'}): {len(times)} decisions, "
        f"median {median * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms, "
        f"max {times[-1] * 1e3:.2f} ms, mean {mean * 1e3:.2f} ms"
    )
    return median, p95, mean


if __name__ == "__main__":
    main()
