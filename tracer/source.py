"""Stored runs as Tracer reads them: each conversation's row, task, domain and events.

A run's tasks are found the way the runner found them (``simulator.world.pool.task_pool`` over the
run's domains and its ``--tasks-file``), so a filter or an export reads a constructed task file
from the path the run stored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core import Condition, Event, UsageError
from tau_sim.simulator.grid import RunConfig, decode_config
from tau_sim.simulator.store import get_run, iter_events
from tau_sim.simulator.world import (
    ConversationContext,
    Domain,
    Task,
    agent_view,
    run_domains,
    task_pool,
)


class Conversation(msgspec.Struct):
    """One completed conversation of a stored run, with what Tracer needs to judge it."""

    row: dict[str, Any]
    task: Task
    domain: Domain
    events: list[Event]

    @property
    def id(self) -> str:
        """The conversation id."""
        return str(self.row["id"])

    def system_prompt(self) -> str:
        """The system prompt the tool-calling agent is sent in this conversation.

        The runner's own ``agent_view`` of it, worded by ``agents.llm.system_prompt`` (a preamble,
        then the domain policy): the text an LLM agent of the run was sent, byte for byte.
        Scripted agents read no prompt; their rows carry the one a model would have had.
        """
        from tau_sim.agents.llm import system_prompt

        row = self.row
        ctx = ConversationContext(
            conversation_id=self.id,
            run_id=str(row["run_id"]),
            task=self.task,
            domain=self.domain,
            condition=Condition(emotion=str(row["emotion"]), intensity=float(row["intensity"])),
            trial=int(row["trial"]),
            seed=int(row["seed"] or 0),
        )
        return system_prompt(agent_view(ctx))


class RunSource(msgspec.Struct):
    """A stored run: its config, domains and tasks (by id)."""

    run_id: str
    config: RunConfig
    domains: dict[str, Domain]
    tasks: dict[str, Task]


def open_run(sqlite: sqlite_utils.Database, run_id: str) -> RunSource:
    """The run ``run_id`` of ``db``; ``UsageError`` when it is unknown or its tasks are gone."""
    run = get_run(sqlite, run_id)
    config = decode_config(run["config"])
    domains = run_domains(config.domains)
    tasks = {t.id: t for t in task_pool(list(domains.values()), config.tasks_file)}
    return RunSource(run_id, config, domains, tasks)


def conversations(
    sqlite: sqlite_utils.Database, source: RunSource, ids: Sequence[str] | None = None
) -> Iterator[Conversation]:
    """The run's conversations in id order (all, or those of ``ids``), with their events.

    A conversation whose task is no longer in the run's task set is a ``UsageError``.
    """
    rows = sqlite.query("select * from conversations where run_id = ? order by id", [source.run_id])
    wanted = None if ids is None else set(ids)
    for row in rows:
        if wanted is not None and row["id"] not in wanted:
            continue
        task = source.tasks.get(row["task_id"])
        if task is None:
            raise UsageError(
                f"run {source.run_id}: conversation {row['id']} plays task {row['task_id']!r}, "
                "which its task set no longer holds"
            )
        yield Conversation(
            dict(row), task, source.domains[task.domain], list(iter_events(sqlite, row["id"]))
        )
