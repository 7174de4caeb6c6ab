"""Fit the rule bot's bidding models (``BID_MODELS`` of ``baofen.bots.rule.evaluation``) and write
them as ``baofen/bots/data/bid_models.json``.

    PYTHONPATH=src python3 -m bench.calibration.calibrate_bids [--deals N] [--jobs J] \
        [--variant baofen|hongwu|both] [--out FILE]

For every deal and every seat, that seat declares at the lowest bid (everyone else passes), the
rule bot names trump, buries and plays all four seats. The declarer's points (包分: S + target,
the score before the target is taken off; 包红五: P) are regressed on the evaluation features of
its 25 dealt cards for the trump it named. Prints the mean points per decile of the fitted value
and writes the coefficients and residual deviation of the games fitted into the data file the
rule bot reads (the other game's are kept), or into ``--out``. The native rule player holds the
same numbers (``_native/rule_player.cpp``): build it again after a new fit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from baofen import Hand, RuleSet
from baofen.bots.rule.bot import RuleBot
from baofen.bots.rule.evaluation import hand_features
from bench.common.tables import read_table, write_table

ABOUT = ("The rule bot's bidding models: the declarer's points (包分 S + target, 包红五 P) as a "
         "linear model of a hand's evaluation features (intercept, then n_trump, power, "
         "trump_pairs, side_top, short, points), and the residual standard deviation, per game; "
         "fitted on forced-declarer hands of rule-bot self-play.")
"""What the data file says it holds."""


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


def fit(variant: str, deals: int, jobs: int) -> dict[str, Any]:
    """Play and regress the model of one game; print its fit by decile."""
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
    order = np.argsort(fitted)
    for decile, chunk in enumerate(np.array_split(order, 10)):
        print(f"  decile {decile}: fitted {fitted[chunk].mean():7.1f}  actual "
              f"{statistics.fmean(y[chunk]):7.1f}")
    return {"coefficients": [round(float(c), 3) for c in coefficients],
            "residual_sd": round(residual, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    parser.add_argument("--out", type=Path, help="the file to write (default: the package's)")
    args = parser.parse_args()
    table = read_table("bid_models", args.out if args.out and args.out.exists() else None)
    for variant in ["baofen", "hongwu"] if args.variant == "both" else [args.variant]:
        table[variant] = fit(variant, args.deals, args.jobs)
    command = "python3 -m bench.calibration.calibrate_bids " + " ".join(sys.argv[1:])
    print(write_table("bid_models", ABOUT, command.strip(), table, args.out))


if __name__ == "__main__":
    main()
