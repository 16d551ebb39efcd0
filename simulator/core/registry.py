"""Name registries: how the engine finds domains, models, users and emotions without importing them.

One typed ``Registry`` class, one instance per kind of plugin (domains, model providers, users,
agents, emotion taxonomies, CLI commands). Plugins are modules listed under the
``tau_sim.plugins`` entry point group; importing one runs its ``@REGISTRY.register(name)``
decorators. The ``tau-sim`` sub-commands of packages built on the simulator (``tui``, ``tracer``)
are modules of their own group, ``tau_sim.commands`` (``load_commands``), so that building the
parser imports no domain.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from tau_sim.simulator.core.errors import UsageError

if TYPE_CHECKING:
    from tau_sim.simulator.core.chat import ChatModel
    from tau_sim.simulator.core.roles import Agent, UserSimulator
    from tau_sim.simulator.world.domain import Domain
    from tau_sim.simulator.world.views import AgentView, AnswerKey, UserView


class Provider(Protocol):
    """What every provider is: named, and an async context manager for its run.

    ``async with provider:`` starts what it needs (servers, clients, a preflight check) before
    the first conversation and stops it at the end; entering raises (``UsageError``,
    ``LaunchError``) when it cannot start. The run enters its providers in order inside its task
    group and leaves them in reverse, so a provider may open task groups of its own there.
    """

    name: str

    async def __aenter__(self) -> Any:
        """Start what the provider needs before the first conversation."""
        ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        """Release what entering acquired."""
        ...


class ModelProvider(Provider, Protocol):
    """Created once per run for one model name; hands out a model per conversation."""

    def for_conversation(self, conversation_id: str, role: str) -> ChatModel:
        """The model one conversation's ``role`` talks to (may be shared between conversations).

        A model provider learns nothing about the task: what its model sees arrives in the
        messages of each call (the agent's policy, tools and dialogue, or the user's scenario).
        """
        ...


class UserProvider(Provider, Protocol):
    """Created once per run for one user name; makes one user simulator per conversation."""

    def for_conversation(self, view: UserView) -> UserSimulator:
        """A fresh user simulator for one conversation, from the user's view only."""
        ...


@runtime_checkable
class AgentProvider(Provider, Protocol):
    """Created once per run for one ``--agent`` name; makes one agent per conversation.

    The agent is made from the ``AgentView`` alone (policy, tools, endings): it never sees the
    task's answer key.
    """

    def for_conversation(self, view: AgentView) -> Agent:
        """A fresh agent for one conversation."""
        ...


@runtime_checkable
class CalibrationAgentProvider(Provider, Protocol):
    """A scripted agent that calibrates the harness (scorer, user dynamics) from the answer key.

    It is not a benchmark subject. Only providers of this kind are handed an ``AnswerKey``,
    through their own method, so no other agent can reach one.
    """

    def for_answer_key(self, view: AgentView, answer_key: AnswerKey) -> Agent:
        """A fresh agent for one conversation, given the task's answer key."""
        ...


class NothingToStart(AbstractAsyncContextManager["NothingToStart"]):
    """Base of providers that hold no resources: ``async with`` starts and stops nothing."""

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Nothing to release."""


class ModelBacked:
    """Base of providers built on one model provider (the LLM agent, the LLM user).

    Entering and leaving one is entering and leaving its ``model_provider``.
    """

    model_provider: ModelProvider

    async def __aenter__(self) -> Self:
        """Start the model provider (clients, servers, preflight)."""
        await self.model_provider.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        """Stop the model provider."""
        return await self.model_provider.__aexit__(exc_type, exc, tb)


class EmotionTaxonomy(Protocol):
    """Names of an emotion taxonomy: canonical leaves and their families."""

    def resolve(self, name: str) -> str:
        """Canonical leaf of a leaf, alias or family name; ``KeyError`` when unknown."""
        ...

    def family(self, name: str) -> str:
        """Family of a leaf, alias or family name; ``KeyError`` when unknown."""
        ...

    def catalog(self) -> dict[str, Any]:
        """Family -> its ``default_leaf`` and ``leaves`` (aliases, dimension levels).

        What ``tau-sim emotions`` lists (``simulator.cli.emotions``).
        """
        ...


@dataclass(frozen=True, slots=True)
class Command:
    """A ``tau-sim`` sub-command: ``tau-sim NAME ...`` parses its options and calls ``run``.

    ``configure`` adds the options to the command's sub-parser; ``run`` takes the parsed
    arguments and returns the exit code (a ``UsageError`` is one line and exit 2). A command
    that needs heavy modules (textual) imports them inside ``run``: every ``tau-sim`` call builds
    the parser of every command.
    """

    name: str
    help: str
    """The line ``tau-sim --help`` shows."""
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    after: str = ""
    """The command this one follows in ``tau-sim --help`` ("": after all the others)."""
    parser_options: Mapping[str, Any] = field(default_factory=dict)
    """More arguments of its sub-parser: ``description``, ``epilog``, ``argument_default``."""


ModelFactory = Callable[[str, dict[str, Any]], ModelProvider]
UserFactory = Callable[[str, dict[str, Any]], UserProvider]
AgentFactory = Callable[[str, dict[str, Any]], AgentProvider | CalibrationAgentProvider]
DomainFactory = Callable[[], "Domain"]
ExportWriter = Callable[[Any, str, str, bool], int]
"""Writes a stored run in another benchmark's format: (store, run id, out path, force) -> count.

