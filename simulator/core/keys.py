"""API keys: used in memory, never stored, never written to a worker's stdin.

A model's key comes from an environment variable (``api_key_env=VAR``, or the provider's
default such as ``OPENAI_API_KEY``). A literal ``api_key=...`` (``--agent-arg``, a run file)
is *sealed* before the run's config goes anywhere: the key is kept in this process's memory
under a generated variable name (``TAU_SIM_API_KEY_<hex>``) and the options keep only
``api_key_env=<that name>``. Providers look the name up here first (``environ_key``); worker
processes get the sealed keys in their environment (``worker_environment``), so they read
them like any variable. The stored ``runs.config`` and every ``WorkOrder`` hold the name only,
and no other child process (a model server, say) is given the key.

A run's config is sealed, and a resumed one's keys found again, by ``simulator.grid.keys``
(``seal_keys``, ``reattach_keys``), which acts on a ``RunConfig`` with ``seal_options``.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

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


def seal_options(options: dict[str, Any]) -> dict[str, Any]:
    """One model's ``options`` with its literal ``api_key`` sealed (the same table if none).

    The key is kept in this process under a generated variable name, which replaces it as
    ``api_key_env``; an empty key is dropped. A run's whole config: ``simulator.grid.keys``.
    """
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
