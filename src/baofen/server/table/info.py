"""A table's public information (:class:`~baofen.wire.table.TableInfo`, built as JSON data
directly: its seats and its match's books), and what beat a failed throw."""

from __future__ import annotations

from typing import Any, Protocol

from ...match import Match
from ...ruleset import RuleSet
from ...wire.settings import TableSettings
from ...wire.table import HandSummary
from ..config import ServerConfig
from .log import Status, TableLog
from .seating import Seating
from .seats import Seat, host_seat
from .timers import Timers


class ShownTable(Protocol):
    """What a table's views read of it (:class:`.table.Table`): its parts and its state."""

    code: str
    rules: RuleSet
    settings: TableSettings
    config: ServerConfig
    seats: list[Seat]
    ready: set[int]
    created: float
    active: float
    closed: bool
    log: TableLog
    seating: Seating
    timers: Timers

    @property
    def match(self) -> Match | None:
        """The match (None before the start)."""

    @property
    def status(self) -> Status:
        """Where the match is."""

    @property
    def version(self) -> int:
        """Number of events in the log."""

    @property
    def between_hands(self) -> bool:
        """A finished hand waits for the next deal."""


class InfoParts:
    """The parts of a table's information that seldom change, as JSON data, each dumped once
    and again only when it changed: the rules, the settings, the finished hands' summaries."""

    def __init__(self) -> None:
        self._rules: tuple[RuleSet, dict[str, Any]] | None = None
        self._settings: tuple[TableSettings, dict[str, Any]] | None = None
        self._history: tuple[list[HandSummary], list[dict[str, Any]]] = ([], [])

    def rules(self, rules: RuleSet) -> dict[str, Any]:
        """``rules`` as JSON data."""
        if self._rules is None or self._rules[0] is not rules:
            self._rules = (rules, rules.to_dict())
        return self._rules[1]

    def settings(self, settings: TableSettings) -> dict[str, Any]:
        """``settings`` as JSON data."""
        if self._settings is None or self._settings[0] is not settings:
            self._settings = (settings, settings.model_dump(mode="json"))
        return self._settings[1]

    def history(self, history: list[HandSummary]) -> list[dict[str, Any]]:
        """The summaries of ``history`` (a table's list, which only grows until it is
        replaced) as JSON data: a new list when one was added."""
        kept, data = self._history
        if kept is not history or len(data) != len(history):
            if kept is not history:
                data = []
            data = [*data, *(summary.model_dump(mode="json") for summary in history[len(data):])]
            self._history = (history, data)
        return data


def table_data(table: ShownTable, parts: InfoParts) -> dict[str, Any]:
    """Public information of ``table`` as the JSON data of :class:`TableInfo`, built directly
    (the server makes it after every change)."""
    match = table.match
    config = table.config
    away = match.away if match is not None else frozenset()
    return {
        "code": table.code,
        "status": table.status,
        "rules": parts.rules(table.rules),
        "settings": parts.settings(table.settings),
        "seats": [
            {
                "seat": seat.number,
                "kind": seat.kind,
                "name": seat.name,
                "bot_level": seat.bot_level,
                "connected": seat.kind == "bot" or seat.connection is not None,
                "auto": seat.kind == "human" and (seat.auto or seat.number in away),
                "away": seat.number in away,
                "account": seat.account_id is not None,
            }
            for seat in table.seats
        ],
        "match": (None if match is None
                  else match_data(match, table.rules, parts.history(table.log.history))),
        "version": table.version,
        "deadline": table.timers.deadline,
        "ready": sorted(table.ready),
        "node": config.node if config.redis else None,
        "host": host_seat(table.seats),
        "between_hands": table.between_hands,
        "created": table.created,
        "active": table.active,
    }


def match_data(match: Match, rules: RuleSet, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The match's books as everyone sees them (:class:`MatchView` as JSON data)."""
    ledger = match.ledger
    return {
        "hand_number": match.number,
        "hands": rules.hands,
        "step": len(match.hand.actions),
        "scores": list(ledger.scores),
        "coins": list(match.coins) if rules.variant == "hongwu" else None,
        "pot": ledger.pot,
        "caller": match.caller,
        "finished": match.finished,
        "history": history,
    }
