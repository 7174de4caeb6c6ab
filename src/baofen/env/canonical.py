"""The learned evaluator's trump-canonical features of (decision, candidate) pairs.

A decision's record (:mod:`baofen.env.labels`) is written with its suits *renamed*: the trump
suit is always suit 0 and the three plain suits take places 1–3 in an order read from what the
seat sees (in 包红五, first by what makes a suit special: the trump's same-colour partner, whose
3 is a 参谋, then hearts, whose 5 is always trump, then diamonds; then, as in 包分, by the cards
the seat holds in it and a fingerprint of everything seen in it, the candidate's cards
included). Renaming the suits of a position — the trump with them, as 包分's rules and 包红五's
S↔C symmetry allow — so gives the same features (tests/test_evaluator.py). Seats are relative to
the deciding one (0 itself, 1 its next player …), groups canonical (0 trump, 1–3 the plain suits
in their new places).

A row (:data:`CARD_CHANNELS` × 54 canonical card counts, then :func:`global_size` others):
own cards, cards played, the current trick's cards of the seats 1–3 after the deciding one, the
buried cards (declarer), cards unseen (2 − held − played − buried), the candidate's cards, own
cards after it; then the declarer's and leader's relative seats, the place in the trick, the
lead's group, voids shown, cards held, tricks, points, the trump's colour (包红五), and the
candidate's rank in the rule bot's list, size and points.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..bots.learned.evaluator import (
    CAPTURED,
    CARD_CHANNELS,
    DECLARER,
    GLOBAL_SIZE,
    LEAD_GROUP,
    LEADER,
    OPTIONS,
    PARTNER,
    RANK_SLOTS,
    ROW_SIZE,
    SEAT,
    SIZES,
    TARGET,
    TRICKS,
    TRUMP_SUIT,
    VOIDS,
)
from ..cards import KINDS, POINTS

_POINTS = np.array(POINTS, dtype=np.float32)
FINGERPRINT = np.random.default_rng(20_281).integers(1, 1 << 20, size=(CARD_CHANNELS, 13),
                                               dtype=np.int64)
"""Fixed weights of a suit's fingerprint, a channel's rank by rank (equal contents, equal
fingerprints); the exported weights carry them (:mod:`baofen.bots.learned.evaluator`)."""
VOID_FINGERPRINT = np.random.default_rng(20_282).integers(1, 1 << 20, size=4, dtype=np.int64)
"""Fixed weights of a suit's fingerprint for each relative seat shown void in it."""


def global_size() -> int:
    """Length of a row's part after the card planes."""
    return GLOBAL_SIZE


def row_size() -> int:
    """Length of a row."""
    return ROW_SIZE


