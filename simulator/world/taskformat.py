"""The task file's line format: its version, the data a run reads from a line, the writer.

A task file holds one JSON object (``Task``) per line. Format 2 adds, after the fields of
format 1, what a run, a scorer and a report read from the line instead of from the generator
that wrote it (``TASK_DATA``): ``violations`` (the forbidden writes the task's user asks for,
arguments in the order the generator gives them, as a failure's detail names them), ``rules``
(the ids of the policy's refusal rules the task tests), ``forbidden`` (the request is one the
policy forbids: the gold path writes nothing and ends in a refusal or a transfer) and
``format`` itself. Format 3 (``TASK_FORMAT``) adds ``mistakes``: the task's known wrong paths,
each a whole sequence of tool calls the tools allow and the grader must score 0 (the domain
suite checks the grader with them). A line without ``format`` is format 1, written before: it
carries none of that data (no known forbidden write, no rule); a line of format 2 no mistakes.
``load_tasks`` refuses a format it does not read (``FORMATS``) naming file, line and field.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Task

TASK_FORMAT = 3
"""The format ``tau-sim domains generate`` writes."""
FORMATS: tuple[int, ...] = (1, 2, 3)
"""The formats ``load_tasks`` reads: 1 (before the task data), 2 (before mistakes) and 3."""
TASK_DATA: tuple[str, ...] = ("violations", "rules", "forbidden", "mistakes", "format")
"""The fields formats 2 and 3 add to a line, in the order written (after those of format 1)."""

_encoder = msgspec.json.Encoder()


def format_error(value: int) -> str | None:
    """Why a line's ``format`` cannot be read (the text after ``format: ``), or None."""
    if value in FORMATS:
        return None
    known = ", ".join(str(f) for f in FORMATS)
    return f"{value} is not a task format this tau-sim reads (one of {known})"


def without_data(fields: dict[str, Any]) -> dict[str, Any]:
    """A decoded task line without the fields of ``TASK_DATA`` (the line format 1 wrote)."""
    return {k: v for k, v in fields.items() if k not in TASK_DATA}


def sorted_keys(value: Any) -> Any:
    """``value`` with every dict's keys in sorted order (lists keep theirs)."""
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [sorted_keys(v) for v in value]
    return value


def encode_task(task: Task) -> bytes:
    """One task as a JSON line: gold action arguments in sorted key order, the rest as given."""
    actions = [msgspec.structs.replace(a, arguments=sorted_keys(a.arguments)) for a in task.actions]
    return _encoder.encode(msgspec.structs.replace(task, actions=actions)) + b"\n"


def dump_tasks(tasks: Sequence[Task], path: Path) -> None:
    """Write tasks as JSONL (see ``encode_task``)."""
    path.write_bytes(b"".join(encode_task(t) for t in tasks))
