"""A fixed native rule-player workload, for counting instructions rather than timing them.

    valgrind --tool=callgrind --callgrind-out-file=OUT \
        python3 -m bench.speed.rule_player_work [--variant V] [--hands N]
    callgrind_annotate --inclusive=yes OUT | grep 'baofen::play_out'

Plays N seeded deals (seed 7) with four native rule players in one call, as
``native_rule_hands.native_rates`` does. On a shared machine the CPU time of a small change is
lost in the noise; the instructions ``baofen::play_out`` executes vary by well under 1% from run
to run (the allocator's paths), so two builds compare closely (the Python dealing around it is
left out by reading the play-out's inclusive count). ``python`` must be the interpreter itself,
not a shim script (valgrind follows no child process).
"""

from __future__ import annotations

import argparse

from baofen import RuleSet
from bench.speed.native_rule_hands import native_rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["baofen", "hongwu"], default="baofen")
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    native_rates(RuleSet.create(variant=args.variant), args.hands, 7)
    print(f"{args.hands} hands played")


if __name__ == "__main__":
    main()
