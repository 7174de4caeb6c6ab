"""Arena deals and self-play hands on a Ray cluster (needs the ``research`` extra).

``baofen arena … --ray ADDRESS`` and ``python -m baofen.env.train … --ray ADDRESS`` send their
units of work — one duplicate deal (:func:`baofen.arena.play.play_deal`), one batch of
generated hands (:func:`baofen.env.train.generate`) — to the cluster at ``ADDRESS``
(``host:port`` of its head, as printed by ``ray start --head``). Each unit is a pure function
of its arguments, seeds included, so a cluster run gives exactly the rows of a local run. The
``baofen`` package's code is shipped to the workers with the job (Ray's ``py_modules``); files
named in bot options (neural weights) must exist at the same path on every node.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import ray

R = TypeVar("R")


class RayCluster:
    """A connection to the Ray cluster at ``address``, made on first use."""

    def __init__(self, address: str) -> None:
        if not address or ":" not in address:
            raise ValueError(f"give the cluster's address as host:port, not {address!r}")
        self.address = address

    def connect(self) -> None:
        """Join the cluster as a driver, shipping this package's code to its workers."""
        if ray.is_initialized():
            return
        host = self.address.rsplit(":", 1)[0]
        options: dict[str, Any] = {}
        if host in ("127.0.0.1", "localhost"):
            # A cluster on loopback: register this driver on loopback too.
            options["_node_ip_address"] = "127.0.0.1"
        package = Path(__file__).resolve().parent.parent  # the whole baofen package
        ray.init(
            address=self.address,
            runtime_env={"py_modules": [str(package)]},
            log_to_driver=False,
            logging_level=logging.ERROR,
            **options,
        )

    def map(
        self, function: Callable[..., R], tasks: Sequence[tuple[Any, ...]]
    ) -> Iterator[tuple[int, R]]:
        """Run ``function(*task)`` for every task on the cluster; yield ``(index, result)`` as
        each finishes."""
        self.connect()
        remote = ray.remote(num_cpus=1)(function)
        index_of = {remote.remote(*task): i for i, task in enumerate(tasks)}
        pending = list(index_of)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield index_of[ref], ray.get(ref)

    def ordered(self, function: Callable[..., R], tasks: Sequence[tuple[Any, ...]]) -> list[R]:
        """The results of :meth:`map`, in the order of ``tasks``."""
        results: dict[int, R] = dict(self.map(function, tasks))
        return [results[i] for i in range(len(tasks))]

    def generator(self, generate: Callable[..., Any]) -> Callable[..., list[Any]]:
        """A hand generator for :func:`baofen.env.train.train` that runs each batch of seeds as
        one task of ``generate`` (:func:`baofen.env.train.generate`) on the cluster."""

        def run(rules_data: dict[str, Any], model_state: dict[str, Any] | None,
                batches: list[list[int]], behaviour: Any) -> list[Any]:
            return self.ordered(
                generate, [(rules_data, model_state, seeds, behaviour) for seeds in batches]
            )

        return run

    def close(self) -> None:
        """Leave the cluster (it keeps running)."""
        if ray.is_initialized():
            ray.shutdown()
