"""A run's API keys: its literal keys sealed before the config goes anywhere, found again on resume.

A literal ``api_key=...`` (``--agent-arg``, a run file) is replaced in the ``RunConfig`` by
the name of a variable that holds it in this process only (``simulator.core.keys``), so
neither the stored ``runs.config`` nor a ``WorkOrder`` holds a key. A resumed run whose key was
literal finds its generated variable unset (it lived in the process that started the run):
``reattach_keys`` takes the key again from the command line or refuses with a one-line error
saying how to pass it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.keys import SEALED_PREFIX, environ_key, seal_options
from tau_sim.simulator.grid.config import RunConfig


def seal_keys(config: RunConfig) -> RunConfig:
    """``config`` with every literal ``api_key`` sealed: replaced by a variable's name.

    A literal key wins over an ``api_key_env`` given beside it, as it does in the providers.
    """
    agents = {name: seal_options(opts) for name, opts in config.agent_options.items()}
    users = {name: seal_options(opts) for name, opts in config.user_options.items()}
    judge = seal_options(config.judge_options)
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
