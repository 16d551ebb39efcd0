"""Model providers whose model runs on servers that tau-sim starts itself.

``ServerModelProvider`` enters a ``ReplicaPool`` (or a ``StaticPool`` of fixed URLs) when it
is entered, hands every conversation the same OpenAI-compatible chat model bound to that pool,
and stops the servers when its ``async with`` block ends. ``vllm/…`` and ``local/…`` build on
it; ``server/NAME`` launches any OpenAI-compatible server command given as ``serve="… {port} …"``.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import anyio

from simulator.errors import OptionError, UsageError
from simulator.models.launcher import LaunchOptions, ReplicaPool, ReplicaSpec, StaticPool
from simulator.registry import MODELS

if TYPE_CHECKING:
    from simulator.chat import ChatModel, EndpointPool

Pool = ReplicaPool | StaticPool

__all__ = [
    "ServerModelProvider",
    "launch_options",
    "openai_model",
    "pop_float",
    "pop_int",
    "pop_list",
    "pop_str",
]


class ServerModelProvider:
    """A ``ModelProvider`` whose conversations share one model bound to a pool of servers.

    The pool and the model are made with the provider (options are checked before the run);
    nothing is spawned before it is entered.

    Args:
        name: the full model name (``vllm/Qwen/Qwen3-8B``).
        pool: the servers (a ``ReplicaPool`` to start, or a ``StaticPool`` of fixed URLs).
        model: the chat model that sends its requests through ``pool``.
        preflight: checks run on entering, before anything is spawned (missing executables).
    """

    def __init__(
        self,
        name: str,
        pool: Pool,
        model: ChatModel,
        preflight: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.pool = pool
        self.model = model
        self._preflight = preflight

    @property
    def launches_servers(self) -> bool:
        """Whether entering spawns server processes (worker processes cannot share them)."""
        return isinstance(self.pool, ReplicaPool)

    async def __aenter__(self) -> Self:
        """Start the servers and wait until they are healthy."""
        if self._preflight is not None:
            self._preflight()
        await self.pool.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        """Close the clients, then stop every server."""
        try:
            with anyio.CancelScope(shield=True):
                await self.model.aclose()
        finally:
            result = await self.pool.__aexit__(exc_type, exc, tb)
        return result

    def for_conversation(self, conversation_id: str, role: str) -> ChatModel:
        """The shared model (one client per replica, one pool) for every conversation."""
        return self.model


def openai_model(
    name: str, served_model: str, pool: EndpointPool, args: dict[str, Any]
) -> ChatModel:
    """An OpenAI-compatible chat model for ``served_model`` that sends requests through ``pool``.

    ``args`` are the client's options (``temperature``, ``max_tokens``, ``max_connections`` …);
    an unknown one is a ``UsageError``.
    """
    from simulator.models.openai_provider import OpenAIChatModel

    options = dict(args)
    api_key = options.pop("api_key", None)
    model: ChatModel = OpenAIChatModel(
        name,
        served_model,
        pool=pool,
        api_key=None if api_key is None else str(api_key),
        **options,
    )
    return model


# arguments ---------------------------------------------------------------------------------------


def pop_str(args: dict[str, Any], key: str, default: str | None = None) -> str | None:
    """Remove and return a string argument."""
    value = args.pop(key, default)
    return None if value is None else str(value)


def pop_int(args: dict[str, Any], key: str, default: int, minimum: int = 0) -> int:
    """Remove and return an integer argument (``UsageError`` when it is not one)."""
    value = args.pop(key, default)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"model argument {key}={value!r} is not an integer") from None
    if number < minimum:
        raise OptionError(f"model argument {key}={number} must be at least {minimum}")
    return number


def pop_float(args: dict[str, Any], key: str, default: float) -> float:
    """Remove and return a number argument (``UsageError`` when it is not one)."""
    value = args.pop(key, default)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise OptionError(f"model argument {key}={value!r} is not a number") from None
    if number <= 0:
        raise OptionError(f"model argument {key}={number:g} must be positive")
    return number


def pop_list(args: dict[str, Any], key: str, *, shell: bool = False) -> list[str] | None:
    """Remove and return a list argument: a TOML list, or a string split on commas or shell-like."""
    value = args.pop(key, None)
    if value is None:
        return None
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    text = str(value)
    if shell:
        return shlex.split(text)
    return [part.strip() for part in text.split(",") if part.strip()]


def launch_options(
    args: dict[str, Any], *, startup_timeout_s: float, **fixed: Any
) -> LaunchOptions:
    """Launcher settings from the model arguments (``startup_timeout``, ``log_dir`` …)."""
    log_dir = pop_str(args, "log_dir")
    return LaunchOptions(
        startup_timeout_s=pop_float(args, "startup_timeout", startup_timeout_s),
        stop_grace_s=pop_float(args, "stop_grace", 10.0),
        max_restarts=pop_int(args, "max_restarts", 10),
        log_dir=Path(log_dir) if log_dir else None,
        **fixed,
    )


# server/NAME --------------------------------------------------------------------------------------


@MODELS.register("server")
def make_server_provider(model: str, args: dict[str, Any]) -> ServerModelProvider:
    """``server/NAME``: replicas of any OpenAI-compatible server command.

    Args: ``serve`` (the command, with ``{port}`` and optionally ``{host}``), ``replicas``,
    ``health`` (comma-separated paths), ``startup_timeout``, ``stop_grace``, ``max_restarts``,
    ``log_dir``; the rest go to the OpenAI-compatible client. ``NAME`` is the model the requests
    ask for.
    """
    args = dict(args)
    argv = pop_list(args, "serve", shell=True)
    if not argv or not any("{port}" in a for a in argv):
        raise UsageError(
            f'server/{model}: give the server command as serve="... --port {{port}} ..."'
        )
    replicas = pop_int(args, "replicas", 1, minimum=1)
    health = pop_list(args, "health") or ["/health", "/v1/models"]
    options = launch_options(args, startup_timeout_s=120.0, health_paths=tuple(health))
    spec = ReplicaSpec(argv=tuple(argv), name=model.replace("/", "_") or "server")
    name = f"server/{model}"
    pool = ReplicaPool([spec] * replicas, options)
    return ServerModelProvider(name, pool, openai_model(name, model, pool, args))
