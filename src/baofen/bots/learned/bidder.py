"""The learned bidder (学习叫分): the learned player's bids, computed without numpy or torch.

The learned player (:mod:`baofen.env.neural`, the ``research`` extra) scores every candidate of a
decision with a Q network trained by self-play. Its bids are the part of it that plays better
than the rule bot, and the search bot can bid with them (``bidder="learned"``). This module reads
the same network from the package's weights file (:data:`WEIGHTS_DIR`, one file a game:
``baofen.qnet``) and computes its bids in plain Python: a bid's observation holds a few dozen
non-zero inputs, so the first layer is a sum of that many columns, and the state's layers are
shared by all the candidate bids.

The file (:func:`read_weights`, :func:`write_weights`) is of
:mod:`baofen.bots.learned.network_file`'s format; its header holds the rule set the network was
trained for, the encoding's layout (names and sizes of :mod:`baofen.env.encoding`'s pieces, so the
inputs are placed from the file, not from a copy of that layout), its phases, the result scale and
the training notes. ``python -m baofen.env.neural export`` writes it from a trained network; the
learned player reads it as its default weights.

A bid's inputs are those of :mod:`baofen.env.encoding` for a bidding observation (the pieces
that can be non-zero then: own cards, the phase, the bids spoken, the first bidder, the hand
sizes and the failed-throw penalties), and each candidate's those of
:func:`baofen.env.candidates.action_features`; tests/test_learned_bidder.py checks both, and the
Q values and bids, against the research code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from ...cards import KINDS
from ...observation import Observation
from ...ruleset import RuleSet
from ..rule.bot import RuleBot
from .network_file import (
    WEIGHTS_DIR,
    Network,
    accumulate,
    active,
    read_network,
    write_network,
)

MAGIC = b"baofen-qnet 1\n"
"""First line of a weights file (the format and its version)."""

LAYERS = ("state.0", "state.2", "head.0", "head.2")
"""The network's linear layers in order (as :class:`baofen.env.neural.QNet` names them):
state → 2·hidden → hidden; (hidden + candidate features) → hidden → 1; ReLU between."""


@dataclass(frozen=True)
class QWeights(Network):
    """A Q network as read from a weights file
    (:class:`~baofen.bots.learned.network_file.Network`)."""

    @cached_property
    def rules(self) -> RuleSet:
        """The rule set the network was trained for."""
        return RuleSet.from_dict(self.header["rules"])

    @cached_property
    def offsets(self) -> dict[str, int]:
        """Where each of the encoding's pieces begins in the state's inputs."""
        out, at = {}, 0
        for name, size in self.header["layout"]:
            out[name] = at
            at += size
        return out

    def offset(self, piece: str) -> int:
        """Where the encoding's piece ``piece`` begins in the state's inputs."""
        if piece not in self.offsets:
            raise ValueError(f"the network's encoding has no piece {piece!r}")
        return self.offsets[piece]

    def serves(self, rules: RuleSet) -> bool:
        """Whether the network can bid under ``rules``: the game it was trained for, with the
        same bid grid (the inputs name the grid's values)."""
        trained = self.rules
        return trained.variant == rules.variant and trained.bid_grid() == rules.bid_grid()


def write_weights(path: Path, header: dict[str, Any],
                  layers: dict[str, tuple[list[list[float]], list[float]]]) -> None:
    """Write a weights file: ``layers`` maps each of :data:`LAYERS` to its weight matrix (rows
    are outputs, as torch stores it) and bias; ``header`` holds ``rules``, ``layout``,
    ``phases``, ``scale`` and ``meta``."""
    write_network(path, MAGIC, header, {name: layers[name] for name in LAYERS})


@cache
def read_weights(path: Path) -> QWeights:
    """The network in the weights file at ``path`` (read once per process)."""
    network = read_network(path, MAGIC)
    if [name for name, _, _ in network.header["layers"]] != list(LAYERS):
        raise ValueError(f"{path}: the layers do not match the header")
    return QWeights(network.header, network.columns, network.biases)


def default_weights(variant: str) -> Path:
    """The package's weights file for ``variant`` (it may not exist: none for 包红五 yet)."""
    return WEIGHTS_DIR / f"{variant}.qnet"


class LearnedBidder:
    """Bids as the learned player does: the candidate bid of highest Q (the rule bot's own bid
    is the first candidate, kept on a tie and favoured by the training notes' ``margin``).
    ``weights``: a weights file (default: the package's for the game being played). Use
    :meth:`serves` first: a game without weights, or a bid grid the network was not trained on,
    is not this bidder's to bid."""

    def __init__(self, weights: str | Path | None = None) -> None:
        self.weights = None if weights is None else Path(weights)
        self.advisor = RuleBot()
        self.networks: dict[RuleSet, QWeights | None] = {}
        """The network found for each rule set asked about (looked up once)."""

    def network(self, rules: RuleSet) -> QWeights | None:
        """The network that bids under ``rules``, or ``None``."""
        if rules not in self.networks:
            path = self.weights or default_weights(rules.variant)
            network = None if self.weights is None and not path.exists() else read_weights(path)
            served = network is not None and network.serves(rules)
            self.networks[rules] = network if served else None
        return self.networks[rules]

    def serves(self, rules: RuleSet) -> bool:
        """Whether this bidder bids under ``rules``."""
        return self.network(rules) is not None

    def bid(self, obs: Observation) -> int | None:
        """The bid (``None``: pass) for the observing seat."""
        network = self.network(obs.rules)
        if network is None:
            raise ValueError(f"the learned bidder has no network for these {obs.rules.variant} "
                             "rules (check serves() first)")
        advised = self.advisor.bid(obs)
        legal = obs.legal_bids()
        if len(legal) <= 1:
            return advised
        # The learned player's candidates: the rule bot's bid first, then pass and the rest.
        options = sorted(legal, key=lambda v: (v != advised, v or 0))
        values = self.values(network, obs, options)
        values[0] += float(network.header["meta"].get("margin", 0.0))
        best = max(range(len(options)), key=lambda i: (values[i], -i))
        return options[best]

    def values(self, network: QWeights, obs: Observation,
               options: list[int | None]) -> list[float]:
        """The network's Q of each of ``options`` (bids in the learned player's candidate
        order: rank ``i`` is ``options[i]``), in its scaled unit."""
        state = accumulate(network.biases["state.0"], network.columns["state.0"],
                            bidding_inputs(network, obs))
        state = accumulate(network.biases["state.2"], network.columns["state.2"],
                            active(state))
        head = network.columns["head.0"]
        shared = accumulate(network.biases["head.0"], head, active(state))
        hidden = len(state)
        grid = obs.rules.bid_grid()
        out_weights = network.columns["head.2"]
        out_bias = network.biases["head.2"][0]
        size = len(head) - hidden
        values = []
        for rank, value in enumerate(options):
            slot = len(grid) if value is None else grid.index(value)
            features = [(KINDS, 1.0), (KINDS + 3 + slot, 1.0),
                        (size - 2, 1.0 if rank == 0 else 0.0), (size - 1, 1.0 / (1 + rank))]
            layer = accumulate(shared, head, [(hidden + i, v) for i, v in features if v])
            values.append(out_bias + sum(column[0] * v for column, v in
                                         zip(out_weights, layer, strict=True) if v > 0.0))
        return values


def bidding_inputs(network: QWeights, obs: Observation) -> list[tuple[int, float]]:
    """The non-zero inputs of the encoding of a bidding observation, as ``(index, value)``."""
    me = obs.seat
    if me is None or obs.phase != "bidding":
        raise ValueError("the learned bidder encodes a seat's observation while bidding")
    grid = obs.rules.bid_grid()
    counts: dict[int, float] = {}
    hand = network.offset("hand")
    for card in obs.hand:
        counts[hand + card] = counts.get(hand + card, 0.0) + 1.0
    inputs = list(counts.items())
    inputs.append((network.offset("phase") + network.header["phases"].index("bidding"), 1.0))
    spoken: dict[int, int | None] = dict(obs.bids)
    bids = network.offset("bids")
    for seat in range(4):
        base = bids + (seat - me) % 4 * (2 + len(grid))
        if seat not in spoken:
            inputs.append((base, 1.0))
        else:
            said = spoken[seat]
            inputs.append((base + 1 if said is None else base + 2 + grid.index(said), 1.0))
    inputs.append((network.offset("first") + (obs.first - me) % 4, 1.0))
    sizes = network.offset("sizes")
    penalties = network.offset("penalties")
    for seat in range(4):
        rel = (seat - me) % 4
        inputs.append((sizes + rel, obs.hand_sizes[seat] / 25))
        inputs.append((penalties + rel, min(2.0, obs.penalties[seat] / 100)))
    return [(index, value) for index, value in inputs if value]
