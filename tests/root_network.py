"""The root network namespace, shared between tests that change it and tests it disturbs.

The partition test adds a bridge and veth links to the root namespace (its hosts' switch, where
the clients are). Chromium watches the machine's interfaces and aborts requests under way when
they change (``net::ERR_NETWORK_CHANGED``), so the browser tests, in other workers of the same
run, must not run meanwhile: they hold this lock shared, the partition test exclusively.
"""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK = Path(tempfile.gettempdir()) / "baofen-tests-root-network.lock"
"""The lock file every worker of a run (and of runs side by side) opens."""


@contextmanager
def root_network(*, changes: bool) -> Iterator[None]:
    """Hold the root namespace: alone to change it (``changes``), else beside other readers."""
    with LOCK.open("a") as file:
        fcntl.flock(file, fcntl.LOCK_EX if changes else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)
