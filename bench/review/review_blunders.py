"""How often the 复盘 flags a planted blunder: the highest trump thrown on a lost trick.

    PYTHONPATH=src python3 -m bench.review.review_blunders [--hands 6] [--worlds 24] \
        [--candidates 4]
    PYTHONPATH=src python3 -m bench.review.review_blunders --false-alarms 40

In 包分 hands of rule bots, the first time a seat must follow a single trump that an opponent is
winning and that none of its trumps can beat, while its highest trump would be the highest left
once the trick is over (no unseen trump beats it: e.g. its 大王 under the declarer's 大王), it
plays that trump instead of the rule bot's choice; the seat is then reviewed
(:func:`baofen.review.review_hand`) and the line printed is the deal's seed, the card thrown,
the best move found, the expected loss (points) and whether it was flagged as a mistake, and
why (``loss`` over the threshold, or ``wasted_winner``). A summary of the flag rate ends the
run. A deal where all the seat's trumps are sure winners plants no real blunder (any of them
keeps as many): the review rightly lets it pass.
"""

from __future__ import annotations

import argparse
import statistics

from baofen import RuleSet, play_hand
from baofen.actions import Play
from baofen.bots.rule.bot import RuleBot
from baofen.cards import KINDS, Card
from baofen.observation import Observation
from baofen.review import review_hand
from bench.common.screen import planted
from bench.review.referee import referee


def trump_thrown(obs: Observation, action: Play) -> Play | None:
    """The blunder planted (see the module docstring): the seat's highest trump, where it is
    the highest left and the rule bot plays another on a single trump an opponent wins."""
    if obs.judge is None or obs.declarer is None or not obs.current_trick:
        return None
    judge, order = obs.judge, obs.judge.order
    before = [cards for _, cards in obs.current_trick]
    winning = obs.current_trick[judge.winner(before)][0]
    opponent = (obs.seat == obs.declarer) != (winning == obs.declarer)
    trumps = sorted((c for c in obs.hand if order.is_trump(c)), key=lambda c: -order.strength[c])
    if (opponent and len(before[0]) == 1 and order.is_trump(before[0][0])
            and len(trumps) >= 2 and action.cards != (trumps[0],)
            and all(judge.winner([*before, (c,)]) != len(before) for c in trumps)
            and _master(obs, trumps[0])):
        return Play.of((trumps[0],))
    return None


def _master(obs: Observation, card: Card) -> bool:
    """True when no trump ``obs``'s seat has not seen beats ``card`` (after the current trick,
    it would be the highest trump left)."""
    assert obs.judge is not None
    order = obs.judge.order
    unseen = obs.counter()
    return not any(unseen[k] for k in range(KINDS)
                   if order.is_trump(k) and order.strength[k] > order.strength[card])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6, help="planted hands to review")
    parser.add_argument("--worlds", type=int, default=24)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--false-alarms", type=int, default=0, metavar="HANDS",
                        help="instead: in HANDS rule-bot hands of each game, count the rule "
                             "bot's own plays taken for a winner thrown away")
    args = parser.parse_args()
    if args.false_alarms:
        for variant in ("baofen", "hongwu"):
            plays, taken = false_alarms(variant, args.false_alarms)
            print(f"{variant}: {taken} of {plays} rule-bot plays taken for a winner thrown away")
        return
    losses: list[float] = []
    true_losses: list[float] = []
    flagged = 0
    seed = 0
    while len(losses) < args.hands:
        found = planted(seed, trump_thrown)
        if found is not None:
            hand, action, seat = found
            review = review_hand(hand, [seat], args.worlds, args.candidates)
            (move,) = [m for m in review.moves if m.action == action]
            losses.append(move.loss)
            flagged += bool(move.category)
            true = referee(hand, action, seat, level="rule", worlds=0).loss
            true_losses.append(true)
            print(f"seed {seed}: threw {move.made}, best {move.best}, loss {move.loss:.2f}, "
                  f"on the true deal {true:+.0f}"
                  f"{f' — flagged {move.category} ({move.reason})' if move.category else ''}",
                  flush=True)
        seed += 1
    print(f"flagged {flagged} of {len(losses)}; median loss {statistics.median(losses):.2f} points;"
          f" on the true deal: median {statistics.median(true_losses):+.1f}, mean "
          f"{statistics.fmean(true_losses):+.1f}, none in {true_losses.count(0)}")


def false_alarms(variant: str, hands: int) -> tuple[int, int]:
    """In ``hands`` rule-bot hands (seeds 0, 1, …): the rule bot's plays, and how many of them
    the review (:func:`baofen.review.review_hand`, its 8 best plays as options) takes for a
    winner thrown away."""
    plays = taken = 0
    for seed in range(hands):
        bot = RuleBot()
        hand = play_hand(RuleSet.create(variant=variant), seed, [bot] * 4)
        moves = [m for m in review_hand(hand, worlds=1, candidates=8).moves if m.kind == "play"]
        plays += len(moves)
        taken += sum(bool(m.reason and m.reason.kind == "wasted_winner") for m in moves)
    return plays, taken


if __name__ == "__main__":
    main()
