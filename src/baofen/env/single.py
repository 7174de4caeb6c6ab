"""A Gymnasium environment: one seat played by the agent, the three others by computer players.

Same observations and actions as :class:`~baofen.env.aec.BaofenEnv`, for that seat only; the
other seats' decisions are made by bots from :func:`baofen.bots.make_bot` between the agent's
steps. One hand per episode; the reward, at the end, is the seat's result in the game's unit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..hand import Hand
from ..ruleset import RuleSet
from .actions import ActionSpace, Composer
from .aec import Obs, observation_space
from .encoding import Encoder


class SeatEnv(gymnasium.Env[Obs, int]):
    """Play seat ``seat`` (``None``: a random seat each hand) against ``opponents``, bot names for
    the other seats in seat order (one name: the same bot everywhere), e.g. ``("rule",)``.

    ``reset(seed=s)`` deals the hand of seed ``s`` and seeds the bots from it; without a seed the
    next hand of the sequence. ``info["seat"]`` is the agent's seat.

    Every action of the space is accepted, as RL libraries expect: one the mask does not allow
    changes nothing and is answered with reward 0 and ``info["illegal"] = True``.
    :meth:`action_masks` gives the mask as sb3-contrib's ``MaskablePPO`` asks for it.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's own name)

    def __init__(
        self,
        rules: RuleSet | None = None,
        opponents: Sequence[str] = ("rule",),
        seat: int | None = 0,
        bot_options: dict[str, Any] | None = None,
    ) -> None:
        if len(opponents) not in (1, 3):
            raise ValueError("give one bot name for all three opponents, or three")
        if seat not in (None, 0, 1, 2, 3):
            raise ValueError(f"seat is 0–3 or None (random), not {seat!r}")
        self.rules = rules or RuleSet.baofen()
        self.opponents = tuple(opponents) * (3 if len(opponents) == 1 else 1)
        self.fixed_seat = seat
        self.bot_options = dict(bot_options or {})
        self.space = ActionSpace(self.rules)
        self.composer = Composer(self.space)
        self.encoder = Encoder(self.rules)
        self.observation_space = cast("spaces.Space[Obs]", observation_space(self.rules))
        self.action_space = cast("spaces.Space[int]", spaces.Discrete(self.space.size))
        self._deals = random.Random()
        self.seat = 0
        self.hand: Hand | None = None
        self.bots: dict[int, Bot] = {}
        self._mask = np.zeros(self.space.size, dtype=np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new hand and play the bots up to the agent's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._deals.seed(seed)
        deal = self._deals.getrandbits(63)
        self.seat = self._deals.randrange(4) if self.fixed_seat is None else self.fixed_seat
        self.hand = Hand(self.rules, seed=deal)
        self.composer.clear()
        others = [s for s in range(4) if s != self.seat]
        self.bots = {
            s: make_bot(name, seed=deal + s, **self.bot_options)
            for s, name in zip(others, self.opponents, strict=True)
        }
        self._play_bots()
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """One step of the agent's decision; the bots then play until the agent is to act."""
        hand = self._hand()
        if hand.result is not None:
            raise RuntimeError("the hand is over: call reset()")
        if not self._mask[int(action)]:
            return self._observe(), 0.0, False, False, {"seat": self.seat, "illegal": True}
        decided = self.composer.push(hand.observation(self.seat), int(action))
        if decided is not None:
            hand.apply(self.seat, decided)
            self._play_bots()
        done = hand.result is not None
        reward = float(hand.result.deltas[self.seat]) if hand.result is not None else 0.0
        return self._observe(), reward, done, False, {"seat": self.seat}

    def _play_bots(self) -> None:
        hand = self._hand()
        while hand.to_act is not None and hand.to_act != self.seat:
            seat = hand.to_act
            hand.apply(seat, self.bots[seat].act(hand.observation(seat)))

    def _observe(self) -> Obs:
        hand = self._hand()
        observation = hand.observation(self.seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[self.composer.allowed(observation)] = 1
        self._mask = mask
        vector = self.encoder.encode(observation, self.composer.selected, self.composer.trump)
        return {"observation": vector, "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """Which actions are allowed now (booleans, the observation's ``action_mask``)."""
        return self._mask.astype(bool)

    def _hand(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("call reset() before step()")
        return self.hand
