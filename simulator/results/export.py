"""One row per conversation of a run, as JSON lines or CSV: ``tau-sim export RUN_ID``.

The columns are those the report groups by (domain, task, agent, user, emotion, intensity,
the three levels, trial, seed) and what it counts (ending, failure reason, reward, effort,
tokens and dollars per role, duration), so pandas (``pd.read_json(path, lines=True)``,
``pd.read_csv(path)``) or a spreadsheet sees what the report saw. A missing value is JSON
``null`` or an empty CSV cell (an unpriced cost is empty, never 0).
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.store import ROLE_COLUMN_NAMES, atomic_output, get_run

FORMATS = ("jsonl", "csv")
COLUMNS = (
    "id",
    "run_id",
    "cell",
    "domain",
    "task_id",
    "agent",
    "user",
    "emotion",
    "intensity",
    "politeness",
    "urgency",
    "trust",
    "trial",
    "seed",
    "status",
    "reason",
    "detail",
    "failure",
    "failure_detail",
    "reward",
    "abandoned",
    "turns",
    "tool_calls",
    "questions",
    "model_calls",
    "tokens_in",
    "tokens_out",
    "cost_usd",
    *ROLE_COLUMN_NAMES,
    "started_at",
    "ended_at",
    "duration_s",
)
"""The exported columns, in order (``duration_s``: ended minus started, None if unfinished)."""
_json = msgspec.json.Encoder()


def export_rows(sqlite: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    """The run's conversations in grid order, each with exactly ``COLUMNS``."""
    run = get_run(sqlite, run_id)
    rows = sqlite.query("select * from conversations where run_id = ? order by cell", [run["id"]])
    out = []
    for row in rows:
        started, ended = row.get("started_at"), row.get("ended_at")
        duration = round(ended - started, 6) if started is not None and ended is not None else None
        out.append({c: duration if c == "duration_s" else row.get(c) for c in COLUMNS})
    return out


def write_jsonl(rows: Sequence[dict[str, Any]], out: IO[str]) -> None:
    """One JSON object per line."""
    for row in rows:
        out.write(_json.encode(row).decode() + "\n")


def write_csv(rows: Sequence[dict[str, Any]], out: IO[str]) -> None:
    """A header line, then one line per row (the stdlib's csv dialect ``excel``)."""
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


@contextmanager
def open_target(path: str, *, force: bool = False) -> Iterator[IO[str]]:
    """``path`` opened for writing (``-``: stdout), replaced only when complete.

    A file is written whole or not at all (``store.atomic_output``): an existing file or
    symbolic link is refused unless ``force``, a path that cannot be written is a one-line
    error, and a failed write leaves the previous file and no temporary file.
    """
    if path == "-":
        yield sys.stdout
        return
    with atomic_output(path, force=force) as handle:
        yield handle


def export_run(
    sqlite: sqlite_utils.Database,
    run_id: str,
    fmt: str,
    out: str = "-",
    *,
    force: bool = False,
) -> int:
    """Write the run's rows to ``out`` (``-``: stdout) in ``fmt``; returns the row count.

    The rows are read before ``out`` is opened, so an unknown run leaves no file behind; an
    existing ``out`` is replaced only with ``force`` (``open_target``). A format a plugin
    registered in ``EXPORTS`` (``tau2``: τ²-bench's results) writes itself.
    """
    if fmt not in FORMATS:
        from tau_sim.simulator.core.registry import EXPORTS

        if fmt in EXPORTS:
            return EXPORTS[fmt](sqlite, run_id, out, force)
        known = ", ".join([*FORMATS, *EXPORTS.names()])
        raise UsageError(f"--format: unknown format {fmt!r} (known: {known})")
    rows = export_rows(sqlite, run_id)
    with open_target(out, force=force) as handle:
        (write_jsonl if fmt == "jsonl" else write_csv)(rows, handle)
    return len(rows)
