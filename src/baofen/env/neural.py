"""The learned player: a Q network over candidate actions (Deep Monte-Carlo), and its bot.

Importing this module registers the player with the bots' registry
(:func:`baofen.bots.register_bot`): then ``make_bot("neural", weights=PATH)`` plays with weights
saved by :mod:`baofen.env.train`; with no ``weights``, the network shipped in the package for
the game (``baofen/bots/weights/``, the format of :mod:`baofen.bots.learned.bidder`, which bids
with it in the search levels without torch). ``python -m baofen.env.neural export TRAINED OUT``
writes a trained network in that format.
The network scores ``Q(state, candidate)`` — the expected result of the hand for the seat, in
the game's unit divided by the weights' ``scale`` — for every candidate of
:mod:`baofen.env.candidates`, and the bot plays the best (or, with ``epsilon``, a random one).

Where the package ships a learned evaluator for the game (:mod:`baofen.env.evaluator`, trained
on perfect-information labels), the player's card plays are the evaluator's: it plays better
than the Q network (docs/benchmarks.md). Where an evaluator plays and there is no Q
network for the game (包红五: none ships), the rule bot bids and buries.
"""

from __future__ import annotations

import argparse
import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..actions import Action, Play
from ..bots import register_bot
from ..bots.learned import bidder as learned_bidder
from ..bots.rule.bot import RuleBot
from ..observation import Observation
from ..ruleset import RuleSet
from .candidates import Candidate, candidates, feature_size, stack
from .encoding import PHASES as ENCODED_PHASES
from .encoding import Encoder, layout, size_of
from .evaluator import Evaluator

FORMAT = 1
"""Version of the weights file layout."""

SCALES = {"baofen": 100.0, "hongwu": 10.0}
"""Returns are divided by this before training (包分 score points, 包红五 levels)."""


