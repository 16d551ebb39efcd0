"""The referee: watches every event of a conversation and decides when and why it ends.

The conversation's channel owns it: the channel shows it every event and closes itself once
the referee has a reason. The channel shows it an event before routing it, so a user turn that
ends the conversation (an empty one, or a repetition: ``user_error`` or ``agent_stalled``)
never reaches the agent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tau_sim.simulator.core.endings import REPEATED_USER_TURNS, Limits, TerminationReason
from tau_sim.simulator.core.events import (
    AgentMessage,
    EmotionUpdate,
    Event,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.core.infra import EMPTY_USER_TURN, REPEATED_USER_TURN, user_error_detail
from tau_sim.simulator.core.roles import EMPTY_TURN, STOP, UNSATISFIED

_NOT_WORDS = re.compile(r"[\W_]+")


def same_text_key(text: str) -> str:
    """What two user messages share when they say the same: casefolded words, no punctuation."""
    return " ".join(_NOT_WORDS.sub(" ", text.casefold()).split())


NOTHING_TO_ANSWER = frozenset(
    {"no_progress", "announced_delay", "unclear_question", "dismissive", "ignored_cue"}
)
"""The scripted user's triggers of an agent turn that gave it nothing it could answer or act on
(``users.scripted``): a turn whose triggers are all of these stalled the user."""


def is_empty_turn(message: UserMessage) -> bool:
    """A user turn with no usable message: nothing, or the LLM user's ``EMPTY_TURN``."""
    return message.ends is None and message.text.strip() in ("", EMPTY_TURN)


class Referee:
    """Counts turns, tool calls, errors and questions; keeps the first reason to end.

    Besides the limits, it ends a conversation whose user simulator failed with ``user_error``:
    a user turn with no usable message (``is_empty_turn``), or the same user message
    (``same_text_key``) ``REPEATED_USER_TURNS`` times in a row. Such a loop is charged to the
    agent instead (``agent_stalled``) where it caused it: the agent turns the repeated messages
    answered (all but at most the first) called no tool and gave the user nothing to answer (an
    empty text, the agent's own previous text again, or one the user's state update read as
    nothing it could place: ``NOTHING_TO_ANSWER``).
    """

    __slots__ = (
        "_agent_said",
        "_last_said",
        "_repeats",
        "_stalled",
        "_turn_called",
        "_turn_said",
        "_turn_unplaced",
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
        self._agent_said: str | None = None
        self._turn_called = False
        """Whether the agent called a tool since the user's last message."""
        self._turn_said: bool | None = None
        """Whether the agent said anything new since the user's last message (None: no text)."""
        self._turn_unplaced = False
        """Whether the user read the agent's turn as nothing it could answer or act on."""
        self._stalled = 0
        """How many of the user's repeated messages answered agent turns that stalled."""

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
        stalled = not self._turn_called and (self._turn_said is False or self._turn_unplaced)
        self._turn_called, self._turn_said, self._turn_unplaced = False, None, False
        if said == self._last_said:
            self._repeats += 1
            self._stalled += stalled
        else:
            self._repeats, self._stalled = 1, 0
        self._last_said = said
        if self._repeats < REPEATED_USER_TURNS:
            return
        # every agent turn inside the loop stalled, but maybe its first: a text said once
        # for the first time reads as new, however empty of anything to answer
        if self._stalled >= self._repeats - 2:
            self.end(
                TerminationReason.AGENT_STALLED,
                f"the agent gave the user nothing to answer {self._stalled} turns in a row "
                "(no tool call; empty, repeated or unplaceable texts); the user said "
                f"{message.text.strip()[:120]!r} each time",
            )
            return
        self.end(
            TerminationReason.USER_ERROR,
            user_error_detail(
                REPEATED_USER_TURN,
                f"the user simulator sent the same message {REPEATED_USER_TURNS} times in a row",
            ),
        )

    def _judge_agent_turn(self, message: AgentMessage) -> None:
        """Note what this agent turn gave the user: a tool call, a text new or not."""
        if message.tool_calls:
            self._turn_called = True
        said = same_text_key(message.text or "")
        if not said:
            if not message.tool_calls and self._turn_said is None:
                self._turn_said = False  # an empty turn: nothing to answer
            return
        new = said != self._agent_said
        self._turn_said = new if self._turn_said is None else self._turn_said or new
        self._agent_said = said

    def _judge_state(self, update: EmotionUpdate) -> None:
        """The user's reading of the agent's turn: only ``NOTHING_TO_ANSWER`` is a stall."""
        self._turn_unplaced = bool(update.triggers) and all(
            t.partition(":")[0] in NOTHING_TO_ANSWER for t in update.triggers
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
        elif isinstance(event, EmotionUpdate):
            self._judge_state(event)
        elif isinstance(event, AgentMessage):
            self._judge_agent_turn(event)
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
