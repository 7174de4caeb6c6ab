"""Fit the search's prior on who holds which card (``HOLDING_WEIGHTS`` of
``baofen.bots.search.holdings``) from rule-bot hands; write it as
``baofen/bots/data/holdings.json``.

    PYTHONPATH=src python3 -m bench.calibration.calibrate_holdings [--deals N] [--jobs J] \
        [--variant baofen|hongwu|both] [--out FILE]

In hands of four rule bots, at the start of play, every card is counted by its holder's class —
the declarer (包红五: ``forced`` when everyone passed and it was made declarer at the lowest bid),
the bury, a defender who bid in the auction (``bidder``), a defender who passed throughout
(``passer``) — and by its *category* (:func:`~baofen.bots.search.holdings.category`: a trump by
its place from the top of the trump order, a plain card by its rank). A class's weight for a
category is how many more of those cards a slot of that class holds than a slot of a passing
defender.

Sampled worlds deal each card to a holder with chance proportional to weight and room, which does
not give exactly those odds (the holders fill up), so the weights are then corrected a few times:
each is multiplied by the square root of the empirical rate over the rate the sampler achieves on
a defender's view of the same start positions, and kept between :data:`SMALLEST` and
:data:`LARGEST`. Writes the weights of the games fitted into the data file the search reads
(the other game's are kept; the defaults made the one shipped), or into ``--out``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from baofen import Hand, RuleSet
from baofen.bots.engine import current
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.determinize import Determinizer
from baofen.bots.search.holdings import KITTY, category, holder_class
from baofen.order import order_for
from bench.common.tables import read_table, write_table

SMALLEST = 0.02
"""The least weight: a card the rule bots never put with a holder may be there at a human's
table (a declarer who buries a trump)."""

ABOUT = ("How readily an unseen card goes to a holder, per game, by the holder's class and the "
         "card's category (t0 the top trump, p3 a plain three ...), over a defender who passed "
         "throughout (weight 1, as is any class or category not listed); fitted on rule-bot "
         "hands.")
"""What the data file says it holds."""

LARGEST = 50.0
"""The largest weight (the bury's share of the lowest plain cards)."""

Counts = dict[tuple[str, str], float]
"""Cards per (holder class, category), or slots per (holder class, "")."""


def start_of_play(variant: str, seed: int) -> Hand | None:
    """A rule-bot hand of ``variant`` brought to its first play (``None``: 包分's four passes)."""
    hand = Hand(RuleSet.create(variant=variant), seed=seed)
    bot = RuleBot()
    while hand.phase not in ("playing", "done"):
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bot.act(hand.observation(seat)))
    return hand if hand.phase == "playing" else None


def true_counts(hand: Hand) -> Counts:
    """Cards of each category held by each holder class, and each class's slots."""
    order = order_for(hand.rules.variant, hand.trump)
    counts: Counts = defaultdict(float)
    obs = hand.observation(0)
    holdings = {s: hand.hand_of(s) for s in range(4)}
    holdings[KITTY] = list(hand.buried or ())
    for holder, cards in holdings.items():
        cls = holder_class(obs, holder)
        counts[cls, ""] += len(cards)
        for card in cards:
            counts[cls, category(order, card)] += 1
    return counts


def sampled_counts(hand: Hand, rng: random.Random, worlds: int) -> Counts:
    """The same counts over worlds a defender's sampler deals at the first play (the defender's
    own cards counted as they are)."""
    order = order_for(hand.rules.variant, hand.trump)
    counts: Counts = defaultdict(float)
    seat = next(s for s in range(4) if s != hand.declarer)
    obs = hand.observation(seat)
    sampler = Determinizer(obs, current().rule_player(), 0.0)
    own = holder_class(obs, seat)
    for _ in range(worlds):
        dealt = sampler.sample(rng)
        if dealt is None:
            continue
        dealt[seat] = list(obs.hand)
        for holder, cards in dealt.items():
            cls = own if holder == seat else holder_class(obs, holder)
            counts[cls, ""] += len(cards) / worlds
            for card in cards:
                counts[cls, category(order, card)] += 1 / worlds
    return counts


