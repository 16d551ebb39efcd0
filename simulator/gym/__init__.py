"""Gymnasium environments over the engine's actors, for training agents by reinforcement learning.

Importing this package registers ``tau-sim/<domain>-v0`` for every registered domain (a
``tau2/<name>`` domain as ``tau-sim/tau2-<name>-v0``; making one needs τ²-bench's package):
``gymnasium.make`` gives a ``TauSimEnv`` (one conversation at a time), ``gymnasium.make_vec``
a ``TauSimVectorEnv`` (N on one event loop). ``Rollouts`` is the async form under both, for a
trainer with its own event loop; ``TauSimToolEnv`` is the shape of TRL's
``environment_factory``. The agent is the policy behind a ``Seat``: the engine, the user, the
referee and the evaluator are those of ``tau-sim run``. Needs ``tau-sim[gym]``.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        f"tau_sim.simulator.gym needs Gymnasium ({exc}): pip install 'tau-sim[gym]'"
    ) from None

from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.gym.env import TauSimEnv
from tau_sim.simulator.gym.options import rollout_config
from tau_sim.simulator.gym.rollouts import Episode, Rollouts, Turn
from tau_sim.simulator.gym.seat import BACKEND, Seat
from tau_sim.simulator.gym.trl import TauSimToolEnv, close_tool_env, tool_env_factory
from tau_sim.simulator.gym.vector import TauSimVectorEnv
from tau_sim.simulator.gym.wire import (
    chat_messages,
    decode_action,
    decode_observation,
    encode_action,
)

NAMESPACE = "tau-sim"
"""The namespace of the environment ids."""


def env_id(domain: str) -> str:
    """The Gymnasium id of a domain (``tau2/retail``: ``tau-sim/tau2-retail-v0``)."""
    return f"{NAMESPACE}/{domain.replace('/', '-')}-v0"


def register_domains() -> list[str]:
    """Register an environment id for every registered domain not registered yet; every id."""
    ids = []
    for domain in DOMAINS.names():
        ids.append(env_id(domain))
        if ids[-1] in gymnasium.registry:
            continue
        gymnasium.register(
            id=ids[-1],
            entry_point="tau_sim.simulator.gym.env:TauSimEnv",
            vector_entry_point="tau_sim.simulator.gym.vector:TauSimVectorEnv",
            kwargs={"domain": domain},
        )
    return ids


ENV_IDS = register_domains()
"""The ids registered on import."""

__all__ = [
    "BACKEND",
    "ENV_IDS",
    "NAMESPACE",
    "Episode",
    "Rollouts",
    "Seat",
    "TauSimEnv",
    "TauSimToolEnv",
    "TauSimVectorEnv",
    "Turn",
    "chat_messages",
    "close_tool_env",
    "decode_action",
    "decode_observation",
    "encode_action",
    "env_id",
    "register_domains",
    "rollout_config",
    "tool_env_factory",
]
