"""Interaction signals of one conversation, read from its events.

Tracer's own reading of the agent's turns (any user):

- ``reliance``: what agent questions (texts without tool calls that ask something) ask the user
  for that a tool could have given: a slot the domain marks lookupable and its policy does not
  say to ask (``InfoSlot.needless``) or an item of the scenario's ``unknown_info`` (ids the
  user does not hold; the tools do). A
  necessary question is not reliance: a choice question ("which card?": the agent found several
  records and asks which the user means, phrased with ``users.dialogue.CHOICE_CUES``), or one
  for a fact only the user holds.
- ``redundant``: agent questions for a slot the user had already given: one the agent had
  asked for before, or one the user's opening volunteered (``UserScenario.volunteered``).
- ``unanswered``: user questions the agent did not answer: a user message after the opening
  that asks something ("?"), whose next agent text asks only questions back (every sentence ends
  with "?"), or that the next user message follows with no agent text between, or that nothing
  of the agent's follows at all (a call that ends the conversation, a transfer, is an answer).
- ``questions``: agent texts without tool calls that ask something (the referee's count).
- ``tool_calls`` / ``tool_errors``: tool executions and those that failed.
- ``turns``: agent plus user messages.
- ``ungrounded_arguments`` / ``ungrounded_facts``: tool-call arguments and stated facts that
  came from nowhere in the dialogue (``tracer.grounding``).
- ``untold_picks``: tool calls that took a record among several listed that nobody singled out
  (``simulator.world.untold_picks``).

What the user recorded: ``tags``, the kinds (``dismissive``, ``ignored_cue``,
``repeated_question``, ``unbacked_claim``, …) of the ``triggers`` of its emotion updates, each
counted once per trigger (``simulator.results.tag_kind``; the scripted user's vocabulary is
``users.dynamics.Signal``). The scripted user tags a question for what its opening gave as a
``repeated_question`` too.

A question "asks for a slot" as the scripted user reads it (``users.dialogue.AgentTextReader``).
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
