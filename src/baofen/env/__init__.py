"""Environments for AI research (needs the ``research`` extra: ``pip install 'baofen[research]'``).

- :class:`BaofenEnv` (:mod:`baofen.env.aec`): a PettingZoo AEC environment, one hand per episode,
  for any :class:`~baofen.RuleSet`.
- :class:`SeatEnv` (:mod:`baofen.env.single`): a Gymnasium environment playing one seat against
  computer players.
- :mod:`baofen.env.actions`: the discrete action space (card-by-card composition) and its masks;
  :mod:`baofen.env.encoding`: the numeric observation.

See ``docs/research.md``.
"""

from .actions import ActionSpace, Composer
from .aec import BaofenEnv, env
from .encoding import Encoder, encode, layout
from .single import SeatEnv

__all__ = [
    "ActionSpace", "BaofenEnv", "Composer", "Encoder", "SeatEnv", "encode", "env", "layout",
]
