"""The env on the native core takes the same steps as the Python reference path: random agents
over both games (every phase: bids, trump and bury, leads, follows, throws), each step's
observation vector and action mask of every seat compared, then the step taken on both."""

from __future__ import annotations

import random

import numpy as np
import pytest

from baofen import RuleSet
from baofen.bots.engine import native, python, use
from baofen.env.aec import AGENTS, BaofenEnv, native_env_available
from baofen.errors import IllegalAction

pytestmark = pytest.mark.skipif(
    not native_env_available(),
    reason="the native core does not run (not built, or BAOFEN_ENGINE=python)",
)

PROFILES = [
    RuleSet.create(variant="baofen"),
    RuleSet.create(variant="hongwu"),
    RuleSet.create(variant="baofen", must_follow_structure=False, eight_of_a_kind=False),
]


def _same(native: BaofenEnv, python: BaofenEnv, where: str) -> None:
    assert native.agent_selection == python.agent_selection, where
    for agent in AGENTS:
        a, b = native.observe(agent), python.observe(agent)
        assert a["observation"].dtype == b["observation"].dtype, where
        assert a["action_mask"].dtype == b["action_mask"].dtype, where
        if not np.array_equal(a["observation"], b["observation"]):
            diff = np.flatnonzero(a["observation"] != b["observation"])
            raise AssertionError(f"{where} {agent}: encodings differ at {diff.tolist()}")
        assert np.array_equal(a["action_mask"], b["action_mask"]), (
            f"{where} {agent}: masks differ at "
            f"{np.flatnonzero(a['action_mask'] != b['action_mask']).tolist()}"
        )
    assert native.rewards == python.rewards, where
    assert native._cumulative_rewards == python._cumulative_rewards, where
    assert native.terminations == python.terminations, where


def _play(rules: RuleSet, seed: int, commit_rate: float) -> int:
    with use(native()):
        natively = BaofenEnv(rules)
    with use(python()):
        in_python = BaofenEnv(rules)
    return _compare(rules, seed, commit_rate, natively, in_python)


def _compare(rules: RuleSet, seed: int, commit_rate: float, native: BaofenEnv,
             python: BaofenEnv) -> int:
    native.reset(seed=seed)
    python.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    for agent in python.agent_iter():
        where = f"{rules.variant} seed {seed} step {steps}"
        _same(native, python, where)
        _, _, terminated, truncated, _ = python.last()
        if terminated or truncated:
            python.step(None)
            native.step(None)
            continue
        mask = python.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        # Commit soon (short plays, many tricks) or seldom (long selections, throws).
        action = 54 if 54 in legal and rng.random() < commit_rate else rng.choice(legal)
        if steps % 37 == 0:  # an illegal step is refused by both, changing nothing
            illegal = next(i for i in range(mask.size) if not mask[i])
            for env in (python, native):
                with pytest.raises(IllegalAction):
                    env.step(illegal)
        python.step(action)
        native.step(action)
        steps += 1
    assert native.hand is not None and python.hand is not None
    assert native.hand.to_record() == python.hand.to_record()
    return steps


@pytest.mark.parametrize("rules", PROFILES, ids=["baofen", "hongwu", "baofen-plain"])
def test_the_native_env_takes_the_python_envs_steps(rules: RuleSet) -> None:
    steps = 0
    for seed in range(12):
        steps += _play(rules, seed, commit_rate=0.5 if seed % 2 else 0.1)
    assert steps > 2000


def test_the_python_hand_of_a_native_env_follows_it_when_read() -> None:
    with use(native()):
        env = BaofenEnv(RuleSet.create(variant="hongwu"))
    env.reset(seed=5)
    rng = random.Random(5)
    totals = dict.fromkeys(AGENTS, 0.0)
    for n, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
        if n % 50 == 0:
            hand = env.hand
            assert hand is not None
            assert hand.to_act == (None if env.terminations[agent] else env._core.to_act)
    assert env.hand is not None and env.hand.result is not None
    assert [totals[a] for a in AGENTS] == list(env.hand.result.deltas)


def test_the_env_takes_its_steps_on_the_engine_in_use() -> None:
    with use(native()):
        assert BaofenEnv().engine == "native"
    with use(python()):
        assert BaofenEnv().engine == "python"
    assert BaofenEnv().engine == "native"
