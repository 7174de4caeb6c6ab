"""A tournament among computer players, played locally on every core: a bot research tool.

Each round is seated (:mod:`baofen.competition.schedule`), then every table plays the round as
one match of the round's hands (as a server's tournament table does), in a worker process; the
standings are counted after each round (a Swiss round is seated from them). Every table of a
round plays its match from the same seed, in both formats, so the same deals; each bot's
randomness derives from the deal, its seat and its name (as the arena's,
:func:`baofen.arena.play.bot_seed`), so a run is the same whatever the number of workers.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arena.play import BotSpec, bot_seed
from ..match import Match
from ..ruleset import RuleSet
from .schedule import Format, fillers_for, round_seed, round_tables
from .seating import History, Table
from .standings import SWISS_POINTS, Played, Standing, duplicate_standings, swiss_standings

STANDINGS_FIELDS = ("rank", "entrant", "bot", "filler", "points", "score", "hands")
"""Columns of standings.csv."""


@dataclass(frozen=True)
class Entrant:
    """An entrant of a local event: its name in the standings and its computer player."""

    name: str
    bot: BotSpec


def parse_entrants(text: str) -> list[Entrant]:
    """Entrants from ``"hard,master,rule*6"``: each a bot spec (``name:key=value``), ``*N`` for N
    of them; names are the specs, numbered from the second of a kind (``rule``, ``rule-2``)."""
    entrants: list[Entrant] = []
    seen: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        spec_text, star, count_text = part.partition("*")
        if star and not (count_text.isdigit() and int(count_text) >= 1):
            raise ValueError(f"{part!r}: give a count of at least 1 after '*'")
        spec = BotSpec.parse(spec_text)
        for _ in range(int(count_text) if star else 1):
            seen[spec.label] = seen.get(spec.label, 0) + 1
            number = seen[spec.label]
            entrants.append(Entrant(spec.label if number == 1 else f"{spec.label}-{number}", spec))
    if not entrants:
        raise ValueError("name at least one entrant")
    return entrants


FILLER_BOT = BotSpec("normal")
"""The computer player filling incomplete tables, unless the event names another."""


@dataclass(frozen=True)
class Plan:
    """What a local event plays: game rules, format, rounds and hands a round."""

    rules: RuleSet
    form: Format
    rounds: int
    deals: int
    """Hands a round (a duplicate round's deals, a Swiss round's hands)."""
    seed: int = 0
    points: tuple[float, ...] = SWISS_POINTS
    filler: BotSpec = FILLER_BOT

    def __post_init__(self) -> None:
        if self.rounds < 1 or self.deals < 1:
            raise ValueError("play at least one round of at least one hand")
        if len(self.points) != 4:
            raise ValueError(f"give tournament points for 4 table ranks, not {len(self.points)}")


def play_round_table(rules: dict[str, Any], specs: Sequence[BotSpec], seed: int
                     ) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int],
                                     dict[str, Any]]]:
    """One table's match of a round (its rule set's ``hands`` long), as each hand's (result,
    booked change, record): the hand's own result (:attr:`HandResult.deltas`) and the change the
    match booked (with the 包分 pot's transfers). Runs in a worker process."""
    match = Match(RuleSet.from_dict(rules), seed)
    played = []
    while True:
        hand = match.hand
        bots = [spec.make(bot_seed(hand.seed or 0, seat, spec.label))
                for seat, spec in enumerate(specs)]
        for seat in hand.turns():
            hand.apply(seat, bots[seat].act(hand.observation(seat)))
        entry = match.history[-1]
        assert hand.result is not None
        played.append((hand.result.deltas, entry.deltas, hand.to_record()))
        if match.finished:
            return played
        match.next_hand()


@dataclass
class Event:
    """A local event as it is played: the tables of each round, every hand, the standings."""

    plan: Plan
    entrants: list[Entrant]
    fillers: list[str]
    tables: list[list[Table]] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)

    def bot(self, name: str) -> BotSpec:
        """The computer player of entrant or filler ``name``."""
        return next((e.bot for e in self.entrants if e.name == name), self.plan.filler)

    def count(self) -> None:
        """The standings from the hands played so far."""
        if self.plan.form is Format.duplicate:
            self.standings = duplicate_standings(self.played, self.fillers)
        else:
            self.standings = swiss_standings(self.played, self.fillers, self.plan.points)


def run_event(plan: Plan, entrants: Sequence[Entrant], jobs: int = 1,
              on_table: Callable[[], None] | None = None) -> Event:
    """Play every round of ``plan`` among ``entrants`` with ``jobs`` worker processes."""
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ValueError("two entrants have one name")
    event = Event(plan, list(entrants), fillers_for(names))
    history = History()
    pool: Executor | None = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        for number in range(plan.rounds):
            tables = round_tables(plan.form, names, event.fillers, history, event.standings,
                                  number, plan.seed)
            event.tables.append(tables)
            rules = plan.rules.replace(hands=plan.deals).to_dict()
            seed = round_seed(plan.seed, number)
            arguments = [(rules, [event.bot(n) for n in t], seed) for t in tables]
            if pool is None:
                results = [play_round_table(*a) for a in arguments]
            else:
                futures = [pool.submit(play_round_table, *a) for a in arguments]
                results = [f.result() for f in futures]
            for t, (table, hands) in enumerate(zip(tables, results, strict=True)):
                for d, (result, booked, record) in enumerate(hands):
                    # Duplicate compares each deal's own result; Swiss ranks the table's match.
                    deltas = result if plan.form is Format.duplicate else booked
                    event.played.append(Played(number, t, d, table, deltas))
                    event.records.append({"round": number, "table": t, "deal": d,
                                          "seats": list(table), "record": record})
                if on_table:
                    on_table()
            event.count()
    finally:
        if pool is not None:
            pool.shutdown()
    return event


def write_event(event: Event, out: Path) -> None:
    """standings.csv, event.json (settings, each round's tables, the standings) and hands.jsonl
    (one line per hand: round, table, deal, the entrants by seat, the hand's record)."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "standings.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, STANDINGS_FIELDS)
        writer.writeheader()
        for line in event.standings:
            writer.writerow({**line.to_json(), "rank": "" if line.rank is None else line.rank,
                             "bot": event.bot(line.entrant).label})
    plan = event.plan
    summary = {
        "game": plan.rules.variant,
        "rules": plan.rules.to_dict(),
        "format": plan.form.value,
        "rounds": plan.rounds,
        "deals": plan.deals,
        "seed": plan.seed,
        "points": list(plan.points) if plan.form is Format.swiss else None,
        "entrants": [{"name": e.name, "bot": e.bot.label} for e in event.entrants],
        "fillers": [{"name": n, "bot": plan.filler.label} for n in event.fillers],
        "tables": [[list(t) for t in tables] for tables in event.tables],
        "standings": [line.to_json() for line in event.standings],
    }
    (out / "event.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n",
                                    encoding="utf-8")
    with (out / "hands.jsonl").open("w", encoding="utf-8") as f:
        for record in event.records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
