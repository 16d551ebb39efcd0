"""What the user audit reads of a stored run: per conversation its condition and the words said.

Read through the store's readers (``open_database``, ``get_run``, ``conversation_rows``,
``iter_events``); the scenario a user plays comes from the registered domain's task. Bad input
(an unknown run, a run without user messages) is a ``UsageError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import msgspec
import sqlite_utils

from tau_sim.simulator.core import (
    AgentMessage,
    Condition,
    ToolResult,
    UsageError,
    UserMessage,
    UserToolResult,
)
from tau_sim.simulator.results import conversation_rows
from tau_sim.simulator.store import get_run, iter_events
from tau_sim.simulator.world import Domain, InfoSlot, Task


@dataclass
class Played:
    """One stored conversation as the audit reads it.

    ``known`` holds the texts the user may take facts from before each user message: the
    scenario (index 0 onwards) plus what the agent and the user's own tools said earlier;
    ``known_before[i]`` is that text for user message ``i``; ``replies[i]`` is what the agent
    said (its texts, joined) after user message ``i`` and before the next one. ``persona``,
    ``demand`` and ``slots`` (each fact the user holds: name, value and the words an agent
    asks it by) are the task's, empty where the domain is not registered here.
    """

    user: str
    condition: Condition
    reward: float | None
    texts: list[str] = field(default_factory=list)
    known_before: list[str] = field(default_factory=list)
    ends: str | None = None
    replies: list[str] = field(default_factory=list)
    persona: str = ""
    demand: str = ""
    slots: list[InfoSlot] = field(default_factory=list)


def read_runs(db: sqlite_utils.Database, run_ids: list[str]) -> list[Played]:
    """Every completed conversation of the runs named, in run and grid order."""
    played: list[Played] = []
    for run_id in run_ids:
        run = get_run(db, run_id)
        found = 0
        for row in conversation_rows(db, run["id"]):
            if row.get("status") != "completed":
                continue
            item = read_played(db, row)
            if item.texts:
                found += 1
                played.append(item)
        if not found:
            raise UsageError(f"run {run_id!r} holds no user messages to audit")
    return played


def _level(value: object) -> str | None:
    """A stored dimension level; None (the leaf's own) where the column is empty."""
    return str(value) if value else None


def read_played(db: sqlite_utils.Database, row: dict[str, object]) -> Played:
    """One stored conversation row, with its events, as the audit reads it."""
    reward = row.get("reward")
    item = Played(
        user=str(row["user"]),
        condition=Condition(
            emotion=str(row["emotion"]),
            intensity=float(str(row["intensity"])),
            politeness=_level(row.get("politeness")),
            urgency=_level(row.get("urgency")),
            trust=_level(row.get("trust")),
        ),
        reward=float(str(reward)) if reward is not None else None,
    )
    domain, task_id = str(row["domain"]), str(row["task_id"])
    known = [scenario_text(domain, task_id)]
    task = task_of(domain, task_id)
    if task is not None:
        item.persona, item.demand = task[0].scenario.persona, task[0].scenario.demand
        item.slots = task[1]
    for event in iter_events(db, str(row["id"])):
        if isinstance(event, UserMessage):
            item.texts.append(event.text)
            item.replies.append("")
            item.known_before.append(" ".join(known))
            item.ends = event.ends or item.ends
        elif isinstance(event, AgentMessage) and event.text:
            known.append(event.text)
            if item.replies:
                item.replies[-1] = f"{item.replies[-1]} {event.text}".strip()
        elif isinstance(event, ToolResult | UserToolResult):
            known.append(event.content)
    return item


@cache
def scenario_text(domain: str, task_id: str) -> str:
    """The scenario and slots of a registered task as one text ('' when it is not known).

    A run of an unregistered domain has no scenario here: its users' facts are then checked
    against what the agent and the user's tools said only.
    """
    found = task_of(domain, task_id)
    if found is None:
        return ""
    return msgspec.json.encode([found[0].scenario, found[1]]).decode()


@cache
def task_of(domain: str, task_id: str) -> tuple[Task, list[InfoSlot]] | None:
    """A registered task and the facts its user holds (None when it is not known here)."""
    from tau_sim.simulator.world import user_slots

    loaded = _domain(domain)
    if loaded is None:
        return None
    for task in loaded.tasks:
        if task.id == task_id:
            return task, user_slots(loaded, task)
    return None


@cache
def _domain(name: str) -> Domain | None:
    from tau_sim.simulator.core import get_domain

    try:
        return get_domain(name)
    except UsageError:
        return None
