"""One τ²-bench domain as a tau-sim ``Domain`` (imports τ²-bench: the extra must be installed)."""

from __future__ import annotations

import importlib
from pathlib import Path

from tau_sim.domains.tau2.adapter import AGENT, USER, Tau2Base, tools_of
from tau_sim.domains.tau2.evaluation import Tau2Evaluator
from tau_sim.domains.tau2.tasks import KNOWN_SLOT, check_tools, convert, read_tasks, task_id
from tau_sim.simulator.world import Domain, SlotHint, Task, Toolkit

HINTS = {KNOWN_SLOT: SlotHint(keywords=(), prompt="What you know")}
"""The scenario's one slot (their known-info text), as the LLM user's prompt shows it."""


def build_domain(short: str) -> Domain:
    """``tau2/<short>`` from ``tau2.domains.<short>.environment``: policy, tools, tasks, splits."""
    module = importlib.import_module(f"tau2.domains.{short}.environment")
    name = f"tau2/{short}"
    theirs = module.get_tasks("base")
    base = Tau2Base(module.get_environment, {task_id(name, t.id): t for t in theirs})
    env = module.get_environment()  # for the tool schemas and the policy
    toolkit = Toolkit(tools_of(env, AGENT))
    user_tools = tools_of(env, USER)
    user_toolkit = Toolkit(user_tools) if user_tools else None
    ids = {t.id for t in theirs}
    splits = {
        split: [task_id(name, i) for i in members]
        for split, members in module.get_tasks_split().items()
        if set(members) <= ids
    }

    def read(path: Path) -> list[Task]:
        tasks = read_tasks(path)
        check_tools(path, tasks, toolkit.tools, user_toolkit.tools if user_toolkit else {})
        base.initial.update({task_id(name, t.id): t for t in tasks})
        return [convert(name, t) for t in tasks]

    return Domain(
        name=name,
        title=f"τ²-bench {short}",
        policy=env.policy,
        toolkit=toolkit,
        build_base=lambda: base,
        task_source=[convert(name, t) for t in theirs],
        slot_hints=HINTS,
        user_toolkit=user_toolkit,
        task_splits=splits,
        task_reader=read,
        free_text_scenarios=True,
        evaluator=Tau2Evaluator,
    )
