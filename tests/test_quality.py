"""The code stays lint-clean (ruff) and type-clean (mypy --strict over the package)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff() -> None:
    ruff = shutil.which("ruff") or "ruff"
    done = run(ruff, "check", "src", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy() -> None:
    done = run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
