"""How a conversation ends: the named reasons, which count as a success, and the limits.

``SUCCESSFUL_ENDINGS``, ``INFRA_ENDINGS`` and ``USER_ERROR_ENDINGS`` say which reasons are a
success, an outage of an endpoint and a failure of the user simulator; ``Limits`` are the steps,
tool errors and seconds past which the referee ends a conversation, ``REPEATED_USER_TURNS`` the
same user message in a row that ends it as the user simulator's failure.

The referee (``simulator.engine.referee``) picks one reason per conversation; tools declare the
reason their call ends with (a transfer); the evaluator, the failure reasons, the report and
the TUI read it back from ``ConversationEnded``.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class TerminationReason(StrEnum):
    """Why a conversation ended."""

    USER_STOP = "user_stop"
    USER_ABANDONED = "user_abandoned"
    TRANSFER = "transfer"
    MAX_STEPS = "max_steps"
    TOO_MANY_TOOL_ERRORS = "too_many_tool_errors"
    TIMEOUT = "timeout"
    MODEL_ERROR = "model_error"
    INFRA_ERROR = "infra_error"
    USER_ERROR = "user_error"
    AGENT_STALLED = "agent_stalled"
    ERROR = "error"


SUCCESSFUL_ENDINGS = frozenset({TerminationReason.USER_STOP, TerminationReason.TRANSFER})
INFRA_ENDINGS = frozenset({TerminationReason.INFRA_ERROR})
"""Endings caused by an endpoint, not by the agent: left out of the figures by default."""
USER_ERROR_ENDINGS = frozenset({TerminationReason.USER_ERROR})
"""Endings caused by the user simulator (an empty or unusable turn, a loop), not by the agent:
left out of the figures by default, like ``INFRA_ENDINGS``."""
EXCLUDED_ENDINGS = INFRA_ENDINGS | USER_ERROR_ENDINGS
"""Every ending that says nothing about the agent: what the figures leave out by default."""
REPEATED_USER_TURNS = 6
"""The referee ends a conversation once the user has sent the same message (compared
casefolded, without punctuation and spacing) this many times in a row. Who is charged depends on
what the user was answering (``Referee``): where every agent turn of the loop gave the user
nothing to answer (empty, the agent's own last text again, or a text the user read as nothing
it could place) and no tool was called, the agent stalled (``agent_stalled``, the agent's
failure, counted); otherwise the user simulator is stuck in a loop (``user_error``). A stuck
model repeats until ``max_steps`` (50 messages: 25 user turns), which this ends after 11. The
scripted user answers an agent that keeps asking for what
it does not know with one of two phrasings each time: over 65,000 conversations (every shipped
domain, the scripted gold, over-asker and sloppy agents, six emotions, three intensities) it sent
one line at most 4 times in a row, so 6 leaves it a margin."""


AGENT_CONDUCT_TAGS = frozenset(
    {
        "dismissive",
        "ignored_cue",
        "repeated_question",
        "lookupable_question",
        "unbacked_claim",
        "unclear_question",
    }
)
"""The kinds of a user's perception tags that blame the agent's conduct (the part before ``:``):
a user that gives up with none of them, after insisting on a refusal, gave up on its own ladder."""


SUCCESS_EPS = 1e-6
"""A reward counts as full (a success) when it is within this of 1."""


class Limits(msgspec.Struct, frozen=True):
    """Per-conversation limits the referee enforces."""

    max_steps: int = 50
    max_tool_errors: int = 10
    timeout_s: float = 600.0
