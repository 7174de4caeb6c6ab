"""How close the search's sampled worlds are to the true deal: a yardstick for inference.

    PYTHONPATH=src python3 -m bench.screens.world_accuracy --variant baofen --deals 6 \
        --trackers 8:8:4 8:24:15

In hands of four rule bots (seeded), at every play decision of seats 0 and 1 after the first
trick, worlds are drawn for the deciding seat (a) fresh, as the search bot draws them without
tracking (:meth:`~baofen.bots.search.determinize.Determinizer.draw`), counted alike (``fresh``) or
by their likelihood weights as 困难 counts them (``weighted``), and (b) by each world tracker given
as ``particles:steps:sharpness`` (:mod:`baofen.bots.search.tracking`; one tracker per seat and hand,
as a search bot keeps it). A world's accuracy is the share of the cards hidden from the seat (the
other hands, and for a defender the bury) that it gives to their true holder. The table gives the
mean accuracy over decisions, by stage of the hand (tricks 1–7, 8–15, 16–24), for the declarer's
hand alone as a defender sees it and for the defenders' hands as the declarer sees them (the parts
the partial reference found worth most), and each tracker's median seconds a decision. Since the
other seats here play the rule bot's policy, the true deal is a world the likelihood explains fully;
against other players the gain is smaller.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from baofen import Hand, RuleSet
from baofen.bots.engine import current
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.determinize import Determinizer
from baofen.bots.search.holdings import KITTY
from baofen.bots.search.tracking import WorldTracker
from baofen.cards import Card

STAGES = ("tricks 1–7", "tricks 8–15", "tricks 16–24")

PARTS = ("declarer's hand, to a defender", "defenders' hands, to the declarer")
"""The hidden holdings also reported apart (the partial reference found them worth most)."""


def accuracy(world: Hand, truth: dict[int, list[Card]]) -> dict[int, tuple[int, int]]:
    """Per hidden holder, how many of the cards ``world`` gives it are truly its, of how many."""
    found = {}
    for holder, cards in truth.items():
        left = list(cards)
        held = world.hand_of(holder) if holder != KITTY else list(world.buried or ())
        hit = 0
        for card in held:
            if card in left:
                left.remove(card)
                hit += 1
        found[holder] = (hit, len(held))
    return found


def share(found: dict[int, tuple[int, int]], holders: list[int]) -> float | None:
    """Share of the cards of ``holders`` given to their true holder (``None``: no such card)."""
    hit = sum(found[h][0] for h in holders if h in found)
    total = sum(found[h][1] for h in holders if h in found)
    return hit / total if total else None


def mean(values: list[float]) -> str:
    """A column's mean, or a dash."""
    return f"{statistics.fmean(values):.3f}" if values else "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh", type=int, default=8, help="fresh worlds a decision")
    parser.add_argument("--trackers", nargs="*", default=["8:8:1", "8:24:15"],
                        help="particles:steps:sharpness")
    args = parser.parse_args()
    rules = RuleSet.baofen() if args.variant == "baofen" else RuleSet.hongwu()
    configs = [tuple(float(x) for x in text.split(":")) for text in args.trackers]
    labels = ["fresh", "weighted", *args.trackers]
    columns = [*STAGES, *PARTS]
    scores: dict[str, dict[str, list[float]]] = {
        label: {column: [] for column in columns} for label in labels}
    seconds: dict[str, list[float]] = {label: [] for label in args.trackers}
    bot = RuleBot()
    rng = random.Random(args.seed)

    def record(label: str, stage: str, hand: Hand, seat: int,
               worlds: list[tuple[Hand, float]], truth: dict[int, list[Card]]) -> None:
        """Weighted mean accuracy of ``worlds`` overall (by stage) and by part."""
        mass = sum(weight for _, weight in worlds)
        if not mass:
            return
        found = [(accuracy(world, truth), weight / mass) for world, weight in worlds]
        parts = {stage: list(truth)}
        declarer = hand.declarer
        assert declarer is not None
        if seat == declarer:
            parts[PARTS[1]] = [h for h in truth if h != KITTY]
        else:
            parts[PARTS[0]] = [declarer]
        for column, holders in parts.items():
            values = [(share(f, holders), w) for f, w in found]
            if all(v is not None for v, _ in values):
                scores[label][column].append(sum(v * w for v, w in values if v is not None))

    for deal in range(args.deals):
        hand = Hand(rules, seed=args.seed * 100_003 + deal)
        trackers = {(label, seat): WorldTracker(int(c[0]), int(c[1]))
                    for label, c in zip(args.trackers, configs, strict=True) for seat in (0, 1)}
        for seat in hand.turns():
            obs = hand.observation(seat)
            if hand.phase == "playing" and seat in (0, 1) and 0 < len(hand.tricks) < 24:
                stage = STAGES[min(2, len(hand.tricks) // 8)]
                truth = {s: hand.hand_of(s) for s in range(4) if s != seat}
                if seat != hand.declarer:
                    truth[KITTY] = list(hand.buried or ())
                sampler = Determinizer(obs, current().rule_player())
                drawn = [d for d in (sampler.draw(rng) for _ in range(args.fresh)) if d]
                record("fresh", stage, hand, seat, [(w, 1.0) for _, w, _ in drawn], truth)
                record("weighted", stage, hand, seat, [(w, x) for _, w, x in drawn], truth)
                for label, config in zip(args.trackers, configs, strict=True):
                    start = time.perf_counter()
                    tracked = Determinizer(obs, current().rule_player(), config[2])
                    worlds = trackers[label, seat].worlds(obs, tracked, rng)
                    seconds[label].append(time.perf_counter() - start)
                    record(label, stage, hand, seat, worlds, truth)
            hand.apply(seat, bot.act(obs))
    print(f"{args.variant}, {args.deals} rule-bot deals (seed {args.seed}): share of hidden cards "
          "a world gives to their true holder")
    print("| worlds | all | " + " | ".join(columns) + " | median s |")
    print("|---" * (len(columns) + 3) + "|")
    for label in labels:
        every = [x for stage in STAGES for x in scores[label][stage]]
        cells = [mean(scores[label][column]) for column in columns]
        timing = f"{statistics.median(seconds[label]):.3f}" if seconds.get(label) else "—"
        print(f"| {label} | {mean(every)} | " + " | ".join(cells) + f" | {timing} |")


if __name__ == "__main__":
    main()
