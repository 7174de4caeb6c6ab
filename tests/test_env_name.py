"""The environment's versioned name, PettingZoo's way: ``baofen_v1`` gives ``raw_env`` and a
wrapped ``env()``, and an older version's name is refused with an error naming the current one."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test
from pettingzoo.utils.deprecated_module import DeprecatedEnv

import baofen.env
from baofen import RuleSet
from baofen.env import BaofenEnv, baofen_v1


def test_the_current_version_names_itself() -> None:
    assert baofen_v1.NAME == "baofen_v1"
    assert BaofenEnv.metadata["name"] == baofen_v1.NAME
    assert baofen_v1.raw_env is BaofenEnv


def test_env_wraps_the_raw_env_in_the_order_check() -> None:
    env = baofen_v1.env(RuleSet.hongwu())
    assert isinstance(env.unwrapped, BaofenEnv)
    assert env.unwrapped.rules == RuleSet.hongwu()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    env.reset(seed=7)
    raw = baofen_v1.raw_env(RuleSet.hongwu())
    raw.reset(seed=7)
    assert env.agent_selection == raw.agent_selection
    assert (env.observe(env.agent_selection)["observation"]
            == raw.observe(raw.agent_selection)["observation"]).all()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_wrapped_env_passes_the_api_test() -> None:
    api_test(baofen_v1.env(), num_cycles=30)


def test_an_older_version_is_refused_naming_the_current_one() -> None:
    from baofen.env import baofen_v0  # type: ignore[attr-defined]

    for make in (baofen_v0.env, baofen_v0.raw_env):
        with pytest.raises(DeprecatedEnv, match="baofen_v0 is now deprecated, use baofen_v1"):
            make()


def test_other_names_are_not_found() -> None:
    with pytest.raises(AttributeError):
        _ = baofen.env.baofen_vx  # type: ignore[attr-defined]
    with pytest.raises(ImportError):
        from baofen.env import baofen_v1_old  # type: ignore[attr-defined]  # noqa: F401
