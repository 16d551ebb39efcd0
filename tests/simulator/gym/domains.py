"""Every registered domain as an environment the tests can make.

Our domains play with the scripted user; τ²-bench's (free-text scenarios, which the scripted
user cannot read) with an LLM user on the benchmark's plausible OpenAI-compatible server
(127.0.0.1), on their first tasks only. The τ² ones skip where τ²-bench is not installed,
unless ``TAU_SIM_REQUIRE_TAU2`` is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

import gymnasium  # noqa: E402

from tau_sim.simulator.core.registry import DOMAINS  # noqa: E402
from tau_sim.simulator.gym import env_id  # noqa: E402
from tests.domains.tau2.needs import require_tau2  # noqa: E402
from tests.helpers.servers import plausible_server  # noqa: E402

TAU2_TASKS = 3
"""How many tasks of a τ²-bench domain an environment test plays (their gold replays cost)."""


def every_domain() -> list[Any]:
    """Every registered domain, a test parameter each (τ²-bench's marked ``tau2``)."""
    return [
        pytest.param(name, id=name, marks=[pytest.mark.slow] if name.startswith("tau2/") else [])
        for name in DOMAINS.names()
    ]


@contextmanager
def domain_env(domain: str, **options: Any) -> Iterator[gymnasium.Env[str, str]]:
    """``domain``'s environment with a user that can play its scenarios, closed after."""
    if domain.startswith("tau2/"):
        require_tau2()
        built = DOMAINS.get(domain)()
        tasks = [t.id for t in built.tasks[:TAU2_TASKS]]
        # the key from the environment: `check_users` builds the user without its options
        # (so `api_key=` in them is not seen there; the CLI's `--user-arg api_key=` alike)
        saved = os.environ.get("OPENAI_API_KEY")
        os.environ["OPENAI_API_KEY"] = "test"
        try:
            with plausible_server(user_turns=3) as server:
                env = gymnasium.make(
                    env_id(domain),
                    task=tasks,
                    user="openai/fake",
                    user_options={"base_url": f"{server.url}/v1"},
                    **options,
                )
                try:
                    yield env
                finally:
                    env.close()
        finally:
            if saved is None:
                os.environ.pop("OPENAI_API_KEY", None)
            else:
                os.environ["OPENAI_API_KEY"] = saved
        return
    env = gymnasium.make(env_id(domain), **options)
    try:
        yield env
    finally:
        env.close()