It writes through ``results.open_target`` (``force``: replace an existing file)."""

_T = TypeVar("_T")
_imported: set[str] = set()
"""The ``tau_sim.plugins`` entry points imported so far, by name."""
COMMAND_GROUP = "tau_sim.commands"
"""The entry point group of the modules that register ``tau-sim`` sub-commands (``COMMANDS``)."""
_commands_imported: set[str] = set()
_all_imported = False
BUILT_IN_DOMAINS = "tau_sim.domains."
"""The package of the built-in domain modules: ``load_plugins(domains)`` skips those not asked."""


class Registry(Generic[_T]):
    """Plugins of one kind by name: ``@REG.register("name")`` adds one, ``REG.get`` finds it."""

    def __init__(self, kind: str, load: Callable[[], None] | None = None) -> None:
        self.kind = kind
        self._entries: dict[str, _T] = {}
        self._load = load
        """What imports this kind's plugins: ``load_plugins`` unless given."""

    def _load_all(self) -> None:
        (self._load or load_plugins)()

    def register(self, name: str) -> Callable[[_T], _T]:
        """A decorator that registers its target under ``name`` (a later one replaces it)."""

        def deco(entry: _T) -> _T:
            self._entries[name] = entry
            return entry

        return deco

    def add(self, name: str, entry: _T) -> None:
        """Register ``entry`` under ``name``."""
        self._entries[name] = entry

    def remove(self, name: str) -> None:
        """Forget ``name`` (tests register and unregister their own plugins)."""
        self._entries.pop(name, None)

    def __contains__(self, name: object) -> bool:
        if name not in self._entries:
            self._load_all()
        return name in self._entries

    def __getitem__(self, name: str) -> _T:
        if name not in self._entries:
            self._load_all()
        return self._entries[name]

    def names(self) -> list[str]:
        """Every registered name, sorted."""
        self._load_all()
        return sorted(self._entries)

    def values(self) -> list[_T]:
        """Every registered entry, in registration order."""
        self._load_all()
        return list(self._entries.values())

    def registered(self) -> list[_T]:
        """The entries registered so far, in registration order; imports no plugin."""
        return list(self._entries.values())

    def get(self, name: str, flag: str = "") -> _T:
        """The entry called ``name``, or a ``UsageError`` listing the known ones.

        A name not registered yet imports every plugin first (``load_plugins``).
        """
        if name not in self._entries:
            self._load_all()
        if name not in self._entries:
            known = ", ".join(sorted(self._entries)) or "none"
            where = f"{flag}: " if flag else ""
            raise UsageError(f"{where}unknown {self.kind} {name!r} (known: {known})")
        return self._entries[name]


DOMAINS: Registry[DomainFactory] = Registry("domain")
MODELS: Registry[ModelFactory] = Registry("model provider")
USERS: Registry[UserFactory] = Registry("user")
AGENTS: Registry[AgentFactory] = Registry("agent")
EMOTIONS: Registry[EmotionTaxonomy] = Registry("emotion taxonomy")
EXPORTS: Registry[ExportWriter] = Registry("export format")


def load_commands() -> None:
    """Import the modules listed under the ``tau_sim.commands`` entry point group, each once.

    They register the sub-commands of the packages built on the simulator (``COMMANDS``). One
    that fails to import is left out with a warning on stderr: the other commands still work.
    """
    for ep in entry_points(group=COMMAND_GROUP):
        if ep.name in _commands_imported:
            continue
        _commands_imported.add(ep.name)
        try:
            ep.load()
        except ImportError as exc:
            print(
                f"tau-sim: warning: the commands of {ep.name!r} ({ep.value}) are left out: "
                f"{exc}; reinstall with `pip install -e .`",
                file=sys.stderr,
            )


COMMANDS: Registry[Command] = Registry("command", load=load_commands)
"""The ``tau-sim`` sub-commands plugins add (the built-in ones are ``simulator.cli.parser``'s)."""


