"""The kitty search's gain over the rule bot's kitty, declarer hand by declarer hand, on the true
deal: a decision-level screen of :mod:`baofen.bots.search.kitty`.

    PYTHONPATH=src python3 -m bench.screens.kitty_screen --variant baofen --hands 50 --seed 1
    PYTHONPATH=src python3 -m bench.screens.kitty_screen --variant baofen --hands 200 --seed 1 \\
        --bids bold --worlds 400 --searches 13 48:wide --rows kitty-1.jsonl

Hands are dealt from seeds and bid by four rule bots (``--bids bold``: with the search levels'
bold margin, :data:`~baofen.bots.search.bot.BOLD_MARGINS`); at each hand with a declarer, the
rule bot's trump and bury and each kitty search's (from the declarer's observation only; every
search of a hand from the same seed, so on common first worlds) are each played out on the true
deal by the rule bot in all four seats. A search is ``CANDIDATES`` or ``CANDIDATES:wide`` (each
void set's other fills too). The gain is the declarer's result (包分 score points, 包红五
levels) with the search's kitty less with the rule bot's; the table gives each search's mean
with a 95% interval over hands, how often it left the rule bot's choice, its seconds a kitty
(median, p95), and, with two searches or more, each one's paired gain over the first.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from baofen import Hand, RuleSet
from baofen.actions import Declare
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import BOLD_MARGINS
from baofen.bots.search.kitty import CANDIDATES, WORLDS, KittySearch
from bench.common.screen import interval


def played(hand: Hand, seat: int, option: Declare, rule: RuleBot) -> float:
    """The declarer's result when it declares ``option`` and the rule bot plays on."""
    copy = hand.copy()
    copy.apply(seat, option)
    result = copy.play_out((rule, rule, rule, rule)).result
    assert result is not None
    return float(result.deltas[seat])


def parse_search(text: str) -> tuple[int, bool]:
    """``CANDIDATES`` or ``CANDIDATES:wide`` → (candidates, wide)."""
    count, _, flag = text.partition(":")
    if flag not in ("", "wide") or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"a search is CANDIDATES or CANDIDATES:wide, not {text!r}")
    return int(count), flag == "wide"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--hands", type=int, default=50, help="declarer hands (fixed in advance)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--gate", type=int, default=None, help="fresh worlds of the gate")
    parser.add_argument("--bids", choices=("rule", "bold"), default="rule",
                        help="how the four rule bots bid the hands")
    parser.add_argument("--searches", nargs="+", type=parse_search,
                        default=[(CANDIDATES, False)], metavar="CANDIDATES[:wide]")
    parser.add_argument("--rows", type=Path, default=None, help="a JSON line a hand, appended")
    args = parser.parse_args()
    rules = RuleSet.create(variant=args.variant)
    rule = RuleBot()
    bidder = RuleBot(bid_margin=BOLD_MARGINS[args.variant]) if args.bids == "bold" else rule
    gains: list[list[float]] = [[] for _ in args.searches]
    seconds: list[list[float]] = [[] for _ in args.searches]
    changed = [0] * len(args.searches)
    deal = 0
    while len(gains[0]) < args.hands:
        hand = Hand(rules, seed=args.seed * 100_003 + deal)
        deal += 1
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, bidder.act(hand.observation(seat)))
        if hand.phase != "kitty":
            continue
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        own = rule.declare(obs)
        own_result: float | None = None
        hand_gains: list[float] = []
        for i, (candidates, wide) in enumerate(args.searches):
            search = KittySearch(rule, random.Random(args.seed * 7919 + deal), worlds=args.worlds,
                                 gate=args.gate, candidates=candidates, wide=wide)
            start = time.process_time()
            chosen = search.declare(obs)
            seconds[i].append(time.process_time() - start)
            gain = 0.0
            if chosen != own:
                changed[i] += 1
                if own_result is None:
                    own_result = played(hand, seat, own, rule)
                gain = played(hand, seat, chosen, rule) - own_result
            gains[i].append(gain)
            hand_gains.append(gain)
        if args.rows is not None:
            with args.rows.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"deal": deal - 1, "seat": seat, "gains": hand_gains}) + "\n")
    unit = "score points" if args.variant == "baofen" else "levels"
    print(f"{args.variant}, {len(gains[0])} declarer hands (seed {args.seed}, {deal} deals, "
          f"{args.bids} bids, {args.worlds} worlds); gain in {unit} a declarer hand")
    print("| search | gain over the rule bot's kitty | − the first search's | kitties changed "
          "| s a kitty (median, p95, CPU) |")
    print("|---|---|---|---|---|")
    for i, (candidates, wide) in enumerate(args.searches):
        times = sorted(seconds[i])
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        paired = (interval([a - b for a, b in zip(gains[i], gains[0], strict=True)], 2)
                  if i else "")
        print(f"| {candidates}{' wide' if wide else ''} | {interval(gains[i], 2)} | {paired} | "
              f"{changed[i]} of {len(gains[i])} | {statistics.median(times):.2f}, {p95:.2f} |")


if __name__ == "__main__":
    main()
