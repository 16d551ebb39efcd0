"""Results a researcher can read: failure reasons, per-role cost, ``show``, ``export``, ``review``.

Real runs into real SQLite files: the ``tau-sim`` command in subprocesses (scripted roles, or the
openai provider against an HTTP double on 127.0.0.1), and the toy domain played in process.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from benchmarks.fake_openai_server import Request, Response, completion
from tau_sim.simulator.core.events import (
    AgentMessage,
    EmotionUpdate,
    EnvironmentState,
    Event,
    RewardBreakdown,
    UserMessage,
)
from tau_sim.simulator.core.roles import EMPTY_TURN
from tau_sim.simulator.engine.failures import Failure, diagnose
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import CONVERSATION_COLUMNS, Store
from tests.helpers.cli import run_error, tau_sim
from tests.helpers.servers import FaultServer
from tests.simulator.toy import install, toy_config

SCRIPTED = [
    *("--tasks", "4", "--agent", "scripted/gold,scripted/sloppy,scripted/over-asker"),
    *("--emotions", "neutral,anger", "--intensities", "high", "--trials", "2", "--seed", "3"),
]
DIAGNOSIS = "The agent never called the write tool; it claimed success anyway."
CACHED = 7  # prompt tokens the double reports as read from its cache, per agent or user call


def query(db: Path, sql: str, *params: Any) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    rows = [dict(r) for r in conn.execute(sql, params)]
    conn.close()
    return rows


def run_id_of(db: Path) -> str:
    return str(query(db, "select id from runs")[0]["id"])


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("scripted") / "s.db"
    tau_sim("run", *SCRIPTED, "--db", str(db), "--quiet")
    return db


def test_every_failure_has_a_stored_reason_and_the_counts_add_up(scripted: Path) -> None:
    rows = query(scripted, "select * from conversations")
    failed = [r for r in rows if r["reward"] < 1]
    assert failed and len(failed) < len(rows)
    assert all(r["failure"] and r["failure_detail"] for r in failed)
    assert all(r["failure"] is None for r in rows if r["reward"] == 1)
    report = json.loads(tau_sim("report", "--json", "--db", str(scripted)).stdout)
    failures = report["failures"]
    assert failures["failed"] == len(failed) and failures["unexplained"] == 0
    assert sum(failures["reasons"].values()) == len(failed)
    for scope in ("by_agent", "by_condition"):
        assert sum(sum(c.values()) for c in failures[scope].values()) == len(failed)
    stored: dict[str, int] = {}
    for r in failed:
        stored[r["failure"]] = stored.get(r["failure"], 0) + 1
    assert failures["reasons"] == stored
    assert set(failures["by_agent"]) <= {"scripted/sloppy", "scripted/over-asker"}
    text = tau_sim("report", "--db", str(scripted)).stdout
    assert f"why {len(failed)} conversations failed" in text


def test_scripted_runs_report_no_real_tokens(scripted: Path) -> None:
    rows = query(scripted, "select * from conversations")
    for r in rows:
        assert r["tokens_in"] == r["tokens_out"] == 0 and r["cost_usd"] is None
        for role in ("agent", "user"):
            assert r[f"{role}_tokens_in"] == r[f"{role}_tokens_out"] == 0
            assert r[f"{role}_cost_usd"] is None and r[f"{role}_unpriced"] == 0
            assert r[f"{role}_simulated"] > 0
    cost = json.loads(tau_sim("report", "--json", "--db", str(scripted)).stdout)["cost"]
    assert cost["run"]["agent"]["pricing"] == cost["run"]["user"]["pricing"] == "scripted"
    assert cost["run"]["judge"]["pricing"] == "no calls"
    assert cost["run"]["total"]["cost_usd"] is None


def test_rescore_recomputes_the_same_failure_reasons(scripted: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    source = sqlite3.connect(scripted)
    target = sqlite3.connect(db)
    source.backup(target)
    source.close()
    before = query(db, "select id, failure, failure_detail from conversations order by id")
    target.execute("update conversations set failure = null, failure_detail = null")
    target.commit()
    target.close()
    run_id = run_id_of(db)
    out = json.loads(tau_sim("rescore", run_id, "--json", "--db", str(db)).stdout)
    assert out["changed"] == []
    assert len(out["failures_changed"]) == sum(1 for r in before if r["failure"])
    tau_sim("rescore", run_id, "--write", "--db", str(db))
    assert query(db, "select id, failure, failure_detail from conversations order by id") == before
    again = json.loads(tau_sim("rescore", run_id, "--json", "--db", str(db)).stdout)
    assert again["failures_changed"] == []


def test_export_rows_match_the_stored_conversations(scripted: Path, tmp_path: Path) -> None:
    run_id = run_id_of(scripted)
    stored = query(scripted, "select * from conversations order by cell")
    lines = tau_sim("export", run_id, "--db", str(scripted)).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == len(stored)
    for row, want in zip(rows, stored, strict=True):
        for column in ("id", "task_id", "agent", "emotion", "intensity", "reward", "failure"):
            assert row[column] == want[column]
        assert row["duration_s"] == pytest.approx(want["ended_at"] - want["started_at"], abs=1e-6)
        assert row["agent_simulated"] == want["agent_simulated"]
    path = tmp_path / "out.csv"
    tau_sim("export", run_id, "--format", "csv", "--out", str(path), "--db", str(scripted))
    table = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [r["id"] for r in table] == [r["id"] for r in stored]
    assert [r["failure"] for r in table] == [r["failure"] or "" for r in stored]
    assert [float(r["reward"]) for r in table] == [r["reward"] for r in stored]
    assert {r["cost_usd"] for r in table} == {""}  # no price: an empty cell, never 0


def test_bad_input_to_show_and_export(scripted: Path, tmp_path: Path) -> None:
    run_id = run_id_of(scripted)
    assert "no conversation 'nope'" in run_error("show", "nope", "--db", str(scripted)).stderr
    assert "no run 'nope'" in run_error("export", "nope", "--db", str(scripted)).stderr
    out = run_error("export", run_id, "--format", "xml", "--db", str(scripted))
    assert "--format: unknown format 'xml'" in out.stderr
    missing = tmp_path / "no" / "such" / "out.csv"
    out = run_error("export", run_id, "--out", str(missing), "--db", str(scripted))
    assert f"--out {missing}: cannot write" in out.stderr
    out = run_error("export", "nope", "--out", str(tmp_path / "x.jsonl"), "--db", str(scripted))
    assert not (tmp_path / "x.jsonl").exists()
    assert "no database at" in run_error("show", "x", "--db", str(tmp_path / "none.db")).stderr


def test_show_prints_the_transcript_and_the_failure(scripted: Path) -> None:
    row = query(scripted, "select * from conversations where failure is not null limit 1")[0]
    out = tau_sim("show", row["id"], "--db", str(scripted)).stdout
    assert f"failure: {row['failure']}" in out
    assert f"ended: {row['reason']}" in out
    assert "user " in out and "agent " in out and "intensity " in out
    assert "not a benchmark subject" in out  # scripted agents calibrate, said where they appear
    data = json.loads(tau_sim("show", row["id"], "--json", "--db", str(scripted)).stdout)
    events = query(scripted, "select kind from events where conversation = ?", row["id"])
    assert [e["kind"] for e in data["events"]] == [e["kind"] for e in events]
    assert data["conversation"]["failure"] == row["failure"]


def test_show_escapes_rich_markup_in_messages(tmp_path: Path) -> None:
    good = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
    task = json.loads(good.read_text().splitlines()[0])
    task["scenario"]["opening"] = "Hi [bold]x[/bold] and [red]y[/red], cancel my order."
    tasks = tmp_path / "markup.jsonl"
    tasks.write_text(json.dumps(task) + "\n")
    db = tmp_path / "m.db"
    tau_sim(
        "run", "--tasks-file", str(tasks), "--agent", "scripted/gold", "--db", str(db), "--quiet"
    )
    (row,) = query(db, "select id from conversations")
    out = tau_sim("show", row["id"], "--db", str(db)).stdout
    assert "Hi [bold]x[/bold] and [red]y[/red], cancel my order." in out
    data = json.loads(tau_sim("show", row["id"], "--json", "--db", str(db)).stdout)
    first = next(e for e in data["events"] if e["kind"] == "user_message")
    assert first["text"].startswith("Hi [bold]x[/bold]")


def play_toy(db: Path, **changes: Any) -> list[dict[str, Any]]:
    install()
    store = Store(db)
    anyio.run(Runner(store, toy_config(**changes), "run-1", create=True).run)
    store.close_sync()
    return query(db, "select * from conversations order by cell")


def test_a_wrong_write_names_the_missing_gold_write_and_the_extra_one(tmp_path: Path) -> None:
    rows = play_toy(
        tmp_path / "t.db", agents=["toy/wrong-counter"], tasks=["toy-0"], emotions=["neutral"]
    )
    assert rows and all(r["failure"] == "wrong_write" for r in rows)
    detail = rows[0]["failure_detail"]
    assert "missing gold write increment(name='a', by=1): counters a not written" in detail
    assert "extra write by increment(name='b', by=1): counters b" in detail
    rows = play_toy(
        tmp_path / "u.db", agents=["toy/wrong-amount"], tasks=["toy-0"], emotions=["neutral"]
    )
    assert {r["failure_detail"] for r in rows} == {
        "missing gold write increment(name='a', by=1): counters a value: expected 1, got 2"
    }


@pytest.mark.parametrize(
    ("agent", "emotion", "kind", "detail"),
    [
        ("toy/silent", "neutral", "wrong_write", "missing gold write increment"),
        ("toy/transfer", "neutral", "transfer", "gold path has no transfer"),
        ("toy/bad-tool", "neutral", "tool_errors", "increment x"),
        ("toy/broken", "neutral", "model_error", "agent: toy model is down"),
        ("toy/unreachable", "neutral", "infra_error", "agent: [connection error]"),
        ("toy/gold", "outrage", "abandoned", "procedural friction"),
    ],
)
def test_each_ending_has_its_failure_reason(
    tmp_path: Path, agent: str, emotion: str, kind: str, detail: str
) -> None:
    rows = play_toy(
        tmp_path / "t.db",
        agents=[agent],
        tasks=["toy-0"],
        emotions=[emotion],
        intensities=[0.9],
        trials=1,
    )
    assert [(r["failure"], detail in r["failure_detail"]) for r in rows] == [(kind, True)]


class CachingServer(FaultServer):
    """The fault server's plausible agent and user, reporting cached prompt tokens; a request of
    the reviewer (its system prompt) gets ``DIAGNOSIS`` with fixed usage."""

    judge_requests = 0
    judge_fails = False

    async def _handle(self, request: Request) -> Response:
        body = request.json() if request.method == "POST" else None
        if body and "You review a failed conversation" in str(body["messages"][0]["content"]):
            if self.judge_fails:
                return Response.json({"error": {"message": "judge down"}}, status=500)
            self.judge_requests += 1
            answer = completion({"role": "assistant", "content": DIAGNOSIS}, 120, 30)
            answer["usage"]["prompt_tokens_details"] = {"cached_tokens": 100}
            return Response.json(answer)
        response = await super()._handle(request)
        if body is None:
            return response
        answer = json.loads(response.body)
        answer["usage"]["prompt_tokens_details"] = {"cached_tokens": CACHED}
        return Response.json(answer)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[CachingServer]:
    with CachingServer() as server:
        yield server


def model_args(flag: str, url: str, *extra: str) -> list[str]:
    options = [f"base_url={url}", "max_retries=0", "timeout=5", *extra]
    return [x for o in options for x in (flag, o)]


def test_llm_roles_cost_per_role_and_the_reviewer(endpoint: CachingServer, tmp_path: Path) -> None:
    db = tmp_path / "llm.db"
    agent = ["--agent", "openai/fake", *model_args("--agent-arg", endpoint.url, "price_in=1")]
    agent += ["--agent-arg", "price_out=2"]
    user = ["--user", "openai/fake", *model_args("--user-arg", endpoint.url)]  # unpriced
    grid = ["--tasks", "2", "--emotions", "neutral,anger", "--intensities", "high"]
    tau_sim("run", *grid, "--max-steps", "8", *agent, *user, "--db", str(db), "--quiet")
    rows = query(db, "select * from conversations")
    assert len(rows) == 4
    for r in rows:
        assert r["agent_tokens_in"] > 0 and r["agent_tokens_cached"] > 0
        expected = (r["agent_tokens_in"] * 1 + r["agent_tokens_out"] * 2) / 1e6
        assert r["agent_cost_usd"] == pytest.approx(expected)
        assert r["user_cost_usd"] is None and r["user_unpriced"] > 0  # unpriced, not free
        assert r["cost_usd"] == pytest.approx(r["agent_cost_usd"])
        assert r["tokens_in"] == r["agent_tokens_in"] + r["user_tokens_in"]
    cost = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)["cost"]
    run = cost["run"]
    assert run["agent"]["cost_usd"] == pytest.approx(sum(r["agent_cost_usd"] for r in rows))
    assert run["total"]["cost_usd"] == pytest.approx(run["agent"]["cost_usd"])
    assert run["user"]["pricing"] == "unpriced" and run["total"]["pricing"] == "partly priced"
    by_condition = cost["by_condition"].values()
    assert sum(c["total"]["cost_usd"] for c in by_condition) == pytest.approx(
        run["total"]["cost_usd"]
    )
    assert run["agent"]["tokens_cached"] == sum(r["agent_tokens_cached"] for r in rows)

    failed = [r for r in rows if r["failure"]]
    assert failed
    run_id = run_id_of(db)
    judge = ["--judge", "openai/judge", *model_args("--judge-arg", endpoint.url, "price_in=3")]
    judge += ["--judge-arg", "price_out=4"]
    out = json.loads(tau_sim("review", run_id, *judge, "--json", "--db", str(db)).stdout)
    assert out["reviewed"] == len(failed) == endpoint.judge_requests and out["errors"] == []
    reviews = query(db, "select * from reviews")
    assert {r["diagnosis"] for r in reviews} == {DIAGNOSIS}
    judged = query(db, "select * from conversations where failure is not null")
    per_call = (120 * 3 + 30 * 4) / 1e6
    for r in judged:
        assert (r["judge_tokens_in"], r["judge_tokens_out"], r["judge_tokens_cached"]) == (
            120,
            30,
            100,
        )
        assert r["judge_cost_usd"] == pytest.approx(per_call)
    again = json.loads(tau_sim("review", run_id, *judge, "--json", "--db", str(db)).stdout)
    assert again["reviewed"] == 0 and again["already_reviewed"] == len(failed)
    cost = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)["cost"]["run"]
    assert cost["judge"]["tokens_in"] == 120 * len(failed)
    assert cost["total"]["cost_usd"] == pytest.approx(
        cost["agent"]["cost_usd"] + cost["judge"]["cost_usd"]
    )
    shown = tau_sim("show", failed[0]["id"], "--db", str(db)).stdout
    assert DIAGNOSIS in shown.replace("\n", " ")

    endpoint.judge_fails = True
    before = query(db, "select * from reviews order by conversation")
    out = tau_sim("review", run_id, *judge, "--redo", "--json", "--db", str(db), check=False)
    endpoint.judge_fails = False
    assert out.returncode == 3 and "Traceback" not in out.stderr
    outcome = json.loads(out.stdout)
    assert outcome["reviewed"] == 0 and len(outcome["errors"]) == len(failed)
    assert query(db, "select * from reviews order by conversation") == before  # nothing lost


def test_bad_input_to_review(scripted: Path) -> None:
    run_id = run_id_of(scripted)
    out = run_error("review", run_id, "--judge", "nosuch/model", "--db", str(scripted))
    assert "--judge: unknown model provider 'nosuch'" in out.stderr
    out = run_error("review", run_id, "--judge", "scripted", "--db", str(scripted))
    assert "--judge: expected a model PROVIDER/MODEL" in out.stderr
    out = run_error("review", "nope", "--judge", "openai/x", "--db", str(scripted))
    assert "no run 'nope'" in out.stderr
    out = run_error(
        "review", run_id, "--judge", "openai/x", "--judge-arg", "oops", "--db", str(scripted)
    )
    assert "--judge-arg" in out.stderr
    tables = query(scripted, "select name from sqlite_master where type = 'table'")
    assert "reviews" not in {t["name"] for t in tables}  # refused before anything was written


def test_a_file_stored_before_these_columns_is_read_then_migrated(
    scripted: Path, tmp_path: Path
) -> None:
    db = tmp_path / "old.db"
    source, target = sqlite3.connect(scripted), sqlite3.connect(db)
    source.backup(target)
    source.close()
    for column in CONVERSATION_COLUMNS:
        target.execute(f"alter table conversations drop column {column}")
    target.commit()
    target.close()
    db.chmod(0o444)
    report = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)  # read-only
    assert report["failures"]["unexplained"] == report["failures"]["failed"] > 0
    run_id = run_id_of(db)
    assert len(tau_sim("export", run_id, "--db", str(db)).stdout.splitlines()) == report["n"]
    db.chmod(0o644)
    tau_sim("rescore", run_id, "--write", "--db", str(db))  # migrates in place, then fills
    kept = query(db, "select id, reward, failure, failure_detail from conversations order by id")
    want = query(
        scripted, "select id, reward, failure, failure_detail from conversations order by id"
    )
    assert kept == want


def test_empty_user_turns_are_the_user_simulators_failure() -> None:
    events: list[Event] = [
        UserMessage(conversation="c", text="Hi, add 1 to a."),
        AgentMessage(conversation="c", text="Which counter?"),
        EmotionUpdate(
            conversation="c",
            emotion="neutral",
            intensity=0.0,
            dissatisfaction=0.0,
            triggers=["unstructured_reply", "repaired_reply"],
        ),
        UserMessage(conversation="c", text=EMPTY_TURN),
        EnvironmentState(conversation="c", state_hash="x"),
    ]
    failure = diagnose(
        reason="max_steps",
        detail="reached 4 messages",
        reward=0.0,
        breakdown=RewardBreakdown(db_match=False, outputs_communicated=0.0),
        events=events,
        gold=None,
        gold_transfer=False,
    )
    assert failure == Failure(
        "user_error", "1 empty or malformed user turns (1 unstructured answers, 1 repairs)"
    )
    ended_by_user_model = diagnose(
        reason="model_error",
        detail="user: no JSON",
        reward=0.0,
        breakdown=None,
        events=events[:1],
        gold=None,
        gold_transfer=False,
    )
    assert ended_by_user_model == Failure("user_error", "user: no JSON")


def test_endpoint_errors_are_no_judges_work_nor_failures_of_the_agent(
    endpoint: CachingServer, tmp_path: Path
) -> None:
    """Conversations an endpoint ended (``infra_error``) are left out of the failure table
    (unless ``--count-errors``) and never sent to the judge, which would be paid for nothing."""
    db = tmp_path / "infra.db"
    user = ["--user", "openai/fake", *model_args("--user-arg", endpoint.url)]
    endpoint.mode = "500"
    try:
        grid = ["--tasks", "2", "--emotions", "neutral,anger", "--intensities", "high"]
        out = tau_sim("run", *grid, *user, "--db", str(db), "--quiet", check=False)
    finally:
        endpoint.mode = "ok"
    assert out.returncode == 3, out.stderr
    rows = query(db, "select reason, failure from conversations")
    assert rows and {(r["reason"], r["failure"]) for r in rows} == {("infra_error", "infra_error")}
    failures = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)["failures"]
    assert failures["failed"] == 0 and failures["reasons"] == {}
    counted = tau_sim("report", "--json", "--count-errors", "--db", str(db)).stdout
    assert json.loads(counted)["failures"]["reasons"] == {"infra_error": len(rows)}
    requests = endpoint.judge_requests
    judge = ["--judge", "openai/judge", *model_args("--judge-arg", endpoint.url)]
    reviewed = json.loads(
        tau_sim("review", run_id_of(db), *judge, "--json", "--db", str(db)).stdout
    )
    assert reviewed["reviewed"] == 0 and endpoint.judge_requests == requests
