"""The partition run's checker, as Jepsen's: from the stored logs, the clients' logs and a
sampler of the leases in Redis, what was lost, stored twice, shown without being stored,
or stuck after a heal (:class:`Report`)."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import redis

from baofen.errors import IllegalAction
from baofen.server import ServerConfig
from baofen.server.table import Table
from baofen.store import Store, StoredTable
from baofen.store.async_store import AsyncStore
from baofen.wire.actions import action_message, read_action_record
from baofen.wire.events import read_event

from .partition_clients import Player

if TYPE_CHECKING:
    from .partitions import Run


@dataclass
class Report:
    """What a run did and what the checker found."""

    operations: int = 0
    """Actions acknowledged to the clients."""
    stored: int = 0
    """Events in the stored logs."""
    views: int = 0
    """Views the clients were shown (checked against the stored log)."""
    faults: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    divergent: int = 0
    recovery: float = 0.0
    """The longest time from a heal until every table moved again (seconds)."""
    recoveries: list[float] = field(default_factory=list)
    """That time after each heal, in order."""
    stuck: int = 0
    """Tables that did not move again before the next fault."""
    fenced: int = 0
    """Writes of deposed owners the database refused."""
    margin: float = 0.0
    """The least time left on any lease, sampled every 0.1 s outside the faults (seconds)."""
    lapsed: int = 0
    """Leases that ran out or changed hands outside the faults."""
    refused: dict[str, int] = field(default_factory=dict)
    """Errors the clients were answered, by code."""
    problems: list[str] = field(default_factory=list)
    """The first few anomalies, described."""
    lease: float = 0.0
    finished: int = 0
    """Tables whose match ended during the run (from then on they tested nothing)."""

    def summary(self) -> str:
        return (f"{self.operations} acknowledged actions, {self.stored} stored events, "
                f"{self.views} views checked, {len(self.faults)} faults; lost {self.lost}, "
                f"duplicated {self.duplicated}, divergent {self.divergent}, stuck {self.stuck}; "
                f"longest recovery after a heal {self.recovery:.1f} s; {self.fenced} writes "
                f"refused by fencing; least time left on a lease outside the faults "
                f"{self.margin:.2f} s of {self.lease:.1f} s, {self.lapsed} lapsed; errors "
                f"answered {self.refused}; {self.finished} tables finished their match")


# -- the leases ------------------------------------------------------------------------------


class LeaseSampler(threading.Thread):
    """Reads every lease's holder and time left in Redis every 0.1 s: the least time left
    and the leases that ran out or changed hands while :attr:`quiet` (no fault near)."""

    def __init__(self, url: str, report: Report) -> None:
        super().__init__(daemon=True)
        self.redis = redis.Redis.from_url(url, socket_timeout=1.0)
        self.report = report
        self.quiet = True
        self.stop = threading.Event()
        self.least: float | None = None

    def run(self) -> None:
        held: dict[bytes, bytes] = {}
        while not self.stop.wait(0.1):
            try:
                keys = list(self.redis.scan_iter(match="*lease:*", count=1000))
                pipe = self.redis.pipeline(transaction=False)
                for key in keys:
                    pipe.get(key)
                    pipe.pttl(key)
                answers = pipe.execute()
            except redis.RedisError:
                held = {}
                continue
            now = {k: v for k, v in zip(keys, answers[::2], strict=True) if v is not None}
            if self.quiet:
                for key, value in held.items():
                    if now.get(key) != value:
                        self.report.lapsed += 1
                        _problem(self.report, f"lease {key.decode()} of {value.decode()} "
                                              "lapsed outside any fault")
                left = [ms / 1000 for ms in answers[1::2] if ms is not None and ms >= 0]
                if left:
                    self.least = min(left + ([self.least] if self.least is not None else []))
            held = now if self.quiet else {}


# -- the checker -----------------------------------------------------------------------------


def check(run: Run) -> None:
    """Fill the run's report from the database and the clients' and nodes' logs."""
    report = run.report
    store = Store(run.db_url)
    try:
        stored = {code: store.load(code) for code in run.codes}
    finally:
        store.close()
    by_table: dict[str, list[Player]] = {}
    for player in run.players:
        by_table.setdefault(player.code, []).append(player)
        report.operations += len(player.seated.acked)
        for code, count in player.errors.items():
            report.refused[code] = report.refused.get(code, 0) + count
        for _at, what in player.connections:
            if what.startswith("client failure"):
                _problem(report, f"table {player.code} seat {player.client.seat}: {what}")
    for code, table in stored.items():
        assert table is not None, f"table {code} is not stored"
        report.stored += len(table.events)
        report.finished += table.status == "finished"
        _check_table(report, table, by_table[code], run.directory)
    _check_recovery(run, by_table, {c: t for c, t in stored.items() if t is not None})
    for node in run.nodes:
        text = (run.directory / f"{node.name}.log").read_text(errors="replace")
        report.fenced += len(re.findall(r"fencing number \d+ is stale", text))


def _problem(report: Report, text: str) -> None:
    if len(report.problems) < 10:
        report.problems.append(text)