def load_plugins(domains: Collection[str] | None = None) -> None:
    """Import the modules listed under the ``tau_sim.plugins`` entry point group, each once.

    With ``domains`` (the domains a run plays, as ``tau-sim run --domain`` names them), a built-in
    domain module (under ``tau_sim.domains.``) is imported only if it provides one of them: its
    entry point is named as the domain, or as the part before the ``/`` (``tau2`` for
    ``tau2/retail``); every other plugin is imported. A worker process needs no more, and saves
    importing the other domains (0.12 s of its start). A registry lookup of a name that is not
    registered yet imports the rest, so a skipped plugin is never missing.
    """
    global _all_imported
    if _all_imported:
        return
    wanted = None if domains is None else {name.partition("/")[0] for name in domains}
    skipped = False
    for ep in entry_points(group="tau_sim.plugins"):
        if ep.name in _imported:
            continue
        if wanted is not None and ep.value.startswith(BUILT_IN_DOMAINS) and ep.name not in wanted:
            skipped = True
            continue
        _imported.add(ep.name)
        try:
            ep.load()
        except ImportError as exc:
            raise RuntimeError(
                f"tau-sim plugin {ep.name!r} ({ep.value}) failed to import: {exc}; "
                "reinstall with `pip install -e .`"
            ) from exc
    _all_imported = not skipped


def get_domain(name: str) -> Domain:
    """Build domain ``name``, or raise a ``UsageError`` listing the known ones."""
    return DOMAINS.get(name)()


SIMULATED_BACKENDS = frozenset({"scripted"})
"""Model providers that are no model (scripted actors): their ``ModelUsage`` counts as
``simulated``, never unpriced, and they cannot judge (``--judge`` needs a model)."""


def split_model_name(name: str) -> tuple[str, str]:
    """Split ``provider/model`` into its parts (``scripted`` alone is allowed)."""
    provider, _, model = name.partition("/")
    return provider, model


def make_model_provider(name: str, args: dict[str, Any], flag: str = "--agent") -> ModelProvider:
    """Build the provider of model ``name``; unknown providers are a ``UsageError``."""
    provider, model = split_model_name(name)
    if provider not in MODELS:
        known = ", ".join(MODELS.names()) or "none"
        hint = " (an LLM user is --user PROVIDER/MODEL, e.g. openai/gpt-4.1)" if not model else ""
        raise UsageError(
            f"{flag}: unknown model provider {provider!r} in {name!r} (known: {known}){hint}"
        )
    return MODELS[provider](model, args)


def make_agent_provider(
    name: str, args: dict[str, Any]
) -> AgentProvider | CalibrationAgentProvider:
    """Build the agent of ``--agent name``.

    A registered agent kind (``scripted/gold``) builds its own; every other name is the
    tool-calling LLM agent (``llm``) over the model ``name``.
    """
    provider, model = split_model_name(name)
    if provider != "llm" and provider in AGENTS:
        return AGENTS[provider](model, args)
    if "llm" not in AGENTS:
        raise UsageError("no agent implementation is installed")
    return AGENTS["llm"](name, args)


def is_calibration_agent(name: str) -> bool:
    """Whether ``--agent name`` is a calibration agent: one handed the answer key (``scripted/``).

    Only registered agent kinds can be one (the LLM agent over a model name never is), so no
    model provider is built to tell.
    """
    provider, model = split_model_name(name)
    if provider == "llm" or provider not in AGENTS:
        return False
    try:
        return isinstance(AGENTS[provider](model, {}), CalibrationAgentProvider)
    except UsageError:
        return False


def make_user_provider(name: str, args: dict[str, Any]) -> UserProvider:
    """Build the user provider: a registered user kind, or an LLM user for a model name."""
    if name in USERS:
        return USERS[name](name, args)
    provider, _ = split_model_name(name)
    if provider in MODELS and "llm" in USERS:
        return USERS["llm"](name, args)
    known = ", ".join(USERS.names()) or "none"
    raise UsageError(f"--user: unknown user {name!r} (known: {known}, or provider/model)")


def resolve_emotion(name: str) -> str:
    """Canonical leaf name of an emotion or family name; ``UsageError`` when unknown."""
    for taxonomy in EMOTIONS.values():
        try:
            return taxonomy.resolve(name)
        except KeyError:
            continue
    raise UsageError(
        f"--emotions: unknown emotion {name!r} (`tau-sim emotions` lists the leaves and families)"
    )


def emotion_family(name: str) -> str:
    """Family of an emotion or family name; ``UsageError`` when unknown."""
    for taxonomy in EMOTIONS.values():
        try:
            return taxonomy.family(name)
        except KeyError:
            continue
    raise UsageError(f"unknown emotion {name!r}")
