"""Endpoint faults are infrastructure errors, not agent failures: the real ``tau-sim`` command
against a real HTTP endpoint on 127.0.0.1 (the openai SDK, retries kept small) that answers 429,
500, invalid JSON, ``{}``, nothing, or too late; then ``--resume`` against the same endpoint made
healthy completes the run exactly as a run that never failed.
"""

from __future__ import annotations

import json
import socket
import sqlite3
from functools import partial
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.helpers.servers import CONTEXT_MESSAGE, FaultServer

GRID = [
    *("--tasks", "2", "--emotions", "neutral,anger", "--intensities", "high"),
    *("--trials", "2", "--max-steps", "8", "--seed", "1"),
]
CELLS = 8
FAST = ["max_retries=0", "timeout=0.5"]  # one attempt, half a second: the tests stay fast


def agent_args(url: str, *extra: str) -> list[str]:
    options = [f"base_url={url}", *FAST, *extra]
    return ["--agent", "openai/fake", *(x for o in options for x in ("--agent-arg", o))]


tau_sim = partial(cli.tau_sim, check=False, clean=True)


def report(db: Path, *extra: str) -> dict:
    out = tau_sim("report", "--json", "--db", str(db), *extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def stored(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    rows = conn.execute("select cell, status, reason, detail from conversations order by cell")
    data = rows.fetchall()
    conn.close()
    return data


def run_id_of(db: Path) -> str:
    conn = sqlite3.connect(db)
    (run_id,) = conn.execute("select id from runs").fetchone()
    conn.close()
    return str(run_id)


def without_id(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "run_id"}


def assert_whole(db: Path) -> None:
    """One completed conversation per cell, none an endpoint error, events without gaps."""
    conn = sqlite3.connect(db)
    per_cell = conn.execute(
        "select count(*), count(distinct cell), sum(status = 'completed'), "
        "sum(reason = 'infra_error') from conversations"
    ).fetchone()
    gaps = conn.execute(
        "select count(*) from (select conversation, count(*) n, max(seq) m from events "
        "group by conversation) where n != m + 1"
    ).fetchone()[0]
    orphans = conn.execute(
        "select count(*) from event_rows where conversation not in (select key from conversations)"
    ).fetchone()[0]
    conn.close()
    assert per_cell == (CELLS, CELLS, CELLS, 0)
    assert gaps == 0 and orphans == 0


@pytest.fixture(scope="module")
def reference(server: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The report of the grid played against the healthy endpoint."""
    server.mode = "ok"
    db = tmp_path_factory.mktemp("reference") / "ref.db"
    out = tau_sim("run", *GRID, *agent_args(server.url), "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    data = report(db)
    assert data["status"] == "completed" and data["n"] == CELLS and data["infra_errors"] == 0
    return without_id(data)


def summary(run_id: str, db: Path, share: str, causes: str) -> str:
    return (
        f"tau-sim: error: {share} hit endpoint errors ({causes}); results exclude them; "
        f"resume with: tau-sim run --resume {run_id} --db {db}"
    )


@pytest.mark.parametrize(
    ("mode", "kind", "message"),
    [
        ("429", "HTTP 429 rate limit", "HTTP 429: rate limit reached"),
        ("500", "HTTP 500 server error", "HTTP 500: internal error"),
        ("invalid-json", "invalid JSON", "malformed response: JSON is malformed"),
        ("empty", "empty response", "malformed response: empty body"),
        ("no-choices", "empty response", "malformed response: no choices"),
        ("drop", "connection error", "connection error: Server disconnected"),
        ("slow", "timeout", "no answer within 0.5 s"),
    ],
)
def test_endpoint_fault_is_excluded_exits_3_and_resume_completes(
    endpoint: FaultServer, reference: dict, tmp_path: Path, mode: str, kind: str, message: str
) -> None:
    db = tmp_path / "faulty.db"
    endpoint.mode = mode
    out = tau_sim("run", *GRID, *agent_args(endpoint.url), "--db", str(db), "--quiet")
    run_id = run_id_of(db)
    assert out.returncode == 3, out.stderr
    assert out.stderr.splitlines() == [
        summary(run_id, db, f"{CELLS} of {CELLS} conversations (100%)", f"{kind} x{CELLS}")
    ]
    rows = stored(db)
    assert len(rows) == CELLS
    for _cell, status, reason, detail in rows:
        assert (status, reason) == ("completed", "infra_error")
        assert detail.startswith(f"agent: [{kind}] {message}"), detail

    data = report(db)
    assert data["status"] == "completed_with_errors"
    assert (data["completed"], data["infra_errors"], data["n"]) == (CELLS, CELLS, 0)
    assert data["pass_hat_k"] == {"1": None, "2": None} and data["success_rate"] is None
    assert data["infra_causes"] == {kind: CELLS}
    assert [(r["n"], r["infra_errors"]) for r in data["conditions"]] == [(0, 4), (0, 4)]
    counted = report(db, "--count-errors")  # put back as failures
    assert (counted["n"], counted["infra_errors"]) == (CELLS, CELLS)
    assert counted["pass_hat_k"] == {"1": 0.0, "2": 0.0} and counted["success_rate"] == 0.0
    text = tau_sim("report", "--db", str(db)).stdout
    assert "infra" in text and f"{CELLS} conversations hit endpoint errors ({kind} x8)" in text
    runs = tau_sim("runs", "--db", str(db)).stdout
    assert "completed_with_errors" in runs

    endpoint.mode = "ok"
    out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert_whole(db)
    assert without_id(report(db)) == reference


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_refused_connection_then_the_server_comes_up(reference: dict, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    db = tmp_path / "down.db"
    out = tau_sim("run", *GRID, *agent_args(url, "preflight=false"), "--db", str(db), "--quiet")
    run_id = run_id_of(db)
    assert out.returncode == 3
    assert out.stderr.splitlines() == [
        summary(run_id, db, "8 of 8 conversations (100%)", "connection error x8")
    ]
    assert {detail.split("] ")[1] for *_, detail in stored(db)} == {
        "connection error: All connection attempts failed"
    }
    with FaultServer(port=port):  # the same base_url, now answering
        out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0, out.stderr
    assert_whole(db)
    assert without_id(report(db)) == reference


@pytest.mark.parametrize("mode", ["unknown-tool", "bad-tool-json"])
def test_the_agent_models_own_bad_reply_stays_its_failure(
    endpoint: FaultServer, tmp_path: Path, mode: str
) -> None:
    db = tmp_path / "agent.db"
    endpoint.mode = mode
    out = tau_sim("run", *GRID, *agent_args(endpoint.url), "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert {reason for _, _, reason, _ in stored(db)} == {"max_steps"}
    data = report(db)
    assert data["status"] == "completed"
    assert (data["n"], data["infra_errors"]) == (CELLS, 0)
    assert data["pass_hat_k"]["1"] == 0.0  # counted: a failure of the agent
    conn = sqlite3.connect(db)
    errors = conn.execute(
        "select count(*) from events where kind = 'tool_result' and payload like '%\"error\":true%'"
    ).fetchone()[0]
    conn.close()
    assert errors >= CELLS  # every conversation saw its bad call rejected by the toolkit


def test_a_rejected_request_is_the_models_failure_and_not_played_again(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    """HTTP 400 (context window exceeded): ``model_error``, counted, the run ``completed``."""
    db = tmp_path / "rejected.db"
    endpoint.mode = "400-context"
    out = tau_sim("run", *GRID, *agent_args(endpoint.url), "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    rows = stored(db)
    assert len(rows) == CELLS
    for _cell, status, reason, detail in rows:
        assert (status, reason) == ("completed", "model_error")
        assert detail == f"agent: [HTTP 400 bad request] HTTP 400: {CONTEXT_MESSAGE}", detail
    requests = endpoint.chat_requests
    data = report(db)
    assert data["status"] == "completed"
    assert (data["n"], data["infra_errors"]) == (CELLS, 0)
    assert data["pass_hat_k"]["1"] == 0.0 and data["success_rate"] == 0.0
    assert requests == CELLS  # one request each: a 400 is not retried


def test_an_llm_users_failing_endpoint_is_an_infrastructure_error(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    db = tmp_path / "user.db"
    endpoint.mode = "500"
    user = ["--user", "openai/fake", *(x for o in FAST for x in ("--user-arg", o))]
    user += ["--user-arg", f"base_url={endpoint.url}"]
    out = tau_sim("run", *GRID, "--agent", "scripted/gold", *user, "--db", str(db), "--quiet")
    run_id = run_id_of(db)
    assert out.returncode == 3
    assert out.stderr.splitlines() == [
        summary(run_id, db, "8 of 8 conversations (100%)", "user HTTP 500 server error x8")
    ]
    assert {detail for *_, detail in stored(db)} == {
        "user: [HTTP 500 server error] HTTP 500: internal error"
    }
    assert report(db)["n"] == 0
    endpoint.mode = "ok"
    out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0, out.stderr
    assert_whole(db)
    data = report(db)
    assert (data["status"], data["n"], data["infra_errors"]) == ("completed", CELLS, 0)


def test_the_error_share_decides_the_exit_code(
    endpoint: FaultServer, reference: dict, tmp_path: Path
) -> None:
    one_at_a_time = ["--concurrency", "1"]
    endpoint.fail_first = 1  # the first conversation's first request: 1 of 8 (12%)
    db = tmp_path / "share.db"
    args = [*GRID, *agent_args(endpoint.url), *one_at_a_time, "--quiet"]
    out = tau_sim("run", *args, "--db", str(db))
    run_id = run_id_of(db)
    assert out.returncode == 3
    assert out.stderr.splitlines() == [
        summary(run_id, db, "1 of 8 conversations (12%)", "HTTP 429 rate limit x1")
    ]
    reasons = [(cell, reason) for cell, _, reason, _ in stored(db)]
    assert reasons[0] == (0, "infra_error") and all(r != "infra_error" for _, r in reasons[1:])
    data = report(db)
    assert (data["n"], data["infra_errors"]) == (7, 1)

    endpoint.chat_requests = 0
    tolerant = tmp_path / "tolerant.db"
    out = tau_sim("run", *args, "--max-error-share", "0.2", "--db", str(tolerant))
    assert out.returncode == 0
    [line] = out.stderr.splitlines()
    assert line.startswith("tau-sim: warning: 1 of 8 conversations (12%) hit endpoint errors")

    # a completed run with an endpoint error: --keep-errors leaves nothing to play
    out = tau_sim("run", "--resume", run_id, "--keep-errors", "--db", str(db))
    assert out.returncode == 2
    assert "--keep-errors keeps its 1 conversations ended by endpoint errors" in out.stderr
    out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0, out.stderr
    assert without_id(report(db)) == reference
    out = tau_sim("run", "--resume", run_id, "--db", str(db))
    assert out.returncode == 2 and "is already completed" in out.stderr


def test_keep_errors_plays_only_the_unfinished_cells(endpoint: FaultServer, tmp_path: Path) -> None:
    endpoint.fail_first = 1
    db = tmp_path / "keep.db"
    args = [*GRID, *agent_args(endpoint.url), "--concurrency", "1", "--quiet"]
    assert tau_sim("run", *args, "--db", str(db)).returncode == 3
    run_id = run_id_of(db)
    conn = sqlite3.connect(db)  # made to look crashed: cell 5 never finished
    with conn:
        conn.execute("update runs set status = 'interrupted'")
        conn.execute("update conversations set status = 'running' where cell = 5")
    conn.close()
    before = stored(db)
    out = tau_sim("run", "--resume", run_id, "--keep-errors", "--db", str(db), "--quiet")
    assert out.returncode == 3  # the kept error is still 1 of 8
    after = stored(db)
    assert after[0] == before[0] and after[0][2] == "infra_error"  # kept as it was
    assert after[5][1] == "completed" and after[1:5] == before[1:5]
    assert report(db)["status"] == "completed_with_errors"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-error-share", "1.5"], "--max-error-share must be between 0 and 1 (got 1.5)"),
        (["--max-error-share", "-0.1"], "--max-error-share must be between 0 and 1 (got -0.1)"),
        (["--max-error-share", "nan"], "--max-error-share must be between 0 and 1 (got nan)"),
        (["--keep-errors"], "--keep-errors goes with --resume"),
    ],
)
def test_bad_error_options_are_one_line_errors(tmp_path: Path, args, message) -> None:
    db = tmp_path / "none.db"
    out = tau_sim("run", "--tasks", "1", *args, "--db", str(db))
    [line] = out.stderr.strip().splitlines()
    assert out.returncode == 2 and line.startswith(f"tau-sim: error: {message}"), line
    assert not db.exists() or stored(db) == []


def test_help_names_the_exit_code_and_the_flags() -> None:
    text = " ".join(tau_sim("run", "--help").stdout.split())
    assert "exit codes: 0 done; 2 bad input (nothing stored); 3 more than --max-error-" in text
    assert "of the conversations hit endpoint errors" in text
    assert "(default 0.1)" in text and "--count-errors" in text and "--keep-errors" in text
    assert "--count-errors" in tau_sim("report", "--help").stdout


def test_an_echoed_api_key_never_reaches_the_database_or_the_output(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    key = "sk-test-secret-4711"
    endpoint.mode = "429-echo"
    db = tmp_path / "key.db"
    args = [*GRID, *agent_args(endpoint.url, f"api_key={key}"), "--db", str(db), "--quiet"]
    out = tau_sim("run", *args)
    assert out.returncode == 3
    assert key not in out.stdout + out.stderr
    details = {detail for *_, detail in stored(db)}
    assert details == {"agent: [HTTP 429 rate limit] HTTP 429: rate limit reached for key ***"}
    for path in tmp_path.iterdir():  # the database and its WAL
        assert key.encode() not in path.read_bytes(), path


def test_a_hanging_endpoint_past_the_conversation_deadline_is_an_endpoint_error(
    endpoint: FaultServer, reference: dict, tmp_path: Path
) -> None:
    """The SDK would wait longer than the conversation may last: the deadline is the endpoint's."""
    db = tmp_path / "hang.db"
    endpoint.mode = "slow"
    slow_client = [a.replace("timeout=0.5", "timeout=30") for a in agent_args(endpoint.url)]
    assert slow_client != agent_args(endpoint.url)
    out = tau_sim("run", *GRID, *slow_client, "--timeout", "0.5", "--db", str(db), "--quiet")
    assert out.returncode == 3, out.stderr
    for _cell, status, reason, detail in stored(db):
        assert (status, reason) == ("completed", "infra_error")
        assert detail.startswith("agent: [timeout]") and "0.5 s deadline" in detail, detail
    assert report(db)["infra_causes"] == {"timeout": CELLS}
    endpoint.mode = "ok"
    out = tau_sim("run", "--resume", run_id_of(db), "--db", str(db), "--quiet")
    assert out.returncode == 0, out.stderr
    assert_whole(db)


@pytest.mark.parametrize("stream", ["false", "true"])
def test_timeout_bounds_a_trickled_answer_as_a_whole(
    endpoint: FaultServer, tmp_path: Path, stream: str
) -> None:
    """Headers at once, then the body in 20 parts 0.3 s apart (6 s): every read comes in time,
    yet ``timeout=1`` ends the attempt after 1 s, streamed or not, as any timeout."""
    db = tmp_path / "trickle.db"
    endpoint.mode = "trickle"
    args = [a.replace("timeout=0.5", "timeout=1") for a in agent_args(endpoint.url)]
    args += ["--agent-arg", f"stream={stream}"]
    out = tau_sim("run", *GRID, *args, "--db", str(db), "--quiet")
    assert out.returncode == 3, out.stderr
    rows = stored(db)
    assert len(rows) == CELLS
    for _cell, status, reason, detail in rows:
        assert (status, reason) == ("completed", "infra_error")
        assert detail == "agent: [timeout] no answer within 1 s", detail
    assert endpoint.chat_requests == CELLS  # each conversation's first request, not retried
    conn = sqlite3.connect(db)
    longest = conn.execute("select max(ended_at - started_at) from conversations").fetchone()[0]
    conn.close()
    assert longest < 4, longest  # the answer alone takes 6 s
    assert report(db)["infra_causes"] == {"timeout": CELLS}
