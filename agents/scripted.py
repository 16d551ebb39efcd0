"""The scripted agents (``scripted/gold``, ``/over-asker``, ``/sloppy``, ``/pushover``).

They register as agents (``AGENTS["scripted"]``) and are the only agents handed a task's answer
key, through ``for_answer_key`` (see ``simulator.world.views.AnswerKey``); they calibrate the scorer
and the user dynamics and are not what the benchmark measures. ``scripted/oracle`` is kept as an
alias of ``scripted/gold``. Each conversation gets a ``GoldPolicy`` (``agents.plan``) that answers
every turn with one step: a text for the user, or exactly one tool call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import anyio
import msgspec

from tau_sim.agents.bindings import Bindings
from tau_sim.agents.plan import ALIASES, PROFILES, Call, GoldPolicy
from tau_sim.simulator.core import (
    AGENTS,
    ChatMessage,
    ChatResponse,
    NothingToStart,
    ToolCallSpec,
    Usage,
    UsageError,
    convert_options,
    get_domain,
)
from tau_sim.simulator.world import AgentView, AnswerKey

FLAG = "--agent-arg"


class ScriptedAgentOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options of a scripted agent (``--agent-arg key=value`` or a run file).

    Attributes:
        latency: seconds each turn takes, as if a model answered (0..60).
        error_rate: how often ``scripted/sloppy`` makes each of its mistakes (0..1).
    """

    latency: Annotated[float, msgspec.Meta(ge=0.0, le=60.0)] = 0.0
    error_rate: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] = 0.3


class ScriptedAgent:
    """One scripted agent in one conversation."""

    def __init__(self, name: str, policy: GoldPolicy, latency: float = 0.0) -> None:
        self.name = name
        self.policy = policy
        self.latency = latency

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """The next step of the policy for this dialogue."""
        if self.latency > 0:
            await anyio.sleep(self.latency)
        index = sum(1 for m in history if m.role == "assistant")
        step = self.policy.step(history)
        if isinstance(step, Call):
            call = ToolCallSpec(f"call_{index}", step.action.name, dict(step.action.arguments))
            message = ChatMessage(role="assistant", content=None, tool_calls=[call])
        else:
            message = ChatMessage(role="assistant", content=step.text)
        # no model answered: no tokens and no cost, only the latency it pretends to take
        return ChatResponse(message, Usage(latency_s=self.latency))


class ScriptedAgentProvider(NothingToStart):
    """Makes one scripted agent of one profile per conversation, from the task's answer key."""

    def __init__(self, model: str, args: dict[str, Any]) -> None:
        profile = ALIASES.get(model, model) or "gold"
        if profile not in PROFILES:
            known = ", ".join(f"scripted/{p}" for p in (*PROFILES, *ALIASES))
            raise UsageError(f"--agent: unknown scripted agent {model!r} (known: {known})")
        self.profile = profile
        self.name = f"scripted/{model or profile}"
        self.canonical = f"scripted/{profile}"
        """The agent this name is (an alias names its profile: ``scripted/oracle`` is gold)."""
        options = convert_options(args, ScriptedAgentOptions, FLAG)
        self.latency = options.latency
        self.error_rate = options.error_rate
        # per task (the runner shares one AnswerKey per task): where each gold call's ids
        # come from, worked out once; the answer key is kept so its id is never reused
        self._bindings: dict[int, tuple[AnswerKey, Bindings]] = {}
        self._phrasings: dict[str, Mapping[str, Sequence[str]]] = {}

    def phrasings(self, domain: str) -> Mapping[str, Sequence[str]]:
        """The ways of saying a required output of ``domain`` (none for an unregistered one)."""
        if domain not in self._phrasings:
            try:
                self._phrasings[domain] = get_domain(domain).phrasings
            except UsageError:
                self._phrasings[domain] = {}
        return self._phrasings[domain]

    def for_answer_key(self, view: AgentView, answer_key: AnswerKey) -> ScriptedAgent:
        """A fresh scripted agent for one conversation."""
        salt = "oracle" if self.profile == "gold" else self.profile  # seeds of earlier runs
        # the gold profile draws nothing: no generator (2.5 KB of state) per conversation
        rng = None if self.profile == "gold" else view.rng(f"agent:{salt}:{answer_key.task_id}")
        bindings = self._bindings.get(id(answer_key))
        if bindings is None or bindings[0] is not answer_key:
            bindings = self._bindings[id(answer_key)] = (answer_key, Bindings(answer_key))
        policy = GoldPolicy(
            answer_key,
            profile=self.profile,
            rng=rng,
            error_rate=self.error_rate,
            bindings=bindings[1],
            policy=view.policy,
            phrasings=self.phrasings(view.domain),
        )
        return ScriptedAgent(self.name, policy, self.latency)


@AGENTS.register("scripted")
def make_scripted_agent(model: str, args: dict[str, Any]) -> ScriptedAgentProvider:
    """The ``scripted`` agents: ``gold`` (``oracle``), ``over-asker``, ``sloppy``, ``pushover``."""
    return ScriptedAgentProvider(model, args)
