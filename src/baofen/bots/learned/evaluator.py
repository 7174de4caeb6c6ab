"""The learned evaluator (学习评估) in plain Python: its pick among a play decision's candidates,
without numpy or torch, for the search levels.

The evaluator (:mod:`baofen.env.evaluator`, the ``research`` extra) is a small network trained on
perfect-information labels that scores each candidate of a play decision by its advantage over
the rule bot's choice. 大师 takes its pick as the search's baseline (:mod:`baofen.bots.search.bot`,
``prior="evaluator"``). This module reads the network from the package's weights file
(:func:`default_weights`, the format of :mod:`baofen.bots.learned.network_file`; written by
``python -m baofen.env.evaluator --export``) and scores the candidates row by row: a row's
inputs are a few hundred card counts and flags of several hundred, so the first layer is a sum
of that many columns.

What is encoded: the decision's record (:func:`record`, what the seat sees, as the native
labeller writes it), and for each candidate its trump-canonical row (:func:`row_inputs`, the
features of :mod:`baofen.env.canonical`, whose module docstring describes them); the header
carries the suit fingerprint's fixed weights, so the suits are ordered as in training.
tests/test_learned_evaluator.py checks the rows, scores and picks against the research code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from ...cards import KINDS, POINTS, SUITS, Card
from ...observation import Observation
from ...ruleset import RuleSet
from ..rule.bot import RuleBot
from ..rule.follows import wide_follows
from ..rule.shared import TrickTally, tally_plays
from .network_file import WEIGHTS_DIR, Network, accumulate, active, read_network

MAGIC = b"baofen-evaluator 1\n"
"""First line of an evaluator weights file (the format and its version)."""

LAYERS = ("layers.0", "layers.2", "layers.4")
"""The network's linear layers in order (as :class:`baofen.env.evaluator.EvaluatorNet` names
them): row → hidden → hidden → 1, ReLU between."""

LIMIT = 12
"""The rule bot's candidates considered (labels.cpp's ``limit``)."""

WIDE = 16
"""A follow's candidates are widened to this many (labels.cpp's ``wide``)."""

STATE_FIELDS = 19
"""Fields of a decision's record (labels.cpp): the hand's index, the seat, the declarer, the
trump suit, the trick's leader, tricks finished, the declarer's captured points, the target, the
lead's group (-1: leading), candidates' count and first row, void masks and cards held of the
four seats (absolute)."""

PLANES = 6
"""54-count planes of a record: own cards, cards played (the current trick's too), the current
trick's cards of the 1st, 2nd and 3rd seat after the deciding one, the buried cards (declarer)."""

(HAND_INDEX, SEAT, DECLARER, TRUMP_SUIT, LEADER, TRICKS, CAPTURED, TARGET, LEAD_GROUP, OPTIONS,
 FIRST_ROW) = range(11)
VOIDS = 11
SIZES = 15

CARD_CHANNELS = 9
"""Card-count planes of a row: own cards, cards played, the trick's cards of seats 1–3 after
the deciding one, the buried cards, cards unseen, the candidate's cards, own cards after it."""

RANK_SLOTS = 6
"""The candidate's rank in the rule bot's list: 0, 1, 2, 3, 4 or more, a wide follow."""

GLOBAL_SIZE = 4 + 4 + 4 + 5 + 16 + 4 + 7 + 3 + RANK_SLOTS + 3
"""Length of a row's part after the card planes."""

ROW_SIZE = CARD_CHANNELS * KINDS + GLOBAL_SIZE
"""Length of a row."""

PARTNER = (2, 3, 0, 1)
"""The same-colour suit of each suit S H C D."""


def default_weights(variant: str) -> Path:
    """The package's evaluator for ``variant`` (it may not exist: none for 包红五)."""
    return WEIGHTS_DIR / f"evaluator-{variant}.enet"


@cache
def read_weights(path: Path) -> Network:
    """The evaluator in the weights file at ``path`` (read once per process)."""
    network = read_network(path, MAGIC)
    if [name for name, _, _ in network.header["layers"]] != list(LAYERS):
        raise ValueError(f"{path}: the layers do not match the header")
    return network


def candidates_of(obs: Observation, rule: RuleBot, own: list[tuple[Card, ...]] | None = None
                  ) -> tuple[list[tuple[Card, ...]], list[int]]:
    """A play decision's candidates (the rule bot's best :data:`LIMIT`, a follow widened to
    :data:`WIDE`) and their ranks in the rule bot's list (-1: a wide follow); ``own``: the rule
    bot's list, where the caller has it already."""
    plays = rule.play_candidates(obs, LIMIT) if own is None else list(own)
    ranks = list(range(len(plays)))
    if obs.lead_shape is not None and len(plays) < WIDE:
        seen = {tuple(sorted(p)) for p in plays}
        for play in wide_follows(obs, rule, WIDE + LIMIT):
            key = tuple(sorted(play))
            if key not in seen and len(plays) < WIDE:
                seen.add(key)
                plays.append(play)
                ranks.append(-1)
    return plays, ranks


def record(obs: Observation, tally: TrickTally | None = None
           ) -> tuple[list[int], list[list[int]]]:
    """The record (state fields, planes) of the observing seat's play decision, as labels.cpp
    writes it (the hand index and candidate fields 0)."""
    seat = obs.seat
    judge = obs.judge
    if seat is None or judge is None or obs.phase != "playing" or obs.trump is None:
        raise ValueError("a record is of a seat's play decision")
    done, shown, _ = (tally or TrickTally()).after(judge, obs.tricks)
    played = list(done)
    voids = list(shown)
    tally_plays(judge, obs.current_trick, played, voids)
    state = [0] * STATE_FIELDS
    state[SEAT] = seat
    state[DECLARER] = -1 if obs.declarer is None else obs.declarer
    state[TRUMP_SUIT] = SUITS.index(obs.trump)
    state[LEADER] = -1 if obs.leader is None else obs.leader
    state[TRICKS] = len(obs.tricks)
    state[CAPTURED] = obs.declarer_points
    state[TARGET] = obs.target or 0
    state[LEAD_GROUP] = -1 if obs.lead_shape is None else obs.lead_shape.group
    state[VOIDS:VOIDS + 4] = voids
    state[SIZES:SIZES + 4] = obs.hand_sizes
    planes = [[0] * KINDS for _ in range(PLANES)]
    for card in obs.hand:
        planes[0][card] += 1
    planes[1] = played
    for who, cards in obs.current_trick:
        rel = (who - seat) % 4
        if rel:
            for card in cards:
                planes[1 + rel][card] += 1
    if seat == obs.declarer and obs.buried is not None:
        for card in obs.buried:
            planes[5][card] += 1
    return state, planes


def row_inputs(hongwu: bool, state: list[int], planes: list[list[int]], cards: list[int],
               rank: int, fingerprint: list[list[int]], void_fingerprint: list[int]
               ) -> list[tuple[int, float]]:
    """The non-zero entries ``(index, value)`` of one candidate's row: ``cards`` its 54 counts,
    ``rank`` its rank in the rule bot's list (-1: a wide follow), ``fingerprint`` [9][13] and
    ``void_fingerprint`` [4] the suit fingerprint's fixed weights (the weights file's)."""
    hand = planes[0]
    unseen = [min(2, max(0, 2 - hand[k] - planes[1][k] - planes[5][k])) for k in range(KINDS)]
    channels = [hand, planes[1], planes[2], planes[3], planes[4], planes[5], unseen, cards,
                [h - c for h, c in zip(hand, cards, strict=True)]]
    seat = state[SEAT]
    trump = state[TRUMP_SUIT]
    voids = [state[VOIDS + (seat + rel) % 4] for rel in range(4)]
    # The plain suits' order: class, then own cards in the suit (more first), then fingerprint.
    keys = []
    for suit in range(4):
        base = suit * 13
        held = sum(hand[base:base + 13])
        mark = sum(weight * channel[base + r]
                   for weights, channel in zip(fingerprint, channels, strict=True)
                   for r, weight in enumerate(weights) if channel[base + r])
        mark += sum(void_fingerprint[rel] for rel in range(4) if voids[rel] >> suit & 1)
        if hongwu:
            kind = 0 if suit == PARTNER[trump] else 1 if suit == 1 else 2 if suit == 3 else 3
        else:
            kind = 0
        keys.append(-1 if suit == trump else (kind * 64 + (32 - held)) * (1 << 40) + mark)
    order = sorted(range(4), key=lambda s: (keys[s], s))  # the old suit at each new place
    place = [0] * 4
    for new, old in enumerate(order):
        place[old] = new
    out: list[tuple[int, float]] = []
    for c, channel in enumerate(channels):
        offset = c * KINDS
        for new, old in enumerate(order):
            for r in range(13):
                value = channel[old * 13 + r]
                if value:
                    out.append((offset + new * 13 + r, float(value)))
        for k in (52, 53):
            if channel[k]:
                out.append((offset + k, float(channel[k])))
    g = CARD_CHANNELS * KINDS
    flags: dict[int, float] = {}
    declarer, leader, lead = state[DECLARER], state[LEADER], state[LEAD_GROUP]
    flags[g + (declarer - seat) % 4] = 1.0
    flags[g + 4 + (leader - seat) % 4] = 1.0
    flags[g + 8 + (seat - leader) % 4] = 1.0
    group_place = [*place, 0]  # canonical groups: trump 0, plain suits their new place
    flags[g + 12 + (4 if lead < 0 else group_place[min(lead, 4)])] = 1.0
    for rel in range(4):
        for group in range(5):
            if voids[rel] >> group & 1:
                flags[g + 17 + rel * 4 + group_place[group]] = 1.0
    for rel in range(4):
        flags[g + 33 + rel] = state[SIZES + (seat + rel) % 4] / 25.0
    captured, target = state[CAPTURED], state[TARGET]
    flags[g + 37] = state[TRICKS] / 25.0
    flags[g + 38] = captured / 100.0
    flags[g + 39] = target / 100.0
    flags[g + 40] = (captured - target) / 100.0
    flags[g + 41] = sum((planes[2][k] + planes[3][k] + planes[4][k]) * POINTS[k]
                        for k in range(KINDS)) / 100.0
    flags[g + 42] = sum(unseen[k] * POINTS[k] for k in range(KINDS)) / 100.0
    flags[g + 43] = sum(hand[k] * POINTS[k] for k in range(KINDS)) / 100.0
    if hongwu:
        flags[g + 44 + (1 if trump == 1 else 2 if trump == 3 else 0)] = 1.0
    flags[g + 47 + (RANK_SLOTS - 1 if rank < 0 else min(rank, RANK_SLOTS - 2))] = 1.0
    flags[g + 47 + RANK_SLOTS] = sum(cards) / 8.0
    flags[g + 48 + RANK_SLOTS] = sum(cards[k] * POINTS[k] for k in range(KINDS)) / 20.0
    flags[g + 49 + RANK_SLOTS] = state[OPTIONS] / 16.0
    out += [(index, value) for index, value in sorted(flags.items()) if value]
    return out


class LearnedEvaluator:
    """Picks a play decision's candidate as the learned evaluator does: the candidate of highest
    predicted advantage, the rule bot's choice kept unless another is predicted the weights'
    ``margin`` better. ``weights``: a weights file (default: the package's for the game being
    played). Use :meth:`serves` first: a game without weights is not this evaluator's."""

    def __init__(self, weights: str | Path | None = None) -> None:
        self.weights = None if weights is None else Path(weights)
        self.rule = RuleBot()
        self.tally = TrickTally()
        self.networks: dict[str, Network | None] = {}
        """The network found for each game asked about (looked up once)."""

    def network(self, rules: RuleSet) -> Network | None:
        """The network that plays ``rules``' game, or ``None``."""
        variant = rules.variant
        if variant not in self.networks:
            path = self.weights or default_weights(variant)
            network = None if self.weights is None and not path.exists() else read_weights(path)
            served = network is not None and network.header["variant"] == variant
            self.networks[variant] = network if served else None
        return self.networks[variant]

    def serves(self, rules: RuleSet) -> bool:
        """Whether this evaluator plays under ``rules``."""
        return self.network(rules) is not None

    def scores(self, obs: Observation, plays: list[tuple[Card, ...]], ranks: list[int]
               ) -> list[float]:
        """The predicted scaled advantage of each of ``plays`` (ranks as :func:`candidates_of`)."""
        network = self.network(obs.rules)
        if network is None:
            raise ValueError(f"the learned evaluator has no network for {obs.rules.variant} "
                             "(check serves() first)")
        state, planes = record(obs, self.tally)
        state[OPTIONS] = len(plays)
        header = network.header
        hongwu = obs.rules.variant == "hongwu"
        columns, biases = network.columns, network.biases
        first, second, last = LAYERS
        out = []
        for play, rank in zip(plays, ranks, strict=True):
            cards = [0] * KINDS
            for card in play:
                cards[card] += 1
            inputs = row_inputs(hongwu, state, planes, cards, rank, header["fingerprint"],
                                header["void_fingerprint"])
            hidden = accumulate(biases[first], columns[first], inputs)
            hidden = accumulate(biases[second], columns[second], active(hidden))
            out.append(accumulate(biases[last], columns[last], active(hidden))[0])
        return out

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The candidate of highest predicted advantage (:func:`pick`, with the weights'
        margin)."""
        network = self.network(obs.rules)
        assert network is not None
        return pick(obs, self.rule, self.scores, float(network.header["margin"]))


def pick(obs: Observation, rule: RuleBot,
         scores: Callable[[Observation, list[tuple[Card, ...]], list[int]], Iterable[float]],
         margin: float) -> tuple[Card, ...]:
    """The candidate of highest predicted advantage by ``scores`` (the rule bot's choice kept
    unless another is predicted ``margin`` better, the first on a tie); the rule bot's choice
    where it has no other candidate (the labels keep no such decision: an evaluator has not
    learned them)."""
    own = rule.play_candidates(obs, LIMIT)
    if len(own) == 1:
        return own[0]
    plays, ranks = candidates_of(obs, rule, own)
    values = [float(value) for value in scores(obs, plays, ranks)]
    values[0] += margin
    return plays[max(range(len(plays)), key=lambda i: (values[i], -i))]
