"""Rule-player hands per second, the native rule player against the pure-Python rule bot, one core.

    python3 -m bench.speed.native_rule_hands [--python-hands N] [--native-hands N] [--runs R] \
        [--variant baofen|hongwu|both] [--cpu]

Python: full hands played by four pure-Python rule bots (``RuleBot()`` made with the Python engine
in use), as ``baofen.play_hand`` plays them (deal, an observation and a rule-bot decision at every
turn, score); "RuleBot native" is the same with ``RuleBot()`` deciding natively from each
observation (the Python engine still plays the hand). Native: the same deals
(``Hand(rules, seed=...)``'s, packed before the clock starts: a play-out is given its state)
played by four native rule players in one call (``baofen.bots.native_players``); "with deals" adds
the Python dealing time. Also: play-outs from a position (the search's use), rule players from
the first lead of a hand to its end, per second. The two players make the same choices
(tests/test_native_rule.py). Prints each run and the medians. Wall-clock time, or with ``--cpu``
this process's CPU time (``time.process_time``: everything here runs on one thread), the fairer
figure on a loaded machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from baofen import Hand, RuleSet, _native, play_hand
from baofen.bots.engine import native, python, use
from baofen.bots.rule.bot import RuleBot

clock = time.perf_counter


def python_rate(rules: RuleSet, hands: int, seed: int, engine: _native.EngineName) -> float:
    """Rule-bot hands per second in the Python engine, the bots deciding in ``engine``."""
    with use(native() if engine == "native" else python()):
        bots = [RuleBot() for _ in range(4)]
    start = clock()
    for number in range(hands):
        play_hand(rules, seed * 1_000_003 + number, bots)
    return hands / (clock() - start)


def native_rates(rules: RuleSet, hands: int, seed: int) -> tuple[float, float]:
    """Native rule-player hands per second: the play-out alone, and with Python dealing them."""
    from baofen._native import batch
    from baofen.bots import native_players as players

    start = clock()
    deals = [batch.dealt(rules, seed * 1_000_003 + n) for n in range(hands)]
    cards, firsts = batch.pack_deals(deals)
    dealing = clock() - start
    native = batch.native_rules(rules)
    seats = players.native_players("rule")
    start = clock()
    table, _, _ = _native.core().player_hands(native, cards, firsts, seats, seed)
    results = batch.results_of(rules, table)
    playing = clock() - start
    assert len(results) == hands
    return hands / playing, hands / (playing + dealing)


def playout_rate(rules: RuleSet, worlds: int, seed: int) -> float:
    """Native rule-player play-outs per second from the first lead (one world per deal, its
    three best-scored leads as candidates: worlds × 3 play-outs in one call)."""
    from baofen._native import batch
    from baofen.bots import native_players as players

    hands = []
    for n in range(worlds * 3):
        native = batch.native_hand(Hand(rules, seed=seed * 1_000_003 + n))
        weights = players.native_weights()
        while native.phase in ("bidding", "kitty"):
            native.rule_act(weights)
        if native.phase == "playing":
            hands.append(native)
        if len(hands) == worlds:
            break
    rollouts = 0
    start = clock()
    for world in hands:  # each world's own leads: one call a world, as a search decision
        candidates = world.rule_plays(players.native_weights(), 3)
        rollouts += len(players.play_out_candidates(rules, [world], candidates)[0])
    return rollouts / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python-hands", type=int, default=100)
    parser.add_argument("--native-hands", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", choices=["baofen", "hongwu", "both"], default="both")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    args = parser.parse_args()
    global clock
    if args.cpu:
        clock = time.process_time
    print(f"timed by {'CPU (process_time)' if args.cpu else 'the wall clock'}")
    if not _native.available():
        sys.exit(f"no native core: {_native.why_unavailable()}")
    variants = ["baofen", "hongwu"] if args.variant == "both" else [args.variant]
    for variant in variants:
        rules = RuleSet.create(variant=variant)
        pure = [python_rate(rules, args.python_hands, seed, "python") for seed in range(args.runs)]
        bot = [python_rate(rules, args.python_hands, seed, "native") for seed in range(args.runs)]
        rates = [native_rates(rules, args.native_hands, seed) for seed in range(args.runs)]
        outs = [playout_rate(rules, 200, seed) for seed in range(args.runs)]
        play = statistics.median(r[0] for r in rates)
        dealt = statistics.median(r[1] for r in rates)
        python = statistics.median(pure)
        pure_runs = ", ".join(f"{r:.1f}" for r in pure)
        native_runs = ", ".join(f"{r[0]:.0f}" for r in rates)
        out_runs = ", ".join(f"{r:.0f}" for r in outs)
        print(
            f"{variant:7s} python {python:7.1f} rule hands/s (runs {pure_runs}"
            f"; {args.python_hands} hands)\n"
            f"        RuleBot native {statistics.median(bot):7.1f} hands/s in the Python engine, "
            f"{statistics.median(bot) / python:4.1f}x (runs {', '.join(f'{r:.1f}' for r in bot)})\n"
            f"        native {play:7.0f} rule hands/s play-out, {play / python:6.1f}x "
            f"(runs {native_runs}; {args.native_hands} hands)\n"
            f"        native {dealt:7.0f} rule hands/s with the Python deals, "
            f"{dealt / python:6.1f}x\n"
            f"        native {statistics.median(outs):7.0f} rule play-outs/s from the first lead "
            f"(runs {out_runs}; 200 worlds x 3 leads)"
        )


if __name__ == "__main__":
    main()
