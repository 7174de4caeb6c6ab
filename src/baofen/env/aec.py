"""The PettingZoo AEC environment: one hand of 包分 or 包红五 per episode, four agents.

Agents ``player_0`` … ``player_3`` are seats 0–3. Each observation is a dict: ``observation``,
the seat's encoding (:mod:`baofen.env.encoding`), and ``action_mask``, the legal steps of the
discrete action space (:mod:`baofen.env.actions`; all zeros for a seat that is not to act). A
decision of several steps (a bury, a play of several cards) keeps the same agent selected until
it is complete. Rewards come at the end of the hand: each seat's result in the game's unit
(包分 score points, 包红五 levels), :attr:`baofen.HandResult.deltas`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalAction
from ..hand import Hand
from ..ruleset import RuleSet
from .actions import ActionSpace, Composer
from .encoding import HIGH, Encoder, size_of

AGENTS = tuple(f"player_{seat}" for seat in range(4))
"""Agent names; ``player_s`` sits at seat ``s``."""

Obs = dict[str, npt.NDArray[Any]]


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
    ``render()`` with ``render_mode="ansi"`` returns the hand as text.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "baofen_v0", "is_parallelizable": False,
    }

    def __init__(self, rules: RuleSet | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules = rules or RuleSet.baofen()
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
        self.hand: Hand | None = None

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
        self.hand = Hand(self.rules, seed=deal)
        self.composer.clear()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        assert self.hand.to_act is not None
        self.agent_selection = AGENTS[self.hand.to_act]

    def observe(self, agent: str) -> Obs:
        """``agent``'s encoding and action mask."""
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

    def render(self) -> str | None:
        """The hand as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.hand is None:
            return None
        hand = self.hand
        lines = [repr(hand)]
        lines += [f"seat {s}: {' '.join(map(str, hand.hand_of(s)))}" for s in range(4)]
        lines += [f"current trick: {list(hand.current_trick)}"]
        selected = self.composer.selected
        if selected:
            lines.append("selected: " + " ".join(self.space.describe(c) for c in selected))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    def _hand(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("call reset() before using the environment")
        return self.hand


def env(rules: RuleSet | None = None, render_mode: str | None = None) -> BaofenEnv:
    """A new environment (PettingZoo's usual constructor name)."""
    return BaofenEnv(rules, render_mode)
