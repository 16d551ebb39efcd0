"""The filter's thresholds and balance (apart, so the command line reads their defaults cheaply)."""

from __future__ import annotations

import msgspec


class Thresholds(msgspec.Struct, frozen=True, kw_only=True):
    """The filter's limits; each is a ``tau-sim tracer filter`` flag of the same name.

    ``min_reward``: the reward a kept conversation reached. Grounding (on by default):
    ``max_ungrounded_arguments``: tool-call arguments nobody gave; ``max_ungrounded_facts``: ids,
    amounts and dates the agent stated or passed that nobody gave (``tracer.grounding``);
    ``max_untold_picks``: records the agent picked among several that nobody singled out
    (``simulator.world.picks``: a guess a model must not learn).
    Tracer's reading: ``max_reliance``: questions for lookupable information;
    ``max_redundant``: questions for what the user had already given; ``max_unanswered``: user
    questions left unanswered. The user's tags (what it recorded): ``max_dismissive``,
    ``max_ignored_cue``, ``max_repeated_question``, ``max_unbacked_claim``. Then
    ``max_turns``: agent plus user messages; ``max_tool_errors``: failed tool calls.
    """

    min_reward: float = 1.0
    max_ungrounded_arguments: int = 0
    max_ungrounded_facts: int = 0
    max_untold_picks: int = 0
    max_reliance: int = 0
    max_redundant: int = 0
    max_unanswered: int = 0
    max_dismissive: int = 0
    max_ignored_cue: int = 0
    max_repeated_question: int = 0
    max_unbacked_claim: int = 0
    max_turns: int = 40
    max_tool_errors: int = 1


CELL_KEYS = ("agent", "task", "condition", "domain", "emotion", "intensity", "user")
"""What a balance cell can be made of (``condition``: emotion, intensity and levels)."""


class Balance(msgspec.Struct, frozen=True, kw_only=True):
    """How the kept conversations are spread over cells (``tracer.balance``).

    ``by``: the keys of a cell (``CELL_KEYS``); ``cap``: at most this many per cell (None: no
    cap); ``even``: every cell cut to the smallest cell's count; ``seed``: which conversations
    a cut keeps (the same seed, the same ones).
    """

    by: tuple[str, ...] = ("condition", "task", "agent")
    cap: int | None = None
    even: bool = False
    seed: int = 0
