"""The cluster under network partitions, at length: ``python3 bench/server/partitions.py
--seed 52 --minutes 15`` (root: network namespaces and nftables; PostgreSQL's server binaries,
redis-server). Three nodes, PostgreSQL and Redis on hosts of their own, tables of scripted
players, and faults from a fixed schedule drawn from the seed, cycling through every kind
(tests/server/partitions.py); then the checker's counts: acknowledged actions lost or stored
twice, views the database does not hold, tables stuck after a heal, the longest recovery, the
writes fencing refused and the leases' margin. Prints the summary and, with ``--json``, the
whole report. The hosts' logs stay in ``--keep`` when given."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the harness is the tests' (tests/server/partitions.py)

from tests.root_network import root_network  # noqa: E402
from tests.server.netlab import unavailable  # noqa: E402
from tests.server.partitions import FAULTS, Run, Settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--fault-seconds", type=float, default=20.0)
    parser.add_argument("--settle-seconds", type=float, default=15.0)
    parser.add_argument("--lease", type=float, default=3.0, help="lease seconds of the nodes")
    parser.add_argument("--db-timeout", type=float, default=5.0)
    parser.add_argument("--hands", type=int, default=80,
                        help="hands of each match: long enough to outlast the run")
    parser.add_argument("--keep", type=Path, help="directory for the hosts' logs")
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = parser.parse_args()
    reason = unavailable()
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    cycle = args.fault_seconds + args.settle_seconds
    settings = Settings(
        seed=args.seed, tables=args.tables, faults=max(1, round(args.minutes * 60 / cycle)),
        fault_seconds=args.fault_seconds, settle_seconds=args.settle_seconds,
        lease_seconds=args.lease, db_timeout=args.db_timeout, hands=args.hands,
    )
    directory = args.keep or Path(tempfile.mkdtemp(prefix="partitions-"))
    directory.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # Alone in the root namespace: browser tests running beside would see its links change.
    with root_network(changes=True), Run(settings, directory) as run:
        report = run.play()
    print(f"{settings.faults} faults ({len(FAULTS)} kinds), {args.tables} tables, seed "
          f"{args.seed}, {(time.monotonic() - started) / 60:.1f} min; logs in {directory}")
    print(report.summary())
    for fault, recovery in zip(report.faults, report.recoveries, strict=True):
        print(f"  fault: {fault}; every table moved again {recovery:.1f} s after the heal")
    for problem in report.problems:
        print("  ", problem)
    if args.json:
        print(json.dumps(dataclasses.asdict(report), indent=1))
    bad = report.lost + report.duplicated + report.divergent + report.stuck + report.lapsed
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
