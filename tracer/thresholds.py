"""The filter's thresholds (apart, so the command line reads their defaults cheaply)."""

from __future__ import annotations

import msgspec


class Thresholds(msgspec.Struct, frozen=True, kw_only=True):
    """The filter's limits; each is a ``tau-sim tracer filter`` flag of the same name.

    ``max_reliance``: questions for lookupable information; ``max_redundant``: repeated
    questions; ``max_turns``: agent plus user messages; ``max_tool_errors``: failed tool calls;
    ``min_reward``: the reward a kept conversation reached.
    """

    min_reward: float = 1.0
    max_reliance: int = 0
    max_redundant: int = 0
    max_turns: int = 40
    max_tool_errors: int = 1