def truths(variant: str, seeds: range) -> list[Counts]:
    """:func:`true_counts` of the hands of ``seeds``."""
    return [true_counts(hand) for hand in map(start_of_play, [variant] * len(seeds), seeds)
            if hand is not None]


def samples(variant: str, seeds: range, worlds: int) -> list[Counts]:
    """:func:`sampled_counts` of the hands of ``seeds``."""
    rng = random.Random(seeds.start)
    return [sampled_counts(hand, rng, worlds)
            for hand in map(start_of_play, [variant] * len(seeds), seeds) if hand is not None]


def total(parts: list[list[Counts]]) -> Counts:
    """Counts summed over hands."""
    summed: Counts = defaultdict(float)
    for part in parts:
        for counts in part:
            for key, n in counts.items():
                summed[key] += n
    return summed


def rates(counts: Counts) -> dict[str, dict[str, float]]:
    """Cards of each category a slot of each class holds, over a passing defender's slot."""
    classes = {cls for cls, cat in counts if cat == ""}
    cats = sorted({cat for _, cat in counts if cat})
    base = {cat: counts["passer", cat] / counts["passer", ""] for cat in cats}
    return {cls: {cat: (counts[cls, cat] / counts[cls, ""]) / base[cat] if base[cat] else 1.0
                  for cat in cats} for cls in classes if cls != "passer"}


def fit(variant: str, deals: int, jobs: int, rounds: int, worlds: int
        ) -> dict[str, dict[str, float]]:
    """The fitted weights of ``variant`` (three significant digits), by class and category."""
    chunks = [range(start, min(deals, start + 100)) for start in range(0, deals, 100)]
    with ProcessPoolExecutor(jobs) as pool:
        target = rates(total(list(pool.map(truths, [variant] * len(chunks), chunks))))
    weights = {cls: {cat: min(LARGEST, max(SMALLEST, w)) for cat, w in table.items()}
               for cls, table in target.items()}
    sample_chunks = [range(c.start, c.start + max(1, len(c) // 2)) for c in chunks]
    for round_number in range(rounds):
        with ProcessPoolExecutor(jobs, initializer=_install, initargs=(variant, weights)) as pool:
            achieved = rates(total(list(pool.map(
                samples, [variant] * len(sample_chunks), sample_chunks,
                [worlds] * len(sample_chunks)))))
        error = max(abs(achieved[cls][cat] / target[cls][cat] - 1)
                    for cls in target for cat in target[cls]
                    if cls in achieved and target[cls][cat] > 0.05 and achieved[cls][cat] > 0
                    and SMALLEST < weights[cls][cat] < LARGEST)
        print(f"# round {round_number + 1}: largest relative miss {error:.3f}")
        for cls in weights:
            for cat in weights[cls]:
                got = achieved.get(cls, {}).get(cat, 0.0)
                if got > 0 and target[cls][cat] > 0:
                    # Damped: the holders fill up together, so a full step overshoots.
                    weights[cls][cat] *= (target[cls][cat] / got) ** 0.5
                weights[cls][cat] = min(LARGEST, max(SMALLEST, weights[cls][cat]))
    return {cls: {cat: float(f"{w:.3g}") for cat, w in sorted(
        weights[cls].items(), key=lambda item: (item[0][0] != "t", int(item[0][1:])))}
        for cls in sorted(weights)}


def _install(variant: str, weights: dict[str, dict[str, float]]) -> None:
    """Use ``weights`` in a worker process's sampler."""
    import baofen.bots.search.holdings as holdings

    holdings.HOLDING_WEIGHTS[variant] = weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu", "both"), default="both")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=8, help="correction rounds")
    parser.add_argument("--worlds", type=int, default=20, help="worlds a start position")
    parser.add_argument("--out", type=Path, help="the file to write (default: the package's)")
    args = parser.parse_args()
    table = read_table("holdings", args.out if args.out and args.out.exists() else None)
    for variant in ("baofen", "hongwu") if args.variant == "both" else (args.variant,):
        table[variant] = fit(variant, args.deals, args.jobs, args.rounds, args.worlds)
    command = "python3 -m bench.calibration.calibrate_holdings " + " ".join(sys.argv[1:])
    print(write_table("holdings", ABOUT, command.strip(), table, args.out))


if __name__ == "__main__":
    main()
