"""Time the PettingZoo environment with a random agent, beside the engine's own random hands.

    python3 -m bench.speed.env_steps [--hands N] [--runs R] [--variant baofen|hongwu|both] \
        [--engine native|python|both]

A random agent draws each step uniformly among the legal ones (the action mask); every step
builds the acting seat's observation (encoding and mask). Prints steps/s and hands/s of the
environment, and hands/s of ``bench/speed/random_hands.py`` (random bots on the bare engine), on one
core. ``--engine both`` times the env on the native core and on the Python path, alternating
runs, by CPU time (``time.process_time``, steady on a loaded machine), with the ratio. Needs the
``research`` extra.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from baofen import RuleSet
from baofen._native import EngineName
from baofen.bots.engine import current, native, python, use
from baofen.env import BaofenEnv
from bench.speed.random_hands import play_hands

ENGINES = {"native": native, "python": python}


def env_rates(
    rules: RuleSet, hands: int, seed: int, engine: EngineName | None = None, cpu: bool = False
) -> tuple[float, float, float]:
    """Play ``hands`` hands with a random agent; (steps/s, hands/s, steps per hand), by wall
    time or, with ``cpu``, by CPU time. ``engine``: the env's (``None``: native where built)."""
    with use(current() if engine is None else ENGINES[engine]()):
        env = BaofenEnv(rules)
    rng = np.random.default_rng(seed)
    steps = 0
    clock = time.process_time if cpu else time.perf_counter
    start = clock()
    for number in range(hands):
        env.reset(seed=seed * 1_000_003 + number)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    elapsed = clock() - start
    return steps / elapsed, hands / elapsed, steps / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    parser.add_argument("--engine", choices=["native", "python", "both"], default=None)
    args = parser.parse_args()
    variants = ["baofen", "hongwu"] if args.variant == "both" else [args.variant]
    for variant in variants:
        rules = RuleSet.create(variant=variant)
        if args.engine == "both":
            compare(rules, args.hands, args.runs)
            continue
        if args.engine is not None:
            runs = [env_rates(rules, args.hands, seed, args.engine) for seed in range(args.runs)]
            print(
                f"{variant:7s} env ({args.engine}): median "
                f"{statistics.median(r[0] for r in runs):7.0f} steps/s, "
                f"{statistics.median(r[1] for r in runs):5.1f} hands/s"
            )
            continue
        runs = [env_rates(rules, args.hands, seed) for seed in range(args.runs)]
        engine = [play_hands(rules, args.hands * 10, seed) for seed in range(args.runs)]
        print(
            f"{variant:7s} env: median {statistics.median(r[0] for r in runs):7.0f} steps/s, "
            f"{statistics.median(r[1] for r in runs):5.1f} hands/s "
            f"({statistics.median(r[2] for r in runs):.0f} steps a hand); "
            f"engine: {statistics.median(engine):6.0f} hands/s"
        )


def compare(rules: RuleSet, hands: int, runs: int) -> None:
    """The env on each engine, runs alternating, by CPU time; medians and their ratio."""
    rates: dict[EngineName, list[float]] = {"python": [], "native": []}
    for seed in range(runs):
        for engine in rates:
            rates[engine].append(env_rates(rules, hands, seed, engine, cpu=True)[0])
    python, native = (statistics.median(rates[e]) for e in ("python", "native"))
    print(
        f"{rules.variant:7s} env by CPU time: python {python:7.0f} steps/s, "
        f"native {native:7.0f} steps/s ({native / python:.2f}x)"
    )


if __name__ == "__main__":
    main()
