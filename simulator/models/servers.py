"""Model providers whose model runs on servers that tau-sim starts itself.

``ServerModelProvider`` enters a ``ReplicaPool`` (or a ``StaticPool`` of fixed URLs) when it
is entered, hands every conversation the same OpenAI-compatible chat model bound to that pool,
and stops the servers when its ``async with`` block ends. ``vllm/…`` and ``local/…`` build on
it; ``server/NAME`` launches any OpenAI-compatible server command given as ``serve="… {port} …"``.

Each of them checks its own options into a typed struct, a ``StartupOptions`` (the launcher's
keys) with the provider's keys added (``provider_options``); the other keys go on to the
OpenAI-compatible client, and a key neither takes is an error that lists both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, Self, TypeVar

import anyio
import msgspec

from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.core.options import CommaList, ShellWords, convert_options
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.models.launcher import LaunchOptions, ReplicaPool, ReplicaSpec, StaticPool

if TYPE_CHECKING:
    from tau_sim.simulator.core.chat import ChatModel, EndpointPool
    from tau_sim.simulator.models.openai_provider import OpenAIChatModel

Pool = ReplicaPool | StaticPool

__all__ = [
    "Pool",
    "Seconds",
    "ServerModelProvider",
    "ServerOptions",
    "StartupOptions",
    "openai_model",
    "provider_options",
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
        context_window: the model's context in tokens, where the provider knows it (callers
            such as the LLM user keep their prompts inside it); None: unknown.
    """

    def __init__(
        self,
        name: str,
        pool: Pool,
        model: ChatModel,
        preflight: Callable[[], None] | None = None,
        *,
        context_window: int | None = None,
    ) -> None:
        self.name = name
        self.pool = pool
        self.model = model
        self.context_window = context_window
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
) -> OpenAIChatModel:
    """An OpenAI-compatible chat model for ``served_model`` that sends requests through ``pool``.

    ``args`` are the client's options (``temperature``, ``max_tokens``, ``max_connections`` …);
    an unknown one is a ``UsageError``.
    """
    from tau_sim.simulator.models.openai_provider import OpenAIChatModel

    options = dict(args)
    api_key = options.pop("api_key", None)
    return OpenAIChatModel(
        name,
        served_model,
        pool=pool,
        api_key=None if api_key is None else str(api_key),
        **options,
    )


# options ------------------------------------------------------------------------------------------

Seconds = Annotated[float, msgspec.Meta(gt=0.0)]
_O = TypeVar("_O", bound=msgspec.Struct)


class StartupOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Launcher settings of every provider that starts servers (``server``, ``vllm``, ``local``).

    Attributes:
        startup_timeout: seconds a replica may take to answer its health check; each provider
            sets its own default (a vLLM model loads for minutes).
        stop_grace: seconds between SIGTERM and SIGKILL when a replica is stopped.
        max_restarts: how often a replica that dies is restarted before it counts as failed.
        log_dir: the folder of the replicas' logs (default: a new temporary folder).
    """

    startup_timeout: Seconds = 120.0
    stop_grace: Seconds = 10.0
    max_restarts: Annotated[int, msgspec.Meta(ge=0)] = 10
    log_dir: str | None = None

    def launch_options(self, health_paths: tuple[str, ...]) -> LaunchOptions:
        """The launcher's settings, with the health paths of the provider's server."""
        return LaunchOptions(
            health_paths=health_paths,
            startup_timeout_s=self.startup_timeout,
            stop_grace_s=self.stop_grace,
            max_restarts=self.max_restarts,
            log_dir=Path(self.log_dir) if self.log_dir else None,
        )


def provider_options(
    args: Mapping[str, Any], cls: type[_O], name: str
) -> tuple[_O, dict[str, Any]]:
    """Split ``args`` into the provider's own options, typed as ``cls``, and the client's.

    The keys of ``cls`` are checked by ``convert_options``; the rest go to the OpenAI-compatible
    client (``OpenAIOptions`` and ``api_key``), which checks their values. A key that is neither
    is an ``OptionError`` listing every key the provider knows: its own, the launcher's (when
    ``cls`` is a ``StartupOptions``) and the client's.
    """
    from tau_sim.simulator.models.openai_provider import OpenAIOptions

    own = set(cls.__struct_fields__)
    client_keys = {*OpenAIOptions.__struct_fields__, "api_key"}
    client = {k: v for k, v in args.items() if k not in own}
    for key in client:
        if key not in client_keys:
            launcher = set(StartupOptions.__struct_fields__) & own
            known = [", ".join(sorted(own - launcher))]
            if launcher:
                known.append("launcher: " + ", ".join(sorted(launcher)))
            known.append("client: " + ", ".join(sorted(client_keys)))
            reason = f"unknown option {key!r} (known: {'; '.join(known)})"
            raise OptionError(f"{name}: {reason}", key, reason)
    options = convert_options({k: v for k, v in args.items() if k in own}, cls, name)
    return options, client


# server/NAME --------------------------------------------------------------------------------------


class ServerOptions(StartupOptions, frozen=True, kw_only=True):
    """Options of ``server/NAME`` beside the launcher's.

    Attributes:
        serve: the server command, with ``{port}`` and optionally ``{host}`` (a list, or one
            string split like a shell).
        replicas: how many copies of the server to start.
        health: the paths polled until a replica is healthy (a list, or comma-separated).
    """

    serve: ShellWords = ()
    replicas: Annotated[int, msgspec.Meta(ge=1)] = 1
    health: CommaList = ("/health", "/v1/models")


@MODELS.register("server")
def make_server_provider(model: str, args: dict[str, Any]) -> ServerModelProvider:
    """``server/NAME``: replicas of any OpenAI-compatible server command.

    Args: ``ServerOptions`` (``serve``, ``replicas``, ``health``) and ``StartupOptions``
    (``startup_timeout`` 120 s by default, ``stop_grace``, ``max_restarts``, ``log_dir``); the
    rest go to the OpenAI-compatible client. ``NAME`` is the model the requests ask for.
    """
    name = f"server/{model}"
    options, client_args = provider_options(args, ServerOptions, name)
    if not any("{port}" in a for a in options.serve):
        raise UsageError(f'{name}: give the server command as serve="... --port {{port}} ..."')
    health = options.health or ServerOptions().health
    spec = ReplicaSpec(argv=options.serve, name=model.replace("/", "_") or "server")
    pool = ReplicaPool([spec] * options.replicas, options.launch_options(health))
    return ServerModelProvider(name, pool, openai_model(name, model, pool, client_args))
