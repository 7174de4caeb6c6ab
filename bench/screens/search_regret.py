"""How far a searching bot's plays fall short of the perfect-information reference's, decision by
decision: a low-noise yardstick for tuning the search between arena runs.

    PYTHONPATH=src python3 -m bench.screens.search_regret --variant baofen --positions 300 \
        --bots rule hard hard:candidates=4 master

Positions are drawn from hands of four rule bots (seeded; about one play decision in five that
has a choice). At each, every candidate play (the rule bot's best :data:`CANDIDATES`, and each
bot's choice) is played out on the *true* deal with the rule bot in all seats — the value the
reference player maximises. A bot's regret at a position is the best candidate's value minus the
value of the bot's choice, for the deciding seat, in the hand's unit (包分 score points, 包红五
levels). The
table gives each bot's mean regret with a 95% interval over positions, paired against the first
bot's (the lower-noise comparison), by role, how often it chose
the best candidate, and its median time a decision. Bots are compared on the same positions.
"""

from __future__ import annotations

import argparse
import statistics
import time

from baofen.actions import Play
from baofen.arena import BotSpec
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import search_bot
from bench.common.screen import interval, positions, role_of

CANDIDATES = 12
"""Candidate plays valued on the true deal at each position."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["rule", "hard"])
    args = parser.parse_args()
    playout = RuleBot()
    judge = search_bot(objective="score")
    found = positions(args.variant, args.positions, args.seed)
    specs = [BotSpec.parse(text) for text in args.bots]
    regret: dict[str, dict[str, list[float]]] = {
        s.label: {"result": [], "declarer": [], "defender": [], "best": []}
        for s in specs}
    seconds: dict[str, list[float]] = {s.label: [] for s in specs}
    for index, (hand, seat) in enumerate(found):
        obs = hand.observation(seat)
        values = {tuple(sorted(c)): judge.rollout(hand, seat, c)
                  for c in playout.play_candidates(obs, CANDIDATES)}
        choices = []
        for spec in specs:
            bot = spec.make(args.seed * 7919 + index)
            start = time.perf_counter()
            action = bot.act(obs)
            seconds[spec.label].append(time.perf_counter() - start)
            assert isinstance(action, Play)
            key = tuple(sorted(action.cards))
            if key not in values:
                values[key] = judge.rollout(hand, seat, action.cards)
            choices.append((spec.label, key))
        best = max(values.values())
        role = role_of(hand, seat)
        for label, key in choices:
            lost = best - values[key]
            regret[label]["result"].append(lost)
            regret[label][role].append(lost)
            regret[label]["best"].append(float(lost == 0))
    unit = "score points" if args.variant == "baofen" else "levels"
    first = specs[0].label
    print(f"{args.variant}, {len(found)} positions (seed {args.seed}); regret in {unit}")
    print(f"| bot | regret | − {first}'s, paired | as declarer | as defender | best chosen "
          "| median s |")
    print("|---|---|---|---|---|---|---|")
    for spec in specs:
        r = regret[spec.label]
        paired = [a - b for a, b in zip(r["result"], regret[first]["result"], strict=True)]
        print(f"| {spec.label} | {interval(r['result'])} | {interval(paired)} | "
              f"{interval(r['declarer'])} | "
              f"{interval(r['defender'])} | "
              f"{statistics.fmean(r['best']):.2f} | {statistics.median(seconds[spec.label]):.3f} |")


if __name__ == "__main__":
    main()
