"""A run's task-set hash (``--resume`` checks it) is the same for base tasks as before tiers.

"Before tiers" is the task struct without its ``tier`` field and the task data of formats 2-3
(``taskformat.TASK_DATA``), built here from ``Task``'s own fields (``msgspec.defstruct``), so a
run stored by a tau-sim without tiers, or before task lines carried their data, still resumes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

from tau_sim.simulator.grid import task_set_hash
from tau_sim.simulator.world import Task, load_tasks
from tau_sim.simulator.world.taskformat import TASK_DATA

RETAIL = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"


def _field(f: msgspec.structs.FieldInfo) -> tuple[object, ...]:
    if f.default is not msgspec.NODEFAULT:
        return (f.name, f.type, f.default)
    if f.default_factory is not msgspec.NODEFAULT:
        return (f.name, f.type, msgspec.field(default_factory=f.default_factory))
    return (f.name, f.type)


Untiered = msgspec.defstruct(
    "Task",
    [_field(f) for f in msgspec.structs.fields(Task) if f.name not in ("tier", *TASK_DATA)],
    frozen=True,
)
"""``Task`` as it was before tasks had tiers (its fields, in order, less ``tier`` and the data)."""


def _old_hash(tasks: list[Task]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for task in tasks:
        old = msgspec.convert(msgspec.to_builtins(task), Untiered)
        digest.update(msgspec.json.encode(old))
        digest.update(b"\n")
    return digest.hexdigest()


def test_base_tasks_hash_as_before_tiers_and_a_tier_changes_the_hash() -> None:
    tasks = load_tasks(RETAIL)[:8]
    assert all(t.tier == "base" for t in tasks)
    assert task_set_hash(tasks) == _old_hash(tasks)
    hard = [msgspec.structs.replace(tasks[0], tier="hard"), *tasks[1:]]
    assert task_set_hash(hard) != task_set_hash(tasks)


def test_the_task_data_leaves_the_hash_as_it_was() -> None:
    tasks = load_tasks(RETAIL)[:12]
    assert any(t.violations for t in tasks) and all(t.format == 3 and t.mistakes for t in tasks)
    bare = [
        msgspec.structs.replace(t, violations=[], rules=[], forbidden=False, mistakes=[], format=1)
        for t in tasks
    ]
    assert task_set_hash(tasks) == task_set_hash(bare) == _old_hash(tasks)
