"""Name registries: how the engine finds domains, models, users and emotions without importing them.

Plugins are modules listed under the ``tau_sim.plugins`` entry point group; importing one runs
its ``@register_*`` decorators.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from simulator.errors import UsageError

if TYPE_CHECKING:
    from simulator.context import ConversationContext
    from simulator.domain import Domain
    from simulator.models.base import ChatModel
    from simulator.roles import AgentFactory, UserSimulator


class ModelProvider(Protocol):
    """Created once per run for one model name; hands out a model per conversation."""

    name: str

    async def start(self) -> None:
        """Start what the model needs (servers, clients) before the first conversation."""
        ...

    def for_conversation(self, ctx: ConversationContext, role: str) -> ChatModel:
        """The model one conversation talks to (may be shared between conversations)."""
        ...

    async def aclose(self) -> None:
        """Stop servers and close clients."""
        ...


class UserProvider(Protocol):
    """Created once per run for one user name; makes one user simulator per conversation."""

    name: str

    async def start(self) -> None:
        """Start what the user needs before the first conversation."""
        ...

    def for_conversation(self, ctx: ConversationContext) -> UserSimulator:
        """A fresh user simulator for one conversation."""
        ...

    async def aclose(self) -> None:
        """Release what ``start`` acquired."""
        ...


ModelFactory = Callable[[str, dict[str, Any]], ModelProvider]
UserFactory = Callable[[str, dict[str, Any]], UserProvider]
EmotionResolver = Callable[[str], str]

DOMAINS: dict[str, Callable[[], Domain]] = {}
MODELS: dict[str, ModelFactory] = {}
USERS: dict[str, UserFactory] = {}
EMOTIONS: list[EmotionResolver] = []
AGENTS: dict[str, AgentFactory] = {}

_T = TypeVar("_T")
_loaded = False


def register_domain(name: str) -> Callable[[_T], _T]:
    """Register a domain class (or zero-argument factory) under ``name``."""

    def deco(factory: _T) -> _T:
        DOMAINS[name] = factory  # type: ignore[assignment]
        return factory

    return deco


def register_model(provider: str) -> Callable[[_T], _T]:
    """Register a model factory for the ``provider`` part of ``provider/model`` names."""

    def deco(factory: _T) -> _T:
        MODELS[provider] = factory  # type: ignore[assignment]
        return factory

    return deco


def register_user(name: str) -> Callable[[_T], _T]:
    """Register a user simulator factory (``scripted``, ``human``, ``llm`` …)."""

    def deco(factory: _T) -> _T:
        USERS[name] = factory  # type: ignore[assignment]
        return factory

    return deco


def register_agent(kind: str) -> Callable[[_T], _T]:
    """Register an agent factory ``(model, ctx) -> Agent``; ``llm`` serves every model name."""

    def deco(factory: _T) -> _T:
        AGENTS[kind] = factory  # type: ignore[assignment]
        return factory

    return deco


def register_emotion_resolver(resolver: EmotionResolver) -> EmotionResolver:
    """Register the function that maps an emotion name to its canonical leaf."""
    EMOTIONS.append(resolver)
    return resolver


def load_plugins() -> None:
    """Import every module listed under the ``tau_sim.plugins`` entry point group once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep in entry_points(group="tau_sim.plugins"):
        try:
            ep.load()
        except ImportError as exc:
            raise RuntimeError(
                f"tau-sim plugin {ep.name!r} ({ep.value}) failed to import: {exc}; "
                "reinstall with `pip install -e .`"
            ) from exc


def get_domain(name: str) -> Domain:
    """Instantiate domain ``name``, or raise a ``UsageError`` listing the known ones."""
    load_plugins()
    if name not in DOMAINS:
        known = ", ".join(sorted(DOMAINS)) or "none"
        raise UsageError(f"unknown domain {name!r} (known: {known})")
    return DOMAINS[name]()


def split_model_name(name: str) -> tuple[str, str]:
    """Split ``provider/model`` into its parts (``scripted`` alone is allowed)."""
    provider, _, model = name.partition("/")
    return provider, model


def make_model_provider(name: str, args: dict[str, Any], flag: str = "--agent") -> ModelProvider:
    """Build the provider of model ``name``; unknown providers are a ``UsageError``."""
    load_plugins()
    provider, model = split_model_name(name)
    if provider not in MODELS:
        known = ", ".join(sorted(MODELS)) or "none"
        raise UsageError(
            f"{flag}: unknown model provider {provider!r} in {name!r} (known: {known})"
        )
    return MODELS[provider](model, args)


def make_user_provider(name: str, args: dict[str, Any]) -> UserProvider:
    """Build the user provider: a registered user kind, or an LLM user for a model name."""
    load_plugins()
    if name in USERS:
        return USERS[name](name, args)
    provider, _ = split_model_name(name)
    if provider in MODELS and "llm" in USERS:
        return USERS["llm"](name, args)
    known = ", ".join(sorted(USERS)) or "none"
    raise UsageError(f"--user: unknown user {name!r} (known: {known}, or provider/model)")


def resolve_emotion(name: str) -> str:
    """Canonical leaf name of an emotion or family name; ``UsageError`` when unknown."""
    load_plugins()
    for resolver in EMOTIONS:
        try:
            return resolver(name)
        except KeyError:
            continue
    raise UsageError(f"--emotions: unknown emotion {name!r}")
