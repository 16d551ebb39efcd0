"""The task line's format: its version and its data, checked when a task file is read.

The real ``tau-sim run --tasks-file`` on copies of retail's task file in which one line is
broken: each is refused with one line naming the file, the line and the field, exit 2, before
anything is stored. A line of format 1 (written before lines carried their data) is read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run_error, tau_sim

RETAIL = Path(__file__).resolve().parents[3] / "domains" / "retail" / "tasks.jsonl"
REFUSAL_LINE = 12
"""A line of retail's file whose user asks for a forbidden write (a rule it tests)."""


def _set(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(task: dict[str, Any]) -> None:
        task[field] = value

    return change


def _bad_violation(task: dict[str, Any]) -> None:
    task["violations"][0]["arguments"] = {k: 7 for k in task["violations"][0]["arguments"]}


def _file(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    lines = RETAIL.read_text().splitlines()[:REFUSAL_LINE]
    task = json.loads(lines[-1])
    change(task)
    lines[-1] = json.dumps(task)
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_line_carries_its_data() -> None:
    task = json.loads(RETAIL.read_text().splitlines()[REFUSAL_LINE - 1])
    assert task["format"] == 3 and task["violations"] and task["rules"] and task["mistakes"]
    assert list(task)[-5:] == ["violations", "rules", "forbidden", "mistakes", "format"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("format", 4), "format: 4 is not a task format this tau-sim reads (one of 1, 2, 3)"),
        (_set("format", "2"), "invalid task: Expected `int`, got `str` - at `$.format`"),
        (_set("violations", {}), "Expected `array`, got `object` - at `$.violations`"),
        (_set("rules", ["no-such-rule"]), "rules[0]: 'no-such-rule' is not a refusal rule"),
        (
            _set("violations", [{"name": "frobnicate", "arguments": {}}]),
            "violations[0] frobnicate: unknown tool",
        ),
        (_bad_violation, "violations[0].arguments."),
        (
            _set("mistakes", [[{"name": "frobnicate", "arguments": {}}]]),
            "mistakes[0][0] frobnicate: unknown tool",
        ),
        (_set("mistakes", [{}]), "Expected `array`, got `object` - at `$.mistakes[0]`"),
    ],
    ids=[
        *("format", "format-type", "violations-type", "rule", "violation-tool", "violation-args"),
        *("mistake-tool", "mistakes-type"),
    ],
)
def test_a_broken_line_is_one_line_naming_file_line_and_field(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = _file(tmp_path, change)
    db = tmp_path / "t.db"
    out = run_error("run", "--tasks-file", str(path), "--tasks", "retail-000", "--db", str(db))
    assert out.stderr.startswith(f"tau-sim: error: {path}:{REFUSAL_LINE}: ")
    assert message in out.stderr
    assert not db.exists()


def test_a_line_of_format_1_is_read_without_data(tmp_path: Path) -> None:
    def old(task: dict[str, Any]) -> None:
        for field in ("violations", "rules", "forbidden", "mistakes", "format"):
            del task[field]

    refusals = {}
    for name, change in (("new", _set("format", 3)), ("old", old)):
        folder = tmp_path / name
        folder.mkdir()
        path = _file(folder, change)
        task_id = json.loads(path.read_text().splitlines()[-1])["id"]
        db = folder / "t.db"
        grid = ["--tasks", task_id, "--trials", "1", "--emotions", "neutral", "--quiet"]
        tau_sim("run", "--tasks-file", str(path), *grid, "--db", str(db))
        conn = sqlite3.connect(db)
        refusals[name] = conn.execute("select refusal from conversations").fetchall()
        conn.close()
    # the store says what the line says: a refusal task, or none known in a line of format 1
    assert refusals == {"new": [(1,)], "old": [(0,)]}
