"""How a conversation ends: the named reasons, which count as a success, and the limits.

``SUCCESSFUL_ENDINGS`` and ``INFRA_ENDINGS`` say which reasons are a success and which an
outage of an endpoint; ``Limits`` are the steps, tool errors and seconds past which the referee
ends a conversation.

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
    ERROR = "error"


SUCCESSFUL_ENDINGS = frozenset({TerminationReason.USER_STOP, TerminationReason.TRANSFER})
INFRA_ENDINGS = frozenset({TerminationReason.INFRA_ERROR})
"""Endings caused by an endpoint, not by the agent: left out of the figures by default."""


SUCCESS_EPS = 1e-6
"""A reward counts as full (a success) when it is within this of 1."""


class Limits(msgspec.Struct, frozen=True):
    """Per-conversation limits the referee enforces."""

    max_steps: int = 50
    max_tool_errors: int = 10
    timeout_s: float = 600.0
