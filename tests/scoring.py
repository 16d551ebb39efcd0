"""Scores a finished dialogue the way the engine does: from its events (agent texts + state)."""

from __future__ import annotations

from collections.abc import Sequence

from simulator.database import Database
from simulator.domain import Domain, Task
from simulator.evaluation import evaluate, state_event
from simulator.events import AgentMessage, RewardBreakdown


def score(
    domain: Domain, task: Task, db: Database, said: Sequence[str]
) -> tuple[float, RewardBreakdown]:
    """The evaluator's verdict on a conversation that said ``said`` and left ``db``."""
    events = [AgentMessage(conversation="c", text=text) for text in said]
    return evaluate(domain, task, [*events, state_event("c", db)])
