"""The native core under AddressSanitizer and UndefinedBehaviorSanitizer: built into
``build/sanitize`` (tests/sanitized.py; kept between runs, rebuilt when a source or header
changes), it runs the differential fuzz of tests/native_fuzz.py against the Python engine in a
process of its own, where any memory error or undefined behaviour ends the run with the
sanitizer's report. The fuzz is seeded and bounded by a count of hands and by time.

Where the sanitizer build cannot be made (no C++ compiler, no libasan) the test skips, saying
why; with ``BAOFEN_TEST_REQUIRE_NATIVE=1`` (CI) it fails instead.
"""

from __future__ import annotations

import sys

import pytest

from . import sanitized
from .native import REQUIRED

SEED = 1
HANDS = 300
"""Hands the fuzz plays at most (about 3 a second on the sanitizer build)."""
SECONDS = 80
"""No hand of the fuzz is begun after this, whatever the machine: with the build (a minute or
two on two cores), the test stays under four minutes."""
AT_LEAST = 30
"""Hands the fuzz must have played for the run to count."""


def test_the_sanitized_core_agrees_with_the_python_engine() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the sanitizer build is made and loaded as on Linux")
    try:
        core = sanitized.build()
        sanitized.runtimes()
    except (sanitized.BuildError, OSError) as error:
        if REQUIRED:
            pytest.fail(f"BAOFEN_TEST_REQUIRE_NATIVE=1 but {error}")
        pytest.skip(str(error))
    argv = ["--seed", str(SEED), "--hands", str(HANDS), "--seconds", str(SECONDS)]
    done = sanitized.fuzz(core, argv, timeout=SECONDS + 180)
    report = f"{done.stdout[-4000:]}\n{done.stderr[-12000:]}"
    assert done.returncode == 0, report
    assert "Sanitizer" not in done.stderr and "runtime error" not in done.stderr, report
    played = int(done.stdout.split("native fuzz: ")[1].split()[0])
    assert played >= min(AT_LEAST, HANDS), report
