"""A puzzle's position as its seat saw it, and the judgement of an answer.

What a solver is sent before answering is the seat's own view of the hand at that decision
(:class:`~baofen.wire.observation.ObservationView`: its cards, the bids, the trump, the tricks
so far, the 记牌器 as the seat knew it) — never the hand's record, which holds every seat's
cards. The answer (the best move, every option's value, the reason) is sent only with the
judgement of an answer.
"""

from __future__ import annotations

from typing import Any

from ...actions import Bid, Declare
from ...cards import format_cards, parse_cards
from ...errors import IllegalAction
from ...hand import Hand
from ...observation import Observation
from ...review import THRESHOLDS, UNITS
from ...wire.observation import ObservationView


class BadAnswer(ValueError):
    """An answer that is no legal move of the position; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def position(puzzle: dict[str, Any]) -> tuple[Hand, Observation]:
    """The hand just before the puzzle's decision, and the seat's observation of it."""
    hand = Hand.from_record(puzzle["record"]).redeal(puzzle["action"])
    return hand, hand.observation(puzzle["seat"])


def question(puzzle: dict[str, Any], rating: float) -> dict[str, Any]:
    """What a solver is shown before answering (no other seat's cards, no answer, no
    themes: they hint at the answer)."""
    _, obs = position(puzzle)
    return {
        "id": puzzle["id"], "game": puzzle["game"], "kind": puzzle["kind"],
        "seat": puzzle["seat"], "rating": round(rating),
        "unit": UNITS[puzzle["game"]], "view": ObservationView.data(obs, counter=True),
    }


def key(kind: str, move: str) -> str:
    """An option's text in a canonical form (cards, or a bury, in any order are the same)."""
    if kind == "play":
        return " ".join(sorted(move.split()))
    if kind == "declare":
        trump, _, bury = move.partition(":")
        return f"{trump.strip()}: {' '.join(sorted(bury.split()))}"
    return move.strip()


def answer_text(puzzle: dict[str, Any], answer: dict[str, Any]) -> str:
    """The answer (``{"cards": [...]}``, ``{"bid": value|"pass"}`` or ``{"trump": s, "bury":
    [...]}``) checked against the position, as an option's text; :class:`BadAnswer` when it
    is not a legal move there (nothing changes)."""
    hand, obs = position(puzzle)
    seat, kind = puzzle["seat"], puzzle["kind"]
    try:
        if kind == "play":
            cards = parse_cards(answer.get("cards") or [])
            error = obs.play_error(cards)
            if error:
                raise BadAnswer("illegal_play", f"not a legal play here: {error}")
            return format_cards(cards)
        if kind == "bid":
            if "bid" not in answer:
                raise BadAnswer("bad_answer", "a bid puzzle is answered with a bid")
            value = None if answer["bid"] == "pass" else answer["bid"]
            if value not in obs.legal_bids():
                raise BadAnswer("illegal_bid", f"not a legal bid here: {value!r}")
            return str(Bid(value))
        action = Declare(str(answer.get("trump")), answer.get("bury") or [])
        hand.copy().apply(seat, action)
        return f"{action.trump}: {format_cards(action.bury)}"
    except (IllegalAction, KeyError, TypeError) as error:
        raise BadAnswer("illegal_declare" if kind == "declare" else "bad_answer",
                        f"not a legal move here: {error}") from None
    except ValueError as error:
        if isinstance(error, BadAnswer):
            raise
        raise BadAnswer("bad_cards", f"unreadable cards: {error}") from None


def _trump_of(kind: str, move: str) -> str:
    return move.partition(":")[0].strip()


def _trumps_differ(puzzle: dict[str, Any]) -> bool:
    """True when the options of a trump-and-bury puzzle each name another trump: the question
    is then which trump, and any bury with the best's trump solves it (the review compared one
    bury a trump, so another bury of that trump cannot be told from it)."""
    trumps = [_trump_of("declare", o["move"]) for o in puzzle["options"]]
    return len(set(trumps)) == len(trumps)


def judgement(puzzle: dict[str, Any], made: str) -> dict[str, Any]:
    """The answer revealed: solved or not, the best move, every option's value (the made
    move's marked; its value is null when it was not among the options compared), the
    margin, and the review's reason where it gives one. A trump-and-bury puzzle whose options
    each name another trump is judged on the trump (:func:`_trumps_differ`)."""
    kind = puzzle["kind"]
    judged = key
    if kind == "declare" and _trumps_differ(puzzle):
        judged = _trump_of
    mine = judged(kind, made)
    best = judged(kind, puzzle["best"])
    options = [{"move": o["move"], "value": o["value"], "best": judged(kind, o["move"]) == best,
                "made": judged(kind, o["move"]) == mine} for o in puzzle["options"]]
    value = next((o["value"] for o in options if o["made"]), None)
    return {
        "solved": mine == best, "made": made, "best": puzzle["best"], "hint": puzzle["hint"],
        "options": options, "value_made": value, "margin": puzzle["margin"],
        "margin_low": puzzle["margin_low"], "threshold": THRESHOLDS[puzzle["game"]]["inaccuracy"],
        "unit": UNITS[puzzle["game"]], "reason": puzzle.get("reason"),
        "themes": puzzle["themes"],
    }

