"""The chance of a pooled arena figure's z over repeated looks, under no difference.

    python3 -m bench.arena.sequential_looks --looks 470 1030 1630 2200 --z 2.76 [--runs 2000000]

An arena run that is continued while its pooled figure is looked at after each plan could have
stopped at any look; the plain P of the last look's z then understates the chance of a false
claim. Under no difference the pooled sum of per-deal advantages is a random walk whose
variance grows with the deals, so the looks' z values are those of a Brownian motion read at
the looks' sizes. This simulates it and prints the chance that any look's |z| reaches the final
look's |z| (two-sided), with the Pocock-type bound (one constant for every look) and the
O'Brien–Fleming-type bound at the last look (a constant times sqrt(N / n_k)) that hold the
chance at ``--alpha``.
"""

from __future__ import annotations

import argparse

import numpy as np


def look_z(sizes: np.ndarray, runs: int, seed: int) -> np.ndarray:
    """z at each look (columns) for ``runs`` simulated runs with no difference (rows)."""
    rng = np.random.default_rng(seed)
    steps = rng.standard_normal((runs, len(sizes))) * np.sqrt(np.diff(sizes, prepend=0.0))
    return np.cumsum(steps, axis=1) / np.sqrt(sizes)


def crossing_chance(z: np.ndarray, bounds: np.ndarray) -> float:
    """The share of runs whose |z| reaches its look's bound at some look."""
    return float(np.mean(np.any(np.abs(z) >= bounds, axis=1)))


def constant_for(z: np.ndarray, shape: np.ndarray, alpha: float) -> float:
    """The c for which bounds c·shape are crossed with chance alpha (bisection)."""
    low, high = 0.0, 10.0
    for _ in range(50):
        middle = (low + high) / 2
        if crossing_chance(z, middle * shape) > alpha:
            low = middle
        else:
            high = middle
    return high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--looks", type=int, nargs="+", required=True,
                        help="deals pooled at each look, in order")
    parser.add_argument("--z", type=float, required=True, help="the last look's z (mean / SE)")
    parser.add_argument("--runs", type=int, default=2_000_000)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if sorted(args.looks) != args.looks or len(set(args.looks)) != len(args.looks):
        parser.error("--looks must be increasing deal counts")
    sizes = np.asarray(args.looks, dtype=float)
    z = look_z(sizes, args.runs, args.seed)
    chance = crossing_chance(z, np.full(len(sizes), abs(args.z)))
    pocock = constant_for(z, np.ones(len(sizes)), args.alpha)
    obf = constant_for(z, np.sqrt(sizes[-1] / sizes), args.alpha)
    print(f"looks {args.looks}, last z {args.z:.2f}: chance any look reaches it "
          f"(no difference, {args.runs:,} runs) {chance:.3f}")
    print(f"bounds at alpha {args.alpha}: Pocock-type {pocock:.2f} at every look; "
          f"O'Brien-Fleming-type {obf:.2f} at the last")


if __name__ == "__main__":
    main()
