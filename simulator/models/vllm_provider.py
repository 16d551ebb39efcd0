"""``vllm/MODEL``: an existing vLLM endpoint, or vLLM servers that tau-sim starts and balances.

With ``base_url=...`` (one URL or several, comma-separated) the model talks to servers someone
else runs. Otherwise tau-sim starts ``vllm serve MODEL`` once per GPU, or once per
tensor-parallel group (``gpus=0,1,2,3 tp=2`` → two replicas on GPUs 0,1 and 2,3), with the
tool-call parser of the model family, and balances requests over the replicas.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.options import CommaList, ShellWords
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.models.launcher import ReplicaPool, ReplicaSpec, StaticPool
from tau_sim.simulator.models.servers import (
    Seconds,
    ServerModelProvider,
    StartupOptions,
    openai_model,
    provider_options,
)

# (fragment of the lower-cased model name, vLLM --tool-call-parser); the first match wins, so
# specific names come before the families they contain (Qwen3-Coder before Qwen3, xLAM before
# Llama). Source: vLLM docs, features/tool_calling.
TOOL_PARSERS: tuple[tuple[str, str], ...] = (
    ("qwen3-coder", "qwen3_xml"),
    ("xlam", "xlam"),
    ("hermes", "hermes"),
    ("qwen3", "hermes"),
    ("qwen2.5", "hermes"),
    ("qwq", "hermes"),
    ("llama-4", "llama4_pythonic"),
    ("llama-3.1", "llama3_json"),
    ("llama-3.2", "llama3_json"),
    ("llama-3.3", "llama3_json"),
    ("mistral", "mistral"),
    ("mixtral", "mistral"),
    ("ministral", "mistral"),
    ("granite-4", "granite4"),
    ("granite-20b-functioncalling", "granite-20b-fc"),
    ("granite-3", "granite"),
    ("internlm2", "internlm"),
    ("jamba", "jamba"),
    ("deepseek-v3.1", "deepseek_v31"),
    ("deepseek-v3", "deepseek_v3"),
    ("deepseek-r1-0528", "deepseek_v3"),
    ("gpt-oss", "openai"),
    ("kimi-k2", "kimi_k2"),
    ("glm-4.5", "glm45"),
    ("glm-4.6", "glm45"),
    ("glm-4.7", "glm47"),
    ("hunyuan-a13b", "hunyuan_a13b"),
    ("functiongemma", "functiongemma"),
    ("olmo-3", "olmo3"),
    ("toolace", "pythonic"),
)

# (fragment, vLLM --reasoning-parser) for thinking models, so that their reasoning arrives apart
# from the answer (kept in the log, never shown to the other party). Source: vLLM docs,
# features/reasoning_outputs.
REASONING_PARSERS: tuple[tuple[str, str | None], ...] = (
    ("qwen3-coder", None),
    ("instruct-2507", None),  # the Qwen3 2507 instruct models do not think
    ("qwen3", "qwen3"),
    ("qwq", "deepseek_r1"),
    ("deepseek-r1", "deepseek_r1"),
    ("glm-4.5", "glm45"),
    ("glm-4.6", "glm45"),
)

_NONE = {"", "none", "off", "false"}


def _lookup(table: Sequence[tuple[str, str | None]], model: str) -> str | None:
    key = Path(model).name.lower().replace("_", "-")
    for fragment, value in table:
        if fragment in key:
            return value
    return None


def tool_parser_for(model: str) -> str | None:
    """The vLLM tool-call parser of a model's family, or ``None`` when the family is unknown."""
    return _lookup(TOOL_PARSERS, model)


def reasoning_parser_for(model: str) -> str | None:
    """The vLLM reasoning parser of a thinking model's family, or ``None``."""
    return _lookup(REASONING_PARSERS, model)


