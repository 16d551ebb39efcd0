"""``tau-sim models``: model providers, agent and user kinds, and the option keys each takes.

Each entry names the option structs a provider or kind checks its options against, so the keys
listed are the keys it accepts (an unknown one is an error there too). The structs' modules are
imported by name when the command runs (``importlib``); ``results.catalogs`` (rich) too.
"""

from __future__ import annotations

import importlib
from typing import Any

import msgspec

from tau_sim.simulator.cli.options import catalog_command

_CONNECTION = ("base_url", "api_key")
"""Keys a hosted client takes besides its option struct (``split_connection_args``)."""

MODEL_PROVIDERS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "openai": ("an OpenAI-compatible endpoint", ("openai_provider:OpenAIOptions",), _CONNECTION),
    "anthropic": ("the Anthropic API", ("anthropic_provider:AnthropicOptions",), _CONNECTION),
    "vllm": (
        "vLLM servers started for the run (or base_url=...)",
        ("vllm_provider:VllmOptions", "openai_provider:OpenAIOptions"),
        ("api_key",),
    ),
    "server": (
        "replicas of any OpenAI-compatible server command",
        ("servers:ServerOptions", "openai_provider:OpenAIOptions"),
        ("api_key",),
    ),
    "local": (
        "a small local model served in-process (llama.cpp)",
        ("local_provider:LocalOptions", "openai_provider:OpenAIOptions"),
        (),
    ),
}
"""Model provider -> (what it serves, its option structs under ``simulator.models``, extra keys)."""

AGENT_KINDS: dict[str, tuple[str, str | None]] = {
    "scripted": (
        "calibration agents: scripted/gold (alias oracle), scripted/over-asker, scripted/sloppy, "
        "scripted/pushover",
        "tau_sim.agents.scripted:ScriptedAgentOptions",
    ),
    "llm": ("PROVIDER/MODEL: a tool-calling agent on that model (the provider's options)", None),
}
USER_KINDS: dict[str, tuple[str, str | None]] = {
    "scripted": (
        "the rule-based emotional user (--user scripted)",
        "tau_sim.users.scripted:ScriptedUserOptions",
    ),
    "llm": (
        "PROVIDER/MODEL: an LLM plays the user (these and the provider's options)",
        "tau_sim.users.llm:LLMUserOptions",
    ),
}


def _struct(ref: str, package: str = "") -> type[msgspec.Struct]:
    module, _, name = ref.partition(":")
    struct: type[msgspec.Struct] = getattr(importlib.import_module(package + module), name)
    return struct


def option_keys(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """Option key -> its default (None when it has none, or it is unset) of an option struct."""
    out: dict[str, Any] = {}
    for field in msgspec.structs.fields(struct):
        default = field.default
        if default is msgspec.NODEFAULT or default is msgspec.UNSET:
            default = None
        elif isinstance(default, tuple):
            default = list(default)
        out[field.name] = default
    return out


def models_catalog() -> dict[str, Any]:
    """Every model provider, agent kind and user kind with its option keys and their defaults."""
    models = {}
    for name, (what, structs, extra) in MODEL_PROVIDERS.items():
        keys: dict[str, Any] = dict.fromkeys(extra)
        for ref in structs:
            keys.update(option_keys(_struct(ref, "tau_sim.simulator.models.")))
        models[name] = {"serves": what, "options": dict(sorted(keys.items()))}

    def kinds(table: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
        return {
            name: {"what": what, "options": option_keys(_struct(ref)) if ref else {}}
            for name, (what, ref) in table.items()
        }

    return {"model_providers": models, "agents": kinds(AGENT_KINDS), "users": kinds(USER_KINDS)}


COMMAND = catalog_command(
    "models",
    "model providers, agent and user kinds, and the option keys each takes",
    models_catalog,
    "render_models",
)
