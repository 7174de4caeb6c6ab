"""The native core (C++, rules.md §2–11): which engine runs, and the way to it.

The compiled module ``baofen._native._core`` is built by ``pip install`` where a C++ compiler is
found (see setup.py); without it the package is pure Python and :func:`available` is false.
``BAOFEN_ENGINE=python`` in the environment forces the Python engine even where the native core
is built. The Python engine stays the reference: the native core plays the same rules, and
``tests/test_native.py`` replays its hands through the Python engine.

Batched play-outs and hand records: :mod:`baofen._native.batch`; the native rule player (the
same choices as :class:`baofen.bots.RuleBot`, which uses it where the native core runs) and
play-outs with a native player a seat: :mod:`baofen.bots.native_players`.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Literal

EngineName = Literal["native", "python"]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("BAOFEN_ENGINE", "").strip().lower() == "python":
        return None, "BAOFEN_ENGINE=python forces the Python engine"
    try:
        from . import _core
    except ImportError as error:
        return None, f"the native core is not built ({error}); reinstall with a C++ compiler"
    return _core, ""


_CORE, _WHY_NOT = _load()


def available() -> bool:
    """True when the native core is built and not switched off by ``BAOFEN_ENGINE=python``."""
    return _CORE is not None


def engine_name() -> EngineName:
    """``"native"`` where the native core runs, else ``"python"``."""
    return "native" if _CORE is not None else "python"


def why_unavailable() -> str:
    """Why the native core does not run (empty when it does)."""
    return _WHY_NOT


def core() -> ModuleType:
    """The compiled module; ``RuntimeError`` saying why when it is not available."""
    if _CORE is None:
        raise RuntimeError(f"the native engine is not available: {_WHY_NOT}")
    return _CORE
