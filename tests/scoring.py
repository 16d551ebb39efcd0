"""Scores a finished dialogue the way the engine does: from its events (agent texts + state)."""

from __future__ import annotations

from collections.abc import Sequence

from tau_sim.simulator.core.events import AgentMessage, RewardBreakdown
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.evaluation import evaluate, state_event


def score(
    domain: Domain, task: Task, db: Database, said: Sequence[str]
) -> tuple[float, RewardBreakdown]:
    """The evaluator's verdict on a conversation that said ``said`` and left ``db``."""
    events = [AgentMessage(conversation="c", text=text) for text in said]
    return evaluate(domain, task, [*events, state_event("c", db)])
