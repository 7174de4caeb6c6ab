"""Fit the rule bot's bidding models (``BID_MODELS`` in ``baofen/bots/evaluation.py``).

    python bench/calibrate_bids.py [--deals N] [--jobs J] [--variant baofen|hongwu|both]

For every deal and every seat, that seat declares at the lowest bid (everyone else passes), the
rule bot names trump, buries and plays all four seats. The declarer's points (包分: S + target,
the score before the target is taken off; 包红五: P) are regressed on the evaluation features of
its 25 dealt cards for the trump it named. Prints the coefficients and residual deviation to paste
into ``BID_MODELS``, and the mean points per decile of the fitted value.
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from baofen import Hand, RuleSet
from baofen.bots.rule.bot import RuleBot
from baofen.bots.rule.evaluation import FEATURES, hand_features


def forced_hands(variant: str, seed: int) -> list[tuple[tuple[float, ...], float]]:
    """One deal played four times, each seat the declarer at the lowest bid."""
    rules = RuleSet.create(variant=variant)
    bots = [RuleBot() for _ in range(4)]
    out = []
    for declarer in range(4):
        hand = Hand(rules, seed=seed, first=declarer)
        dealt = hand.hand_of(declarer)
        low = rules.bid_grid()[0]
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.bid(seat, low if seat == declarer else None)
        result = hand.play_out(bots).result
        assert result is not None and hand.trump is not None and result.target is not None
        if variant == "baofen":
            assert result.score is not None
            points = float(result.score + result.target)
        else:
            points = float(result.declarer_points)
        out.append((hand_features(variant, dealt, hand.trump), points))
    return out


def fit(variant: str, deals: int, jobs: int) -> None:
    """Play, regress and print the model of one game."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        batches = pool.map(forced_hands, [variant] * deals, range(10_000, 10_000 + deals),
                           chunksize=8)
        data = [item for batch in batches for item in batch]
    x = np.array([[1.0, *features] for features, _ in data])
    y = np.array([points for _, points in data])
    coefficients, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = x @ coefficients
    residual = float(np.std(y - fitted))
    print(f"{variant}: {len(y)} hands, mean points {y.mean():.1f}, residual sd {residual:.1f}")
    print("  coefficients (intercept, " + ", ".join(FEATURES) + "):")
    print("  (" + ", ".join(f"{c:.3f}" for c in coefficients) + f"), {residual:.1f}")
    order = np.argsort(fitted)
    for decile, chunk in enumerate(np.array_split(order, 10)):
        print(f"  decile {decile}: fitted {fitted[chunk].mean():7.1f}  actual "
              f"{statistics.fmean(y[chunk]):7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    args = parser.parse_args()
    for variant in ["baofen", "hongwu"] if args.variant == "both" else [args.variant]:
        fit(variant, args.deals, args.jobs)


if __name__ == "__main__":
    main()
