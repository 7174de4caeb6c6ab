"""Screen a change of a level's bidding (or its kitty) on duplicate deals, paired table by table.

    python3 -m bench.screens.bid_screen --variant baofen --base hard --changed hard:bid_margin=-20 \
        --others rule --deals 500 --seed 2826 --rows screen.jsonl
    python3 -m bench.screens.bid_screen --variant hongwu --base master:kitty_wide=0 \
        --changed master --others hard --through kitty --deals 100 --seed 2826 --rows kitty.jsonl

For each deal and seat, the table with ``base`` in that seat (``others`` in the rest, as the
arena's one-way tables) is compared with the same table with ``changed`` in that seat: the same
deal, the same bot seed for the tested seat (the arena's seed of ``base``). A change that only
moves the bids gives the same play wherever the bidding comes out the same, so only the tables
whose bidding differs are played on (both ways, from where each bidding ended); every other
table's difference is 0 (the bidding is found first: the levels' bids are cheap). With
``--through kitty`` the opening compared is the bidding and the kitty (trump and bury, 定主扣底):
a change of the kitty search only. Where a search drew a different number of random worlds the
play after an equal opening may differ by its random draws, never by its policy, so its expected
difference is still 0. Prints the changed bot's gain a seat and deal with its 95% interval (deal
the unit), by the changed seat's role, and the share of tables whose opening changed. Rows go to
``--rows`` (JSON lines, one a deal); a run stopped half-way continues from them.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from baofen import Hand, RuleSet
from baofen.arena import BotSpec, bot_seed, deal_seed
from baofen.cli.options import load_bot
from bench.common.screen import interval


def seated(rules: RuleSet, seed: int, seat: int, tested: Any,
           others: BotSpec) -> tuple[Hand, list[Any]]:
    """The deal of ``seed`` with ``tested`` at ``seat`` and ``others`` in the other seats."""
    bots = [tested if s == seat else others.make(bot_seed(seed, s, others.label)) for s in range(4)]
    return Hand(rules, seed=seed), bots


THROUGH = {"bidding": ("bidding",), "kitty": ("bidding", "kitty")}
"""The phases of each ``--through`` choice: the opening compared is every action made in them."""


def opened(rules: RuleSet, seed: int, seat: int, tested: Any, others: BotSpec,
           phases: tuple[str, ...]) -> tuple[Hand, list[Any]]:
    """The deal of ``seed`` with ``tested`` at ``seat``, played while its phase is in ``phases``."""
    hand, bots = seated(rules, seed, seat, tested, others)
    hand.play_out(bots, until=lambda h: h.phase not in phases)
    return hand, bots


def play_on(hand: Hand, bots: list[Any], seat: int) -> tuple[float, str]:
    """The result of ``seat`` once ``hand`` is played to its end, and its role."""
    result = hand.play_out(bots).result
    assert result is not None
    role = ("none" if result.declarer is None
            else "declarer" if result.declarer == seat else "defender")
    return float(result.deltas[seat]), role


def screen_deal(rules: RuleSet, deal: int, seed: int, base: BotSpec, changed: BotSpec,
                others: BotSpec, phases: tuple[str, ...] = THROUGH["bidding"]) -> dict[str, Any]:
    """The four seats' differences (changed − base) of one deal."""
    value = deal_seed(seed, deal)
    seats: list[dict[str, Any]] = []
    for seat in range(4):
        tested_seed = bot_seed(value, seat, base.label)
        before, before_bots = opened(rules, value, seat, base.make(tested_seed), others, phases)
        after, after_bots = opened(rules, value, seat, changed.make(tested_seed), others, phases)
        if before.actions == after.actions:
            seats.append({"seat": seat, "changed": False, "diff": 0.0})
            continue
        old, old_role = play_on(before, before_bots, seat)
        new, new_role = play_on(after, after_bots, seat)
        seats.append({"seat": seat, "changed": True, "diff": new - old,
                      "role_before": old_role, "role_after": new_role})
    return {"deal": deal, "seed": seed, "seats": seats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="baofen")
    parser.add_argument("--base", default="hard")
    parser.add_argument("--changed", required=True)
    parser.add_argument("--others", default="rule")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, action="append", required=True)
    parser.add_argument("--rows", type=Path, required=True)
    parser.add_argument("--through", choices=sorted(THROUGH), default="bidding",
                        help="the opening compared: the bidding, or the bidding and the kitty")
    args = parser.parse_args()
    rules = RuleSet.create(variant=args.variant)
    base, changed, others = (BotSpec.parse(t) for t in (args.base, args.changed, args.others))
    for spec in (base, changed, others):
        load_bot(spec.name)  # the learned player registers itself when its module is imported
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if args.rows.exists():
        for line in args.rows.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[(row["seed"], row["deal"])] = row
    with args.rows.open("a", encoding="utf-8") as out:
        for seed in args.seed:
            for deal in range(args.start, args.start + args.deals):
                if (seed, deal) not in done:
                    row = screen_deal(rules, deal, seed, base, changed, others,
                                      THROUGH[args.through])
                    done[(seed, deal)] = row
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    rows = [done[(s, d)] for s in args.seed for d in range(args.start, args.start + args.deals)]
    per_deal = [statistics.fmean(s["diff"] for s in r["seats"]) for r in rows]
    tables = [s for r in rows for s in r["seats"]]
    moved = [s for s in tables if s["changed"]]
    print(f"{changed.label} over {base.label} among {others.label}, {args.variant}, "
          f"{len(rows)} deals: {interval(per_deal, 2)} a seat and deal")
    print(f"tables whose {args.through} changed: {len(moved)} of {len(tables)}")
    for key in ("role_before", "role_after"):
        for role in ("declarer", "defender", "none"):
            diffs = [s["diff"] for s in moved if s[key] == role]
            if diffs:
                print(f"  {key} {role}: {len(diffs)} tables, mean {statistics.fmean(diffs):+.2f}")


if __name__ == "__main__":
    main()
