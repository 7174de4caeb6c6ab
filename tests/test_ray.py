"""Arenas and self-play hands on a Ray cluster: a real local cluster (its own head processes on
loopback, started and stopped by this module) gives exactly the results of a local run."""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from baofen import RuleSet
from baofen.env.train import Behaviour, generate
from baofen.research.ray_runner import RayCluster

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_head(port: int, temp: str) -> tuple[subprocess.Popen[str], str]:
    """``ray start --head`` on ``port``; the process and what it printed until it started,
    or until it exited (then the caller tries again: on a busy machine another test's server
    may take one of the other ports Ray picks for itself)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen(
        ["ray", "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
         f"--temp-dir={temp}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    assert head.stdout is not None
    printed = []
    deadline = time.monotonic() + 120
    for line in head.stdout:
        printed.append(line)
        if "Ray runtime started" in line:
            return head, ""
        assert time.monotonic() < deadline, "the Ray head did not start:\n" + "".join(printed)
    head.wait(timeout=30)
    return head, "".join(printed)


def _stop_head(head: subprocess.Popen[str]) -> None:
    """Only the processes the head started: its own process group."""
    head.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        head.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGKILL)
    head.wait(timeout=30)


@pytest.fixture
def cluster() -> Iterator[str]:
    """A Ray head on loopback in a temporary directory; its address."""
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are long
    try:
        for _attempt in range(3):
            port = _free_port()
            head, failure = _start_head(port, temp)
            if not failure:
                break
            _stop_head(head)
        else:
            pytest.fail(f"the Ray head exited before starting, 3 times; it said:\n{failure}")
        try:
            yield f"127.0.0.1:{port}"
        finally:
            _stop_head(head)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _arena(out: Path, *extra: str) -> list[dict[str, str]]:
    done = subprocess.run(
        [sys.executable, "-m", "baofen", "arena", "--variant", "baofen", "--bots", "rule,random",
         "--deals", "6", "--seed", "1", "--out", str(out), *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with (out / "results.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_cluster_runs_match_local_runs(cluster: str, tmp_path: Path) -> None:
    """One test, so that one cluster serves both checks whatever the test distribution."""
    local = _arena(tmp_path / "local", "--jobs", "1")
    remote = _arena(tmp_path / "ray", "--ray", cluster)
    assert remote == local
    assert len(local) == 6 * 2 * 5 * 4
    _check_self_play(cluster)


def _check_self_play(cluster: str) -> None:
    rules = RuleSet.hongwu()
    behaviour = Behaviour(advised=1.0, epsilon=0.2)
    batches = [[1, 2], [3]]
    ray_cluster = RayCluster(cluster)
    try:
        remote = ray_cluster.generator(generate)(rules.to_dict(), None, batches, behaviour)
    finally:
        ray_cluster.close()
    local = [generate(rules.to_dict(), None, seeds, behaviour) for seeds in batches]
    for got, want in zip(remote, local, strict=True):
        for a, b in zip(got, want, strict=True):
            assert np.array_equal(a, b)
