"""What ``tau-sim run --dry-run`` prints: a run's size and an estimate of its model calls.

The estimate reads each task's gold path: an agent makes one call per gold action and one per
user turn; a user makes one call per turn, taken as the opening, one per authentication slot
and a closing one. Real conversations wander (an emotional user takes more turns), so it is a
lower-end estimate, not a promise. Scripted agents and users make no model calls.
With ``--judge``, the judge makes (at least) one call per conversation whose task has
natural-language assertions and that ends well; a run without any leaves the judge unused,
and the plan says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tau_sim.simulator.core.conditions import NEUTRAL, TASK_EMOTION
from tau_sim.simulator.core.registry import CalibrationAgentProvider
from tau_sim.simulator.grid.cells import grid_size

if TYPE_CHECKING:
    from tau_sim.simulator.run.player import Player
    from tau_sim.simulator.world.domain import Task


def user_turns(task: Task) -> int:
    """The user turns a task takes on its gold path: opening, one per auth slot, closing."""
    return 2 + len(task.auth_slots)


def dry_run_plan(player: Player) -> dict[str, Any]:
    """The size of ``player``'s run by agent and condition, and its expected model calls."""
    config = player.config
    tasks = [player.tasks[t] for t in config.tasks]
    levels = len(config.politeness) * len(config.urgency) * len(config.trust)
    labels = [
        e if e in (NEUTRAL, TASK_EMOTION) else f"{e}@{i:g}"
        for e in config.emotions
        for i in ([0.0] if e in (NEUTRAL, TASK_EMOTION) else config.intensities)
    ]
    conditions = len(labels) * levels
    per_condition = len(config.users) * len(tasks) * config.trials
    per_task_user = sum(user_turns(t) for t in tasks)
    per_task_agent = sum(len(t.actions) + user_turns(t) for t in tasks)
    repeats = conditions * config.trials
    model_agents = sum(
        not isinstance(p, CalibrationAgentProvider) for p in player.agent_providers.values()
    )
    model_users = sum(not name.startswith("scripted") for name in config.users)
    agent_calls = model_agents * len(config.users) * per_task_agent * repeats
    user_calls = len(config.agents) * model_users * per_task_user * repeats
    return {
        "conversations": grid_size(config),
        "agents": list(config.agents),
        "users": list(config.users),
        "tasks": len(tasks),
        "conditions": conditions,
        "condition_labels": labels,
        "per_agent": per_condition * conditions,
        "per_condition": per_condition,
        "agent_calls": agent_calls,
        "user_calls": user_calls,
        "model_calls": agent_calls + user_calls,
        "judge": judge_plan(player),
        "estimate": "from the gold path lengths: calls per gold action and per user turn",
        "stored": False,
    }


def judge_plan(player: Player) -> dict[str, Any] | None:
    """The judge's share of the run: tasks with assertions, how many count, calls at most."""
    config = player.config
    if config.judge is None:
        return None
    tasks = [player.tasks[t] for t in config.tasks]
    judged = [t for t in tasks if player.evaluators[t.domain].assertions(t)]
    scored = [t for t in judged if player.evaluators[t.domain].scores_assertions(t)]
    per_task = grid_size(config) // max(len(tasks), 1)
    return {
        "model": config.judge,
        "tasks_with_assertions": len(judged),
        "tasks_scored": len(scored),
        "calls": len(judged) * per_task,
        "unused": not judged,
    }


def judge_line(plan: dict[str, Any] | None) -> str | None:
    """The dry run's line about the judge (None: no ``--judge``)."""
    if plan is None:
        return None
    if plan["unused"]:
        return f"judge {plan['model']}: unused, no task of this run has natural-language assertions"
    return (
        f"judge {plan['model']}: {plan['tasks_with_assertions']} tasks have natural-language "
        f"assertions ({plan['tasks_scored']} count them in their reward); about "
        f"{plan['calls']} judge calls at most (one per conversation that ends well)"
    )
