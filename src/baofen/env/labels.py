"""Perfect-information labels for the learned evaluator, made on the native core.

Hands dealt from seeds are played by the native rule player in every seat; at a play decision
with a choice (kept with probability ``keep``), every candidate — the rule player's best
``limit`` distinct plays, its own choice first, and for a follow every other legal follow while
there are at most ``wide`` in all — is played on the *true* deal and on to the end by rule
players (src/baofen/_native/labels.cpp). A candidate's label is the deciding seat's result
(``HandResult.deltas``: 包分 score points, 包红五 levels); its *advantage* is that minus the
rule player's choice's (:attr:`Labels.advantages`).

What the deciding seat sees is kept as a compact record (:class:`Labels`' ``states`` and
``planes``); :func:`record_of` writes the same record from an :class:`~baofen.Observation`, so
the evaluator encodes a live decision exactly as it encoded its training data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._native import core
from .._native.batch import native_rules, seeded_deals
from ..bots.learned.evaluator import (
    FIRST_ROW,
    OPTIONS,
    PLANES,
    STATE_FIELDS,
    record,
)
from ..bots.native_players import native_weights
from ..bots.rule.shared import TrickTally
from ..cards import KINDS
from ..observation import Observation
from ..ruleset import RuleSet

TRAIN_SEED_BASE = 10_000_000
"""Training deals are ``Hand(rules, seed=TRAIN_SEED_BASE + seed * 1_000_000 + i)``: apart from
the gate's (bench/screens/search_regret.py draws seeds ``s * 100_003 + i`` for small ``s``)."""


@dataclass
class Labels:
    """Labelled decisions: ``states`` [D, 19] int32, ``planes`` [D, 6, 54] uint8; candidates
    ``cards`` [C, 54] uint8, ``values`` [C] float32 (the seat's result), ``ranks`` [C] int32
    (rank in the rule player's list, -1 for a wide follow); candidate rows of decision ``d``
    are ``states[d, FIRST_ROW]`` on, ``states[d, OPTIONS]`` of them, the first the rule
    player's choice."""

    states: npt.NDArray[np.int32]
    planes: npt.NDArray[np.uint8]
    cards: npt.NDArray[np.uint8]
    values: npt.NDArray[np.float32]
    ranks: npt.NDArray[np.int32]

    def __len__(self) -> int:
        return len(self.states)

    @property
    def decision_of(self) -> npt.NDArray[np.int64]:
        """For each candidate row, its decision's index."""
        return np.repeat(np.arange(len(self.states)), self.states[:, OPTIONS])

    @property
    def advantages(self) -> npt.NDArray[np.float32]:
        """Each candidate's value minus the rule player's choice's (the first of its decision)."""
        first = self.states[:, FIRST_ROW]
        base = self.values[first]
        out: npt.NDArray[np.float32] = self.values - np.repeat(base, self.states[:, OPTIONS])
        return out

    def save(self, path: str) -> None:
        """Write to an ``.npz`` file."""
        np.savez(path, states=self.states, planes=self.planes, cards=self.cards,
                 values=self.values, ranks=self.ranks)

    @classmethod
    def load(cls, path: str) -> Labels:
        """Read what :meth:`save` wrote."""
        with np.load(path) as data:
            return cls(data["states"], data["planes"], data["cards"], data["values"],
                       data["ranks"])

    def head(self, count: int) -> Labels:
        """The first ``count`` decisions."""
        if count >= len(self):
            return self
        rows = int(self.states[count, FIRST_ROW])
        return Labels(self.states[:count], self.planes[:count], self.cards[:rows],
                      self.values[:rows], self.ranks[:rows])


def concat(parts: Sequence[Labels]) -> Labels:
    """One label set of ``parts`` in order (rows renumbered)."""
    states = []
    offset = 0
    for part in parts:
        shifted = part.states.copy()
        shifted[:, FIRST_ROW] += offset
        offset += len(part.values)
        states.append(shifted)
    return Labels(
        np.concatenate(states) if states else np.zeros((0, STATE_FIELDS), np.int32),
        np.concatenate([p.planes for p in parts]) if parts else np.zeros((0, PLANES, KINDS),
                                                                         np.uint8),
        np.concatenate([p.cards for p in parts]) if parts else np.zeros((0, KINDS), np.uint8),
        np.concatenate([p.values for p in parts]) if parts else np.zeros(0, np.float32),
        np.concatenate([p.ranks for p in parts]) if parts else np.zeros(0, np.int32),
    )


def label_hands(rules: RuleSet, seeds: Sequence[int], limit: int = 12, wide: int = 16,
                keep: float = 0.5, seed: int = 0) -> Labels:
    """The labelled decisions of the hands dealt from ``seeds`` (see the module docstring)."""
    deals, firsts = seeded_deals(rules, seeds)
    states, planes, cards, values, ranks = core().label_hands(
        native_rules(rules), deals, firsts, native_weights(), limit, wide, keep, seed)
    both = np.frombuffer(values, np.int32).reshape(-1, 2)
    return Labels(
        np.frombuffer(states, np.int32).reshape(-1, STATE_FIELDS).copy(),
        np.frombuffer(planes, np.uint8).reshape(-1, PLANES, KINDS).copy(),
        np.frombuffer(cards, np.uint8).reshape(-1, KINDS).copy(),
        both[:, 0].astype(np.float32),
        np.frombuffer(ranks, np.int32).copy(),
    )


def generate(rules: RuleSet, count: int, seed: int = 0, keep: float = 0.5, wide: int = 16,
             chunk: int | None = None, progress: bool = False) -> Labels:
    """At least ``count`` labelled decisions (then cut to ``count``) from training deals
    (:data:`TRAIN_SEED_BASE`), ``chunk`` hands a native call (by default 200, 8 for fewer than
    10,000 decisions); deterministic in ``seed`` (and ``chunk``)."""
    if chunk is None:
        chunk = 200 if count >= 10_000 else 8
    parts: list[Labels] = []
    have = 0
    start = TRAIN_SEED_BASE + seed * 1_000_000
    call = 0
    while have < count:
        seeds = range(start + call * chunk, start + (call + 1) * chunk)
        part = label_hands(rules, list(seeds), wide=wide, keep=keep, seed=seed * 7919 + call)
        parts.append(part)
        have += len(part)
        call += 1
        if progress and call % 20 == 0:
            print(f"  labels: {have:,} decisions from {call * chunk:,} hands", flush=True)
    return concat(parts).head(count)


def record_of(obs: Observation, tally: TrickTally | None = None
              ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8]]:
    """The record (``states`` row, ``planes``) of the observing seat's play decision, as
    labels.cpp writes it (:func:`baofen.bots.learned.evaluator.record`, as arrays)."""
    state, planes = record(obs, tally)
    return np.array(state, np.int32), np.array(planes, np.uint8)