def _suit_classes(hongwu: bool, trump: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """[N, 4] class of each suit as a plain suit (its first sort key)."""
    n = len(trump)
    classes = np.zeros((n, 4), dtype=np.int64)
    if hongwu:
        classes[:] = 3
        classes[:, 1] = 1  # hearts: its 5 is trump
        classes[:, 3] = 2
        partner = np.array(PARTNER)[trump]
        classes[np.arange(n), partner] = 0
    return classes


def features(
    hongwu: bool,
    states: npt.NDArray[np.int32],
    planes: npt.NDArray[np.uint8],
    cards: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.int32],
) -> npt.NDArray[np.float32]:
    """Rows of features, one a candidate: ``states`` [N, 19] and ``planes`` [N, 6, 54] of each
    candidate's decision (repeated), ``cards`` [N, 54] its cards, ``ranks`` [N] its rank in
    the rule bot's list (-1: a wide follow)."""
    n = len(cards)
    p = planes.astype(np.int64)
    cand = cards.astype(np.int64)
    hand = p[:, 0]
    unseen = np.clip(2 - hand - p[:, 1] - p[:, 5], 0, 2)
    x = np.stack([hand, p[:, 1], p[:, 2], p[:, 3], p[:, 4], p[:, 5], unseen, cand, hand - cand],
                 axis=1)  # [N, 9, 54]
    seat = states[:, SEAT].astype(np.int64)
    trump = states[:, TRUMP_SUIT].astype(np.int64)
    rows = np.arange(n)
    # Void masks by relative seat: voids[:, rel] is the mask of seat (seat + rel) % 4.
    absolute = (seat[:, None] + np.arange(4)[None, :]) % 4
    voids = np.take_along_axis(states[:, VOIDS:VOIDS + 4].astype(np.int64), absolute, axis=1)
    # The plain suits' order: class, then own cards in the suit (more first), then fingerprint.
    suits = x[:, :, :52].reshape(n, CARD_CHANNELS, 4, 13)
    held = suits[:, 0].sum(axis=2)  # [N, 4]
    fingerprint = np.einsum("ncsr,cr->ns", suits, FINGERPRINT)
    void_bits = (voids[:, :, None] >> np.arange(4)[None, None, :]) & 1  # [N, rel, suit]
    fingerprint += np.einsum("nks,k->ns", void_bits, VOID_FINGERPRINT)
    key = (_suit_classes(hongwu, trump) * 64 + (32 - held)) * (1 << 40) + fingerprint
    key[rows, trump] = -1  # the trump suit first
    order = np.argsort(key, axis=1, kind="stable")  # [N, 4]: the old suit at each new place
    place = np.argsort(order, axis=1)  # the new place of each old suit
    index = np.empty((n, KINDS), dtype=np.int64)
    index[:, :52] = (order[:, :, None] * 13 + np.arange(13)[None, None, :]).reshape(n, 52)
    index[:, 52:] = [52, 53]
    canon = np.take_along_axis(x, np.broadcast_to(index[:, None, :], x.shape), axis=2)
    # Canonical groups: trump 0, plain suits their new place; group 4 (trump) maps to 0.
    group_map = np.concatenate([place, np.zeros((n, 1), dtype=np.int64)], axis=1)  # [N, 5]
    out = np.zeros((n, row_size()), dtype=np.float32)
    out[:, :CARD_CHANNELS * KINDS] = canon.reshape(n, -1)
    g = out[:, CARD_CHANNELS * KINDS:]
    declarer = states[:, DECLARER].astype(np.int64)
    leader = states[:, LEADER].astype(np.int64)
    g[rows, (declarer - seat) % 4] = 1.0
    g[rows, 4 + (leader - seat) % 4] = 1.0
    g[rows, 8 + (seat - leader) % 4] = 1.0
    lead = states[:, LEAD_GROUP].astype(np.int64)
    leading = lead < 0
    lead_canon = np.where(leading, 4, np.take_along_axis(
        group_map, np.clip(lead, 0, 4)[:, None], axis=1)[:, 0])
    g[rows, 12 + lead_canon] = 1.0
    for group in range(5):
        bit = (voids >> group) & 1  # [N, rel]
        target = 17 + np.arange(4)[None, :] * 4 + group_map[:, group:group + 1]
        np.maximum.at(g, (rows[:, None].repeat(4, axis=1), target), bit.astype(np.float32))
    sizes = np.take_along_axis(states[:, SIZES:SIZES + 4].astype(np.int64), absolute, axis=1)
    g[:, 33:37] = sizes / 25.0
    captured = states[:, CAPTURED].astype(np.float32)
    target_points = states[:, TARGET].astype(np.float32)
    trick_points = (p[:, 2:5].sum(axis=1) @ _POINTS).astype(np.float32)
    g[:, 37] = states[:, TRICKS] / 25.0
    g[:, 38] = captured / 100.0
    g[:, 39] = target_points / 100.0
    g[:, 40] = (captured - target_points) / 100.0
    g[:, 41] = trick_points / 100.0
    g[:, 42] = (unseen @ _POINTS) / 100.0
    g[:, 43] = (hand @ _POINTS) / 100.0
    if hongwu:
        colour = np.where(trump == 1, 1, np.where(trump == 3, 2, 0))
        g[rows, 44 + colour] = 1.0
    slot = np.where(ranks < 0, RANK_SLOTS - 1, np.minimum(ranks, RANK_SLOTS - 2))
    g[rows, 47 + slot] = 1.0
    g[:, 47 + RANK_SLOTS] = cand.sum(axis=1) / 8.0
    g[:, 48 + RANK_SLOTS] = (cand @ _POINTS) / 20.0
    g[:, 49 + RANK_SLOTS] = states[:, OPTIONS] / 16.0
    return out
