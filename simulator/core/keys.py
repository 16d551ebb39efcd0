"""API keys: used in memory, never stored, never written to a worker's stdin.

A model's key comes from an environment variable (``api_key_env=VAR``, or the provider's
default such as ``OPENAI_API_KEY``). A literal ``api_key=...`` (``--agent-arg``, a run file)
is *sealed* before the run's config goes anywhere: the key is kept in this process's memory
under a generated variable name (``TAU_SIM_API_KEY_<hex>``) and the options keep only
``api_key_env=<that name>``. Providers look the name up here first (``environ_key``); worker
processes get the sealed keys in their environment (``worker_environment``), so they read
them like any variable. The stored ``runs.config`` and every ``WorkOrder`` hold the name only,
and no other child process (a model server, say) is given the key.

A resumed run whose key was literal finds its generated variable unset (it lived in the
process that started the run): ``reattach_keys`` takes the key again from the command line
or refuses with a one-line error saying how to pass it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import Any

import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.grid.cells import RunConfig

SEALED_PREFIX = "TAU_SIM_API_KEY_"
"""Prefix of the environment variables that hold sealed literal keys."""
KEY_OPTIONS = frozenset({"api_key", "api_key_env"})
"""The options that say where a key comes from (the only ones ``--resume`` takes)."""
_sealed: dict[str, str] = {}
"""The keys sealed in this process, by variable name."""


def environ_key(name: str) -> str | None:
    """The key in variable ``name``: one sealed in this process, else the environment's."""
    return _sealed.get(name) or os.environ.get(name) or None


def worker_environment() -> dict[str, str] | None:
    """The environment of a worker process: this one's plus the sealed keys (None: none)."""
    return {**os.environ, **_sealed} if _sealed else None


def _seal(options: dict[str, Any]) -> dict[str, Any]:
    if "api_key" not in options:
        return options
    sealed = dict(options)
    key = sealed.pop("api_key")
    if key is None or key == "":
        return sealed
    name = SEALED_PREFIX + secrets.token_hex(6).upper()
    _sealed[name] = str(key)
    sealed["api_key_env"] = name
    return sealed


def seal_keys(config: RunConfig) -> RunConfig:
    """``config`` with every literal ``api_key`` sealed: replaced by a variable's name.

    A literal key wins over an ``api_key_env`` given beside it, as it does in the providers.
    """
    agents = {name: _seal(opts) for name, opts in config.agent_options.items()}
    users = {name: _seal(opts) for name, opts in config.user_options.items()}
    judge = _seal(config.judge_options)
    if (agents, users, judge) == (config.agent_options, config.user_options, config.judge_options):
        return config
    return msgspec.structs.replace(
        config, agent_options=agents, user_options=users, judge_options=judge
    )


def reattach_keys(
    config: RunConfig,
    run_id: str,
    agent_keys: Mapping[str, Any],
    user_keys: Mapping[str, Any],
    judge_keys: Mapping[str, Any] | None = None,
) -> RunConfig:
    """A stored config whose sealed keys are found again: in the environment or given anew.

    ``agent_keys``/``user_keys`` are ``api_key``/``api_key_env`` from ``--agent-arg`` and
    ``--user-arg``; they apply to every model of their role that needs its key again;
    ``judge_keys`` (``--judge-arg``) to the run's judge.

    Raises:
        UsageError: a model needs its literal key again and none was given.
    """

    def fix(
        table: dict[str, dict[str, Any]], given: Mapping[str, Any], flag: str
    ) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for name, options in table.items():
            env = str(options.get("api_key_env") or "")
            sealed = env.startswith(SEALED_PREFIX)
            if sealed and given:
                options = {k: v for k, v in options.items() if k != "api_key_env"} | dict(given)
            elif sealed and environ_key(env) is None:
                raise UsageError(
                    f"--resume {run_id}: {name} was given a literal api_key, which is never "
                    f"stored; pass it again: {flag} api_key=... (or {flag} api_key_env=VAR)"
                )
            out[name] = options
        return out

    agents = fix(config.agent_options, agent_keys, "--agent-arg")
    users = fix(config.user_options, user_keys, "--user-arg")
    judge = config.judge_options
    if config.judge is not None:
        judge = fix({config.judge: judge}, judge_keys or {}, "--judge-arg")[config.judge]
    config = msgspec.structs.replace(
        config, agent_options=agents, user_options=users, judge_options=judge
    )
    return seal_keys(config)
