"""What each side of a conversation is handed: the runner's context and three views of it.

The runner knows everything about a conversation (``ConversationContext``: the task with its
answer key, the domain, the condition). It hands each party only its own view:

- ``AgentView``: the policy, the tools and how the conversation can end. Every agent and every
  model provider gets this and nothing else: never the task, its gold actions or its required
  outputs.
- ``UserView``: the user's scenario (goal, opening, what the user knows and does not know), the
  emotional condition, the user-side slot annotations and the user's own tools (their device,
  where the domain has them). Never the gold path.
- ``AnswerKey``: the answer key (gold actions with their expected results, required outputs,
  authentication slots, the forbidden writes the user asks for). Only agents that calibrate
  the harness (the scripted ``gold``, ``over-asker``, ``sloppy`` and ``pushover`` profiles)
  receive it, through a method of their own.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import msgspec

from tau_sim.simulator.core.chat import ToolSpec
from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.world.domain import Action, UserScenario
from tau_sim.simulator.world.slots import InfoSlot, user_slots
from tau_sim.simulator.world.tools import ToolKind
from tau_sim.simulator.world.usersteps import UserStep, step_request, user_steps

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Domain, Task


def _rng(seed: int, salt: str) -> random.Random:
    return random.Random(f"{seed}:{salt}")


class ConversationContext(msgspec.Struct, kw_only=True):
    """Everything that identifies one conversation of a run (the runner's and evaluator's side)."""

    conversation_id: str
    run_id: str
    task: Task
    domain: Domain
    condition: Condition
    trial: int
    seed: int


class AgentView(msgspec.Struct, frozen=True, kw_only=True):
    """What an agent may know: the domain's policy and tools, and which tools end a conversation.

    ``ending_tools`` maps a tool name to the termination reason a successful call causes (a
    transfer to a human, for instance), as the tools declare it.
    """

    conversation_id: str
    domain: str
    title: str
    policy: str
    tools: list[ToolSpec]
    ending_tools: dict[str, str] = {}
    seed: int = 0

    def rng(self, salt: str) -> random.Random:
        """A deterministic random generator for the agent's own choices."""
        return _rng(self.seed, salt)


class UserView(msgspec.Struct, frozen=True, kw_only=True):
    """What a simulated (or human) user may know: the scenario and the emotional condition.

    ``slots`` are the scenario's known facts joined with the user-side annotations (the words an
    agent uses when it asks for each fact), which only a scripted user needs. ``tools`` are the
    user's own tools (empty in most domains) and ``steps`` their hints
    (``simulator.world.usersteps``).
    """

    conversation_id: str
    task_id: str
    domain_title: str
    scenario: UserScenario
    slots: list[InfoSlot]
    condition: Condition
    seed: int = 0
    tools: list[ToolSpec] = []
    steps: list[UserStep] = []

    def rng(self, salt: str) -> random.Random:
        """A deterministic random generator for the user's own choices."""
        return _rng(self.seed, salt)

    def slot(self, name: str) -> InfoSlot | None:
        """The known-info slot called ``name``."""
        for slot in self.slots:
            if slot.name == name:
                return slot
        return None


class AnswerKey(msgspec.Struct, frozen=True, kw_only=True):
    """The answer key of one task, for the scripted agents that calibrate the harness.

    ``results`` holds what each gold action returns when the gold path is replayed on a fresh
    database, so a closed-loop agent can find where an id it needs came from and take it from
    the live tool result instead. ``writes`` and ``endings`` index the actions that change the
    database and those that end the conversation. ``user_steps`` maps the index of each
    action the user must perform (a user tool) to how the agent asks for it; they are in
    neither ``writes`` nor ``endings``. ``violations`` are the writes the policy forbids that
    the task's user asks for (``Domain.violations``; empty on most tasks), which only the
    ``pushover`` profile ever makes. ``slotted_facts`` says whether the facts the user holds
    are slots a scripted agent can ask for by name (False for free-text scenarios, τ²-bench's:
    their one slot is the whole text, so the gold agent asks only for authentication there).
    ``later_at`` is the first action serving the need the user raises mid-conversation
    (``Task.later_at``, as an index of ``actions``), which a scripted agent starts only once
    the user has raised it.
    """

    task_id: str
    intent: str
    actions: list[Action]
    results: list[str]
    writes: list[int]
    endings: list[int]
    required_outputs: list[str]
    auth_slots: list[str]
    known_info: list[InfoSlot]
    user_steps: dict[int, str] = {}
    violations: list[Action] = []
    slotted_facts: bool = True
    later_at: int | None = None


def agent_view(ctx: ConversationContext) -> AgentView:
    """The agent's view of a conversation (no task, no answer key)."""
    domain = ctx.domain
    return AgentView(
        conversation_id=ctx.conversation_id,
        domain=domain.name,
        title=domain.title or domain.name,
        policy=domain.policy,
        tools=domain.toolkit.specs,
        ending_tools=ending_tools(domain),
        seed=ctx.seed,
    )


def ending_tools(domain: Domain) -> dict[str, str]:
    """Tool name -> termination reason, for the domain's tools that end a conversation."""
    return {name: str(reason) for name, reason in domain.toolkit.endings.items()}


def user_view(ctx: ConversationContext) -> UserView:
    """The user's view of a conversation (the scenario and the condition, no gold path)."""
    task = ctx.task
    return UserView(
        conversation_id=ctx.conversation_id,
        task_id=task.id,
        domain_title=ctx.domain.title or ctx.domain.name,
        scenario=task.scenario,
        slots=user_slots(ctx.domain, task),
        condition=ctx.condition,
        seed=ctx.seed,
        tools=ctx.domain.user_toolkit.specs if ctx.domain.user_toolkit is not None else [],
        steps=user_steps(ctx.domain),
    )


def answer_key(domain: Domain, task: Task) -> AnswerKey:
    """The answer key of ``task``: its gold path replayed once on a fresh database.

    A gold action that fails in that replay is left out (the replay goes on without it, as
    τ²-bench's evaluator does with its gold actions); a tau-sim task file never has one
    (``check_gold``).
    """
    db = domain.new_database(task)
    actions: list[Action] = []
    results: list[str] = []
    later_at: int | None = None
    for index, action in enumerate(task.actions):
        if index == task.later_at:
            later_at = len(actions)
        outcome = domain.call(db, action)
        if not outcome.error:
            actions.append(action)
            results.append(outcome.content)
    endings = ending_tools(domain)
    steps = {
        i: step_request(domain, a.name) for i, a in enumerate(actions) if domain.is_user_step(a)
    }
    return AnswerKey(
        task_id=task.id,
        intent=task.intent,
        actions=actions,
        results=results,
        writes=[
            i
            for i, a in enumerate(actions)
            if a.name not in endings and domain.toolkit.kind(a.name) is ToolKind.WRITE
        ],
        endings=[i for i, a in enumerate(actions) if a.name in endings],
        required_outputs=list(task.required_outputs),
        auth_slots=list(task.auth_slots),
        known_info=user_slots(domain, task),
        user_steps=steps,
        violations=domain.violations(task),
        slotted_facts=not domain.free_text_scenarios,
        later_at=later_at if later_at is not None and later_at < len(actions) else None,
    )