def visible_gpus() -> list[str]:
    """GPU ids this process may use: ``CUDA_VISIBLE_DEVICES``, else every NVIDIA GPU found."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return [g.strip() for g in env.split(",") if g.strip()]
    found = Path("/proc/driver/nvidia/gpus")
    count = len(list(found.iterdir())) if found.is_dir() else 0
    return [str(i) for i in range(max(count, 1))]


def vllm_replicas(
    model: str,
    *,
    gpus: Sequence[str],
    tp: int = 1,
    tool_parser: str,
    reasoning_parser: str | None = None,
    extra: Sequence[str] = (),
    executable: str = "vllm",
) -> list[ReplicaSpec]:
    """One ``vllm serve`` command per tensor-parallel group of ``gpus``.

    Raises:
        UsageError: the GPUs do not split into groups of ``tp``.
    """
    if tp < 1 or not gpus or len(gpus) % tp:
        raise UsageError(
            f"vllm/{model}: {len(gpus)} GPU(s) ({','.join(gpus)}) do not split into "
            f"tensor-parallel groups of tp={tp}"
        )
    argv = [executable, "serve", model, "--host", "{host}", "--port", "{port}"]
    argv += ["--enable-auto-tool-choice", "--tool-call-parser", tool_parser]
    if reasoning_parser:
        argv += ["--reasoning-parser", reasoning_parser]
    if tp > 1:
        argv += ["--tensor-parallel-size", str(tp)]
    argv += list(extra)
    return [
        ReplicaSpec(
            argv=tuple(argv),
            env={"CUDA_VISIBLE_DEVICES": ",".join(gpus[i : i + tp])},
            name="vllm",
        )
        for i in range(0, len(gpus), tp)
    ]


class VllmOptions(StartupOptions, frozen=True, kw_only=True):
    """Options of ``vllm/MODEL`` beside the launcher's (whose ``startup_timeout`` is 1800 s here).

    Attributes:
        base_url: running servers to use instead of starting any (a list, or comma-separated).
        gpus: the GPUs to start replicas on (a list, or comma-separated; default: the visible
            GPUs).
        tp: the tensor-parallel size: each replica gets ``tp`` of the GPUs.
        tool_parser: vLLM's ``--tool-call-parser`` (default: by model family).
        reasoning_parser: vLLM's ``--reasoning-parser``; unset or ``true``: by model family;
            ``none``, ``off``, ``false`` or empty: none.
        extra: more ``vllm serve`` flags (a list, or one string split like a shell).
        vllm: the vLLM executable.
    """

    # Loading weights (and a first download) takes minutes.
    startup_timeout: Seconds = 1800.0
    base_url: CommaList = ()
    gpus: CommaList = ()
    tp: Annotated[int, msgspec.Meta(ge=1)] = 1
    tool_parser: str | None = None
    reasoning_parser: str | bool | msgspec.UnsetType | None = msgspec.UNSET
    extra: ShellWords = ()
    vllm: str = "vllm"

    def reasoning(self, model: str) -> str | None:
        """The reasoning parser to pass for ``model``, or None to pass none."""
        given = self.reasoning_parser
        if given is msgspec.UNSET or given is True:
            return reasoning_parser_for(model)
        if isinstance(given, str) and given.lower() not in _NONE:
            return given
        return None


_LAUNCH_KEYS = frozenset(VllmOptions.__struct_fields__) - {"base_url"}


@MODELS.register("vllm")
def make_vllm_provider(model: str, args: dict[str, Any]) -> ServerModelProvider:
    """``vllm/MODEL``: an existing endpoint (``base_url``) or vLLM servers started here.

    Args: ``VllmOptions``: ``base_url`` (one or more), or for launching ``gpus``, ``tp``,
    ``tool_parser``, ``reasoning_parser``, ``extra``, ``vllm`` and the launcher's
    ``startup_timeout``, ``stop_grace``, ``max_restarts``, ``log_dir``. The rest go to the
    OpenAI-compatible client.

    Raises:
        UsageError: no model, no known tool parser, GPUs that do not split by ``tp``, or a
            launching key beside ``base_url``.
        OptionError: an unknown key or a bad value.
    """
    if not model:
        raise UsageError("vllm: name the model, e.g. vllm/Qwen/Qwen3-8B")
    name = f"vllm/{model}"
    options, client_args = provider_options(args, VllmOptions, name)
    if options.base_url:
        for key in args:
            if key in _LAUNCH_KEYS:
                raise UsageError(f"{name}: {key}=... launches servers; it cannot go with base_url")
        static = StaticPool(options.base_url)
        return ServerModelProvider(name, static, openai_model(name, model, static, client_args))

    tool_parser = options.tool_parser or tool_parser_for(model)
    if tool_parser is None:
        known = ", ".join(sorted({parser for _, parser in TOOL_PARSERS}))
        raise UsageError(
            f"{name}: no known vLLM tool-call parser for this model family; "
            f"pass --agent-arg tool_parser=NAME (one of: {known}) or base_url=..."
        )
    specs = vllm_replicas(
        model,
        gpus=options.gpus or visible_gpus(),
        tp=options.tp,
        tool_parser=tool_parser,
        reasoning_parser=options.reasoning(model),
        extra=options.extra,
        executable=options.vllm or "vllm",
    )
    executable = specs[0].argv[0]

    def preflight() -> None:
        if shutil.which(executable) is None:
            raise UsageError(
                f"{name}: {executable!r} is not on PATH; install vLLM (pip install vllm) on a "
                "machine with a GPU, or point base_url at a running server"
            )

    # /health answers once the weights are loaded.
    pool = ReplicaPool(specs, options.launch_options(health_paths=("/health",)))
    return ServerModelProvider(name, pool, openai_model(name, model, pool, client_args), preflight)
