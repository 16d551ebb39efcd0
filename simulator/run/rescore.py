"""Re-scoring a stored run from SQLite alone, with today's evaluator and today's task set.

Every completed conversation of the run is evaluated again from its stored events (the agent's
texts, the environment's final state) against the task as the domain (or the run's task file,
read again) defines it now, and its failure reason (``simulator.engine.failures``) is worked out
again from the same events. A conversation whose reward or evaluated-ness (a check not
evaluated, ``core.grading``) changes is listed with why (``change_reason``). Nothing is written
unless asked; then the new rewards, breakdowns and failure reasons replace the stored ones in
one transaction, every conversation rescored gets the provenance ``rescored`` with today's
``SCORER_VERSION`` (the live judge's warnings carried over: no judge is asked again), and the
``rescores`` table records it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import (
    ConversationEnded,
    Event,
    RewardBreakdown,
    breakdown_json,
)
from tau_sim.simulator.core.grading import RESCORED, SCORER_VERSION, grading_warnings
from tau_sim.simulator.core.registry import load_plugins
from tau_sim.simulator.engine.failures import diagnose_task
from tau_sim.simulator.grid.config import RunConfig, decode_config
from tau_sim.simulator.store import create_rescores_table, get_run, iter_events
from tau_sim.simulator.store.provenance import not_evaluated_checks, stored_warnings
from tau_sim.simulator.world.evaluation import MissingStateError, final_reward, make_evaluator
from tau_sim.simulator.world.pool import run_domains, task_pool


class Verdict(msgspec.Struct, frozen=True):
    """One conversation whose reward or evaluated-ness changed, and why (``change_reason``)."""

    conversation: str
    task_id: str
    old: float
    new: float
    old_evaluated: bool = True
    new_evaluated: bool = True
    why: str = ""


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
    """The outcome of re-scoring one run (``scorer_version``: the version that scored it now)."""

    run_id: str
    rescored: int
    changed: list[Verdict]
    skipped: list[Skipped]
    written: bool
    failures_changed: list[FailureChange] = []
    scorer_version: int = SCORER_VERSION


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
    have = sqlite.table("conversations").columns_dict
    stored = ", ".join(c if c in have else "null" for c in _STORED)
    rows = sqlite.execute(
        f"select id, task_id, reason, reward, breakdown, detail, {stored} from conversations "
        "where run_id = ? and status = 'completed' order by cell",
        [run["id"]],
    ).fetchall()
    changed: list[Verdict] = []
    failures_changed: list[FailureChange] = []
    skipped: list[Skipped] = []
    updates: list[tuple[Any, ...]] = []
    scored: list[tuple[Any, ...]] = []
    now = time.time()
    for row in rows:
        conversation, task_id, reason, old, old_breakdown, detail, old_kind, old_text = row[:8]
        old_warnings, old_version = row[8:]
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
        was_evaluated = not not_evaluated_checks(old_breakdown)
        evaluated = not breakdown.not_evaluated
        if new != old or evaluated != was_evaluated:
            why = change_reason(old_breakdown, breakdown, old_version)
            changed.append(Verdict(conversation, task_id, old, new, was_evaluated, evaluated, why))
        judged = [*stored_warnings(old_warnings), *_ended_warnings(events)]
        warnings = json.dumps(grading_warnings(breakdown, judged))
        scored.append((RESCORED, SCORER_VERSION, now, warnings, conversation))
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
            sqlite.conn.executemany(
                "update conversations set scored_by = ?, scorer_version = ?, scored_at = ?, "
                "warnings = ? where id = ?",
                scored,
            )
            create_rescores_table(sqlite)
            sqlite.table("rescores").insert(
                {
                    "run_id": run["id"],
                    "rescored_at": now,
                    "rescored": len(rows) - len(skipped),
                    "changed": len(changed),
                    "tasks_file": config.tasks_file,
                }
            )
    return Rescore(run["id"], len(rows) - len(skipped), changed, skipped, write, failures_changed)


_breakdown = msgspec.json.Decoder(RewardBreakdown)
_STORED = ("failure", "failure_detail", "warnings", "scorer_version")
"""Columns a read-only file stored before them lacks (read as NULL)."""


def _ended_warnings(events: Sequence[Event]) -> list[str]:
    """The grading warnings the conversation's stored ``ConversationEnded`` carries."""
    return [w for e in events if isinstance(e, ConversationEnded) for w in e.warnings]


def change_reason(old: str | None, new: RewardBreakdown, old_version: int | None) -> str:
    """Why a reward changed: what differs between the stored breakdown and the new one.

    Each part that differs reads ``name old -> new`` (state match, missing outputs, the
    checks of a reward basis, those not evaluated, the judge's verdicts); with none (the same
    breakdown under another rule for the ending), the scorer versions.
    """
    try:
        before = _breakdown.decode(old) if old else None
    except msgspec.DecodeError:
        before = None
    if before is None:
        return "no breakdown was stored"
    parts = []
    for name, was, now in (
        ("state match", before.db_match, new.db_match),
        ("missing outputs", before.missing_outputs, new.missing_outputs),
        ("checks", before.checks, new.checks),
        ("not evaluated", before.not_evaluated, new.not_evaluated),
        ("judged", before.judged, new.judged),
    ):
        if was != now:
            parts.append(f"{name} {_shown(was)} -> {_shown(now)}")
    if parts:
        return "; ".join(parts)
    version = "unknown" if old_version is None else old_version
    return f"the scoring rules (scorer version {version} -> {SCORER_VERSION})"


def _shown(value: object) -> str:
    """A breakdown part as the reason prints it (an empty one as ``none``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "none"
    return str(value)


def render_rescore(result: Rescore) -> str:
    """The text ``tau-sim rescore`` prints: the summary, then each change with its reason."""
    lines = [
        f"run {result.run_id}: {result.rescored} conversations rescored, "
        f"{len(result.changed)} verdicts changed (scorer version {result.scorer_version})"
    ]
    lines += [
        f"  {v.conversation} {v.task_id}: {_verdict(v.old, v.old_evaluated)} -> "
        f"{_verdict(v.new, v.new_evaluated)} ({v.why})"
        for v in result.changed
    ]
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
        lines.append("the new rewards are stored, with their provenance (rescored)")
    elif result.changed or result.failures_changed:
        lines.append("nothing stored (add --write to store the new rewards)")
    return "\n".join(lines)


def _verdict(reward: float, evaluated: bool) -> str:
    """A reward as a change prints it: ``not evaluated (0)`` when a check was not evaluated."""
    return f"{reward:g}" if evaluated else f"not evaluated ({reward:g})"
