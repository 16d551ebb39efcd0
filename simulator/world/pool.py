"""The tasks a run plays: its domains by name, their task pool (or a task file's), ``--tasks``.

``run_domains`` builds the domains ``--domain`` names, ``task_pool`` lists their tasks (or those
of ``--tasks-file``), ``select_tasks`` reads ``--tasks``; each refuses bad input with a one-line
``UsageError`` naming the flag. The run's checks (``simulator.run.checks``), the CLI, rescoring
and the reports find a run's tasks through them, the way the run did.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world.domain import Domain, Task, load_tasks


def run_domains(names: Sequence[str]) -> dict[str, Domain]:
    """The domains ``names`` by name, each built once; unknown or repeated names are errors."""
    if not names:
        raise UsageError("--domain needs at least one domain")
    domains: dict[str, Domain] = {}
    for name in names:
        if name in domains:
            raise UsageError(f"--domain: {name!r} is given twice")
        domains[name] = get_domain(name)
    return domains


def domains_named(names: Sequence[str]) -> str:
    """``domain 'NAME'`` or ``domains A, B``: where a run's tasks come from, in messages."""
    return f"domain {names[0]!r}" if len(names) == 1 else f"domains {', '.join(names)}"


def task_pool(
    domains: Sequence[Domain], tasks_file: str | None, *, replay: Collection[str] | None = None
) -> list[Task]:
    """The domains' benchmark tasks in domain order, or the tasks of a JSONL file, gold checked.

    A task file takes exactly one domain: each of its tasks must be for it and name its tools
    and argument types, and each task in ``replay`` (None: all) must have a gold path that
    replays on a fresh database (``simulator.world.domain.check_gold``). Task ids must be
    unique across the domains.
    """
    if tasks_file is not None:
        if len(domains) != 1:
            names = ", ".join(d.name for d in domains)
            raise UsageError(f"--tasks-file takes one domain (got {len(domains)}: {names})")
        return load_tasks(Path(tasks_file), domains[0], replay=replay)
    pool: list[Task] = []
    owner: dict[str, str] = {}
    for domain in domains:
        for task in domain.tasks:
            if task.id in owner:
                raise UsageError(
                    f"--domain: task id {task.id!r} is in both {owner[task.id]!r} and "
                    f"{domain.name!r}; run them separately"
                )
            owner[task.id] = domain.name
            pool.append(task)
    return pool


def select_tasks(pool: list[Task], spec: str | None, where: str) -> list[str]:
    """``N`` = the first N tasks of each domain; a comma-separated list of ids; None = all."""
    if spec is None:
        return [t.id for t in pool]
    spec = spec.strip()
    if spec.isdigit():
        n = int(spec)
        if n < 1:
            raise UsageError("--tasks must select at least one task")
        by_domain: dict[str, list[Task]] = {}
        for task in pool:
            by_domain.setdefault(task.domain, []).append(task)
        selected: list[str] = []
        for name, tasks in by_domain.items():
            if n > len(tasks):
                place = where if len(by_domain) == 1 else f"domain {name!r}"
                raise UsageError(f"--tasks {n}: {place} has {len(tasks)} tasks")
            selected.extend(t.id for t in tasks[:n])
        return selected
    ids = [t.strip() for t in spec.split(",") if t.strip()]
    known = {t.id for t in pool}
    for task_id in ids:
        if task_id not in known:
            raise UsageError(f"--tasks: {where} has no task {task_id!r}")
    return ids
