"""What a per-conversation factory is given: the task, the condition and a seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from simulator.domain import Domain, Task


class ConversationContext(msgspec.Struct, kw_only=True):
    """Everything that identifies one conversation of a run.

    ``politeness``, ``urgency`` and ``trust`` are the condition's named levels; None is the
    emotion leaf's own level.
    """

    conversation_id: str
    run_id: str
    task: Task
    domain: Domain
    emotion: str
    intensity: float
    trial: int
    seed: int
    politeness: str | None = None
    urgency: str | None = None
    trust: str | None = None

    def rng(self, salt: str) -> random.Random:
        """A deterministic random generator for one consumer (``agent``, ``user`` …)."""
        return random.Random(f"{self.seed}:{salt}")
