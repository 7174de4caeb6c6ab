"""A view's changes: what the server sends a connection instead of a whole ``state`` when the
connection has the view before it.

A ``state`` message carries everything a seat may see, finished tricks and the table's rules
included; from one action to the next little of it changes. :func:`diff` gives the change from
one view (a ``state`` message as JSON data) to the next, and :func:`apply` rebuilds the next
view from the one before and that change; the browser does the same in ``connection.js``.

A change (the ``patch`` message's fields besides ``type``, ``view`` and ``since``):

- ``set``: a value per path that changed, replaced whole. A path is a top-level field of the
  state (``you``, ``last``, ``table``, ``observation``), one field of the table or the
  observation (``table.seats``, ``observation.hand``), or one field of an object there that
  kept its fields (``table.match.step``: not the match's finished hands again).
- ``tricks``: finished tricks to append to ``observation.tricks`` (never sent again).
- ``counter``: the entries of ``observation.counter`` (记牌器) that changed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

PARTS = ("table", "observation")
"""The state's fields whose own fields are compared one by one."""

_ABSENT = object()


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The change from view ``old`` to view ``new`` (``state`` messages as JSON data)."""
    changes: dict[str, Any] = {}
    found: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key, _ABSENT)
        if value == before or key in ("type", "view"):
            continue
        if key in PARTS and isinstance(value, dict) and isinstance(before, dict):
            diff_part(key, before, value, found, changes)
        else:
            found[key] = value
    if found:
        changes["set"] = found
    return changes


def diff_part(part: str, old: dict[str, Any], new: dict[str, Any], found: dict[str, Any],
              changes: dict[str, Any], fields: Iterable[str] | None = None) -> None:
    """Add the change from ``old`` to ``new``, the values of the state's field ``part``, to
    ``found`` (the patch's ``set``) and ``changes`` (its ``tricks`` and ``counter``): of every
    field of ``new``, or only of ``fields`` (a caller that compares the others otherwise)."""
    for field in new if fields is None else fields:
        value = new[field]
        before = old.get(field, _ABSENT)
        if value == before:
            continue
        if part == "observation" and field == "tricks" and isinstance(before, list) and (
            value[:len(before)] == before
        ):
            changes["tricks"] = value[len(before):]
        elif part == "observation" and field == "counter" and isinstance(before, dict) and (
            value is not None and value.keys() == before.keys()
        ):
            changes["counter"] = {k: v for k, v in value.items() if before[k] != v}
        elif isinstance(value, dict) and isinstance(before, dict) and (
            value.keys() == before.keys()
        ):  # by its own fields: the table's match changes its step with every action, not
            # its finished hands' summaries
            for key, item in value.items():
                if item != before[key]:
                    found[f"{part}.{field}.{key}"] = item
        else:
            found[f"{part}.{field}"] = value


def apply(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The view that ``change`` (a ``patch`` message, or what :func:`diff` gives) makes of
    ``view``; ``view`` is left as it was."""
    new = copy.copy(view)
    for part in PARTS:
        if isinstance(new.get(part), dict):
            new[part] = copy.copy(new[part])
    copied: set[tuple[str, str]] = set()
    for path, value in change.get("set", {}).items():
        part, _, field = path.partition(".")
        field, _, key = field.partition(".")
        if key:
            if (part, field) not in copied:
                new[part][field] = copy.copy(new[part][field])
                copied.add((part, field))
            new[part][field][key] = value
        elif field:
            new[part][field] = value
        else:
            new[part] = copy.copy(value) if isinstance(value, dict) else value
    if change.get("tricks"):
        observation = new["observation"]
        observation["tricks"] = [*observation["tricks"], *change["tricks"]]
    if change.get("counter"):
        observation = new["observation"]
        observation["counter"] = {**observation["counter"], **change["counter"]}
    if "view" in change:
        new["view"] = change["view"]
    new["type"] = "state"
    return new
