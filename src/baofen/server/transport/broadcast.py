"""The broadcast of per-seat views.

A broadcast renders each seat's view once, however many connections watch it, and sends a
connection that has the seat's previous view only what changed (a ``patch``,
:mod:`baofen.wire.patch`): finished tricks, the rules and the seats are not sent again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from ...wire.observation import SHARED_FIELDS, OwnView, SharedView, joined, own_change
from ...wire.patch import diff_part
from .connections import Connection


@dataclass(slots=True)
class Answer:
    """The ``ack`` owed to the connection whose action a change is. The view the change sends
    that connection carries it (its ``ack`` field: one message fewer per action); only when
    none did (the action changed nothing, as a retry of one stored already) is it sent alone."""

    connection: Connection
    id: Any
    """The action's ``id`` (the protocol's ``MessageId``)."""
    sent: bool = False
    """Whether a view carried it."""


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view (``None``: the spectators') at one moment: the ``state`` message's
    fields as JSON data, the observation in its two parts. A broadcast's views share its
    ``table`` (the table's information) and ``shared`` (what every seat sees alike of the
    hand, :meth:`~baofen.wire.observation.ObservationView.shared`), so that what changed in
    them is found once for all seats; ``own`` is the seat's own part (both None without a
    match)."""

    you: int | None
    table: dict[str, Any]
    shared: SharedView | None
    own: OwnView | None
    last: dict[str, Any] | None

    def message(self) -> dict[str, Any]:
        """The ``state`` message (without its ``view`` number)."""
        shared, own = self.shared, self.own
        return {
            "type": "state", "you": self.you, "table": self.table,
            "observation": None if shared is None or own is None else joined(shared, own),
            "last": self.last,
        }


def _text(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


class Broadcaster:
    """Sends a table's views: numbered, and the last one of each seat kept (``None``: the
    spectators'), so that a connection holding it gets only what changed."""

    def __init__(self) -> None:
        self.number = 0
        """The number of the last view sent."""
        self._last: dict[int | None, tuple[int, View]] = {}

    def send(self, connection: Connection, view: View) -> None:
        """Send ``view`` whole to one connection (after it joined, or asked for it)."""
        self.number += 1
        connection.view = (self.number, connection.view_seat)
        connection.send(_text({**view.message(), "view": self.number}))

    def broadcast(self, connections: Iterable[Connection],
                  view: Callable[[int | None], View], answer: Answer | None = None) -> None:
        """Send every connection the view of its seat, ``view(seat)``: a ``patch`` where it
        has the seat's previous view, else the whole ``state``; the one of ``answer``'s
        connection carries its ack."""
        self.number += 1
        number = self.number
        made: dict[int | None, _Made] = {}
        found = _Found()
        for connection in connections:
            seat = connection.view_seat
            if seat not in made:
                new = view(seat)
                made[seat] = _Made(self._last.get(seat), new, number, found)
                self._last[seat] = (number, new)
            owed = answer if answer is not None and connection is answer.connection else None
            held = connection.view
            # A connection that changed seat or audience since (a reclaim, a leave while
            # watched) holds another audience's view of the same number: it gets the whole view.
            has = held[0] if held is not None and held[1] == seat else None
            connection.send(made[seat].text_for(has, owed))
            connection.view = (number, seat)


Part = dict[str, Any]
"""A part of a view as JSON data (the table's information, or an observation's fields)."""


class _Found:
    """The changes of the parts that one broadcast's views share, each found once."""

    def __init__(self) -> None:
        self._found: dict[tuple[int, int], tuple[Part, Part, Part, Part]] = {}

    def part(self, part: str, old: dict[str, Any], new: dict[str, Any],
             fields: Iterable[str] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The change of ``part`` from ``old`` to ``new`` (of ``fields`` only, when given): its
        ``set`` entries and its other changes (:func:`~baofen.wire.patch.diff_part`)."""
        key = (id(old), id(new))
        known = self._found.get(key)  # the parts are kept: their ids stay theirs meanwhile
        if known is None or known[0] is not old or known[1] is not new:
            found: dict[str, Any] = {}
            changes: dict[str, Any] = {}
            diff_part(part, old, new, found, changes, fields)
            known = self._found[key] = (old, new, found, changes)
        return known[2], known[3]

    def change(self, old: View, new: View) -> dict[str, Any]:
        """The patch's fields (:func:`~baofen.wire.patch.diff`) from ``old`` to ``new``."""
        found: dict[str, Any] = {}
        changes: dict[str, Any] = {}
        if new.you != old.you:
            found["you"] = new.you
        table_found, _ = self.part("table", old.table, new.table)
        found.update(table_found)
        if old.shared is None or old.own is None or new.shared is None or new.own is None:
            if (old.own is None) != (new.own is None):  # the match began
                found["observation"] = new.message()["observation"]
        else:
            shared_found, shared_changes = self.part(
                "observation", old.shared.fields, new.shared.fields, SHARED_FIELDS
            )
            found.update(shared_found)
            changes.update(shared_changes)
            own_change(old.own, new.own, found, changes)
        if new.last != old.last:
            found["last"] = new.last
        if found:
            changes["set"] = found
        return changes


class _Made:
    """One seat's new view, rendered as a change and as a whole only when a connection needs
    it (each at most once)."""

    def __init__(self, last: tuple[int, View] | None, new: View, number: int,
                 found: _Found) -> None:
        self.last, self.new, self.number, self.found = last, new, number, found
        self._patch: str | None = None
        self._whole: str | None = None

    def text_for(self, has: int | None, answer: Answer | None = None) -> str:
        """The message for a connection that has view ``has``; with ``answer``'s ack."""
        patch = self.last is not None and has == self.last[0]
        if answer is not None:  # the acting connection's own: not kept for the others
            answer.sent = True
            message = self._patch_message() if patch else self._whole_message()
            ack = {"id": answer.id, "version": self.new.table["version"]}
            return _text({**message, "ack": ack})
        if patch:
            if self._patch is None:
                self._patch = _text(self._patch_message())
            return self._patch
        if self._whole is None:
            self._whole = _text(self._whole_message())
        return self._whole

    def _patch_message(self) -> dict[str, Any]:
        assert self.last is not None
        change = self.found.change(self.last[1], self.new)
        return {"type": "patch", "view": self.number, "since": self.last[0], **change}

    def _whole_message(self) -> dict[str, Any]:
        return {**self.new.message(), "view": self.number}
