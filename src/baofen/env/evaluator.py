"""The learned evaluator: a small network that scores a play decision's
candidates by their advantage over the rule bot's choice, trained on perfect-information labels.

Training data: :mod:`baofen.env.labels` (rule-bot hands on the native core; each candidate of a
kept decision played out on the true deal). Features: :mod:`baofen.env.canonical` (trump-
canonical). Target: the candidate's advantage (its value minus the rule bot's choice's), divided
by :data:`SCALES`, fitted with a Huber loss. The evaluator plays the candidate of highest
predicted advantage, the rule bot's choice kept unless another is predicted ``margin`` better
(the margin that gains most on the held-out labels, saved with the weights).

One command a game makes the weights from nothing (fixed seeds; four label sets made side by
side on the machine's cores, then training on one thread; about half an hour on two cores): the
package's weights, with which the learned player (:mod:`baofen.env.neural`) plays its cards::

    python -m baofen.env.evaluator --variant baofen --labels 4000000 --parts 4 --seed 0 \\
        --out src/baofen/env/weights/evaluator-baofen.pt
    python -m baofen.env.evaluator --variant hongwu --labels 4000000 --parts 4 --seed 0 \\
        --out src/baofen/env/weights/evaluator-hongwu.pt

The go/no-go against the search (``bench/screens/evaluator_gate.py``): the evaluator's
true-deal gain over the rule bot's choice against 困难's on the same held-out positions (not
passed: it does not replace the search). As the search's baseline it helps: 大师 searches from
its pick in 包分 (:mod:`baofen.bots.learned.evaluator`, which reads the weights ``--export``
writes::

    python -m baofen.env.evaluator --export src/baofen/env/weights/evaluator-baofen.pt \
        src/baofen/bots/weights/evaluator-baofen.enet

Its figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..bots.learned import evaluator as learned_evaluator
from ..bots.learned.evaluator import FIRST_ROW, OPTIONS
from ..bots.learned.network_file import write_network
from ..bots.rule.bot import RuleBot
from ..bots.rule.shared import TrickTally
from ..cards import KINDS, Card
from ..observation import Observation
from ..ruleset import RuleSet
from .canonical import FINGERPRINT, VOID_FINGERPRINT, features, row_size
from .labels import Labels, concat, generate, record_of

SCALES = {"baofen": 50.0, "hongwu": 2.0}
"""Advantages are divided by this (包分 score points, 包红五 levels) before training."""

FORMAT = 1
"""Version of the evaluator's weights file."""


