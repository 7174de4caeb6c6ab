"""The one exception type of the rules engine."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now (wrong seat or phase, cards not held, an illegal
    follow, a bid out of range, a bury of the wrong size). The message says why; the state it
    was tried on is left exactly as it was."""
