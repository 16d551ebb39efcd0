"""How a conversation ends: the named reasons, and which of them count as a success or an outage.

The referee (``simulator.engine.referee``) picks one reason per conversation; tools declare the
reason their call ends with (a transfer); the evaluator, the failure reasons, the report and
the TUI read it back from ``ConversationEnded``.
"""

from __future__ import annotations

from enum import StrEnum


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
