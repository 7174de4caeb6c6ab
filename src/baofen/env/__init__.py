"""Environments for AI research (needs the ``research`` extra: ``pip install 'baofen[research]'``).

- :class:`BaofenEnv` (:mod:`baofen.env.aec`): a PettingZoo AEC environment, one hand per episode,
  for any :class:`~baofen.RuleSet`; :mod:`baofen.env.baofen_v1` gives it PettingZoo's way, its
  version in its name (an older version's name is refused with an error naming the current one).
- :class:`SeatEnv` (:mod:`baofen.env.single`): a Gymnasium environment playing one seat against
  computer players.
- :mod:`baofen.env.actions`: the discrete action space (card-by-card composition) and its masks;
  :mod:`baofen.env.encoding`: the numeric observation.

See ``docs/research.md``.
"""

from pettingzoo.utils.deprecated_module import DeprecatedModule

from . import baofen_v1
from .actions import ActionSpace, Composer
from .aec import BaofenEnv, env
from .encoding import Encoder, encode, layout
from .single import SeatEnv


def __getattr__(name: str) -> DeprecatedModule:
    """An older version's name (``baofen_v0``) answers as PettingZoo answers its old versions:
    its ``env()`` and ``raw_env()`` raise ``DeprecatedEnv`` naming the current version."""
    family, _, version = name.rpartition("_v")
    if family == "baofen" and version.isdigit() and name != baofen_v1.NAME:
        return DeprecatedModule(family, version, baofen_v1.NAME.rpartition("_v")[2])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ActionSpace", "BaofenEnv", "Composer", "Encoder", "SeatEnv", "baofen_v1", "encode", "env",
    "layout",
]
