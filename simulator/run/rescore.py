"""Re-scoring a stored run from SQLite alone, with today's evaluator and today's task set.

Every completed conversation of the run is evaluated again from its stored events (the agent's
texts, the environment's final state) against the task as the domain (or the run's task file,
read again) defines it now, and its failure reason (``simulator.engine.failures``) is worked out
again from the same events. Nothing is written unless asked; then the new rewards, breakdowns
and failure reasons replace the stored ones in one transaction, and the ``rescores`` table
records it.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import breakdown_json
from tau_sim.simulator.core.registry import load_plugins
from tau_sim.simulator.engine.failures import diagnose_task
from tau_sim.simulator.grid.config import RunConfig, decode_config
from tau_sim.simulator.store import create_rescores_table, get_run, iter_events
from tau_sim.simulator.world.evaluation import MissingStateError, final_reward, make_evaluator
from tau_sim.simulator.world.pool import run_domains, task_pool


class Verdict(msgspec.Struct, frozen=True):
    """One conversation whose reward changed."""

    conversation: str
    task_id: str
    old: float
    new: float


class FailureChange(msgspec.Struct, frozen=True):
    """One conversation whose failure reason changed (None: no failure, or none stored)."""

    conversation: str
    task_id: str
    old: str | None
    new: str | None
    detail: str = ""


class Skipped(msgspec.Struct, frozen=True):
    """A conversation that could not be re-scored, and why."""

    conversation: str
    task_id: str
    why: str


class Rescore(msgspec.Struct, frozen=True):
    """The outcome of re-scoring one run."""

    run_id: str
    rescored: int
    changed: list[Verdict]
    skipped: list[Skipped]
    written: bool
    failures_changed: list[FailureChange] = []


def _config(run: dict[str, Any]) -> RunConfig:
    try:
        return decode_config(run["config"])
    except msgspec.DecodeError as exc:
        raise UsageError(
            f"run {run['id']}: its stored configuration is unreadable: {exc}"
        ) from None


def rescore_run(sqlite: sqlite_utils.Database, run_id: str, *, write: bool = False) -> Rescore:
    """Evaluate every completed conversation of ``run_id`` again; store the result if ``write``."""
    run = get_run(sqlite, run_id)
    config = _config(run)
    load_plugins()
    domains = run_domains(config.domains)
    tasks = {t.id: t for t in task_pool(list(domains.values()), config.tasks_file)}
    evaluators = {name: make_evaluator(domain) for name, domain in domains.items()}
    stored = "failure, failure_detail" if _has_failures(sqlite) else "null, null"
    rows = sqlite.execute(
        f"select id, task_id, reason, reward, breakdown, detail, {stored} from conversations "
        "where run_id = ? and status = 'completed' order by cell",
        [run["id"]],
    ).fetchall()
    changed: list[Verdict] = []
    failures_changed: list[FailureChange] = []
    skipped: list[Skipped] = []
    updates: list[tuple[Any, ...]] = []
    for conversation, task_id, reason, old, old_breakdown, detail, old_kind, old_text in rows:
        task = tasks.get(task_id)
        if task is None:
            skipped.append(Skipped(conversation, task_id, "the task set has no such task now"))
            continue
        events = list(iter_events(sqlite, conversation))
        try:
            evaluator = evaluators[task.domain]
            score, breakdown = evaluator.evaluate(task, events)
            new = final_reward(reason, score)
            failure = diagnose_task(
                evaluator,
                task,
                reason=reason,
                detail=detail or "",
                reward=new,
                breakdown=breakdown,
                events=events,
            )
        except MissingStateError as exc:
            skipped.append(Skipped(conversation, task_id, str(exc)))
            continue
        except ValueError as exc:  # a gold action that fails now
            raise UsageError(f"{config.tasks_file or task.domain}: {exc}") from None
        encoded = breakdown_json(breakdown)
        kind, text = (failure.kind, failure.detail) if failure else (None, None)
        if new != old:
            changed.append(Verdict(conversation, task_id, old, new))
        if kind != old_kind:
            failures_changed.append(
                FailureChange(conversation, task_id, old_kind, kind, text or "")
            )
        if new != old or encoded != old_breakdown or kind != old_kind or text != old_text:
            updates.append((new, encoded, kind, text, conversation))
    if write:
        with sqlite.conn:
            sqlite.conn.executemany(
                "update conversations set reward = ?, breakdown = ?, failure = ?, "
                "failure_detail = ? where id = ?",
                updates,
            )
            create_rescores_table(sqlite)
            sqlite.table("rescores").insert(
                {
                    "run_id": run["id"],
                    "rescored_at": time.time(),
                    "rescored": len(rows) - len(skipped),
                    "changed": len(changed),
                    "tasks_file": config.tasks_file,
                }
            )
    return Rescore(run["id"], len(rows) - len(skipped), changed, skipped, write, failures_changed)


def _has_failures(sqlite: sqlite_utils.Database) -> bool:
    """Whether the file has the failure columns (a read-only file stored before them has not)."""
    return "failure" in sqlite.table("conversations").columns_dict


def render_rescore(result: Rescore) -> str:
    """The text ``tau-sim rescore`` prints."""
    lines = [
        f"run {result.run_id}: {result.rescored} conversations rescored, "
        f"{len(result.changed)} verdicts changed"
    ]
    lines += [f"  {v.conversation} {v.task_id}: {v.old:g} -> {v.new:g}" for v in result.changed]
    if result.failures_changed:
        lines.append(f"{len(result.failures_changed)} failure reasons changed:")
        lines += [
            f"  {f.conversation} {f.task_id}: {f.old or '-'} -> {f.new or '-'}"
            for f in result.failures_changed
        ]
    if result.skipped:
        lines.append(f"{len(result.skipped)} not rescored:")
        lines += [f"  {s.conversation} {s.task_id}: {s.why}" for s in result.skipped]
    if result.written:
        lines.append("the new rewards are stored")
    elif result.changed or result.failures_changed:
        lines.append("nothing stored (add --write to store the new rewards)")
    return "\n".join(lines)
