"""The arena: two bots compared on *duplicate* deals.

For each deal and each seat ``k``, the deal is played with bot A at ``k`` and bot B in the other
three seats, and once at the *reference table* with B in all four seats. A's advantage on the deal
is the mean over ``k`` of seat ``k``'s result at A's table minus seat ``k``'s result at the
reference table (包分: the hand's score change for the seat; 包红五: its levels). Then the same with
A and B swapped (unless only A is tested: ``one_way``). The deal is the statistical unit: the 95%
confidence interval of the mean advantage is taken over deals. Bidding is part of the game, so
roles follow from it; the advantage is also split by the tested bot's role (a ratio over deals,
with a cluster-robust interval).

- :mod:`baofen.arena.play`: the deals played, as rows (one per seat of every table);
- :mod:`baofen.arena.estimate`: a mean with its 95% interval;
- :mod:`baofen.arena.report`: the rows summarized, and written as CSV, JSON and a chart (the
  chart needs matplotlib, the ``arena`` extra: ``pip install 'baofen[arena]'``).
"""

from .estimate import Z95, Estimate
from .play import (
    CSV_FIELDS,
    BotSpec,
    DealRunner,
    bot_seed,
    deal_seed,
    play_deal,
    play_table,
    run_arena,
)
from .report import (
    ChartUnavailable,
    make_report,
    read_csv,
    summarize,
    write_chart,
    write_csv,
    write_json,
)

__all__ = [
    "CSV_FIELDS", "Z95", "BotSpec", "ChartUnavailable", "DealRunner", "Estimate", "bot_seed",
    "deal_seed", "make_report", "play_deal", "play_table", "read_csv", "run_arena", "summarize",
    "write_chart", "write_csv", "write_json",
]
