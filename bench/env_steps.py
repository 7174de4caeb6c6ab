"""Time the PettingZoo environment with a random agent, beside the engine's own random hands.

    python bench/env_steps.py [--hands N] [--runs R] [--variant baofen|hongwu|both]

A random agent draws each step uniformly among the legal ones (the action mask); every step
builds the acting seat's observation (encoding and mask). Prints steps/s and hands/s of the
environment, and hands/s of ``bench/random_hands.py`` (random bots on the bare engine), on one
core. Needs the ``research`` extra.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from baofen import RuleSet
from baofen.env import BaofenEnv
from random_hands import play_hands


def env_rates(rules: RuleSet, hands: int, seed: int) -> tuple[float, float, float]:
    """Play ``hands`` hands with a random agent; (steps/s, hands/s, steps per hand)."""
    env = BaofenEnv(rules)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for number in range(hands):
        env.reset(seed=seed * 1_000_003 + number)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, hands / elapsed, steps / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    args = parser.parse_args()
    variants = ["baofen", "hongwu"] if args.variant == "both" else [args.variant]
    for variant in variants:
        rules = RuleSet.create(variant=variant)
        runs = [env_rates(rules, args.hands, seed) for seed in range(args.runs)]
        engine = [play_hands(rules, args.hands * 10, seed) for seed in range(args.runs)]
        print(
            f"{variant:7s} env: median {statistics.median(r[0] for r in runs):7.0f} steps/s, "
            f"{statistics.median(r[1] for r in runs):5.1f} hands/s "
            f"({statistics.median(r[2] for r in runs):.0f} steps a hand); "
            f"engine: {statistics.median(engine):6.0f} hands/s"
        )


if __name__ == "__main__":
    main()
