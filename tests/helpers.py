"""Helpers for building exact situations in tests."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from baofen import Card, Hand, Match, RuleSet, full_pack, parse_cards


def deal(
    fixed: Sequence[str] = ("", "", "", ""),
    kitty: str = "",
    seed: int = 0,
) -> tuple[list[list[Card]], list[Card]]:
    """A full legal deal in which seat ``i`` holds the cards of ``fixed[i]`` (and the kitty the
    cards of ``kitty``); every other card is dealt at random from ``seed``."""
    rest = full_pack()
    wanted = [parse_cards(text) for text in fixed] + [parse_cards(kitty)]
    for cards in wanted:
        for card in cards:
            rest.remove(card)
    random.Random(seed).shuffle(rest)
    sizes = [25, 25, 25, 25, 8]
    out = []
    for cards, size in zip(wanted, sizes, strict=True):
        need = size - len(cards)
        out.append(cards + rest[:need])
        rest = rest[need:]
    return out[:4], out[4]


def hand_with(
    rules: RuleSet,
    fixed: Sequence[str] = ("", "", "", ""),
    kitty: str = "",
    first: int = 0,
    seed: int = 0,
) -> Hand:
    """A :class:`Hand` dealt by :func:`deal`."""
    hands, kitty_cards = deal(fixed, kitty, seed)
    return Hand(rules, hands=hands, kitty=kitty_cards, first=first)


def declare_by(hand: Hand, seat: int, bid: int, trump: str, bury: str | None = None) -> None:
    """Bidding in which ``seat`` bids ``bid`` and everyone else passes; then ``seat`` names
    ``trump`` and buries ``bury`` (default: the kitty it was dealt)."""
    while hand.phase == "bidding":
        actor = hand.to_act
        assert actor is not None
        hand.bid(actor, bid if actor == seat else None)
    assert hand.declarer == seat
    buried = parse_cards(bury) if bury is not None else list(hand.kitty)
    hand.declare(seat, trump, buried)


def pass_all(match: Match) -> None:
    """Everyone passes in the current hand of ``match``."""
    hand = match.hand
    while hand.phase == "bidding":
        seat = hand.to_act
        assert seat is not None
        hand.bid(seat, None)


ROOT = Path(__file__).resolve().parents[1]


def run_python(program: str) -> subprocess.CompletedProcess[str]:
    """``program`` run by a fresh interpreter on this checkout's package (what it printed, and
    its exit status; two minutes at most)."""
    return subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
