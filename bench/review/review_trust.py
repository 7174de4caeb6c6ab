"""Whether a 复盘 can be believed, checked from outside on hands it was not tuned on.

    nice PYTHONPATH=src python3 -m bench.review.review_trust [--hands 10] [--first 9100000] \
        [--plants 20] [--kinds points trump] [--referee hard] [--referee-worlds 16] \
        [--master 3] [--only 20] [--worlds 16] [--candidates 3]

1. *Two reviews* (``--hands`` a game, rule bots in every seat, dealt from seeds ``--first``, …,
   never looked at while the review was made): each hand reviewed with world seeds 0 and 1.
   Over the moves with a choice: the agreement of the moves flagged (|A∩B| / |A∪B|, any
   category and 失误 or worse), the Pearson correlation of the losses, and over the moves both
   flag, the share whose reasons name the same main difference
   (:func:`baofen.review.reasons.main_difference`: the kind, and a trick's number).
2. *The swing bound*: seats (of both reviews) whose flagged losses add up to more than the hand
   can swing for them (:func:`baofen.review.moves.seat_swing`): their sure parts (the lower
   bounds), and their estimates.
3. *Planted blunders* (``--plants`` of each kind, 包分 rule-bot hands): points let go to an
   opponent (``bench.common.screen.points_let_go``) and the top trump thrown on a lost trick
   (``bench.review.review_blunders.trump_thrown``); the share flagged, and the share flagged of
   the plants that are blunders by a referee apart from the review (``bench.review.referee``:
   ``--referee`` players, 困难 by default, playing on from the true deal and
   ``--referee-worlds`` deals drawn for the seat, where the review's play-outs are the rule
   bot's; a blunder costs the inaccuracy threshold or more, beyond the noise of those deals).
4. *大师's own moves* (``--master`` hands a game, South 大师, the others 普通): the share of
   South's moves with a choice flagged.
5. *One sensible move* (``--only`` positions): rule-bot decisions where, on 64 worlds, the move
   made beats every other option by twice the inaccuracy threshold; reviewed at the standard
   level with another seed, the share flagged (should be none).
"""

from __future__ import annotations

import argparse
import statistics
import time

from baofen import Hand, RuleSet
from baofen.bots import make_bot
from baofen.review import THRESHOLDS, MoveReview, review_action, review_hand
from baofen.review.hand import decisions
from baofen.review.moves import seat_swing
from baofen.review.reasons import main_difference
from bench.common.screen import planted, points_let_go
from bench.review.referee import referee
from bench.review.review_blunders import trump_thrown
from bench.review.review_quality import jaccard, pearson

SERIOUS = ("mistake", "blunder")


def rule_hand(variant: str, seed: int, players: list[str] | None = None) -> Hand:
    """The hand of ``seed`` (first seat ``seed % 4``), ``players`` (default: four rule bots)."""
    hand = Hand(RuleSet.create(variant=variant), seed=seed, first=seed % 4)
    bots = [make_bot(level, seed=seed + i) for i, level in enumerate(players or ["rule"] * 4)]
    return hand.play_out(bots)


def over_the_swing(moves: list[MoveReview]) -> tuple[int, int, int]:
    """Seats, and those whose flagged lower bounds / estimates add up to more than their
    swing."""
    seats = sure = estimated = 0
    for seat in range(4):
        own = [m for m in moves if m.seat == seat]
        swing = seat_swing(own) + 1e-9
        seats += 1
        sure += sum(m.loss_low for m in own if m.flagged) > swing
        estimated += sum(m.loss for m in own if m.flagged) > swing
    return seats, sure, estimated


def two_reviews(args: argparse.Namespace, budget: dict[str, int]) -> None:
    pairs: list[tuple[MoveReview, MoveReview]] = []
    times: list[float] = []
    swing = [0, 0, 0]
    for variant in ("baofen", "hongwu"):
        for seed in range(args.first, args.first + args.hands):
            hand = rule_hand(variant, seed)
            reviews = []
            for world_seed in (0, 1):
                start = time.process_time()
                reviews.append(review_hand(hand, seed=world_seed, **budget))
                times.append(time.process_time() - start)
                for i, n in enumerate(over_the_swing(reviews[-1].moves)):
                    swing[i] += n
            both = [(a, b) for a, b in zip(reviews[0].moves, reviews[1].moves, strict=True)
                    if a.candidates > 1]
            pairs += both
            print(f"{variant} {seed}: {len(both)} moves, flagged "
                  f"{sum(a.flagged for a, _ in both)} / {sum(b.flagged for _, b in both)}, "
                  f"{times[-2]:.1f} s / {times[-1]:.1f} s", flush=True)
    anything = [{i for i, p in enumerate(pairs) if p[k].flagged} for k in (0, 1)]
    serious = [{i for i, p in enumerate(pairs) if p[k].category in SERIOUS} for k in (0, 1)]
    common = [pairs[i] for i in sorted(anything[0] & anything[1])]
    same = sum(main_difference(a.reason) == main_difference(b.reason) for a, b in common)
    print(f"two reviews, {len(pairs)} moves: flagged agreement {jaccard(*anything):.2f} "
          f"({len(anything[0])} / {len(anything[1])}, {len(common)} both); 失误+ "
          f"{jaccard(*serious):.2f}; loss correlation "
          f"{pearson([a.loss for a, _ in pairs], [b.loss for _, b in pairs]):.3f}; reason's main "
          f"difference the same for {same} of {len(common)} "
          f"({same / len(common) if common else float('nan'):.2f})")
    print(f"review CPU a hand: median {statistics.median(times):.1f} s, max {max(times):.1f} s")
    print(f"swing bound: {swing[0]} seats, flagged lower bounds over the swing {swing[1]}, "
          f"estimates over it {swing[2]}", flush=True)