class EvaluatorNet(nn.Module):
    """A row of :func:`~baofen.env.canonical.features` → the candidate's scaled advantage."""

    def __init__(self, size: int, hidden: int = 256) -> None:
        super().__init__()
        self.sizes = (size, hidden)
        self.layers = nn.Sequential(
            nn.Linear(size, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        """``rows`` [B, size] → [B]."""
        out: torch.Tensor = self.layers(rows).squeeze(1)
        return out


@dataclass
class TrainReport:
    """What a training run measured on its held-out labels (in the game's unit)."""

    decisions: int
    rows: int
    seconds_labels: float
    seconds_train: float
    margin: float
    gain: float
    """Mean true gain over the rule bot's choice of the evaluator's pick (held-out labels)."""
    oracle: float
    """Mean gain of the best candidate (the most any pick could gain)."""


def rows_of(labels: Labels, hongwu: bool, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """Features of candidate ``rows`` of ``labels``."""
    decisions = labels.decision_of[rows] if len(rows) else rows
    return features(hongwu, labels.states[decisions], labels.planes[decisions],
                    labels.cards[rows], labels.ranks[rows])


def predict(model: EvaluatorNet, labels: Labels, hongwu: bool, batch: int = 8192
            ) -> npt.NDArray[np.float32]:
    """The model's scaled advantage of every candidate row of ``labels``."""
    out = np.zeros(len(labels.values), dtype=np.float32)
    decision_of = labels.decision_of
    with torch.inference_mode():
        for start in range(0, len(out), batch):
            rows = np.arange(start, min(start + batch, len(out)))
            d = decision_of[rows]
            x = features(hongwu, labels.states[d], labels.planes[d], labels.cards[rows],
                         labels.ranks[rows])
            out[rows] = model(torch.from_numpy(x)).numpy()
    return out


def picks(labels: Labels, scores: npt.NDArray[np.float32], margin: float
          ) -> npt.NDArray[np.int64]:
    """Each decision's chosen row: the highest score, the rule bot's choice given ``margin``."""
    first = labels.states[:, FIRST_ROW].astype(np.int64)
    adjusted = scores.copy()
    adjusted[first] += margin
    out = np.empty(len(first), dtype=np.int64)
    for d, (start, count) in enumerate(zip(first, labels.states[:, OPTIONS], strict=True)):
        out[d] = start + int(np.argmax(adjusted[start:start + count]))
    return out


def gains(labels: Labels, chosen: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """True gain over the rule bot's choice of each decision's ``chosen`` row."""
    first = labels.states[:, FIRST_ROW]
    out: npt.NDArray[np.float32] = labels.values[chosen] - labels.values[first]
    return out


def train(labels: Labels, variant: str, seed: int = 0, epochs: int = 2, batch: int = 1024,
          hidden: int = 256, lr: float = 1e-3, holdout: float = 0.05, log: bool = False
          ) -> tuple[EvaluatorNet, float, float, float]:
    """A network fitted to ``labels``' advantages; with the margin chosen on the held-out last
    ``holdout`` of the decisions, its mean gain there and the best candidates' (see
    :class:`TrainReport`)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    hongwu = variant == "hongwu"
    cut = max(1, int(len(labels) * (1 - holdout)))
    fit, held = labels.head(cut), _tail(labels, cut)
    targets = (fit.advantages / SCALES[variant]).astype(np.float32)
    model = EvaluatorNet(row_size(), hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    steps = max(1, epochs * math.ceil(len(fit.values) / batch))
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0 - s / steps)
    loss_fn = nn.HuberLoss(delta=1.0)
    decision_of = fit.decision_of
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(fit.values))
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            d = decision_of[rows]
            x = torch.from_numpy(features(hongwu, fit.states[d], fit.planes[d], fit.cards[rows],
                                          fit.ranks[rows]))
            loss = loss_fn(model(x), torch.from_numpy(targets[rows]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            step += 1
            total += loss.item()
            if log and step % 500 == 0:
                print(f"  epoch {epoch + 1} step {step}/{steps} loss {total / 500:.4f}",
                      flush=True)
                total = 0.0
    model.eval()
    scores = predict(model, held, hongwu)
    best_margin, best_gain = 0.0, -math.inf
    for margin in (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5):
        gain = float(gains(held, picks(held, scores, margin)).mean())
        if gain > best_gain:
            best_margin, best_gain = margin, gain
    oracle = float(np.maximum.reduceat(held.advantages, held.states[:, FIRST_ROW]).mean())
    return model, best_margin, best_gain, oracle


def _tail(labels: Labels, cut: int) -> Labels:
    """The decisions from ``cut`` on, rows renumbered."""
    first = int(labels.states[cut, FIRST_ROW])
    states = labels.states[cut:].copy()
    states[:, FIRST_ROW] -= first
    return Labels(states, labels.planes[cut:], labels.cards[first:], labels.values[first:],
                  labels.ranks[first:])


def save(model: EvaluatorNet, variant: str, margin: float, path: Path,
         meta: dict[str, Any]) -> None:
    """Write the weights with what plays them (variant, margin) and training notes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.to(torch.float16) for k, v in model.state_dict().items()}
    torch.save({"format": FORMAT, "variant": variant, "sizes": list(model.sizes),
                "margin": margin, "model": state, "meta": meta}, path)


@cache
def load(path: str) -> tuple[EvaluatorNet, str, float, dict[str, Any]]:
    """The evaluator saved at ``path``: network, variant, margin, notes (once per process)."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not an evaluator weights file of version {FORMAT}")
    model = EvaluatorNet(*data["sizes"])
    model.load_state_dict({k: v.to(torch.float32) for k, v in data["model"].items()})
    model.eval()
    return model, str(data["variant"]), float(data["margin"]), dict(data["meta"])


class Evaluator:
    """Scores a seat's play candidates with trained weights (see the module docstring)."""

    def __init__(self, path: str | Path, margin: float | None = None) -> None:
        self.model, self.variant, saved, self.meta = load(str(path))
        self.margin = saved if margin is None else margin
        self.rule = RuleBot()
        self.tally = TrickTally()
        torch.set_num_threads(1)

    def scores(self, obs: Observation, plays: list[tuple[Card, ...]], ranks: list[int]
               ) -> npt.NDArray[np.float32]:
        """The predicted scaled advantage of each of ``plays`` (ranks as
        :func:`~baofen.bots.learned.evaluator.candidates_of`)."""
        if obs.rules.variant != self.variant:
            raise ValueError(f"these weights are for {self.variant}, not {obs.rules.variant}")
        state, planes = record_of(obs, self.tally)
        state[OPTIONS] = len(plays)
        cards = np.zeros((len(plays), KINDS), dtype=np.uint8)
        for row, play in enumerate(plays):
            for card in play:
                cards[row, card] += 1
        n = len(plays)
        x = features(self.variant == "hongwu", np.repeat(state[None], n, axis=0),
                     np.repeat(planes[None], n, axis=0), cards, np.array(ranks, np.int32))
        with torch.inference_mode():
            out: npt.NDArray[np.float32] = self.model(torch.from_numpy(x)).numpy()
        return out

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The candidate of highest predicted advantage
        (:func:`~baofen.bots.learned.evaluator.pick`, with ``margin``)."""
        return learned_evaluator.pick(obs, self.rule, self.scores, self.margin)


def export(trained: Path, out: Path) -> None:
    """Write the evaluator saved at ``trained`` in the plain format the search levels read
    without torch (:mod:`baofen.bots.learned.evaluator`), with the fingerprint's weights."""
    model, variant, margin, meta = load(str(trained))
    state = model.state_dict()
    layers = {name: (state[f"{name}.weight"].tolist(), state[f"{name}.bias"].tolist())
              for name in learned_evaluator.LAYERS}
    header = {
        "format": FORMAT, "variant": variant, "margin": margin, "sizes": list(model.sizes),
        "meta": meta, "fingerprint": FINGERPRINT.tolist(),
        "void_fingerprint": VOID_FINGERPRINT.tolist(),
    }
    write_network(out, learned_evaluator.MAGIC, header, layers)


def _label_part(variant: str, count: int, seed: int, cache: Path | None) -> Labels:
    """``count`` labelled decisions of training seed ``seed``, read from ``cache`` if there
    (else made, and written there)."""
    cached = None if cache is None else cache / f"{variant}-labels{count}-seed{seed}.npz"
    if cached is not None and cached.exists():
        return Labels.load(str(cached))
    labels = generate(RuleSet.create(variant=variant), count, seed=seed, progress=True)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        labels.save(str(cached))
    return labels


def main(argv: list[str] | None = None) -> TrainReport | None:
    """The training command, or with ``--export`` the export (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Train the learned evaluator.")
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--labels", type=int, default=1_000_000, help="labelled decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--out", type=Path, default=None, help="weights file to write")
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder of label files: read if there, else written")
    parser.add_argument("--parts", type=int, default=1,
                        help="label sets of seeds SEED, SEED+1 … (LABELS/PARTS decisions each), "
                             "made side by side on the machine's cores")
    parser.add_argument("--export", type=Path, nargs=2, metavar=("TRAINED", "OUT"),
                        help="write the weights at TRAINED to OUT in the search levels' plain "
                             "format (no training)")
    args = parser.parse_args(argv)
    if args.export is not None:
        export(*args.export)
        return None
    if args.parts < 1 or args.labels % args.parts:
        parser.error(f"--parts must be at least 1 and divide --labels ({args.labels})")
    torch.set_num_threads(1)
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.parts)
    jobs = [(args.variant, args.labels // args.parts, seed, args.cache) for seed in seeds]
    if args.parts == 1:
        labels = _label_part(*jobs[0])
    else:
        with ProcessPoolExecutor(min(args.parts, os.cpu_count() or 1)) as pool:
            labels = concat(list(pool.map(_label_part, *zip(*jobs, strict=True))))
    labelled = time.perf_counter() - start
    print(f"{args.variant}: {len(labels):,} decisions, {len(labels.values):,} candidates "
          f"({labelled:.0f} s)", flush=True)
    start = time.perf_counter()
    model, margin, gain, oracle = train(labels, args.variant, args.seed, args.epochs,
                                        hidden=args.hidden, log=True)
    report = TrainReport(len(labels), len(labels.values), labelled,
                         time.perf_counter() - start, margin, gain, oracle)
    print(f"held-out labels: gain {gain:+.3f} a decision over the rule bot's choice "
          f"(best candidate {oracle:+.3f}), margin {margin}; {report.seconds_train:.0f} s",
          flush=True)
    if args.out is not None:
        save(model, args.variant, margin, args.out,
             {"labels": args.labels, "seed": args.seed, "epochs": args.epochs,
              "parts": args.parts, "held_out_gain": gain, "held_out_oracle": oracle})
    return report


if __name__ == "__main__":
    main()
