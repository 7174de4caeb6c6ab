"""The deals of an arena played, as rows: one per seat of every table.

Deals and bot seeds derive from one seed, so a run is reproducible whatever the number of worker
processes (given bots that are deterministic under a seed, e.g. the search bot with an iteration
budget). A bot's seed depends on the deal, the seat and the bot's name only, so the B players of
A's table and of the reference table draw the same random numbers.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..bots import DealSeer, bot_module, make_bot, parse_spec
from ..hand import Hand
from ..ruleset import RuleSet

CSV_FIELDS = (
    "deal", "deal_seed", "tested", "table", "seat", "bot", "role", "bid", "target", "made",
    "result",
)
"""Columns of the results CSV: one row per seat of every table played."""


@dataclass(frozen=True)
class BotSpec:
    """A bot name with its options, written ``name`` or ``name:key=value:key=value``.

    ``module`` is the module whose import registers the bot (:func:`baofen.bots.bot_module`,
    e.g. ``baofen.env.neural``), imported again by :meth:`make` in a worker process."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    module: str | None = None

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Parse ``"search:iterations=64"``; values become int, float or str
        (:func:`~baofen.bots.parse_spec`)."""
        name, options = parse_spec(text)
        return cls(name, options, bot_module(name))

    @property
    def label(self) -> str:
        """The spec as written."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])

    def make(self, seed: int) -> Any:
        """A new bot with this spec and ``seed``."""
        try:
            return make_bot(self.name, seed=seed, **dict(self.options))
        except ValueError:
            if self.module is None:
                raise
        # Not registered in this process (a fresh worker): its module registers it.
        importlib.import_module(self.module)
        return make_bot(self.name, seed=seed, **dict(self.options))


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a run seeded with ``seed``."""
    return random.Random(f"arena-deal:{seed}:{deal}").getrandbits(63)


def bot_seed(deal_seed_value: int, seat: int, label: str) -> int:
    """The seed of the bot ``label`` sitting at ``seat`` for a deal."""
    return random.Random(f"arena-bot:{deal_seed_value}:{seat}:{label}").getrandbits(63)


def play_table(rules: RuleSet, seed: int, specs: Sequence[BotSpec]) -> Hand:
    """Play the deal of ``seed`` to the end with ``specs[s]`` at seat ``s``; the reference player
    (a :class:`~baofen.bots.DealSeer`) is shown the whole hand, every other bot its seat's
    observation."""
    hand = Hand(rules, seed=seed)
    bots = [spec.make(bot_seed(seed, seat, spec.label)) for seat, spec in enumerate(specs)]
    for seat in hand.turns():
        bot = bots[seat]
        if isinstance(bot, DealSeer):
            hand.apply(seat, bot.act_seeing(hand, seat))
        else:
            hand.apply(seat, bot.act(hand.observation(seat)))
    return hand


def _rows_of(hand: Hand, deal: int, seed: int, tested: str, table: str,
             specs: Sequence[BotSpec]) -> list[dict[str, Any]]:
    result = hand.result
    assert result is not None
    rows = []
    for seat in range(4):
        bids = [v for s, v in hand.bids if s == seat and v is not None]
        role = "none" if result.declarer is None else (
            "declarer" if seat == result.declarer else "defender")
        rows.append({
            "deal": deal,
            "deal_seed": seed,
            "tested": tested,
            "table": table,
            "seat": seat,
            "bot": specs[seat].label,
            "role": role,
            "bid": max(bids) if bids else "",
            "target": "" if result.target is None else result.target,
            "made": "" if result.declarer is None else int(result.made),
            "result": result.deltas[seat],
        })
    return rows


def play_deal(variant_rules: dict[str, Any], deal: int, seed: int, a: BotSpec,
              b: BotSpec, one_way: bool = False) -> list[dict[str, Any]]:
    """Every table of one deal (both bots tested, or A only when ``one_way``), as CSV rows.
    Runs in a worker process."""
    rules = RuleSet.from_dict(variant_rules)
    rows: list[dict[str, Any]] = []
    pairs = ((a, b),) if one_way else ((a, b), (b, a))
    for tested, other in pairs:
        reference = [other] * 4
        rows += _rows_of(play_table(rules, seed, reference), deal, seed, tested.label, "ref",
                         reference)
        for k in range(4):
            specs = [tested if s == k else other for s in range(4)]
            rows += _rows_of(play_table(rules, seed, specs), deal, seed, tested.label, str(k),
                             specs)
    return rows


DealRunner = Callable[
    [Callable[..., list[dict[str, Any]]], list[tuple[Any, ...]]],
    Iterable[tuple[int, list[dict[str, Any]]]],
]
"""Runs :func:`play_deal` over argument tuples elsewhere (e.g. a Ray cluster,
:mod:`baofen.research.ray_runner`), yielding ``(index of the tuple, rows)`` as each finishes."""


def run_arena(
    rules: RuleSet,
    a: BotSpec,
    b: BotSpec,
    deals: int,
    seed: int,
    jobs: int = 1,
    on_deal: Callable[[], None] | None = None,
    start: int = 0,
    runner: DealRunner | None = None,
    one_way: bool = False,
) -> list[dict[str, Any]]:
    """Play deals ``start`` … ``start + deals − 1`` of the run seeded ``seed``, with ``jobs``
    worker processes (or through ``runner``); the CSV rows in order. Runs over disjoint ranges
    of one seed can be concatenated (a long run done in parts). ``one_way`` tests A only (half
    the tables)."""
    if a.label == b.label:
        raise ValueError("the two bots must differ (give options to compare two settings)")
    if deals < 1:
        raise ValueError("play at least one deal")
    if start < 0:
        raise ValueError("the first deal number cannot be negative")
    data = rules.to_dict()
    by_deal: dict[int, list[dict[str, Any]]] = {}
    numbers = range(start, start + deals)
    if runner is not None:
        tasks = [(data, deal, deal_seed(seed, deal), a, b, one_way) for deal in numbers]
        for index, rows in runner(play_deal, tasks):
            by_deal[numbers[index]] = rows
            if on_deal:
                on_deal()
    elif jobs <= 1:
        for deal in numbers:
            by_deal[deal] = play_deal(data, deal, deal_seed(seed, deal), a, b, one_way)
            if on_deal:
                on_deal()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(play_deal, data, deal, deal_seed(seed, deal), a, b, one_way): deal
                for deal in numbers
            }
            for future in as_completed(futures):
                by_deal[futures[future]] = future.result()
                if on_deal:
                    on_deal()
    return [row for deal in numbers for row in by_deal[deal]]
