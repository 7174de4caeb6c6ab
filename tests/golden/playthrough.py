"""A golden playthrough file: whole hands written as text, and read back.

A file holds one rule profile (:mod:`tests.golden.profiles`) and a few hands. For each hand: the
seed and its deal, every action in order (``> seat action``) with what was legal (the bids on
offer; the number of legal follows, listed when few), what each play put on the table when a
throw failed, each trick's winner, one seat's observation (``|`` lines) before the bidding, when
play starts, every few tricks and at the end, and the result. :func:`render` writes it from the
actions and an engine; :func:`actions_in` reads the actions back, so the test replays them on
each engine and compares the text line by line.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import fields

from baofen import RuleSet
from baofen.actions import Action, Bid, Declare, Play
from baofen.cards import POINTS, format_cards
from baofen.order import order_for
from baofen.ruleset import FIELDS
from baofen.scoring import HandResult

from .engines import PYTHON_ONLY, Engine, seat_name
from .profiles import GoldenHand, Profile

REGENERATE = "python3 tests/golden/regenerate.py"
FOLLOWS_LIMIT = 200
"""Legal follows are counted up to this many (a void follower to a long throw has thousands)."""
FOLLOWS_LISTED = 3
"""Legal follows are listed when there are at most this many."""
OBSERVED_AFTER = (6, 12, 18)
"""Tricks after which the observation is written (also before bidding, at the start of play
and at the end)."""
_ACTION_GAP = 44

Actions = list[tuple[int, Action]]
EngineMaker = Callable[[RuleSet, int], Engine]


def header(profile: Profile) -> list[str]:
    """The file's opening comment and its rule set: every field of its game, each changed one
    with its default."""
    default = RuleSet.create(variant=profile.rules.variant)
    title = textwrap.wrap(f"Golden playthrough: {profile.title}.", 94)
    lines = [
        *(f"# {part}" for part in title),
        f"# Written by `{REGENERATE}`; do not edit by hand. tests/golden/test_golden.py",
        "# replays the actions (> lines) on the Python engine and on the native core and",
        "# compares every line, so a change of the rules shows here as a diff.",
        "# | lines: one seat's observation (bids, kitty, buried and score lines: the Python",
        "# engine's only). tests/golden/README.md explains the format.",
        "",
        f"profile {profile.name}",
        "rules",
    ]
    for name, spec in FIELDS.items():
        if spec.setting is not None and profile.rules.variant not in spec.setting.games:
            continue  # a setting of the other game
        value, usual = getattr(profile.rules, name), getattr(default, name)
        note = "" if value == usual else f"   (default {_value(usual)})"
        lines.append(f"  {name:<24} {_value(value)}{note}")
    return lines


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(map(str, value))
    return "-" if value is None else str(value)


def render(profile: Profile, actions: Sequence[Actions], make: EngineMaker) -> list[str]:
    """The whole file: :func:`header`, then each hand replayed on an engine from ``make``."""
    lines = header(profile)
    for number, (spec, moves) in enumerate(zip(profile.hands, actions, strict=True), 1):
        lines.append("")
        lines += hand_lines(number, profile.rules, spec, moves, make(profile.rules, spec.seed))
    return lines


def hand_lines(
    number: int, rules: RuleSet, spec: GoldenHand, actions: Actions, engine: Engine
) -> list[str]:
    """One hand: its deal, the replay of ``actions`` on ``engine``, the result."""
    parts, first = engine.dealt()
    display = order_for(rules.variant, None)
    lines = [
        f"== hand {number} · seed {spec.seed} · observed seat {seat_name(spec.seat)}",
        "players " + " ".join(f"{seat}={player}" for seat, player in enumerate(spec.players)),
        f"deal · first to bid {seat_name(first)}",
    ]
    for seat, cards in enumerate(parts[:4]):
        lines.append(f"  {seat_name(seat)}  {format_cards(display.sort(cards))}")
    lines.append(f"  kitty  {format_cards(display.sort(parts[4]))}")
    lines += _observation(engine, spec.seat, "before the bidding")
    in_trick: list[int] = []  # the cards on the table in the trick in progress
    for seat, action in actions:
        if engine.to_act != seat:
            lines.append(f"! {seat_name(seat)} is not to act: {seat_name(engine.to_act)} is")
            return lines
        line = _action_line(seat, action, bool(in_trick))
        line = f"{line:<{_ACTION_GAP}} {_legal(engine, action, in_trick)}".rstrip()
        tricks = len(engine.winners())
        try:
            played = engine.act(seat, action)
        except ValueError as error:
            return [*lines, line, f"! refused: {error}"]
        lines.append(line)
        if isinstance(action, Play) and len(played) < len(action.cards):
            lines.append(f"  the throw fails: plays {format_cards(played)}")
        in_trick += played
        winners = engine.winners()
        if len(winners) > tricks:
            lines += _trick_end(engine, spec.seat, winners, in_trick)
            in_trick = []
        elif isinstance(action, Declare):
            lines += _observation(engine, spec.seat, "as play starts")
    if engine.to_act is not None:
        lines.append(f"! the actions end before the hand does: {seat_name(engine.to_act)} to act")
        return lines
    lines += _observation(engine, spec.seat, "at the end")
    return lines + _result(engine.result())


def _action_line(seat: int, action: Action, following: bool) -> str:
    if isinstance(action, Bid):
        text = f"bid {action}"
    elif isinstance(action, Declare):
        text = f"declare trump {action.trump} bury {format_cards(action.bury)}"
    else:
        text = f"{'follow' if following else 'lead'} {action}"
    return f"> {seat_name(seat)} {text}"


def _legal(engine: Engine, action: Action, in_trick: Sequence[int]) -> str:
    """What was legal before ``action``: the bids, or the follows (a lead may be any unit or
    throw of one group, so leads are not listed)."""
    if isinstance(action, Bid):
        return "· legal " + _bids(engine.legal_bids())
    if not isinstance(action, Play) or not in_trick:
        return ""
    follows = engine.follows(FOLLOWS_LIMIT)
    if follows is None:
        return f"· over {FOLLOWS_LIMIT} legal"
    listed = ""
    if len(follows) <= FOLLOWS_LISTED:
        listed = ": " + " | ".join(format_cards(play) for play in sorted(follows))
    return f"· {len(follows)} legal{listed}"


def _bids(values: Sequence[int | None]) -> str:
    """Bids on offer: ``pass 85 90 95``, a long even run as ``pass 75–200 by 5``."""
    words = ["pass" if None in values else ""]
    numbers = [v for v in values if v is not None]
    step = numbers[1] - numbers[0] if len(numbers) > 5 else 0
    if step and numbers == list(range(numbers[0], numbers[-1] + 1, step)):
        words.append(f"{numbers[0]}–{numbers[-1]} by {step}")
    else:
        words += map(str, numbers)
    return " ".join(w for w in words if w)


def _trick_end(
    engine: Engine, seat: int, winners: Sequence[int], cards: Sequence[int]
) -> list[str]:
    """The trick's winner and the points on the table; the observation every few tricks."""
    lines = [f"  trick {len(winners)} → {seat_name(winners[-1])}, "
             f"{sum(POINTS[c] for c in cards)} points on the table"]
    if len(winners) in OBSERVED_AFTER and engine.to_act is not None:
        lines += _observation(engine, seat, f"after trick {len(winners)}")
    return lines


