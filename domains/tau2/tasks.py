"""τ²-bench tasks as tau-sim ``Task``s: scenario, gold path and required outputs.

Ids are ``tau2-<domain>-<their id>`` (their ids repeat across domains); ``original_id`` gives
theirs back. A task's gold path is its ``evaluation_criteria.actions`` in order (an action
requested by the user is a user step; the few that fail on their fresh database, as some
retail ones do, are skipped by the gold agent's ``AnswerKey`` as their evaluator skips them);
its required outputs are ``communicate_info``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import ValidationError
from tau2.data_model.tasks import StructuredUserInstructions
from tau2.data_model.tasks import Task as Tau2Task

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.world import Action, Task, UserScenario

KNOWN_SLOT = "known_info"
"""The one scenario slot of a τ²-bench task: what the user knows, as their text says it."""


def task_id(domain: str, original: str) -> str:
    """Our id of τ²-bench task ``original`` of domain ``domain`` (e.g. ``tau2/retail``)."""
    return f"{domain.replace('/', '-')}-{original}"


def original_id(domain: str, ours: str) -> str:
    """τ²-bench's own id of our task ``ours``."""
    return ours.removeprefix(f"{domain.replace('/', '-')}-")


def scenario_of(task: Tau2Task) -> UserScenario:
    """Their user scenario as ours: reason for call and instructions as the goal."""
    instructions = task.user_scenario.instructions
    persona = task.user_scenario.persona or ""
    if isinstance(instructions, StructuredUserInstructions):
        goal = f"{instructions.reason_for_call}\n\n{instructions.task_instructions}".strip()
        known = {KNOWN_SLOT: instructions.known_info} if instructions.known_info else {}
        unknown = [instructions.unknown_info] if instructions.unknown_info else []
        opening = instructions.reason_for_call.split(". ")[0].strip()
    else:
        goal, known, unknown, opening = str(instructions), {}, [], ""
    return UserScenario(
        goal=goal, opening=opening, known_info=known, unknown_info=unknown, persona=persona
    )


def convert(domain: str, task: Tau2Task) -> Task:
    """One τ²-bench task as ours."""
    criteria = task.evaluation_criteria
    gold = criteria.actions or [] if criteria else []
    actions = [Action(a.name, dict(a.arguments)) for a in gold]
    outputs = list(criteria.communicate_info or []) if criteria else []
    summary = task.description.purpose or "" if task.description else ""
    return Task(
        id=task_id(domain, task.id),
        domain=domain,
        intent="tau2",
        scenario=scenario_of(task),
        auth_slots=[],
        actions=actions,
        required_outputs=outputs,
        summary=summary,
    )


def read_tasks(path: Path) -> list[Tau2Task]:
    """A τ²-bench ``tasks.json`` (a JSON list of tasks); a bad entry is a ``UsageError``."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read task file {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(raw, list):
        raise UsageError(f"{path}: a τ²-bench task file is a JSON list of tasks")
    tasks: list[Tau2Task] = []
    for i, entry in enumerate(raw):
        try:
            tasks.append(Tau2Task.model_validate(entry))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise UsageError(f"{path}: tasks[{i}].{field}: {first['msg']}") from None
    return tasks


def check_tools(
    path: Path, tasks: Iterable[Tau2Task], agent: Mapping[str, object], user: Mapping[str, object]
) -> None:
    """Every gold action names a tool of its requestor's side, else a ``UsageError``."""
    for i, task in enumerate(tasks):
        criteria = task.evaluation_criteria
        for j, action in enumerate((criteria.actions or []) if criteria else []):
            tools = user if action.requestor == "user" else agent
            if action.name not in tools:
                raise UsageError(
                    f"{path}: tasks[{i}] (id {task.id}): evaluation_criteria.actions[{j}] "
                    f"{action.name}: unknown {action.requestor} tool "
                    f"(known: {', '.join(sorted(tools)) or 'none'})"
                )
