"""How well sampled worlds tell the search's candidate plays apart: a yardstick for inference in
the hand's own unit, not in cards.

    PYTHONPATH=src python3 -m bench.screens.estimate_quality --variant hongwu --hands 40 \
        --worlds 40 --sources weighted tracked:8:24:15 knows=declarer knows=defenders

In hands of four rule bots (seeded), one seat a hand is probed (seat ``hand number mod 4``). At
about one in three of its play decisions with a choice, each of the rule bot's best
``--candidates`` plays is played out by the rule bot in every seat

- on the *true* deal: its true value, the one the perfect-information reference maximises;
- on ``--worlds`` worlds from each *source*: its estimated value (weighted mean), as the search
  bot would see it with that many worlds for every candidate.

Sources: ``weighted`` (worlds as the search draws them, with their likelihood weights: 困难's),
``tracked:P:S:K`` (a world tracker, ``particles:steps:
sharpness``, following the seat through the hand; the worlds are cycled to ``--worlds``),
``knows=H`` (the partial reference's worlds: holders ``kitty``/``declarer``/``defenders``, joined
by ``+``, dealt their true cards).

For each source the table gives, by the deciding seat's role and over all decisions:

- ``corr``: the rank correlation between the candidates' estimated and true values at a decision,
  averaged over decisions where both vary: how well the worlds foresee which plays are better on
  the true deal (1 for the true deal itself; a decision counts alike whatever its stakes);
- ``gain``: the true value of the candidate with the best estimate over the rule bot's choice,
  with a 95% interval over decisions — one decision's policy improvement;
- ``− first``: that gain less the first source's on the same decisions (paired);
- ``moves``: how often the best estimate is not the rule bot's choice;
- ``stable`` (with ``--stability``): the rank correlation between the estimates of two
  independent sets of worlds from the source — near 1, more worlds would change little.

Positions come from the rule bot's own hands, so the true deal is a fair draw given what the
seat saw (positions from a stronger player's hands are not: its past plays, chosen on the cards,
make the true deal atypical for the observation).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
from collections import defaultdict
from collections.abc import Callable

from baofen import Hand, RuleSet
from baofen.arena import Estimate
from baofen.bots.engine import current
from baofen.bots.reference_bot import ReferenceBot
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import SearchBot, search_bot
from baofen.bots.search.determinize import Determinizer
from baofen.bots.search.tracking import WorldTracker
from baofen.cards import Card
from baofen.observation import Observation

Draw = Callable[[random.Random], tuple[Hand, float] | None]


def interval(values: list[float]) -> str:
    """Mean and 95% interval."""
    estimate = Estimate.of_means(values)
    if estimate.low is None or estimate.high is None or estimate.mean is None:
        return "—"
    return f"{estimate.mean:+.2f} [{estimate.low:+.2f}, {estimate.high:+.2f}]"


class Source:
    """Worlds of one kind for the probed seat's decisions of one hand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tracker: WorldTracker | None = None
        if text.startswith("tracked:"):
            particles, steps, sharpness = text.split(":")[1:]
            self.config = (int(particles), int(steps), float(sharpness))
        elif text.startswith("knows="):
            self.reference = ReferenceBot(knows=text.split("=", 1)[1])
        elif text != "weighted":
            raise SystemExit(f"unknown source {text!r}")

    def new_hand(self) -> None:
        """Forget the hand followed so far."""
        if self.text.startswith("tracked:"):
            self.tracker = WorldTracker(self.config[0], self.config[1])

    def draws(self, obs: Observation, hand: Hand, rng: random.Random) -> Draw:
        """A world drawer at ``obs`` (``hand``: the true deal, for ``knows=``)."""
        if self.tracker is not None:
            sampler = Determinizer(obs, current().rule_player(), self.config[2])
            worlds = self.tracker.worlds(obs, sampler, rng)
            cycle = itertools.cycle(worlds)
            return lambda _rng: next(cycle, None)
        if self.text.startswith("knows="):
            sampler = self.reference.told(Determinizer(obs, current().rule_player()), hand)
            return sampler.weighted_world
        return Determinizer(obs, current().rule_player()).weighted_world

    def follow(self, obs: Observation, rng: random.Random) -> None:
        """Keep a tracker up to date at a decision that is not probed."""
        if self.tracker is not None:
            sampler = Determinizer(obs, current().rule_player(), self.config[2])
            self.tracker.worlds(obs, sampler, rng)


