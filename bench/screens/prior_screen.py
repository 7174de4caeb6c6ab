"""The decision-level screen: several bots' true-deal gains over the rule bot's choice
on the same held-out play decisions, paired, by role and trick range.

    python3 -m bench.screens.prior_screen --variant baofen --positions 1000 --seed 11 \
        --bots hard hard:prior=evaluator master:prior=rule master --rows screen-11.jsonl

Positions are the gate's (:func:`bench.common.screen.positions`: rule-bot hands, seeds
``seed * 100_003 + i``, apart from the evaluator's training deals; ``--bids bold``: bid by the
rule bot with the search levels' bold margin, as tables of 困难 and 大师 bid); each bot (an
arena spec) is made with seed ``seed * 7919 + i`` at position ``i``, and its play, the learned
evaluator's and the rule bot's are played out on the true deal by rule bots
(:func:`bench.common.screen.true_values`). A gain is a play's value minus the rule bot's
choice's, for the deciding seat (包分 score points, 包红五 levels). Each position is appended to
``--rows`` as a JSON line as it comes (a run cut short keeps them); the table pairs every bot
against the first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from operator import itemgetter
from typing import Any, TextIO

from baofen.actions import Play
from baofen.arena import BotSpec
from baofen.bots.learned.evaluator import LearnedEvaluator
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import BOLD_MARGINS
from bench.common.screen import groups, interval, phase_of, positions, role_of, true_values

EVALUATOR = "evaluator"
"""The learned evaluator's own pick, reported beside the bots where the package has one."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--bots", nargs="+", default=["hard", "master"])
    parser.add_argument("--bids", choices=("rule", "bold"), default="rule",
                        help="who bids the positions' hands: the rule bot, or boldly")
    parser.add_argument("--rows", default=None, help="JSON lines file for each position")
    args = parser.parse_args()
    specs = [BotSpec.parse(text) for text in args.bots]
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.rows, "a", encoding="utf-8")) if args.rows else None
        margin = BOLD_MARGINS[args.variant] if args.bids == "bold" else 0.0
        rows = screen(args.variant, args.positions, args.seed, specs, out, margin)
    names = [name for name in rows[0] if name not in ("i", "role", "phase", "seconds")]
    unit = "score points" if args.variant == "baofen" else "levels"
    print(f"{args.variant}, {len(rows)} positions (seed {args.seed}, {args.bids} bids), "
          f"{time.perf_counter() - start:.0f} s; gain over the rule bot's choice, {unit} a "
          "decision (mean [95% interval]); paired against the first bot")
    first = specs[0].label
    print("| positions | n | " + " | ".join(names) + " | "
          + " | ".join(f"{s.label} − {first}" for s in specs[1:]) + " |")
    print("|---" * (2 + len(names) + len(specs) - 1) + "|")
    for name, members in groups(rows, itemgetter("role"), itemgetter("phase")).items():
        cells = [interval([r[n] for r in members]) for n in names]
        cells += [interval([r[s.label] - r[first] for r in members]) for s in specs[1:]]
        print(f"| {name} | {len(members)} | " + " | ".join(cells) + " |")
    for spec in specs:
        median = statistics.median(r["seconds"][spec.label] for r in rows)
        print(f"{spec.label}: median {median:.3f} s a decision")


def screen(variant: str, count: int, seed: int, specs: list[BotSpec], out: TextIO | None,
           bid_margin: float = 0.0) -> list[dict[str, Any]]:
    """One row a position (of hands bid with ``bid_margin``): each play's gain over the rule
    bot's choice, the role, the trick range and each bot's seconds; each also written to
    ``out`` as a JSON line as it comes."""
    rule = RuleBot()
    evaluator = LearnedEvaluator()
    rows = []
    for index, (hand, seat) in enumerate(positions(variant, count, seed, bid_margin)):
        obs = hand.observation(seat)
        baseline = rule.play(obs)
        plays = {}
        if evaluator.serves(obs.rules):
            plays[EVALUATOR] = evaluator.play(obs)
        seconds = {}
        for spec in specs:
            bot = spec.make(seed * 7919 + index)
            began = time.perf_counter()
            action = bot.act(obs)
            seconds[spec.label] = time.perf_counter() - began
            assert isinstance(action, Play)
            plays[spec.label] = action.cards
        keys = {name: tuple(sorted(cards)) for name, cards in plays.items()}
        distinct = list(dict.fromkeys([tuple(sorted(baseline)), *keys.values()]))
        values = dict(zip(distinct, true_values(hand, seat, distinct), strict=True))
        base = values[distinct[0]]
        row: dict[str, Any] = {"i": index, "role": role_of(hand, seat), "phase": phase_of(hand),
                               "seconds": seconds}
        row.update({name: values[key] - base for name, key in keys.items()})
        rows.append(row)
        if out is not None:
            out.write(json.dumps(row) + "\n")
            out.flush()
    return rows


if __name__ == "__main__":
    main()
