"""What a ``--ray`` run needs before any actor starts: Ray itself and a run Ray can play.

``import_ray`` imports the ``tau-sim[ray]`` extra or says how to install it; ``check_run``
refuses a run whose providers or keys Ray actors could not use. Nothing here imports the
player, so the checks of a new run (``simulator.run.preparing``) stay below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.keys import SEALED_PREFIX
from tau_sim.simulator.grid.config import RunConfig

LOCAL = "local"
"""``RunConfig.ray`` of a run that starts its own local cluster (``--ray`` without address)."""
INSTALL = "pip install 'tau-sim[ray]'"
"""The command that installs Ray for ``--ray``."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a UsageError naming the command that installs it."""
    try:
        import ray
    except ImportError:
        raise UsageError(f"--ray: Ray is not installed; {INSTALL}") from None
    module: ModuleType = ray  # typed where Ray is installed, Any where it is not
    return module


def check_run(config: RunConfig, providers: Sequence[Any]) -> None:
    """Refuse, before anything starts, a Ray run that cannot work; a no-op without ``--ray``.

    Raises:
        UsageError: Ray is missing, a provider launches servers (one per actor would start),
            or a literal API key would have to be shipped to a running cluster's nodes.
    """
    if config.ray is None:
        return
    import_ray()
    for provider in providers:
        if getattr(provider, "launches_servers", False):
            raise UsageError(
                f"--ray: {provider.name} starts its own servers, which Ray actors cannot "
                "share; start them once and pass base_url=... (reachable from every node), "
                "or leave --ray out"
            )
    if config.ray == LOCAL:
        return
    for flag, table in (("--agent-arg", config.agent_options), ("--user-arg", config.user_options)):
        for name, options in table.items():
            if str(options.get("api_key_env") or "").startswith(SEALED_PREFIX):
                raise UsageError(
                    f"--ray {config.ray}: {name} was given a literal api_key, which is never "
                    "sent to a cluster's nodes; set the key in every node's environment and "
                    f"pass {flag} api_key_env=VAR"
                )