def _observation(engine: Engine, seat: int, when: str) -> list[str]:
    lines = [f"observation of {seat_name(seat)} {when}"]
    lines += [f"|   {key:<7} {text}" for key, text in engine.observe(seat)]
    return lines


def _result(result: HandResult | None) -> list[str]:
    if result is None:
        return ["! no result"]
    summary = " · ".join(
        f"{f.name} {_value(getattr(result, f.name))}"
        for f in fields(result)
        if f.name not in ("breakdown", "deltas")
    )
    breakdown = " · ".join(f"{name} {value}" for name, value in result.breakdown.items())
    return [
        f"result  {summary}",
        f"  breakdown {breakdown or '-'}",
        f"  deltas {' '.join(f'{d:+d}' for d in result.deltas)}",
    ]


def is_python_only(line: str) -> bool:
    """True for an observation line that only the Python engine renders."""
    return line.startswith("|") and line[1:].split(maxsplit=1)[0] in PYTHON_ONLY


def actions_in(lines: Sequence[str]) -> list[Actions]:
    """Each hand's actions, read back from the ``>`` lines of a file."""
    hands: list[Actions] = []
    for line in lines:
        if line.startswith("== hand "):
            hands.append([])
        elif line.startswith("> "):
            hands[-1].append(parse_action(line))
    return hands


def parse_action(line: str) -> tuple[int, Action]:
    """The seat and action of a ``>`` line."""
    seat, _name, verb, *rest = line[2:].split("·")[0].split()
    if verb == "bid":
        return int(seat), Bid(None if rest[0] == "pass" else int(rest[0]))
    if verb == "declare":
        return int(seat), Declare(rest[1], " ".join(rest[3:]))
    if verb in ("lead", "follow"):
        return int(seat), Play(" ".join(rest))
    raise ValueError(f"not an action line: {line!r}")
