"""Gymnasium's own checker passes on every domain's environment, and ``make_vec`` gives N slots."""

from __future__ import annotations

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from tau_sim.simulator.gym import ENV_IDS, TauSimEnv, TauSimVectorEnv, env_id  # noqa: E402
from tests.simulator.gym.domains import domain_env, every_domain  # noqa: E402


@pytest.mark.parametrize("domain", every_domain())
def test_check_env_passes(domain: str) -> None:
    with domain_env(domain) as env:
        assert isinstance(env.unwrapped, TauSimEnv)
        check_env(env.unwrapped)
        assert env.unwrapped.spec is not None and env.unwrapped.spec.id == env_id(domain)


def test_every_domain_has_an_id_and_a_vector_form() -> None:
    assert "tau-sim/retail-v0" in ENV_IDS and "tau-sim/tau2-retail-v0" in ENV_IDS
    envs = gymnasium.make_vec("tau-sim/hotel-v0", num_envs=3)
    try:
        assert isinstance(envs.unwrapped, TauSimVectorEnv)
        observations, infos = envs.reset(seed=5)
        assert len(observations) == 3 and all(
            o in envs.single_observation_space for o in observations
        )
        assert observations in envs.observation_space
        assert list(infos["_task_id"]) == [True] * 3
    finally:
        envs.close()


def test_a_bad_option_is_one_line_naming_it() -> None:
    from tau_sim.simulator.core import UsageError

    with pytest.raises(UsageError, match="intensity"):
        gymnasium.make("tau-sim/retail-v0", emotion="anger", intensity="scorching")
    with pytest.raises(UsageError, match="no task 'nope'"):
        gymnasium.make("tau-sim/retail-v0", task="nope")
    with pytest.raises(UsageError, match="tier"):
        gymnasium.make("tau-sim/retail-v0", tier="medium")
    # the option's own name, never a `tau-sim run` flag; an unknown option is named, not a
    # TypeError from deep inside gymnasium.make
    with pytest.raises(UsageError, match=r"^max_steps must be at least 2 \(got 0\)$"):
        gymnasium.make("tau-sim/retail-v0", max_steps=0)
    with pytest.raises(UsageError, match=r"^seed must be at least 0"):
        gymnasium.make("tau-sim/retail-v0", seed=-1)
    with pytest.raises(UsageError, match=r"^nosuch: not an option of the environment \(known: "):
        gymnasium.make("tau-sim/retail-v0", nosuch=1)
    with pytest.raises(UsageError, match=r"^max_steps must be at least 2"):
        gymnasium.make_vec("tau-sim/retail-v0", num_envs=2, max_steps=1)


def test_an_action_that_is_not_text_is_refused_not_sent_to_the_user() -> None:
    env = gymnasium.make("tau-sim/retail-v0")
    try:
        first, _info = env.reset(seed=1)
        for action in (None, 42, {"content": "hi"}):
            with pytest.raises(TypeError, match="action: expected a string"):
                env.step(action)
        observation, *_ = env.step("Hello! How can I help you today?")
        assert "None" not in observation.split(first, 1)[-1]  # nothing of the refused ones
    finally:
        env.close()
    envs = gymnasium.make_vec("tau-sim/retail-v0", num_envs=2)
    try:
        envs.reset(seed=1)
        with pytest.raises(TypeError, match="got NoneType"):
            envs.step(("Hello!", None))
    finally:
        envs.close()


def test_an_environment_dropped_without_close_goes_quietly() -> None:
    """Garbage-collected unclosed (a failed script, a notebook cell run again): no "Exception
    ignored ... NoEventLoopError" from the coroutine that held its run open (pytest turns such
    unraisable exceptions into errors)."""
    import gc

    env = gymnasium.make("tau-sim/retail-v0")
    env.reset(seed=1)
    del env
    gc.collect()
    envs = gymnasium.make_vec("tau-sim/retail-v0", num_envs=2)
    envs.reset(seed=1)
    del envs
    gc.collect()
