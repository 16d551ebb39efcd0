"""``tau-sim rescore`` in real subprocesses on real SQLite files: stored runs scored again."""

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.cli import tau_sim

RETAIL_TASKS = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"


def _tasks() -> str:
    """Six retail tasks with writes and required outputs: where sloppy's mistakes show."""
    chosen = []
    for line in RETAIL_TASKS.read_text().splitlines():
        task = json.loads(line)
        if task["required_outputs"] and len(task["actions"]) >= 4:
            chosen.append(task["id"])
    return ",".join(chosen[:6])


TASKS = _tasks()
CONVERSATIONS = len(TASKS.split(",")) * 2 * 3
"""The stored run's conversations: its tasks x two agents x three trials."""


def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace(",", "")).strip()


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A run of oracle and sloppy agents on a copy of four retail tasks with required outputs."""
    root = tmp_path_factory.mktemp("rescore")
    tasks, db = root / "tasks.jsonl", root / "runs.db"
    shutil.copy(RETAIL_TASKS, tasks)
    agents = "scripted/oracle,scripted/sloppy"
    args = ["--tasks", TASKS, "--agent", agents, "--trials", "3", "--seed", "5", "--quiet"]
    tau_sim("run", "--tasks-file", str(tasks), *args, "--db", str(db))
    run_id = sqlite3.connect(db).execute("select id from runs").fetchone()[0]
    return tasks, db, run_id


def rescore(db: Path, run_id: str, *extra: str) -> dict:
    return json.loads(tau_sim("rescore", run_id, "--db", str(db), "--json", *extra).stdout)


def stored(db: Path) -> dict[str, dict]:
    """Per conversation: task, reason, stored reward and db match, and what the agent said."""
    conn = sqlite3.connect(db)
    rows = conn.execute("select id, task_id, reason, reward, breakdown from conversations")
    out = {
        cid: {
            "task": task,
            "reason": reason,
            "reward": reward,
            "db_match": json.loads(breakdown)["db_match"],
            "said": [],
        }
        for cid, task, reason, reward, breakdown in rows
    }
    for cid, payload in conn.execute(
        "select conversation, payload from events where kind = 'agent_message' order by seq"
    ):
        event = json.loads(payload)
        if event.get("text") and not event.get("tool_calls"):
            out[cid]["said"].append(event["text"])
    conn.close()
    for conv in out.values():
        conv["said"] = normalized("\n".join(conv["said"]))
    return out


def change_outputs(path: Path, outputs: dict[str, list[str]]) -> None:
    lines = []
    for line in path.read_text().splitlines():
        task = json.loads(line)
        if task["id"] in outputs:
            task["required_outputs"] = outputs[task["id"]]
        lines.append(json.dumps(task))
    path.write_text("\n".join(lines) + "\n")


def test_rescore_reproduces_every_stored_reward(stored_run, tmp_path: Path) -> None:
    _, db, run_id = stored_run
    result = rescore(db, run_id)
    assert result["rescored"] == CONVERSATIONS and result["changed"] == []
    assert result["skipped"] == []
    rewards = {c["reward"] for c in stored(db).values()}
    assert rewards == {0.0, 1.0}  # the run holds both verdicts, so "0 changed" says something
    # a run on the domain's own task set, with abandonments, reproduces too
    other = tmp_path / "other.db"
    grid = ["--tasks", "4", "--agent", "scripted/over-asker", "--emotions", "anger"]
    tau_sim("run", *grid, "--intensities", "high", "--db", str(other), "--quiet")
    other_id = sqlite3.connect(other).execute("select id from runs").fetchone()[0]
    assert {c["reason"] for c in stored(other).values()} >= {"user_abandoned"}
    text = tau_sim("rescore", other_id, "--db", str(other)).stdout
    assert "4 conversations rescored, 0 verdicts changed" in text


@pytest.fixture
def changed_outputs(stored_run, tmp_path: Path):
    """A copy of the run's database while its task file asks for other outputs.

    Task ``a`` (some conversations at 1, some at 0) now needs an amount nobody said; task
    ``b`` (a conversation at 0 that left the right state: it missed an output) needs none.
    """
    tasks, db, run_id = stored_run
    before = stored(db)
    rewards: dict[str, set[float]] = {}
    for c in before.values():
        rewards.setdefault(c["task"], set()).add(c["reward"])
    a = next(t for t in sorted(rewards) if rewards[t] == {0.0, 1.0})
    b = next(
        c["task"]
        for _, c in sorted(before.items())
        if c["task"] != a and c["reward"] == 0.0 and c["db_match"]
    )
    original = tasks.read_text()
    change_outputs(tasks, {a: ["$999.01"], b: []})
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)
    try:
        yield copy, run_id, a, b
    finally:
        tasks.write_text(original)


def test_changed_outputs_flip_exactly_the_conversations_that_depend_on_them(
    changed_outputs,
) -> None:
    db, run_id, a, b = changed_outputs
    before = stored(db)
    to_zero = {cid for cid, c in before.items() if c["task"] == a and c["reward"] == 1.0}
    to_one = {
        cid for cid, c in before.items() if c["task"] == b and c["reward"] == 0.0 and c["db_match"]
    }
    kept_at_zero = {c for c, v in before.items() if v["task"] == a and v["reward"] == 0}
    assert to_zero and to_one and kept_at_zero  # the grid exercises each case

    result = rescore(db, run_id)
    flips = {v["conversation"]: (v["old"], v["new"]) for v in result["changed"]}
    assert flips == {**dict.fromkeys(to_zero, (1.0, 0.0)), **dict.fromkeys(to_one, (0.0, 1.0))}
    assert stored(db) == before  # nothing is written without --write

    text = tau_sim("rescore", run_id, "--db", str(db)).stdout
    assert f"{len(flips)} verdicts changed" in text and "add --write" in text

    written = rescore(db, run_id, "--write")
    assert written["written"] and len(written["changed"]) == len(flips)
    after = stored(db)
    assert {cid for cid in after if after[cid]["reward"] != before[cid]["reward"]} == set(flips)
    assert all(after[cid]["reward"] == new for cid, (_, new) in flips.items())
    conn = sqlite3.connect(db)
    assert conn.execute("select run_id, changed from rescores").fetchall() == [(run_id, len(flips))]
    assert rescore(db, run_id)["changed"] == []  # the stored verdicts are today's now


def test_bad_input_is_one_line_and_exit_2(stored_run, tmp_path: Path) -> None:
    _, db, _ = stored_run
    unknown = tau_sim("rescore", "run-nope", "--db", str(db), check=False)
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.count("\n") == 1 and "no run 'run-nope'" in unknown.stderr
    missing = tmp_path / "missing.db"
    out = tau_sim("rescore", "run-x", "--db", str(missing), check=False)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and str(missing) in out.stderr
    assert not missing.exists()


def test_a_vanished_task_file_is_named(stored_run, tmp_path: Path) -> None:
    tasks, db, run_id = stored_run
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)
    moved = tasks.with_suffix(".moved")
    tasks.rename(moved)
    try:
        out = tau_sim("rescore", run_id, "--db", str(copy), check=False)
    finally:
        moved.rename(tasks)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and str(tasks) in out.stderr


def test_a_conversation_without_its_final_state_is_listed_not_guessed(
    stored_run, tmp_path: Path
) -> None:
    _, db, run_id = stored_run
    copy = tmp_path / "old.db"
    shutil.copy(db, copy)
    conn = sqlite3.connect(copy)
    victim = conn.execute("select id from conversations order by cell limit 1").fetchone()[0]
    with conn:
        conn.execute(
            "delete from events where conversation = ? and kind = 'environment_state'", [victim]
        )
    conn.close()
    result = rescore(copy, run_id)
    assert result["rescored"] == CONVERSATIONS - 1 and result["changed"] == []
    assert [s["conversation"] for s in result["skipped"]] == [victim]
    assert "environment_state" in result["skipped"][0]["why"]
