"""A judge model for a task's natural-language assertions: ``tau-sim run --judge MODEL``.

Some tasks state in words what the agent must (or must not) have done (τ²-bench's
``nl_assertions``; the evaluator lists them, ``Evaluator.assertions``). After a conversation
that ended well, the judge, a model built like any other (``make_model_provider``, role
``judge``), reads the conversation (the customer's and the agent's messages, the agent's tool
calls and their results) and the assertions, and answers one JSON object with a verdict and a
short reason per assertion, decoded with msgspec. Each verdict becomes an ``AssertionJudged``
event and the call a ``ModelUsage`` of role ``judge`` (so the run's costs count it), both
stored before ``ConversationEnded``; the evaluator reads the verdicts from the events, so
``rescore`` scores them the same way.

A judge that cannot answer (its endpoint failed, it refused the request) raises ``JudgeFailed``:
the conversation ends with ``infra_error`` (a fault of the measuring, not of the agent;
``--resume`` plays it again). A judge that answered, but twice in a row with nothing
(``EMPTY``) or with what does not decode (``UNREADABLE``), raises ``JudgeFailed`` with that kind:
the conversation keeps its ending, its assertions are not evaluated (never passed) and its
grading warning says why (``simulator.core.grading``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import msgspec

from tau_sim.simulator.core.chat import ChatMessage, EndpointError, ModelError
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import (
    AgentMessage,
    AssertionJudged,
    Event,
    ModelUsage,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.core.grading import JUDGE_EMPTY, JUDGE_UNREADABLE
from tau_sim.simulator.core.registry import (
    SIMULATED_BACKENDS,
    ModelProvider,
    make_model_provider,
    split_model_name,
)
from tau_sim.simulator.engine.usage import usage_event

JUDGE_ROLE = "judge"
SYSTEM = (
    "You grade one conversation between a customer-service agent, which acts through tools, "
    "and a customer. You are given the conversation and numbered statements about what the "
    "agent did or said. Decide for each statement on its own whether the conversation shows "
    "it to be true. Reply with one JSON object and nothing else, of the form "
    '{"verdicts": [{"index": 1, "met": true, "reason": "..."}]}: one entry per statement, '
    '"index" its number, "met" true only when the conversation shows the statement holds, '
    '"reason" one short sentence saying why.'
)
_JSON_MODE = {"type": "json_object"}
UNREADABLE = "unreadable verdict"
"""The fault kind of a judge whose answers did not decode (``judge: [unreadable verdict] ...``)."""
EMPTY = "empty answer"
"""The fault kind of a judge whose every answer was empty (or white space)."""
UNANSWERED = {EMPTY: JUDGE_EMPTY, UNREADABLE: JUDGE_UNREADABLE}
"""The grading warning of each kind of answer that holds no verdict (not an endpoint fault)."""


class JudgeFailed(Exception):
    """The judge gave no usable verdict; ``kind`` labels why (for the ``infra_error`` detail).

    ``usages`` are the calls it answered all the same (their cost is the run's).
    """

    def __init__(self, message: str, *, kind: str, usages: Sequence[ModelUsage] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.usages = list(usages)


class _Verdict(msgspec.Struct, frozen=True):
    index: int
    met: bool
    reason: str = ""


class _Answer(msgspec.Struct, frozen=True):
    verdicts: list[_Verdict]


_answer = msgspec.json.Decoder(_Answer)


def transcript_lines(events: Iterable[Event], result_chars: int | None = None) -> list[str]:
    """A conversation as a judge model reads it: one line per message, tool call and result.

    ``result_chars`` cuts each tool result to that many characters (None: whole).
    """
    lines: list[str] = []
    for event in events:
        if isinstance(event, UserMessage):
            lines.append(f"CUSTOMER: {event.text}")
        elif isinstance(event, AgentMessage):
            if event.text:
                lines.append(f"AGENT: {event.text}")
            for call in event.tool_calls:
                lines.append(f"AGENT CALLS {call.name}({json.dumps(call.arguments)})")
        elif isinstance(event, ToolResult):
            mark = "TOOL ERROR" if event.error else "TOOL RESULT"
            lines.append(f"{mark} {event.name}: {event.content[:result_chars]}")
    return lines


def judge_prompt(events: Iterable[Event], assertions: Sequence[str]) -> list[ChatMessage]:
    """The judge's messages: the instructions, then the conversation and the statements."""
    statements = [f"{i}. {text}" for i, text in enumerate(assertions, 1)]
    body = "\n".join(["Conversation:", *transcript_lines(events), "", "Statements:", *statements])
    return [
        ChatMessage(role="system", content=SYSTEM),
        ChatMessage(role="user", content=body),
    ]


def decode_verdicts(text: str, count: int) -> list[tuple[bool, str]]:
    """(met, reason) for statements 1..``count`` from the judge's answer; ``ValueError`` if not.

    The answer is the JSON object, possibly inside a code fence or surrounded by words; every
    statement needs exactly one verdict.
    """
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("the answer holds no JSON object")
    try:
        answer = _answer.decode(text[start : end + 1])
    except msgspec.DecodeError as exc:
        raise ValueError(f"the answer does not decode: {exc}") from None
    by_index: dict[int, _Verdict] = {}
    for verdict in answer.verdicts:
        if not 1 <= verdict.index <= count or verdict.index in by_index:
            raise ValueError(f"verdict index {verdict.index} is not one of 1..{count} once")
        by_index[verdict.index] = verdict
    missing = [i for i in range(1, count + 1) if i not in by_index]
    if missing:
        raise ValueError(f"no verdict for statement(s) {', '.join(map(str, missing))}")
    return [(by_index[i].met, " ".join(by_index[i].reason.split())) for i in range(1, count + 1)]


def check_judge_name(name: str) -> None:
    """``UsageError`` unless ``name`` is a model ``PROVIDER/MODEL`` (a scripted one is not)."""
    if "/" not in name or split_model_name(name)[0] in SIMULATED_BACKENDS:
        raise UsageError(f"--judge: expected a model PROVIDER/MODEL, got {name!r}")


class AssertionJudge:
    """One run's judge: its model provider (entered with the run's) and how it is asked."""

    ATTEMPTS = 2
    """Answers asked for before an undecodable one is a ``JudgeFailed``."""

    def __init__(self, name: str, options: dict[str, object]) -> None:
        check_judge_name(name)
        self.name = name
        self.provider: ModelProvider = make_model_provider(name, dict(options), flag="--judge")

    async def judge(
        self, conversation: str, events: Sequence[Event], assertions: Sequence[str]
    ) -> tuple[list[AssertionJudged], list[ModelUsage]]:
        """The verdict on each of ``assertions`` and the usage of each judge call made."""
        model = self.provider.for_conversation(conversation, JUDGE_ROLE)
        messages = judge_prompt(events, assertions)
        usages: list[ModelUsage] = []
        why = ""
        empty = 0
        for _ in range(self.ATTEMPTS):
            try:
                response = await model.chat(messages, [], response_format=_JSON_MODE)
            except EndpointError as exc:
                raise JudgeFailed(str(exc), kind=exc.kind, usages=usages) from None
            except ModelError as exc:
                kind = getattr(exc, "kind", "model error")
                raise JudgeFailed(str(exc), kind=kind, usages=usages) from None
            usages.append(usage_event(conversation, JUDGE_ROLE, self.name, response.usage))
            text = response.message.content or ""
            if not text.strip():
                empty += 1
                why = "the answer is empty"
                continue
            try:
                verdicts = decode_verdicts(text, len(assertions))
            except ValueError as exc:
                why = str(exc)
                continue
            judged = [
                AssertionJudged(
                    conversation=conversation,
                    judge=self.name,
                    assertion=text,
                    met=met,
                    reason=reason,
                )
                for text, (met, reason) in zip(assertions, verdicts, strict=True)
            ]
            return judged, usages
        kind = EMPTY if empty == self.ATTEMPTS else UNREADABLE
        raise JudgeFailed(
            f"{self.ATTEMPTS} answers did not decode: {why}", kind=kind, usages=usages
        )


__all__ = [
    "EMPTY",
    "JUDGE_ROLE",
    "UNANSWERED",
    "UNREADABLE",
    "AssertionJudge",
    "JudgeFailed",
    "check_judge_name",
    "decode_verdicts",
    "judge_prompt",
]
