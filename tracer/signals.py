"""Interaction signals of one conversation, read from its events.

Tracer's reading of the agent's turns (``reliance``, ``redundant``, ``unanswered``,
``questions``), the tool executions and errors, the ungrounded arguments and facts, the untold
picks, and the kinds of the user's emotion-update triggers (``tags``). Each signal's definition:
docs/tracer.md, "Signals".
"""

from __future__ import annotations

import re
from collections import Counter

import msgspec

from tau_sim.simulator.core import AgentMessage, EmotionUpdate, ToolResult, UserMessage
from tau_sim.simulator.results import tag_kind
from tau_sim.simulator.world import ToolKind, policy_today, untold_picks, user_slots
from tau_sim.tracer.grounding import grounding
from tau_sim.tracer.source import Conversation
from tau_sim.users.dialogue import AgentTextReader

_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


class Signals(msgspec.Struct, frozen=True, kw_only=True):
    """The interaction signals of one conversation (see the module docstring)."""

    turns: int
    tool_calls: int
    tool_errors: int
    questions: int
    reliance: int
    redundant: int
    unanswered: int = 0
    ungrounded_arguments: int = 0
    ungrounded_facts: int = 0
    untold_picks: int = 0
    tags: dict[str, int] = {}


def only_asks(text: str) -> bool:
    """Whether every sentence of ``text`` is a question (it answers nothing)."""
    sentences = [s.strip() for s in _SENTENCE.findall(text) if s.strip()]
    return bool(sentences) and all(s.endswith("?") for s in sentences)


def _asks(text: str, ends: str | None) -> bool:
    return ends is None and "?" in text


def _reads(conversation: Conversation) -> list[str]:
    """The tools of the conversation's domain that only read."""
    tools = conversation.domain.toolkit.tools.values()
    return [t.name for t in tools if t.kind is ToolKind.READ]


def signals(conversation: Conversation) -> Signals:
    """The signals of ``conversation``."""
    slots = user_slots(conversation.domain, conversation.task)
    lookupable = {s.name for s in slots if s.needless}
    reader = AgentTextReader(slots, conversation.task.scenario.unknown_info)
    given: set[str] = set(conversation.task.scenario.volunteered())
    tags: Counter[str] = Counter()
    turns = tool_calls = tool_errors = questions = reliance = redundant = unanswered = 0
    users = 0
    pending = False  # a user question waits for the agent's next text
    called = False  # the agent called a tool since that question
    for event in conversation.events:
        if isinstance(event, EmotionUpdate):
            tags.update(tag_kind(t) for t in event.triggers)
        elif isinstance(event, UserMessage):
            turns += 1
            users += 1
            unanswered += pending
            pending, called = users > 1 and _asks(event.text, event.ends), False
        elif isinstance(event, ToolResult):
            tool_calls += 1
            tool_errors += event.error
        elif isinstance(event, AgentMessage):
            turns += 1
            if event.text and pending:
                unanswered += only_asks(event.text)
                pending = False
            called = called or bool(event.tool_calls)
            if event.tool_calls or not event.text or "?" not in event.text:
                continue
            questions += 1
            acts = reader.read(event.text)
            reliance += len(acts.unknown)
            for slot in acts.asked:
                reliance += slot in lookupable and slot not in acts.chosen
                redundant += slot in given
                given.add(slot)
    unanswered += pending and not called
    found = grounding(
        conversation.events, conversation.system_prompt(), conversation.domain.toolkit.composed
    )
    return Signals(
        turns=turns,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        questions=questions,
        reliance=reliance,
        redundant=redundant,
        unanswered=unanswered,
        ungrounded_arguments=len(found.arguments),
        ungrounded_facts=len(found.facts),
        untold_picks=len(
            untold_picks(
                conversation.events, _reads(conversation), policy_today(conversation.domain.policy)
            )
        ),
        tags=dict(sorted(tags.items())),
    )
