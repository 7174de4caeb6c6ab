"""The kitty search's gain over the rule bot's kitty, declarer hand by declarer hand, on the true
deal: a decision-level screen of :mod:`baofen.bots.kitty_search` (issue 28).

    PYTHONPATH=src python3 bench/kitty_screen.py --variant baofen --hands 50 --seed 1

Hands are dealt from seeds and bid by four rule bots; at each hand with a declarer, the rule
bot's trump and bury and the kitty search's (from the declarer's observation only) are each
played out on the true deal by the rule bot in all four seats. The gain is the declarer's result
(包分 score points, 包红五 levels) with the search's kitty less with the rule bot's; the table
gives its mean with a 95% interval over hands, how often the search left the rule bot's choice,
and the search's seconds a kitty (median, p95).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from baofen import Hand, RuleSet
from baofen.actions import Declare
from baofen.bots.kitty_search import WORLDS, KittySearch
from baofen.bots.rule_bot import RuleBot
from baofen.bots.screen import interval


def played(hand: Hand, seat: int, option: Declare, rule: RuleBot) -> float:
    """The declarer's result when it declares ``option`` and the rule bot plays on."""
    copy = hand.copy()
    copy.apply(seat, option)
    result = copy.play_out((rule, rule, rule, rule)).result
    assert result is not None
    return float(result.deltas[seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--hands", type=int, default=50, help="declarer hands (fixed in advance)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--gate", type=int, default=None, help="fresh worlds of the gate")
    args = parser.parse_args()
    rules = RuleSet.create(variant=args.variant)
    rule = RuleBot()
    gains: list[float] = []
    seconds: list[float] = []
    changed = 0
    deal = 0
    while len(gains) < args.hands:
        hand = Hand(rules, seed=args.seed * 100_003 + deal)
        deal += 1
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, rule.act(hand.observation(seat)))
        if hand.phase != "kitty":
            continue
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        search = KittySearch(rule, random.Random(args.seed * 7919 + deal), worlds=args.worlds,
                             gate=args.gate)
        start = time.process_time()
        chosen = search.declare(obs)
        seconds.append(time.process_time() - start)
        own = rule.declare(obs)
        if chosen == own:
            gains.append(0.0)
            continue
        changed += 1
        gains.append(played(hand, seat, chosen, rule) - played(hand, seat, own, rule))
    unit = "score points" if args.variant == "baofen" else "levels"
    times = sorted(seconds)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"{args.variant}, {len(gains)} declarer hands (seed {args.seed}, {deal} deals); "
          f"gain in {unit} a declarer hand")
    print("| gain over the rule bot's kitty | kitties changed | s a kitty (median, p95, CPU) |")
    print("|---|---|---|")
    print(f"| {interval(gains, 2)} | {changed} of {len(gains)} | "
          f"{statistics.median(times):.2f}, {p95:.2f} |")
    if changed:
        moved = [g for g in gains if g]
        print(f"hands whose result changed: {interval(moved, 2) if len(moved) > 1 else moved}, "
              f"better {sum(g > 0 for g in gains)}, worse {sum(g < 0 for g in gains)}")


if __name__ == "__main__":
    main()
