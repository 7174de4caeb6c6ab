"""SeatEnv as RL libraries expect it: Gymnasium's own environment checker
passes in both games, any action of the space is accepted (one the mask does not allow changes
nothing and says so), and sb3-contrib's MaskablePPO trains on it with ``action_masks()``."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from sb3_contrib import MaskablePPO

from baofen import RuleSet
from baofen.env import SeatEnv

GAMES = [RuleSet.baofen(), RuleSet.hongwu()]


@pytest.mark.parametrize("rules", GAMES, ids=["baofen", "hongwu"])
def test_gymnasiums_checker_passes(rules: RuleSet) -> None:
    check_env(SeatEnv(rules, opponents=("random",)), skip_render_check=True)


@pytest.mark.parametrize("rules", GAMES, ids=["baofen", "hongwu"])
def test_an_action_the_mask_refuses_changes_nothing(rules: RuleSet) -> None:
    env = SeatEnv(rules, opponents=("random",))
    observation, _ = env.reset(seed=3)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.any()
    assert np.array_equal(mask, observation["action_mask"].astype(bool))
    refused = int(np.flatnonzero(~mask)[0])
    before = env.hand.to_record() if env.hand is not None else None
    again, reward, done, truncated, info = env.step(refused)
    assert info == {"seat": env.seat, "illegal": True}
    assert (reward, done, truncated) == (0.0, False, False)
    assert env.hand is not None and env.hand.to_record() == before
    for key in ("observation", "action_mask"):
        assert np.array_equal(again[key], observation[key])
    allowed = int(np.flatnonzero(mask)[0])
    assert "illegal" not in env.step(allowed)[4]


def test_masked_ppo_trains_and_plays_only_allowed_actions() -> None:
    env = SeatEnv(RuleSet.baofen(), opponents=("random",))
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=128)
    observation, _ = env.reset(seed=11)
    for _ in range(40):
        action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
        observation, _, done, _, info = env.step(int(action))
        assert "illegal" not in info
        if done:
            break