class QNet(nn.Module):
    """``Q(state, action)``: the state through two layers, then with each action's features
    through two more."""

    def __init__(self, state_size: int, action_size: int, hidden: int = 256) -> None:
        super().__init__()
        self.sizes = (state_size, action_size, hidden)
        self.state = nn.Sequential(
            nn.Linear(state_size, 2 * hidden), nn.ReLU(),
            nn.Linear(2 * hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Sequential(
            nn.Linear(hidden + action_size, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, states: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Q of each row: ``states`` ``[B, S]`` (or one state ``[S]`` for all rows) and
        ``actions`` ``[B, A]``; returns ``[B]``."""
        embedded = self.state(states)
        if embedded.dim() == 1:
            embedded = embedded.expand(actions.shape[0], -1)
        out: torch.Tensor = self.head(torch.cat([embedded, actions], dim=1)).squeeze(1)
        return out


def new_model(rules: RuleSet, hidden: int = 256) -> QNet:
    """An untrained network for ``rules``."""
    return QNet(size_of(rules), feature_size(rules), hidden)


def save(model: QNet, rules: RuleSet, path: Path, meta: dict[str, Any] | None = None) -> None:
    """Save ``model`` for ``rules`` (with training notes ``meta``) to ``path``."""
    state_size, action_size, hidden = model.sizes
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({
        "format": FORMAT,
        "rules": rules.to_dict(),
        "sizes": [state_size, action_size, hidden],
        "scale": SCALES[rules.variant],
        "model": model.state_dict(),
        "meta": meta or {},
    }, path)


@cache
def load(path: str) -> tuple[QNet, RuleSet, float, dict[str, Any]]:
    """The network saved at ``path`` (by :func:`save`, or a ``.qnet`` file of :func:`export`)
    with its rule set, return scale and training notes (loaded once per process)."""
    if path.endswith(".qnet"):
        return _load_exported(Path(path))
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ValueError(f"no weights at {path}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not a weights file of this version ({FORMAT})")
    rules = RuleSet.from_dict(data["rules"])
    model = QNet(*data["sizes"])
    model.load_state_dict(data["model"])
    model.eval()
    return model, rules, float(data["scale"]), dict(data["meta"])


def _load_exported(path: Path) -> tuple[QNet, RuleSet, float, dict[str, Any]]:
    network = learned_bidder.read_weights(path)
    header = network.header
    model = QNet(*header["sizes"])
    state = {}
    for name in learned_bidder.LAYERS:
        state[f"{name}.weight"] = torch.tensor(network.columns[name]).T.contiguous()
        state[f"{name}.bias"] = torch.tensor(network.biases[name])
    model.load_state_dict(state)
    model.eval()
    return model, network.rules, float(header["scale"]), dict(header["meta"])


def export(trained: Path, out: Path) -> None:
    """Write the network saved at ``trained`` (by :mod:`baofen.env.train`) as a ``.qnet`` file
    (:mod:`baofen.bots.learned.bidder`), the format the package ships."""
    model, rules, scale, meta = load(str(trained))
    state = model.state_dict()
    layers = {name: (state[f"{name}.weight"].tolist(), state[f"{name}.bias"].tolist())
              for name in learned_bidder.LAYERS}
    header = {
        "format": FORMAT,
        "rules": rules.to_dict(),
        "sizes": list(model.sizes),
        "scale": scale,
        "meta": meta,
        "layout": [[name, size] for name, size, _ in layout(rules)],
        "phases": list(ENCODED_PHASES),
    }
    learned_bidder.write_weights(out, header, layers)


def default_weights(variant: str) -> Path:
    """The package's weights for ``variant``."""
    return learned_bidder.default_weights(variant)


def default_evaluator(variant: str) -> Path:
    """The package's learned evaluator for ``variant`` (it may not ship for every game)."""
    return Path(__file__).parent / "weights" / f"evaluator-{variant}.pt"


class NeuralBot:
    """Plays the candidate of highest Q; with probability ``epsilon`` a random candidate.

    ``weights``: a weights file (default: the package's for the game being played).
    ``trust``: the decisions the network makes, phases joined by ``+`` (``"bidding"``,
    ``"bidding+kitty+playing"``); in the others the bot plays the rule bot's choice.
    ``margin``: leave the rule bot's choice only for a candidate the network values at least
    this much higher (in the weights' scaled unit: 包分 100 points, 包红五 10 levels).
    By default both are what the weights file recommends (its ``meta``), else every phase and 0.
    ``evaluator``: the learned evaluator that makes the card plays (a weights file of
    :mod:`baofen.env.evaluator`, or ``"none"``). By default the package's player plays the
    package's evaluator where one ships for the game; with ``weights`` or ``model`` of its own,
    or ``trust`` naming ``playing``, the cards are the Q network's (by ``trust``) unless an
    evaluator is named. Naming both an evaluator and ``trust`` with ``playing`` is refused.
    Without a Q network for the game (none given, none ships) the rule bot bids and buries
    where an evaluator plays the cards; with neither, the player says what is missing.
    ``epsilon`` explores the Q network's decisions only (never an evaluator's card play).
    """

    def __init__(
        self,
        seed: int | None = None,
        weights: str | Path | None = None,
        epsilon: float = 0.0,
        margin: float | None = None,
        trust: str | None = None,
        model: QNet | None = None,
        evaluator: str | Path | None = None,
    ) -> None:
        self.trust = None if trust is None else _phases(trust)
        network_plays = self.trust is not None and "playing" in self.trust
        if network_plays and evaluator not in (None, "none"):
            raise ValueError(
                f"trust={trust} gives the card plays to the Q network and evaluator={evaluator} "
                "to the evaluator: choose one"
            )
        self.rng = random.Random(seed)
        self.weights = None if weights is None else str(weights)
        self.epsilon = float(epsilon)
        self.margin = margin
        self.model = model
        self.advisor = RuleBot()
        self.encoder: Encoder | None = None
        self.evaluator_path = None if evaluator is None else str(evaluator)
        self.shipped_evaluator = (evaluator is None and weights is None and model is None
                                  and not network_plays)
        """Whether the package's evaluator plays the cards (where one ships for the game)."""
        self.evaluators: dict[str, Evaluator | None] = {}
        torch.set_num_threads(1)

    def act(self, observation: Observation) -> Action:
        """The evaluator's card play, else the best candidate by the network."""
        if observation.phase == "playing":
            evaluator = self._evaluator(observation.rules)
            if evaluator is not None:
                return Play.of(evaluator.play(observation))
        elif self._rule_decides(observation.rules):
            return self.advisor.act(observation)
        options = candidates(observation, self.advisor, self.rng)
        if len(options) == 1 or (self.epsilon and self.rng.random() < self.epsilon):
            return options[int(self.rng.random() * len(options))].action
        self._model(observation.rules)  # loads the weights, with their recommended settings
        if observation.phase not in (self.trust or PHASES):
            return options[0].action
        values = self.values(observation, options)
        values[0] += self.margin or 0.0  # options[0] is the rule bot's own choice
        return options[int(np.argmax(values))].action

    def values(self, observation: Observation, options: list[Candidate]) -> np.ndarray[Any, Any]:
        """The network's Q of each candidate."""
        model = self._model(observation.rules)
        encoder = self.encoder
        if encoder is None or encoder.rules != observation.rules:
            encoder = self.encoder = Encoder(observation.rules)
        state = torch.from_numpy(encoder.encode(observation))
        actions = torch.from_numpy(stack(observation.rules, options))
        with torch.inference_mode():
            values: np.ndarray[Any, Any] = model(state, actions).numpy()
        return values

    def _model(self, rules: RuleSet) -> QNet:
        if self.model is not None:
            return self.model
        path = self.weights or str(default_weights(rules.variant))
        if self.weights is None and not Path(path).exists():
            raise ValueError(
                f"no weights ship for {rules.variant}: give weights=PATH "
                "(train them with python -m baofen.env.train)"
            )
        model, trained, _, meta = load(path)
        if trained.variant != rules.variant or size_of(trained) != size_of(rules):
            raise ValueError(
                f"the weights {path} were trained for {trained.variant} with other settings; "
                f"this hand is {rules.variant}"
            )
        self.model = model
        if self.margin is None:
            self.margin = float(meta.get("margin", 0.0))
        if self.trust is None:
            self.trust = _phases(str(meta.get("trust", "+".join(PHASES))))
        return model

    def _rule_decides(self, rules: RuleSet) -> bool:
        """Whether the rule bot bids and buries: an evaluator plays the cards and there is no
        Q network for the game (none given, none ships: 包红五)."""
        return (self.weights is None and self.model is None
                and not default_weights(rules.variant).exists()
                and self._evaluator(rules) is not None)

    def _evaluator(self, rules: RuleSet) -> Evaluator | None:
        """The evaluator that plays the cards in ``rules``' game (None: the Q network, by
        ``trust``, or the rule bot)."""
        variant = rules.variant
        if variant not in self.evaluators:
            path = self.evaluator_path
            shipped = default_evaluator(variant)
            if self.shipped_evaluator and shipped.exists():
                path = str(shipped)
            elif path == "none":
                path = None
            self.evaluators[variant] = None if path is None else Evaluator(path)
        return self.evaluators[variant]


PHASES = ("bidding", "kitty", "playing")
"""The decisions a network may be trusted with."""


def _phases(trust: str) -> frozenset[str]:
    phases = frozenset(p.strip() for p in trust.split("+") if p.strip())
    unknown = phases - set(PHASES)
    if unknown or not phases:
        raise ValueError(
            f"trust names phases joined by '+', from {', '.join(PHASES)}; not {trust!r}"
        )
    return phases


register_bot("neural", NeuralBot)


def main() -> None:
    """``python -m baofen.env.neural export TRAINED OUT``."""
    parser = argparse.ArgumentParser(description="The learned player's weights files.")
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("export", help="write a trained network as a .qnet file")
    command.add_argument("trained", type=Path, help="a network saved by baofen.env.train")
    command.add_argument("out", type=Path, help="the .qnet file to write")
    args = parser.parse_args()
    export(args.trained, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
