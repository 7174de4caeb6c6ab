"""How close the search's sampled worlds are to the true deal: a yardstick for inference.

    PYTHONPATH=src python3 bench/world_accuracy.py --variant baofen --deals 6 \
        --trackers 8:8:4 8:24:15

In hands of four rule bots (seeded), at every play decision of seats 0 and 1 after the first
trick, worlds are drawn for the deciding seat (a) fresh, as the search bot draws them without
tracking (:meth:`~baofen.bots.determinize.Determinizer.world`), and (b) by each world tracker
given as ``particles:steps:sharpness`` (:mod:`baofen.bots.tracking`; one tracker per seat and
hand, as a search bot keeps it). A world's accuracy is the share of the cards hidden from the seat
(the other hands, and for a defender the bury) that it gives to their true holder. The table
gives the mean accuracy over decisions, by stage of the hand (tricks 1–7, 8–15, 16–24), and each
tracker's median seconds a decision. Since the other seats here play the rule bot's policy, the
true deal is a world the likelihood explains fully; against other players the gain is smaller.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from baofen import Hand, RuleSet
from baofen.bots.determinize import KITTY, Determinizer
from baofen.bots.rule_bot import RuleBot
from baofen.bots.tracking import WorldTracker

STAGES = ("tricks 1–7", "tricks 8–15", "tricks 16–24")


def accuracy(world: Hand, truth: dict[int, list[int]]) -> float:
    """Share of the hidden cards ``world`` gives to their true holders."""
    hit = total = 0
    for holder, cards in truth.items():
        left = list(cards)
        held = world.hand_of(holder) if holder != KITTY else list(world.buried or ())
        total += len(held)
        for card in held:
            if card in left:
                left.remove(card)
                hit += 1
    return hit / total if total else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh", type=int, default=8, help="fresh worlds a decision")
    parser.add_argument("--trackers", nargs="+", default=["8:8:1", "8:24:15"],
                        help="particles:steps:sharpness")
    args = parser.parse_args()
    rules = RuleSet.baofen() if args.variant == "baofen" else RuleSet.hongwu()
    configs = [tuple(float(x) for x in text.split(":")) for text in args.trackers]
    labels = ["fresh", *args.trackers]
    scores: dict[str, list[list[float]]] = {label: [[], [], []] for label in labels}
    seconds: dict[str, list[float]] = {label: [] for label in args.trackers}
    bot = RuleBot()
    rng = random.Random(args.seed)
    for deal in range(args.deals):
        hand = Hand(rules, seed=args.seed * 100_003 + deal)
        trackers = {(label, seat): WorldTracker(int(c[0]), int(c[1]))
                    for label, c in zip(args.trackers, configs, strict=True) for seat in (0, 1)}
        while hand.phase != "done":
            seat = hand.to_act
            assert seat is not None
            obs = hand.observation(seat)
            if hand.phase == "playing" and seat in (0, 1) and 0 < len(hand.tricks) < 24:
                stage = min(2, len(hand.tricks) // 8)
                truth = {s: hand.hand_of(s) for s in range(4) if s != seat}
                if seat != hand.declarer:
                    truth[KITTY] = list(hand.buried or ())
                fresh = [w for w in (Determinizer(obs).world(rng) for _ in range(args.fresh)) if w]
                if fresh:
                    scores["fresh"][stage].append(
                        statistics.fmean(accuracy(w, truth) for w in fresh))
                for label, config in zip(args.trackers, configs, strict=True):
                    start = time.perf_counter()
                    worlds = trackers[label, seat].worlds(obs, Determinizer(obs, config[2]), rng)
                    seconds[label].append(time.perf_counter() - start)
                    if worlds:
                        scores[label][stage].append(
                            statistics.fmean(accuracy(w, truth) for w, _ in worlds))
            hand.apply(seat, bot.act(obs))
    print(f"{args.variant}, {args.deals} rule-bot deals (seed {args.seed}): share of hidden cards "
          "a world gives to their true holder")
    print("| worlds | all | " + " | ".join(STAGES) + " | median s |")
    print("|---|---|---|---|---|---|")
    for label in labels:
        every = [x for stage in scores[label] for x in stage]
        cells = [f"{statistics.fmean(s):.3f}" if s else "—" for s in scores[label]]
        timing = f"{statistics.median(seconds[label]):.3f}" if label in seconds else "—"
        print(f"| {label} | {statistics.fmean(every):.3f} | " + " | ".join(cells)
              + f" | {timing} |")


if __name__ == "__main__":
    main()