def rank_correlation(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (ties share their mean rank)."""
    return statistics.correlation(_ranks(x), _ranks(y))


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranks[i] = (start + end) / 2
        start = end + 1
    return ranks


def estimated(draw: Draw, rng: random.Random, worlds: int, judge: SearchBot, seat: int,
              options: list[tuple[Card, ...]]) -> list[float] | None:
    """Each option's weighted mean rollout value over ``worlds`` worlds from ``draw`` (``None``
    when no world was drawn)."""
    totals = [0.0] * len(options)
    mass = 0.0
    for _ in range(worlds):
        drawn = draw(rng)
        if drawn is None:
            break
        world, weight = drawn
        mass += weight
        for i, option in enumerate(options):
            totals[i] += weight * judge.rollout(world, seat, option)
    return [t / mass for t in totals] if mass else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="hongwu")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--share", type=float, default=0.33, help="decisions probed")
    parser.add_argument("--sources", nargs="+", default=["weighted"])
    parser.add_argument("--stability", action="store_true",
                        help="also draw a second set of worlds (not for trackers)")
    args = parser.parse_args()
    rules = RuleSet.create(variant=args.variant)
    rule = RuleBot()
    judge = search_bot(objective="score")
    sources = [Source(text) for text in args.sources]
    pick = random.Random(args.seed)
    # (source, part) -> rank correlations, gains, moves.
    corrs: dict[tuple[str, str], list[float]] = defaultdict(list)
    gains: dict[tuple[str, str], list[float]] = defaultdict(list)
    moves: dict[tuple[str, str], list[float]] = defaultdict(list)
    stable: dict[tuple[str, str], list[float]] = defaultdict(list)
    for number in range(args.hands):
        hand = Hand(rules, seed=args.seed * 100_003 + number)
        probed = number % 4
        for source in sources:
            source.new_hand()
        for seat in hand.turns():
            obs = hand.observation(seat)
            action = rule.act(obs)
            if seat == probed and hand.phase == "playing" and len(hand.tricks) < 24:
                options = rule.play_candidates(obs, args.candidates)
                if len(options) > 1 and pick.random() < args.share:
                    true = [judge.rollout(hand, seat, o) for o in options]
                    role = "declarer" if seat == hand.declarer else "defender"
                    for source in sources:
                        rng = random.Random(number * 1000 + len(hand.tricks))
                        estimate = estimated(source.draws(obs, hand, rng), rng, args.worlds,
                                             judge, seat, options)
                        # No world drawn: the search plays the rule bot's choice.
                        best = 0 if estimate is None else max(
                            range(len(options)), key=lambda i: (estimate[i], -i))
                        again = None
                        if args.stability and source.tracker is None and estimate is not None:
                            other = random.Random(~(number * 1000 + len(hand.tricks)))
                            again = estimated(source.draws(obs, hand, other), other, args.worlds,
                                              judge, seat, options)
                        for part in (role, "all"):
                            key = (source.text, part)
                            if estimate is not None and len(set(estimate)) > 1:
                                if len(set(true)) > 1:
                                    corrs[key].append(rank_correlation(estimate, true))
                                if again is not None and len(set(again)) > 1:
                                    stable[key].append(rank_correlation(estimate, again))
                            gains[key].append(true[best] - true[0])
                            moves[key].append(float(best != 0))
                elif hand.phase == "playing":
                    for source in sources:
                        source.follow(obs, random.Random(number * 1000 + len(hand.tricks)))
            hand.apply(seat, action)
    unit = "score points" if args.variant == "baofen" else "levels × seat share"
    print(f"{args.variant}, {args.hands} rule-bot hands (seed {args.seed}), {args.worlds} worlds "
          f"a decision; values in {unit} for the deciding seat")
    print(f"| source | part | decisions | corr | gain | − {sources[0].text} | moves | stable |")
    print("|---|---|---|---|---|---|---|---|")
    for source in sources:
        for part in ("declarer", "defender", "all"):
            key = (source.text, part)
            if len(gains[key]) < 2:
                continue
            corr = statistics.fmean(corrs[key]) if corrs[key] else float("nan")
            first = gains[sources[0].text, part]
            paired = [g - f for g, f in zip(gains[key], first, strict=True)]
            print(f"| {source.text} | {part} | {len(gains[key])} | {corr:.3f} | "
                  f"{interval(gains[key])} | {interval(paired)} | "
                  f"{statistics.fmean(moves[key]):.2f} | "
                  f"{statistics.fmean(stable[key]) if stable[key] else float('nan'):.3f} |")


if __name__ == "__main__":
    main()
