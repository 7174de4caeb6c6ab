"""How far a 复盘 can be trusted: the same verdicts under another world seed, planted blunders
found, a strong player's moves left alone.

    PYTHONPATH=src python3 -m bench.review.review_quality [--hands 12] [--plants 20] [--worlds 16] \
        [--candidates 3] [--strong hard|master]

Fixed hands, one core, about 4 minutes at the defaults (the server's ``standard`` level, the
native core built):

1. *Seed agreement*: hands of both games (seeds 0, 1, …; alternately 包分 and 包红五), South 困难
   (the search bot, ``hard``; 大师, ``master``, with ``--strong master``), West a random player
   (``random``: mistakes of every size), North 普通 (the rule bot), East 简单 (``easy``: the rule
   bot erring 30% of the time), each reviewed twice, with world seeds 0 and 1. Over the moves
   with a choice: the agreement of the moves flagged (|A∩B| / |A∪B|, for "失误 or worse" and for
   "any category"), the share of moves given the same category, and the Pearson correlation of
   the per-move losses.
2. *Planted blunders*: in 包分 hands of rule bots, the first time the last seat of a trick worth
   20 points or more that an opponent is winning would take it, it plays a card that lets it go;
   the share of those plays flagged as 失误 or worse (and as anything), with the loss on the true
   deal (the rule bots playing on) beside it.
3. *A strong player*: the share of South's moves (困难 or 大师, ``--strong``; with a choice) in
   part 1 flagged as 失误 or worse, and as anything, over both reviews.
4. *The server*: the wall time of the server's review jobs (:class:`baofen.server.analysis.
   Reviews`: its process pool of one worker, started afresh, one task a decision) for the
   first two hands of part 1 that were played out.

CPU time per review is printed (the server reviews at this level on one worker; CPU time, not
wall time, so that other work on the machine does not count).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import time

from baofen import Hand, RuleSet
from baofen.bots import make_bot
from baofen.review import MoveReview, review_hand
from baofen.server.routes.reviews import Reviews
from bench.common.screen import planted, points_let_go
from bench.review.referee import referee

SERIOUS = ("mistake", "blunder")
"""Categories counted as 失误 or worse."""


LEVELS = {"hard": "困难", "master": "大师"}
"""The strong levels South may play (``--strong``), by name."""


def played(variant: str, seed: int, strong: str = "hard") -> Hand:
    """The hand of ``seed``: South ``strong`` (困难 by default), West random, North 普通, East
    简单."""
    players = [make_bot(strong, seed=seed), make_bot("random", seed=seed + 1),
               make_bot("normal"), make_bot("easy", seed=seed + 2)]
    hand = Hand(RuleSet.create(variant=variant), seed=seed)
    return hand.play_out(players)


def server_seconds(hand: Hand, budget: dict[str, int]) -> float:
    """Wall time of the server's review jobs for ``hand``, its pool started afresh (on an
    event loop, as in the server: the pool hands each decision's outcome to the loop)."""

    async def review() -> float:
        reviews = Reviews()
        start = time.perf_counter()
        job = reviews.start(("bench", 1, budget["worlds"], budget["candidates"]),
                            hand.to_record(), "bench")
        while not job.done:
            await asyncio.sleep(0.02)
        seconds = time.perf_counter() - start
        assert reviews.pool is not None
        reviews.pool.shutdown()
        return seconds

    return asyncio.run(review())


def pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def jaccard(a: set[int], b: set[int]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12, help="hands reviewed twice (part 1)")
    parser.add_argument("--plants", type=int, default=20, help="planted blunders (part 2)")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--first", type=int, default=0, help="seed of the first hand")
    parser.add_argument("--strong", choices=sorted(LEVELS), default="hard",
                        help="South's level in part 1 (the strong player of part 3)")
    args = parser.parse_args()
    budget = {"worlds": args.worlds, "candidates": args.candidates}
    print(f"review: {args.worlds} worlds a stage, {args.candidates} candidates; South "
          f"{LEVELS[args.strong]} ({args.strong})", flush=True)

    pairs: list[tuple[MoveReview, MoveReview]] = []
    hands: list[Hand] = []
    strong: list[MoveReview] = []
    times: list[float] = []
    for seed in range(args.first, args.first + args.hands):
        variant = ("baofen", "hongwu")[seed % 2]
        hand = played(variant, seed, args.strong)
        if hand.declarer is not None:
            hands.append(hand)
        reviews = []
        for world_seed in (0, 1):
            start = time.process_time()
            reviews.append(review_hand(hand, seed=world_seed, **budget))
            times.append(time.process_time() - start)
        first, second = reviews
        both = [(a, b) for a, b in zip(first.moves, second.moves, strict=True) if a.candidates > 1]
        pairs += both
        for a, b in both:
            if a.category != b.category:
                print(f"  action {a.action} seat {a.seat}: {a.category or '-'} {a.loss:.1f} "
                      f"(low {a.loss_low:.1f}, {a.worlds} worlds) / {b.category or '-'} "
                      f"{b.loss:.1f} (low {b.loss_low:.1f}, {b.worlds} worlds)")
        strong += [m for a, b in both for m in (a, b) if m.seat == 0]
        flags = [sum(m.category in SERIOUS for m, _ in both),
                 sum(m.category in SERIOUS for _, m in both)]
        print(f"hand {seed} ({variant}): {len(both)} moves with a choice, flagged 失误+ "
              f"{flags[0]} / {flags[1]}, reviews {times[-2]:.1f} s / {times[-1]:.1f} s", flush=True)
    serious = [{i for i, (a, b) in enumerate(pairs) if (a, b)[k].category in SERIOUS}
               for k in (0, 1)]
    anything = [{i for i, (a, b) in enumerate(pairs) if (a, b)[k].category} for k in (0, 1)]
    same = sum(a.category == b.category for a, b in pairs) / len(pairs)
    print(f"seed agreement over {len(pairs)} moves: 失误+ {jaccard(*serious):.2f} "
          f"({len(serious[0])} / {len(serious[1])} flagged, {len(serious[0] & serious[1])} both);"
          f" any category {jaccard(*anything):.2f} ({len(anything[0])} / {len(anything[1])}); "
          f"same category {same:.3f}; loss correlation "
          f"{pearson([a.loss for a, _ in pairs], [b.loss for _, b in pairs]):.3f}")
    print(f"review time a hand: median {statistics.median(times):.1f} s, max {max(times):.1f} s")
    bad = sum(m.category in SERIOUS for m in strong)
    print(f"{LEVELS[args.strong]}'s moves flagged: 失误+ {bad} of {len(strong)} "
          f"({bad / len(strong):.1%}), any "
          f"{sum(bool(m.category) for m in strong) / len(strong):.1%}", flush=True)

    for hand in hands[:2]:
        print(f"server review ({hand.rules.variant}): {server_seconds(hand, budget):.1f} s wall",
              flush=True)

    found = flagged = serious_flags = 0
    seed = 0
    while found < args.plants:
        plant = planted(seed, points_let_go)
        seed += 1
        if plant is None:
            continue
        hand, action, seat = plant
        (move,) = review_hand(hand, [seat], actions=[action], **budget).moves
        found += 1
        flagged += bool(move.category)
        serious_flags += move.category in SERIOUS
        print(f"plant seed {seed - 1}: {move.made} for {move.best}, loss {move.loss:.1f} "
              f"(low {move.loss_low:.1f}) {move.category or '-'}; true deal "
              f"{referee(hand, action, seat, level='rule', worlds=0).loss:+.0f}", flush=True)
    if found:
        print(f"planted blunders flagged: 失误+ {serious_flags} of {found} "
              f"({serious_flags / found:.0%}), any {flagged / found:.0%}")


if __name__ == "__main__":
    main()
