"""The bots' modules that moved into the sub-packages by kind, importable at their old names for
one version (each import warns with a :class:`DeprecationWarning` naming the new place)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

MOVED = {
    "baofen.bots.rule_bot": "baofen.bots.rule.bot",
    "baofen.bots.rule_player": "baofen.bots.rule.player",
    "baofen.bots.rule_play": "baofen.bots.rule.play",
    "baofen.bots.evaluation": "baofen.bots.rule.evaluation",
    "baofen.bots.shared": "baofen.bots.rule.shared",
    "baofen.bots.follows": "baofen.bots.rule.follows",
    "baofen.bots.search_bot": "baofen.bots.search.bot",
    "baofen.bots.budget": "baofen.bots.search.budget",
    "baofen.bots.determinize": "baofen.bots.search.determinize",
    "baofen.bots.holdings": "baofen.bots.search.holdings",
    "baofen.bots.estimates": "baofen.bots.search.estimates",
    "baofen.bots.contract": "baofen.bots.search.contract",
    "baofen.bots.kitty_search": "baofen.bots.search.kitty",
    "baofen.bots.tracking": "baofen.bots.search.tracking",
    "baofen.bots.native_worlds": "baofen.bots.search.native_worlds",
    "baofen.bots.learned_bidder": "baofen.bots.learned.bidder",
    "baofen.bots.learned_evaluator": "baofen.bots.learned.evaluator",
    "baofen.bots.network_file": "baofen.bots.learned.network_file",
}
"""Old module name → where it is now."""


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a moved module at its old name: a module of that name holding the new one's names,
    made after a :class:`DeprecationWarning`."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        new = MOVED[module.__name__]
        warnings.warn(f"{module.__name__} moved to {new}", DeprecationWarning, stacklevel=2)
        moved = importlib.import_module(new)
        module.__dict__.update(
            {name: value for name, value in vars(moved).items() if not name.startswith("__")})
        if hasattr(moved, "__all__"):
            module.__dict__["__all__"] = moved.__all__


def install() -> None:
    """Let the old names import (once a process)."""
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(MovedModules())