def plants(args: argparse.Namespace, budget: dict[str, int]) -> None:
    kinds = {"points": ("points let go", points_let_go),
             "trump": ("top trump thrown", trump_thrown)}
    for name, plant in (kinds[kind] for kind in args.kinds):
        found = flagged = real = caught = 0
        seed = 0
        while found < args.plants:
            made = planted(args.first + seed, plant)
            seed += 1
            if made is None:
                continue
            hand, action, seat = made
            (move,) = review_hand(hand, [seat], actions=[action], **budget).moves
            found += 1
            flagged += move.flagged
            verdict = referee(hand, action, seat, args.referee, args.referee_worlds,
                              seed=args.first + seed)
            blunder = verdict.blunder("baofen")
            real += blunder
            caught += move.flagged and blunder
            print(f"  seed {args.first + seed - 1} action {action}: {move.made} for {move.best}, "
                  f"{move.category or 'not flagged'}, loss {move.loss:.1f} (low "
                  f"{move.loss_low:.1f}, {move.worlds} worlds); {args.referee} playing on, "
                  f"{verdict.deals} deals: {verdict.loss:+.1f} (low {verdict.low:+.1f})"
                  f"{' — a blunder' if blunder else ''}", flush=True)
        print(f"planted {name}: flagged {flagged} of {found} ({flagged / found:.0%}); of those "
              f"{args.referee} playing on shows to be blunders: {caught} of {real}", flush=True)


def master(args: argparse.Namespace, budget: dict[str, int]) -> None:
    moves: list[MoveReview] = []
    for variant in ("baofen", "hongwu"):
        for seed in range(args.first, args.first + args.master):
            hand = rule_hand(variant, seed, ["master", "normal", "normal", "normal"])
            moves += [m for m in review_hand(hand, [0], seed=2, **budget).moves
                      if m.candidates > 1]
    flagged = [m for m in moves if m.flagged]
    print(f"大师's moves flagged: {len(flagged)} of {len(moves)} "
          f"({len(flagged) / len(moves):.1%})", flush=True)
    for m in flagged:
        print(f"  seat 0 action {m.action} ({m.kind}): {m.made} for {m.best}, {m.category} "
              f"{m.loss:.2f} (low {m.loss_low:.2f})")


def only_moves(args: argparse.Namespace, budget: dict[str, int]) -> None:
    found = flagged = 0
    seed = args.first
    while found < args.only:
        variant = ("baofen", "hongwu")[seed % 2]
        hand = rule_hand(variant, seed)
        limit = 2 * THRESHOLDS[variant]["inaccuracy"]
        for index in decisions(hand)[seed % 7::7]:
            wide = review_action(hand, index, worlds=64, candidates=budget["candidates"],
                                 seed=5)
            values = sorted((o.value for o in wide.options), reverse=True)
            if (len(values) < 2 or wide.made != wide.best or wide.flagged
                    or values[0] - values[1] < limit):
                continue
            move = review_action(hand, index, seed=6, **budget)
            found += 1
            flagged += move.flagged
            if found == args.only:
                break
        seed += 1
    print(f"one sensible move: flagged {flagged} of {found}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10, help="hands a game reviewed twice")
    parser.add_argument("--first", type=int, default=9_100_000, help="seed of the first hand")
    parser.add_argument("--plants", type=int, default=20, help="planted blunders of each kind")
    parser.add_argument("--kinds", nargs="+", choices=("points", "trump"),
                        default=["points", "trump"], help="kinds of planted blunders")
    parser.add_argument("--referee", default="hard",
                        help="the players who judge whether a plant is a blunder (referee.py)")
    parser.add_argument("--referee-worlds", type=int, default=16,
                        help="deals the referee draws besides the true deal")
    parser.add_argument("--master", type=int, default=3, help="hands a game with South 大师")
    parser.add_argument("--only", type=int, default=20, help="one-sensible-move positions")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--candidates", type=int, default=3)
    args = parser.parse_args()
    budget = {"worlds": args.worlds, "candidates": args.candidates}
    if args.hands:
        two_reviews(args, budget)
    if args.plants:
        plants(args, budget)
    if args.master:
        master(args, budget)
    if args.only:
        only_moves(args, budget)


if __name__ == "__main__":
    main()
