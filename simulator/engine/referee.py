"""The referee: watches every event of a conversation and decides when and why it ends.

The conversation's channel owns it: the channel shows it every event and closes itself once
the referee has a reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from tau_sim.simulator.core.endings import Limits, TerminationReason
from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.simulator.core.roles import STOP, UNSATISFIED


class Referee:
    """Counts turns, tool calls, errors and questions; keeps the first reason to end."""

    __slots__ = (
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

    def end(self, reason: TerminationReason, detail: str = "") -> None:
        """Record why the conversation ends (the first reason wins)."""
        if self.reason is None:
            self.reason = reason
            self.detail = detail

    def ending_of(self, result: ToolResult) -> TerminationReason | None:
        """The ending a successful tool result causes, if any (the one place that decides it)."""
        return None if result.error else self.endings.get(result.name)

    def observe(self, event: Event) -> None:
        """Update the counters with one event and end the conversation when a rule fires."""
        if isinstance(event, UserMessage):
            self.steps += 1
            if event.ends == UNSATISFIED:
                self.end(TerminationReason.USER_ABANDONED, event.text)
            elif event.ends == STOP:
                self.end(TerminationReason.USER_STOP)
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
