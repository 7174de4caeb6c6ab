"""A search's budget as one value: what it spends a decision, and the choices made within it.

:class:`SearchBudget` is frozen and compared by value; its repr shows only what differs from the
defaults (``SearchBudget(iterations=256, gate=64)``), so a level reads as what it sets. The
levels players pick (:mod:`baofen.bots.levels`) are named values of it, and ``make_bot("search",
iterations=64)`` or the arena's ``search:iterations=64`` build one from keyword options
(:meth:`SearchBudget.split`). What each field does: :mod:`baofen.bots.search.bot`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ...setting import GAMES

OBJECTIVES = ("points", "score")
"""What a rollout is worth to the searching seat: ``"points"``, the declarer's points minus the
target (clipped, signed for the seat's side), or ``"score"``, the seat's result for the hand."""

PRIORS = ("rule", "evaluator")
"""Whose pick is the search's baseline (the candidate the halving keeps and the gate tests
against): the rule bot's, or the learned evaluator's where the package has one for the game."""

BIDDERS = ("rule", "bold", "learned")
"""Who makes the bids without ``contract``: the rule bot, the rule bot with a lower margin, or
the learned bidder."""

OTHERS = ("rule", "bold")
"""How the search's worlds read the other seats' bids, in play and in the kitty search: as the
rule bot's, or as the bold bids of the search levels."""

DEFAULT_ITERATIONS = 64
"""Rollouts per decision by default."""

MIN_WORLDS = 8
"""Fewest common worlds every candidate still in has been played out on before a halving cut."""

CONFIDENCE = 0.9
"""Level of the gate's one-sided lower confidence bound on a challenger's paired gain."""


@dataclass(frozen=True, repr=False)
class SearchBudget:
    """How a search bot searches (see :mod:`baofen.bots.search.bot` for each field)."""

    iterations: int = DEFAULT_ITERATIONS
    """Rollouts per play decision (deterministic under the bot's seed)."""
    time_limit: float | None = None
    """Seconds a decision may take at most (then the result depends on the machine's speed)."""
    candidates: int = 10
    """The rule bot's plays searched at most."""
    margin: float = 0.0
    """How much better (in result units) a play must do than the baseline to replace it."""
    halving: bool = True
    """Prune by successive halving (else every candidate gets the same worlds)."""
    objective: str = "points"
    """What a rollout is worth (:data:`OBJECTIVES`)."""
    inference: float = 1.0
    """Sharpness of the worlds' likelihood weights (0: every world counts once)."""
    contract: int = 0
    """Worlds of the searched bids and kitty (0: not searched)."""
    noise: float = 0.0
    """Chance that a play-out seat plays a random one of the rule bot's three best plays."""
    particles: int = 0
    """Worlds tracked from one decision to the next (0: fresh worlds every decision)."""
    steps: int = 8
    """Metropolis steps a decision of each tracked world."""
    min_worlds: int = MIN_WORLDS
    """Common worlds every candidate still in has been played out on before a halving cut."""
    gate: int = 0
    """Fresh worlds that must confirm a departure from the baseline (0: no gate)."""
    confidence: float = CONFIDENCE
    """Level of the gate's one-sided lower confidence bound."""
    wide: bool = False
    """Search follows beyond the rule bot's list."""
    kitty: int = 0
    """Worlds of the kitty search (0: the rule bot's trump and bury)."""
    kitty_wide: str = ""
    """The games (``"hongwu"``, ``"baofen+hongwu"``) whose kitty search is wide; given as
    a name, ``1`` (both) or ``0`` (none)."""
    bidder: str = "rule"
    """Who bids without ``contract`` (:data:`BIDDERS`)."""
    prior: str = "rule"
    """Whose pick is the baseline (:data:`PRIORS`)."""
    others: str = "rule"
    """How the worlds read the other seats' bids (:data:`OTHERS`)."""

    def __post_init__(self) -> None:
        def fix(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        fix("halving", bool(self.halving))
        fix("wide", bool(self.wide))
        fix("kitty_wide", "+".join(sorted(games(self.kitty_wide, "kitty_wide"))))
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.candidates < 1:
            raise ValueError("candidates must be at least 1")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError("time_limit must be positive (seconds)")
        for name, allowed in (("objective", OBJECTIVES), ("bidder", BIDDERS),
                              ("prior", PRIORS), ("others", OTHERS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} is one of {', '.join(allowed)}, "
                                 f"not {getattr(self, name)!r}")
        if self.inference < 0:
            raise ValueError("inference (the likelihood weights' sharpness) cannot be negative")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError("noise (the playouts' chance of a random top-three play) must be "
                             "between 0 and 1")
        for name, what in (("contract", "worlds for bids and the kitty"),
                           ("particles", "worlds tracked through the hand"),
                           ("steps", "Metropolis steps a decision"),
                           ("min_worlds", "worlds before a halving cut"),
                           ("gate", "fresh worlds to confirm an override"),
                           ("kitty", "worlds of the kitty search")):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} ({what}) cannot be negative")
        if not 0.5 <= self.confidence < 1.0:
            raise ValueError("confidence (the gate's level) must be in [0.5, 1)")
        if self.bidder != "rule" and self.contract:
            raise ValueError(f"contract (the searched bids) and bidder={self.bidder!r} both "
                             "choose the bids: give one")

    def __repr__(self) -> str:
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"SearchBudget({', '.join(shown)})"

    @property
    def wide_kitty_games(self) -> frozenset[str]:
        """The games whose kitty search is wide."""
        return frozenset(self.kitty_wide.split("+")) - {""}

    @classmethod
    def split(cls, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Keyword options parted into this budget's fields and the rest (the rule weights)."""
        names = {f.name for f in fields(cls)}
        return ({k: v for k, v in options.items() if k in names},
                {k: v for k, v in options.items() if k not in names})


def games(value: int | str, option: str) -> frozenset[str]:
    """The games an option names: ``"baofen"``, ``"hongwu"`` or both joined by ``+``; ``1``
    both, ``0`` or ``""`` none. :class:`ValueError` names an unknown game."""
    if value in (0, ""):
        return frozenset()
    if value == 1:
        return frozenset(GAMES)
    named = frozenset(str(value).split("+"))
    if not named <= set(GAMES):
        raise ValueError(f"{option} names games of {', '.join(GAMES)} joined by +, "
                         f"or is 1 (both) or 0 (none), not {value!r}")
    return named
