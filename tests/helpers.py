"""Helpers for building exact situations in tests, and hands played by bots to a point."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from baofen import Card, Hand, Match, RuleSet, full_pack, parse_cards, play_hand
from baofen.bots import make_bot


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


def played_to(rules: RuleSet, seed: int, tricks: int) -> Hand:
    """The hand of ``seed`` played by four rule bots until ``tricks`` tricks are done (0: until
    play begins)."""
    bot = make_bot("rule")
    return Hand(rules, seed=seed).play_out(
        [bot] * 4, until=lambda hand: hand.phase == "playing" and len(hand.tricks) >= tricks
    )


def play_out(rules: RuleSet, seed: int, specs: list[tuple[str, dict]]) -> list:  # type: ignore[type-arg]
    bots = [make_bot(name, **options) for name, options in specs]
    return play_hand(rules, seed, bots).actions


def play_some(hand: Hand, steps: int, seed: int = 0) -> None:
    bots = [make_bot("random", seed=seed + s, throw_rate=0.3) for s in range(4)]
    for _ in range(steps):
        if hand.phase == "done":
            return
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))


def mixed_hands(variant: str, hands: int, seed: int):  # type: ignore[no-untyped-def]
    """Yield ``(hand, seat)`` at every decision of hands where a rule bot and a throw-happy
    random bot take turns at random, so that many odd situations arise."""
    rules = RuleSet.create(variant=variant)
    rng = random.Random(seed)
    rule = make_bot("rule")
    rand = make_bot("random", seed=seed, throw_rate=0.4)
    for number in range(hands):
        hand = Hand(rules, seed=seed * 1000 + number)
        for seat in hand.turns():
            yield hand, seat
            bot = rule if rng.random() < 0.5 else rand
            hand.apply(seat, bot.act(hand.observation(seat)))


ROOT = Path(__file__).resolve().parents[1]

BLOCKER = textwrap.dedent(
    """
    import sys

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {blocked!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    """
)
"""The start of a program for :func:`run_python` in which importing any of the packages
``blocked`` (to fill in with ``str.format``: a set of top-level names) fails, as where they are
not installed."""


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
