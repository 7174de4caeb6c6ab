"""The one exception type of the rules engine, and the reasons it gives."""

from __future__ import annotations

from typing import Any

REASONS: dict[str, str] = {
    # whose turn, and when
    "wrong_phase": "not the {expected} phase: the hand is in the {phase} phase",
    "not_your_turn": "not seat {seat}'s turn: seat {to_act} is to act",
    "not_my_turn": "it is not this seat's turn to play",
    # bidding (§9) and the kitty (§10)
    "bid_not_offered": "{value} is not a bid of this game: bids are {bids}",
    "bid_too_low": "a bid must be higher than the current {high}",
    "bad_trump": "trump must be one of S H C D (no no-trump game), not {trump}",
    "bury_count": "bury exactly {size} cards, not {count}",
    "bury_not_held": "cannot bury cards you do not hold: {cards}",
    # at a server's table
    "hand_over": "the hand is over: the next deal is coming",
    "no_hint": "nothing to suggest: it is not your turn",
    # leading and following (§5, §7)
    "empty_play": "play at least one card",
    "not_a_card": "not a card: {card}",
    "not_held": "you do not hold {card}",
    "not_held_twice": "you do not hold two {card}",
    "empty_lead": "a lead needs at least one card",
    "mixed_lead": "a lead must be of one suit group (all trumps, or all of one plain suit)",
    "wrong_count": "play {size} card(s), as many as the lead",
    "follow_suit": "you must follow with a card of the led {group}",
    "follow_cards": "you must follow with {size} cards of the led {group}",
    "follow_all": "you must play all {held} of your card(s) of the led {group}",
    "follow_tractor": "you must follow the led tractor with your tractor (拖拉机)",
    "follow_pairs": "you must follow with {pairs} pair(s) (有对必跟对)",
    # at a club's table (a seat refused as ``seat_forbidden``)
    "forbidden_pair": "the club does not let you sit at one table with {name} (禁止同桌)",
    "same_address": "another seat at this table plays from your network address (同IP禁止同桌)",
}
"""Why the rules refuse an action, by code: the English text, with ``{name}`` filled from the
reason's parameters. ``group`` is ``"trump"`` or a suit letter; ``card`` and ``cards`` are in
notation; ``phase`` and ``expected`` are phases of :class:`~baofen.hand.Hand`."""


class Reason(str):
    """Why an action is refused: the English text, with a stable :attr:`code` and the
    :attr:`params` it was made from, so that an interface can say it in another language
    (the browser table says it in Chinese)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> Reason:
        """The reason ``code`` of :data:`REASONS` with ``params``."""
        words = {name: _english(name, value) for name, value in params.items()}
        reason = super().__new__(cls, REASONS[code].format(**words))
        reason.code = code
        reason.params = params
        return reason

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (self.code,), self.params


def _english(name: str, value: Any) -> Any:
    if name == "group":
        return "trump (主牌)" if value == "trump" else f"suit {value}"
    return value


class IllegalAction(ValueError):
    """An action the rules do not allow now (wrong seat or phase, cards not held, an illegal
    follow, a bid out of range, a bury of the wrong size). The message says why; the state it
    was tried on is left exactly as it was."""

    @property
    def reason(self) -> Reason | None:
        """The :class:`Reason` given, when the refusal has a code (every refusal by the rules;
        malformed input — not a card, not an action — has none)."""
        return self.args[0] if self.args and isinstance(self.args[0], Reason) else None
