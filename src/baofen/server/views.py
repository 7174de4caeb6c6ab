"""The public views of a table: its information (:class:`TableInfo`), its seats, its match's
books, and what beat a failed throw."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

from ..match import Match
from ..ruleset import RuleSet
from ..wire.settings import TableSettings
from ..wire.table import HandSummary, MatchView, SeatView, TableInfo
from ..wire.tricks import Stopper, hand_stopper
from .config import ServerSettings
from .seats import Seat, host_seat


class Shown(Protocol):
    """What :func:`table_info` reads of a table (:class:`.tables.Table`)."""

    code: str
    status: Literal["waiting", "playing", "finished"]
    rules: RuleSet
    settings: TableSettings
    server: ServerSettings
    seats: list[Seat]
    match: Match | None
    version: int
    deadline: float | None
    ready: set[int]
    created: float
    active: float

    @property
    def between_hands(self) -> bool:
        """A finished hand waits for the next deal."""


def table_info(table: Shown, history: Sequence[HandSummary]) -> TableInfo:
    """Public information of ``table`` (``history``: its finished hands' summaries)."""
    match = table.match
    away = match.away if match is not None else frozenset()
    return TableInfo(
        code=table.code,
        status=table.status,
        rules=table.rules,
        settings=table.settings,
        seats=seat_views(table.seats, away),
        match=None if match is None else match_view(match, table.rules, history),
        version=table.version,
        deadline=table.deadline,
        ready=sorted(table.ready),
        node=table.server.node if table.server.redis else None,
        host=host_seat(table.seats),
        between_hands=table.between_hands,
        created=table.created,
        active=table.active,
    )


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



def stopper_at(match: Match | None, index: int) -> Stopper:
    """What beat the failed throw that led trick ``index`` of the match's hand
    (:func:`.wire.tricks.hand_stopper`; a table's :class:`TrickViews` asks once it has a match)."""
    assert match is not None, "only a started match has tricks"
    return hand_stopper(match.hand, index)