def _check_table(report: Report, stored: StoredTable, players: list[Player],
                 directory: Path) -> None:
    events = stored.events
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        report.duplicated += 1
        _problem(report, f"table {stored.code}: the log's versions are not 1, 2, 3, …")
    for player in players:
        seat = player.client.seat
        for version, message in player.seated.acked.items():
            entry = events[version - 1] if 0 < version <= len(events) else None
            same = False
            if entry is not None and entry.kind == "action":
                record = read_action_record(entry.payload)
                replayed = action_message(record.to_action()).model_dump(mode="json",
                                                                         exclude={"id"})
                same = record.seat == seat and replayed == message
            if not same:
                report.lost += 1
                _problem(report, f"table {stored.code}: seat {seat}'s action acknowledged at "
                                 f"version {version} is not stored there ({message})")
    # Replay the stored log as a node does, comparing each view a client was shown with the
    # one the log gives at its version.
    shown: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for player in players:
        for _, state in player.views:
            shown.setdefault(state["table"]["version"], []).append((player.client.seat, state))
    empty = StoredTable(stored.code, stored.rules, stored.settings, stored.seed, "waiting",
                        stored.created, stored.seats, [])
    table = Table.restore(empty, cast(AsyncStore, _NoStore()), ServerConfig(db="sqlite://"),
                          _no_driver)
    for version in range(len(events) + 1):
        if version:
            try:
                table.log._apply(read_event(events[version - 1].kind, events[version - 1].payload))
            except IllegalAction as error:
                report.duplicated += 1
                _problem(report, f"table {stored.code}: stored event {version} does not "
                                 f"replay ({error})")
                return
            table.log.version = version
        for seat, state in shown.pop(version, []):
            report.views += 1
            expected = table.views.state(seat)
            if _seen(state) != _seen(expected):
                report.divergent += 1
                _problem(report, f"table {stored.code}: seat {seat} was shown a view at "
                                 f"version {version} that the stored log does not give")
                _keep_divergence(directory, stored, seat, version, state, expected, [
                    (at, s) for p in players if p.client.seat == seat for at, s in p.views
                    if abs(s["table"]["version"] - version) <= 3])
    for version, states in shown.items():
        report.views += len(states)
        report.divergent += len(states)
        _problem(report, f"table {stored.code}: a view at version {version}, beyond the "
                         f"stored log ({len(events)} events)")


def _keep_divergence(directory: Path, stored: StoredTable, seat: int | None, version: int,
                     shown: dict[str, Any], expected: dict[str, Any],
                     around: list[tuple[float, dict[str, Any]]]) -> None:
    """Write what a divergent view showed, what the log gives and the stored events around
    it, for the account of what happened."""
    events = [{"seq": e.seq, "kind": e.kind, "payload": e.payload}
              for e in stored.events[max(0, version - 6):version + 5]]
    path = directory / f"divergent-{stored.code}-{seat}-{version}.json"
    path.write_text(json.dumps({"shown": shown, "expected": expected, "events": events,
                                "around": around}, indent=1, default=str))


def _seen(state: dict[str, Any]) -> str:
    """What a view shows of the match (not its clocks, seats' connections or numbering)."""
    return json.dumps([state["table"]["status"], state["table"]["match"],
                       state["observation"]], sort_keys=True)


def _check_recovery(run: Run, by_table: dict[str, list[Player]],
                    stored: dict[str, StoredTable]) -> None:
    """After each heal, how long until every table's version went up (seen by a client). A
    table whose stored match was over before the heal has nothing left to move."""
    report = run.report
    for number, heal in enumerate(run.heals):
        report.recoveries.append(0.0)
        until = run.heals[number + 1] - run.settings.fault_seconds if number + 1 < len(
            run.heals) else float("inf")
        for code, players in by_table.items():
            views = sorted((t, s["table"]["version"]) for p in players for t, s in p.views)
            before = max((v for t, v in views if t <= heal), default=0)
            after = next((t for t, v in views if t > heal and v > before and t < until), None)
            table = stored[code]
            over = table.status == "finished" and before >= len(table.events)
            if after is None and not over:
                report.stuck += 1
                later = next((t for t, v in views if t > heal and v > before), None)
                _problem(report, f"table {code} did not move after heal {number + 1}: "
                                 f"{_stuck(heal, before, later, table, players)}")
            elif after is not None:
                report.recovery = max(report.recovery, after - heal)
                report.recoveries[-1] = max(report.recoveries[-1], after - heal)


def _stuck(heal: float, before: int, later: float | None, table: StoredTable,
           players: list[Player]) -> str:
    """What the logs say of a table that did not move after a heal."""
    moved = "never" if later is None else f"{later - heal:.1f} s after the heal"
    seen = "; ".join(
        f"seat {p.client.seat}: " + ", ".join(f"{what} {at - heal:+.1f} s" for at, what in
                                              p.connections if at > heal - 5)
        for p in players)
    return (f"healed at {heal:.2f} (the nodes' logs' clock); last version seen before it "
            f"{before}, moved again {moved}; stored "
            f"{len(table.events)} events ({table.status}); the players' connections: {seen}")


class _NoStore:
    """The checker's tables never write."""

    fences = None


async def _no_driver(table: Table) -> None:
    """The checker moves its tables itself."""
