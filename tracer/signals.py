"""Interaction signals of one conversation, read from its events.

- ``reliance``: what agent questions (texts without tool calls that ask something) ask the user
  for that a tool could have given: a slot the domain marks lookupable (``SlotHint.lookupable``)
  or an item of the scenario's ``unknown_info`` (ids the user does not hold; the tools do). A
  choice question ("which one": the agent found several records and asks which the user means)
  is not reliance.
- ``redundant``: agent questions for a slot the agent had already asked for.
- ``questions``: agent texts without tool calls that ask something (the referee's count).
- ``tool_calls`` / ``tool_errors``: tool executions and those that failed.
- ``turns``: agent plus user messages.

A question "asks for a slot" as the scripted user reads it (``users.dialogue.AgentTextReader``).
"""

from __future__ import annotations

import msgspec

from tau_sim.simulator.core import AgentMessage, ToolResult, UserMessage
from tau_sim.simulator.world import user_slots
from tau_sim.tracer.source import Conversation
from tau_sim.users.dialogue import AgentTextReader


class Signals(msgspec.Struct, frozen=True):
    """The interaction signals of one conversation (see the module docstring)."""

    turns: int
    tool_calls: int
    tool_errors: int
    questions: int
    reliance: int
    redundant: int


def signals(conversation: Conversation) -> Signals:
    """The signals of ``conversation``."""
    slots = user_slots(conversation.domain, conversation.task)
    lookupable = {s.name for s in slots if s.lookupable}
    reader = AgentTextReader(slots, conversation.task.scenario.unknown_info)
    asked: set[str] = set()
    turns = tool_calls = tool_errors = questions = reliance = redundant = 0
    for event in conversation.events:
        if isinstance(event, UserMessage):
            turns += 1
        elif isinstance(event, ToolResult):
            tool_calls += 1
            tool_errors += event.error
        elif isinstance(event, AgentMessage):
            turns += 1
            if event.tool_calls or not event.text or "?" not in event.text:
                continue
            questions += 1
            acts = reader.read(event.text)
            reliance += len(acts.unknown)
            for slot in acts.asked:
                reliance += slot in lookupable and slot not in acts.chosen
                redundant += slot in asked
                asked.add(slot)
    return Signals(turns, tool_calls, tool_errors, questions, reliance, redundant)
