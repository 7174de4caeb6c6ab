"""The PettingZoo AEC environment: one hand of 包分 or 包红五 per episode, four agents.

Agents ``player_0`` … ``player_3`` are seats 0–3. Each observation is a dict: ``observation``,
the seat's encoding (:mod:`baofen.env.encoding`), and ``action_mask``, the legal steps of the
discrete action space (:mod:`baofen.env.actions`; all zeros for a seat that is not to act). A
decision of several steps (a bury, a play of several cards) keeps the same agent selected until
it is complete. Rewards come at the end of the hand: each seat's result in the game's unit
(包分 score points, 包红五 levels), :attr:`baofen.HandResult.deltas`.

Where the engine in use is the native core (:mod:`baofen.bots.engine`), the steps, masks and
encodings are computed natively (``src/baofen/_native/env.cpp``, the same values:
``tests/test_env_native.py``) and :attr:`BaofenEnv.hand`, the Python :class:`~baofen.Hand`, is
brought up to date only when it is read; with the Python engine (``BAOFEN_ENGINE=python``) the
env takes the Python reference path.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from .._native import EngineName
from ..bots.engine import EnvCore, current
from ..errors import IllegalAction
from ..hand import Hand
from ..ruleset import RuleSet
from .actions import ActionSpace, Composer
from .encoding import HIGH, PIECES, Encoder, size_of

AGENTS = tuple(f"player_{seat}" for seat in range(4))
"""Agent names; ``player_s`` sits at seat ``s``."""
_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


def _seat(agent: str) -> int:
    seat = _SEATS.get(agent)
    return AGENTS.index(agent) if seat is None else seat  # ValueError for an unknown agent

Obs = dict[str, npt.NDArray[Any]]


def native_env_available() -> bool:
    """True when the engine in use takes the env's steps natively: the native core, writing the
    pieces :data:`~baofen.env.encoding.PIECES` declares (else the env runs the Python path)."""
    return _env_core(RuleSet.baofen()) is not None


def _env_core(rules: RuleSet) -> EnvCore | None:
    return current().env_core(rules, tuple(piece.name for piece in PIECES))


def observation_space(rules: RuleSet) -> spaces.Dict:
    """The observation space of one agent for ``rules``."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, HIGH, shape=(size_of(rules),), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(ActionSpace(rules).size,), dtype=np.int8),
    })


