"""The referee: watches every event of a conversation and decides when and why it ends.

The conversation's channel owns it: the channel shows it every event and closes itself once
the referee has a reason. The channel shows it an event before routing it, so a user turn that
ends the conversation (an empty one, or a repetition: ``user_error``) never reaches the agent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tau_sim.simulator.core.endings import REPEATED_USER_TURNS, Limits, TerminationReason
from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.simulator.core.infra import EMPTY_USER_TURN, REPEATED_USER_TURN, user_error_detail
from tau_sim.simulator.core.roles import EMPTY_TURN, STOP, UNSATISFIED

_NOT_WORDS = re.compile(r"[\W_]+")


def same_text_key(text: str) -> str:
    """What two user messages share when they say the same: casefolded words, no punctuation."""
    return " ".join(_NOT_WORDS.sub(" ", text.casefold()).split())


def is_empty_turn(message: UserMessage) -> bool:
    """A user turn with no usable message: nothing, or the LLM user's ``EMPTY_TURN``."""
    return message.ends is None and message.text.strip() in ("", EMPTY_TURN)


class Referee:
    """Counts turns, tool calls, errors and questions; keeps the first reason to end.

    Besides the limits, it ends a conversation whose user simulator failed with ``user_error``:
    a user turn with no usable message (``is_empty_turn``), or the same user message
    (``same_text_key``) ``REPEATED_USER_TURNS`` times in a row.
    """

    __slots__ = (
        "_last_said",
        "_repeats",
        "detail",
        "endings",
        "limits",
        "questions",
        "reason",
        "steps",
        "tool_calls",
        "tool_errors",
    )

    def __init__(self, limits: Limits, endings: Mapping[str, TerminationReason]) -> None:
        """``endings``: the tools whose successful call ends the conversation, with the reason."""
        self.limits = limits
        self.endings = endings
        self.reason: TerminationReason | None = None
        self.detail = ""
        self.steps = 0
        self.tool_calls = 0
        self.tool_errors = 0
        self.questions = 0
        self._last_said: str | None = None
        self._repeats = 0

    def end(self, reason: TerminationReason, detail: str = "") -> None:
        """Record why the conversation ends (the first reason wins)."""
        if self.reason is None:
            self.reason = reason
            self.detail = detail

    def ending_of(self, result: ToolResult) -> TerminationReason | None:
        """The ending a successful tool result causes, if any (the one place that decides it)."""
        return None if result.error else self.endings.get(result.name)

    def _judge_user_turn(self, message: UserMessage) -> None:
        """End with ``user_error`` on an empty turn or the ``REPEATED_USER_TURNS``-th repeat."""
        if is_empty_turn(message):
            self.end(
                TerminationReason.USER_ERROR,
                user_error_detail(EMPTY_USER_TURN, "the user simulator sent no usable message"),
            )
            return
        said = same_text_key(message.text)
        self._repeats = self._repeats + 1 if said == self._last_said else 1
        self._last_said = said
        if self._repeats >= REPEATED_USER_TURNS:
            self.end(
                TerminationReason.USER_ERROR,
                user_error_detail(
                    REPEATED_USER_TURN,
                    f"the user simulator sent the same message {REPEATED_USER_TURNS} times in "
                    "a row",
                ),
            )

    def observe(self, event: Event) -> None:
        """Update the counters with one event and end the conversation when a rule fires."""
        if isinstance(event, UserMessage):
            self.steps += 1
            if event.ends == UNSATISFIED:
                self.end(TerminationReason.USER_ABANDONED, event.text)
            elif event.ends == STOP:
                self.end(TerminationReason.USER_STOP)
            else:
                self._judge_user_turn(event)
        elif isinstance(event, AgentMessage):
            self.steps += 1
            self.tool_calls += len(event.tool_calls)
            if event.text and not event.tool_calls and "?" in event.text:
                self.questions += 1
        elif isinstance(event, ToolResult):
            ending = self.ending_of(event)
            if ending is not None:
                self.end(ending)
            elif event.error:
                self.tool_errors += 1
                if self.tool_errors > self.limits.max_tool_errors:
                    self.end(
                        TerminationReason.TOO_MANY_TOOL_ERRORS,
                        f"more than {self.limits.max_tool_errors} failed tool calls",
                    )
        if self.reason is None and self.steps >= self.limits.max_steps:
            self.end(TerminationReason.MAX_STEPS, f"reached {self.limits.max_steps} messages")
