"""包分 and 包红五 for PettingZoo, the way PettingZoo ships its games: ``raw_env`` is the
environment itself (:class:`~baofen.env.aec.BaofenEnv`), ``env()`` the same wrapped in
PettingZoo's order check (a step before ``reset`` is refused with a clear error)::

    from baofen.env import baofen_v1
    env = baofen_v1.env(RuleSet.hongwu())

The version is in the name, as in PettingZoo: a change that can change what an agent learns
(its observation, its actions, its rewards, the deals of a seed) takes the next version, and an
older name is refused with an error naming the current one. Versions:

- ``baofen_v1``: the observation declared as named pieces (:data:`baofen.env.encoding.PIECES`,
  :func:`~baofen.env.encoding.layout`), steps on the native core where it runs, ``env()``
  wrapped as PettingZoo's games are; observations, masks and rewards are v0's on the same deals.
- ``baofen_v0``: the first environment: one hand per episode, the card-by-card action space,
  the 19-segment encoding.
"""

from __future__ import annotations

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..ruleset import RuleSet
from .aec import BaofenEnv

__all__ = ["NAME", "env", "raw_env"]

NAME = "baofen_v1"
"""This version's name (``metadata["name"]`` of the environment)."""

raw_env = BaofenEnv
"""The environment without wrappers."""


def env(rules: RuleSet | None = None, render_mode: str | None = None) -> AECEnv:
    """A new environment of ``rules`` (包分 by default), wrapped in PettingZoo's order check."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))