class BaofenEnv(AECEnv):  # type: ignore[misc]
    """One hand per episode of the game ``rules`` (any :class:`~baofen.RuleSet`).

    ``reset(seed=s)`` deals the hand of seed ``s`` (the same deal as ``Hand(rules, seed=s)``);
    ``reset()`` without a seed deals the next hand of a sequence drawn from the last seed given.
    ``render()`` with ``render_mode="ansi"`` returns the hand as text. The steps are taken by
    the engine in use when it is made (:attr:`engine`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "baofen_v1", "is_parallelizable": False,
    }

    def __init__(self, rules: RuleSet | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules = rules or RuleSet.baofen()
        self._env_core = _env_core(self.rules)
        self.engine: EngineName = "native" if self._env_core is not None else "python"
        """Which engine takes the steps."""
        self.render_mode = render_mode
        self.space = ActionSpace(self.rules)
        self.composer = Composer(self.space)
        self.encoder = Encoder(self.rules)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs_space = observation_space(self.rules)
        act_space = spaces.Discrete(self.space.size)
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, act_space)
        self._deals = random.Random()
        self._hand_now: Hand | None = None
        self._seed: int | None = None
        # The native path: the native env of the hand, the steps taken (seat, index), and how
        # many of them the Python hand has had.
        self._core: Any = None
        self._steps: list[tuple[int, int]] = []
        self._replayed = 0

    @property
    def hand(self) -> Hand | None:
        """The hand being played (``None`` before the first reset). With the native engine it
        is brought up to date when read (the steps since the last read replayed)."""
        hand = self._hand_now
        if hand is None and self._seed is not None:
            hand = self._hand_now = Hand(self.rules, seed=self._seed)
        if hand is not None and self._replayed < len(self._steps):
            composer = self.composer
            for seat, index in self._steps[self._replayed:]:
                decided = composer.push(hand.observation(seat), index)
                if decided is not None:
                    hand.apply(seat, decided)
            self._replayed = len(self._steps)
        return hand

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand: that of ``seed``, or the next of the sequence."""
        if seed is not None:
            self._deals.seed(seed)
            deal = seed
        else:
            deal = self._deals.getrandbits(63)
        self.composer.clear()
        self._steps = []
        self._replayed = 0
        self._seed = deal
        if self._env_core is not None:
            # The deal of Hand(rules, seed=deal), dealt natively; the Python hand waits until
            # it is read.
            self._hand_now = None
            self._core = core = self._env_core(deal)
            to_act = core.to_act
        else:
            hand = self._hand_now = Hand(self.rules, seed=deal)
            assert hand.to_act is not None
            to_act = hand.to_act
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[to_act]

    def observe(self, agent: str) -> Obs:
        """``agent``'s encoding and action mask."""
        core = self._core
        if core is not None:
            observed: Obs = core.observe(_seat(agent))
            return observed
        hand = self._hand()
        seat = AGENTS.index(agent)
        observation = hand.observation(seat)
        composer = self.composer
        mask = np.zeros(self.space.size, dtype=np.int8)
        if seat == hand.to_act:
            mask[composer.allowed(observation)] = 1
            vector = self.encoder.encode(observation, composer.selected, composer.trump)
        else:
            vector = self.encoder.encode(observation)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Take one step for the selected agent (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to act: None is the step of a finished agent")
        if self._core is not None:
            self._native_step(agent, int(action))
            return
        hand = self._hand()
        seat = AGENTS.index(agent)
        decided = self.composer.push(hand.observation(seat), int(action))
        self._cumulative_rewards[agent] = 0.0
        if decided is not None:
            hand.apply(seat, decided)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if hand.result is not None:
            for s, name in enumerate(AGENTS):
                self.rewards[name] = float(hand.result.deltas[s])
                self.terminations[name] = True
            self.agent_selection = AGENTS[(seat + 1) % 4]
        else:
            assert hand.to_act is not None
            self.agent_selection = AGENTS[hand.to_act]
        self._accumulate_rewards()

    def _native_step(self, agent: str, index: int) -> None:
        core = self._core
        seat = _seat(agent)
        to_act = core.step(seat, index) if 0 <= index < self.space.size else -1
        if to_act < 0:
            name = self.space.describe(index) if 0 <= index < self.space.size else repr(index)
            raise IllegalAction(f"action {index} ({name}) is not allowed now")
        self._steps.append((seat, index))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if to_act < 4:
            # Rewards of zero: _accumulate_rewards would add 0.0 to every agent's total.
            self.agent_selection = AGENTS[to_act]
            return
        deltas = core.deltas()
        for s, name in enumerate(AGENTS):
            self.rewards[name] = float(deltas[s])
            self.terminations[name] = True
        self.agent_selection = AGENTS[(seat + 1) % 4]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The hand as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        hand = self.hand
        if hand is None:
            return None
        lines = [repr(hand)]
        lines += [f"seat {s}: {' '.join(map(str, hand.hand_of(s)))}" for s in range(4)]
        lines += [f"current trick: {list(hand.current_trick)}"]
        selected = self.composer.selected if self._core is None else self._core.selected
        if selected:
            lines.append("selected: " + " ".join(self.space.describe(c) for c in selected))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    def _hand(self) -> Hand:
        hand = self.hand
        if hand is None:
            raise RuntimeError("call reset() before using the environment")
        return hand


def env(rules: RuleSet | None = None, render_mode: str | None = None) -> BaofenEnv:
    """A new environment (PettingZoo's usual constructor name)."""
    return BaofenEnv(rules, render_mode)
