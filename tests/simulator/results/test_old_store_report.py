"""A store written before task lines carried their data reports and rescores as it did then.

``fixtures/before_task_lines.db.gz`` is a real file that commit 79b6944 wrote, before task
format 3, before the generators moved to ``factory/`` and before the conversations table had a
``refusal`` column (so today's report must find the refusal tasks in the task lines):

    tau-sim run --domain airline,hotel,telecom,insurance \\
        --tasks airline-006,airline-007,airline-001,hotel-001,hotel-020,telecom-001,insurance-002 \\
        --agent scripted/gold,scripted/pushover,scripted/sloppy --emotions neutral,anger \\
        --intensities high --trials 2 --db old.db --quiet

checkpointed into one file (``journal_mode = delete``, ``vacuum``) and gzipped. The JSON files
beside it are what that commit's ``tau-sim report --json`` and ``report --by-family --json``
printed for it. The calibrators' figures in it calibrate the harness; they are not benchmark
results.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import tau_sim

FIXTURES = Path(__file__).parent / "fixtures"
RUN = "run-20261205-231547-cf30"
ADDED = {"grading"}
"""Report sections added since 79b6944 (prov37's grading provenance): new, so not compared."""


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    path.write_bytes(gzip.decompress((FIXTURES / "before_task_lines.db.gz").read_bytes()))
    return path


def printed_then(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return loaded


@pytest.mark.parametrize(
    ("flags", "then"),
    [((), "before_task_lines.report.json"), (("--by-family",), "before_task_lines.by_family.json")],
)
def test_the_report_of_an_old_store_is_the_one_its_code_printed(
    old_store: Path, flags: tuple[str, ...], then: str
) -> None:
    digest = hashlib.sha256(old_store.read_bytes()).hexdigest()
    now = json.loads(tau_sim("report", RUN, "--json", *flags, "--db", str(old_store)).stdout)
    before = printed_then(then)
    assert set(now) - set(before) == ADDED and set(before) <= set(now)
    for key, value in before.items():
        assert now[key] == value, key
    violations = now["policy_violations"]  # the refusal tasks, read from the task lines now
    assert violations["refusal_tasks"] == 2  # airline-006 and airline-007
    assert any(row["violations"] for row in violations["rows"])
    assert hashlib.sha256(old_store.read_bytes()).hexdigest() == digest  # read only


def test_an_old_store_rescores_to_the_rewards_it_holds(old_store: Path) -> None:
    rescored = json.loads(tau_sim("rescore", RUN, "--json", "--db", str(old_store)).stdout)
    assert rescored["rescored"] == 84 and rescored["skipped"] == []
    assert rescored["changed"] == [] and rescored["failures_changed"] == []
