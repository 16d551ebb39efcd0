"""Re-scoring a stored run from SQLite alone, with today's evaluator and today's task set.

Every completed conversation of the run is evaluated again from its stored events (the agent's
texts, the environment's final state) against the task as the domain (or the run's task file,
read again) defines it now. Nothing is written unless asked; then the new rewards and
breakdowns replace the stored ones in one transaction, and the ``rescores`` table records it.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
import sqlite_utils

from simulator.errors import UsageError
from simulator.evaluation import Evaluator, MissingStateError, final_reward
from simulator.grid import RunConfig, decode_config
from simulator.store import create_rescores_table, get_run, iter_events

_json = msgspec.json.Encoder()


class Verdict(msgspec.Struct, frozen=True):
    """One conversation whose reward changed."""

    conversation: str
    task_id: str
    old: float
    new: float


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


def _config(run: dict[str, Any]) -> RunConfig:
    try:
        return decode_config(run["config"])
    except msgspec.DecodeError as exc:
        raise UsageError(
            f"run {run['id']}: its stored configuration is unreadable: {exc}"
        ) from None


def rescore_run(db: sqlite_utils.Database, run_id: str, *, write: bool = False) -> Rescore:
    """Evaluate every completed conversation of ``run_id`` again; store the result if ``write``."""
    from simulator.registry import load_plugins
    from simulator.runner import run_domains, task_pool

    run = get_run(db, run_id)
    config = _config(run)
    load_plugins()
    domains = run_domains(config.domains)
    tasks = {t.id: t for t in task_pool(list(domains.values()), config.tasks_file)}
    evaluators = {name: Evaluator(domain) for name, domain in domains.items()}
    rows = db.execute(
        "select id, task_id, reason, reward, breakdown from conversations "
        "where run_id = ? and status = 'completed' order by cell",
        [run["id"]],
    ).fetchall()
    changed: list[Verdict] = []
    skipped: list[Skipped] = []
    updates: list[tuple[float, str, str]] = []
    for conversation, task_id, reason, old, old_breakdown in rows:
        task = tasks.get(task_id)
        if task is None:
            skipped.append(Skipped(conversation, task_id, "the task set has no such task now"))
            continue
        try:
            evaluator = evaluators[task.domain]
            score, breakdown = evaluator.evaluate(task, iter_events(db, conversation))
        except MissingStateError as exc:
            skipped.append(Skipped(conversation, task_id, str(exc)))
            continue
        except ValueError as exc:  # a gold action that fails now
            raise UsageError(f"{config.tasks_file or task.domain}: {exc}") from None
        new = final_reward(reason, score)
        encoded = _json.encode(breakdown).decode()
        if new != old:
            changed.append(Verdict(conversation, task_id, old, new))
        if new != old or encoded != old_breakdown:
            updates.append((new, encoded, conversation))
    if write:
        with db.conn:
            db.conn.executemany(
                "update conversations set reward = ?, breakdown = ? where id = ?", updates
            )
            create_rescores_table(db)
            db.table("rescores").insert(
                {
                    "run_id": run["id"],
                    "rescored_at": time.time(),
                    "rescored": len(rows) - len(skipped),
                    "changed": len(changed),
                    "tasks_file": config.tasks_file,
                }
            )
    return Rescore(run["id"], len(rows) - len(skipped), changed, skipped, write)


def render_rescore(result: Rescore) -> str:
    """The text ``tau-sim rescore`` prints."""
    lines = [
        f"run {result.run_id}: {result.rescored} conversations rescored, "
        f"{len(result.changed)} verdicts changed"
    ]
    lines += [f"  {v.conversation} {v.task_id}: {v.old:g} -> {v.new:g}" for v in result.changed]
    if result.skipped:
        lines.append(f"{len(result.skipped)} not rescored:")
        lines += [f"  {s.conversation} {s.task_id}: {s.why}" for s in result.skipped]
    if result.written:
        lines.append("the new rewards are stored")
    elif result.changed:
        lines.append("nothing stored (add --write to store the new rewards)")
    return "\n".join(lines)
