"""Random hands per second, native core against the pure-Python engine, on one core.

    python3 -m bench.speed.native_hands [--python-hands N] [--native-hands N] [--runs R] \
        [--variant baofen|hongwu|both]

Python: full random hands as bench/speed/random_hands.py plays them (deal, a random bot's
decision on an observation at every turn, score). Native: the same kind of hands,
``Hand(rules, seed=...)``'s deals, played by the native random player in one call: "play-out"
times the play alone (the deals prepared before the clock starts: a play-out is given its
state), "native deals" adds the native core's dealing from the seeds (what ``baofen simulate``
does: the same deals), "Python deals" the Python engine's dealing instead.
Prints each run and the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from baofen import RuleSet, _native
from bench.speed.random_hands import play_hands


def native_rates(rules: RuleSet, hands: int, seed: int) -> tuple[float, float, float]:
    """Native random hands per second: the play-out alone, with the native core dealing them,
    and with the Python engine dealing them."""
    from baofen._native import batch

    seeds = [seed * 1_000_003 + n for n in range(hands)]
    start = time.perf_counter()
    cards, firsts = batch.pack_deals(batch.dealt(rules, s) for s in seeds)
    dealing = time.perf_counter() - start
    start = time.perf_counter()
    assert batch.seeded_deals(rules, seeds) == (cards, firsts)
    native_dealing = time.perf_counter() - start
    native = batch.native_rules(rules)
    start = time.perf_counter()
    table, _, _ = _native.core().random_hands(native, cards, firsts, seed)
    results = batch.results_of(rules, table)
    playing = time.perf_counter() - start
    assert len(results) == hands
    return hands / playing, hands / (playing + native_dealing), hands / (playing + dealing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python-hands", type=int, default=400)
    parser.add_argument("--native-hands", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    args = parser.parse_args()
    if not _native.available():
        sys.exit(f"no native core: {_native.why_unavailable()}")
    variants = ["baofen", "hongwu"] if args.variant == "both" else [args.variant]
    for variant in variants:
        rules = RuleSet.create(variant=variant)
        pure = [play_hands(rules, args.python_hands, seed) for seed in range(args.runs)]
        rates = [native_rates(rules, args.native_hands, seed) for seed in range(args.runs)]
        play = statistics.median(r[0] for r in rates)
        native_dealt = statistics.median(r[1] for r in rates)
        dealt = statistics.median(r[2] for r in rates)
        python = statistics.median(pure)
        print(
            f"{variant:7s} python {python:7.0f} hands/s (runs {', '.join(f'{r:.0f}' for r in pure)}"
            f"; {args.python_hands} hands)\n"
            f"        native {play:7.0f} hands/s play-out, {play / python:5.1f}x "
            f"(runs {', '.join(f'{r[0]:.0f}' for r in rates)}; {args.native_hands} hands)\n"
            f"        native {native_dealt:7.0f} hands/s with the native deals, "
            f"{native_dealt / python:5.1f}x\n"
            f"        native {dealt:7.0f} hands/s with the Python deals, {dealt / python:5.1f}x"
        )


if __name__ == "__main__":
    main()
