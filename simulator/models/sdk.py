"""What the hosted-API providers share: lazy SDK imports, API keys, secret-free messages."""

from __future__ import annotations

import importlib
from types import ModuleType

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.keys import environ_key


def import_sdk(package: str, model: str) -> ModuleType:
    """Import an SDK; a missing one is a ``UsageError`` naming the extra (of the same name)."""
    try:
        return importlib.import_module(package)
    except ImportError:
        raise UsageError(
            f"{model}: the {package!r} package is not installed: pip install 'tau-sim[{package}]'"
        ) from None


def resolve_api_key(
    model: str, explicit: str | None, env_var: str, *, required: bool
) -> str | None:
    """The explicit API key, else ``$env_var`` (a sealed key first, see ``simulator.core.keys``).

    Missing and required is a ``UsageError``.
    """
    key = explicit or environ_key(env_var)
    if key is None and required:
        raise UsageError(
            f"{model}: no API key: set the environment variable {env_var} "
            f"(or name another one with api_key_env=VAR)"
        )
    return key


def redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` masked (error bodies may echo the key)."""
    if secret and len(secret) >= 4 and secret in text:
        return text.replace(secret, "***")
    return text


def short(text: str, limit: int = 300) -> str:
    """One line of at most ``limit`` characters, for error messages."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
