"""The public views of a table's parts: its seats and its match's books (:class:`TableInfo`
is built from them by :meth:`.tables.Table.info`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..match import Match
from ..ruleset import RuleSet
from ..wire.table import HandSummary, MatchView, SeatView
from .seats import Seat


def seat_views(seats: Iterable[Seat], away: frozenset[int]) -> list[SeatView]:
    """Every seat as everyone sees it (``away``: the seats whose players left)."""
    return [
        SeatView(
            seat=seat.number,
            kind=seat.kind,
            name=seat.name,
            bot_level=seat.bot_level,
            connected=seat.kind == "bot" or seat.connection is not None,
            auto=seat.kind == "human" and (seat.auto or seat.number in away),
            away=seat.number in away,
            account=seat.account_id is not None,
        )
        for seat in seats
    ]


def match_view(match: Match, rules: RuleSet, history: Sequence[HandSummary]) -> MatchView:
    """The match's books as everyone sees them."""
    ledger = match.ledger
    return MatchView(
        hand_number=match.number,
        hands=rules.hands,
        step=len(match.hand.actions),
        scores=list(ledger.scores),
        coins=match.coins if rules.variant == "hongwu" else None,
        pot=ledger.pot,
        caller=match.caller,
        finished=match.finished,
        history=list(history),
    )
