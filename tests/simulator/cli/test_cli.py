"""The real ``tau-sim`` command in subprocesses: offline runs, kill -9 and resume, bad input."""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tau_sim.simulator.store import SCHEMA_VERSION
from tests.helpers.cli import (
    ALL_AT_ONCE,
    GRID,
    SMALL,
    SMALL_CELLS,
    TAU_SIM,
    report,
    run_error,
    tau_sim,
    wait_for_completed,
)
from tests.simulator.old_layout import as_version_2


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The GRID played once in one process: its database (read, never written) and output."""
    db = tmp_path_factory.mktemp("grid") / "a.db"
    return db, tau_sim("run", *GRID, "--db", str(db), "--quiet").stdout


def test_offline_run_prints_pass_k_and_stores_the_run(grid_run: tuple[Path, str]) -> None:
    db, stdout = grid_run
    assert "pass^k by emotion" in stdout and "pass^2" in stdout
    assert (
        "note: scripted/oracle, scripted/over-asker read each task's answer key: they calibrate "
        "the harness" in " ".join(stdout.split())
    )
    data = report(db)
    assert data["calibration_agents"] == ["scripted/oracle", "scripted/over-asker"]
    assert data["conversations"] == data["completed"] == 2 * 6 * 2 * 2
    assert set(data["pass_hat_k"]) == {"1", "2"}
    oracle = data["groups"]["agent"]["scripted/oracle"]
    asker = data["groups"]["agent"]["scripted/over-asker"]
    assert oracle["success_rate"] == 1.0
    assert asker["abandonment_rate"] > oracle["abandonment_rate"]
    for field in ("agent", "user", "domain", "emotion", "intensity"):
        assert data["groups"][field]
    runs = tau_sim("runs", "--db", str(db)).stdout
    assert data["run_id"] in runs and "completed" in runs


def test_kill_9_then_resume_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    reference_db = tmp_path / "ref.db"
    tau_sim("run", *SMALL, "--db", str(reference_db), "--quiet")
    reference = report(reference_db)

    db = tmp_path / "killed.db"
    slow = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "3"]
    log = (tmp_path / "killed.log").open("w")
    proc = subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *slow, "--db", str(db), "--quiet"], stdout=log, stderr=log
    )
    assert wait_for_completed(db, 3) >= 3
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    log.close()
    conn = sqlite3.connect(db)
    run_id, status = conn.execute("select id, status from runs").fetchone()
    unfinished = conn.execute(
        "select count(*) from conversations where status != 'completed'"
    ).fetchone()[0]
    conn.close()
    assert status == "running" and unfinished > 0

    tau_sim("run", "--resume", run_id, *ALL_AT_ONCE, "--db", str(db), "--quiet")
    conn = sqlite3.connect(db)
    per_cell = conn.execute(
        "select count(*), count(distinct cell), sum(status='completed') from conversations"
    ).fetchone()
    assert per_cell == (SMALL_CELLS,) * 3
    gaps = conn.execute(
        "select count(*) from (select conversation, count(*) n, max(seq) m from events "
        "group by conversation) where n != m + 1"
    ).fetchone()[0]
    assert gaps == 0
    conn.close()
    resumed = report(db, run_id)
    assert resumed["status"] == "completed"
    for data in (resumed, reference):
        data.pop("run_id")
    q = (
        "select cell, reason, reward, turns, tool_calls, model_calls, tokens_in, tokens_out "
        "from conversations order by cell"
    )
    assert sqlite3.connect(db).execute(q).fetchall() == (
        sqlite3.connect(reference_db).execute(q).fetchall()
    )
    assert resumed == reference


@pytest.fixture(scope="module")
def populated_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished ``--tasks 2`` run, closed cleanly; only ever copied."""
    db = tmp_path_factory.mktemp("populated") / "keep.db"
    tau_sim("run", "--tasks", "2", "--db", str(db), "--quiet")
    assert not Path(f"{db}-wal").exists()
    return db


@pytest.fixture
def populated(populated_once: Path, tmp_path: Path) -> Path:
    """This test's own copy of the finished ``--tasks 2`` run."""
    db = tmp_path / "keep.db"
    shutil.copyfile(populated_once, db)
    return db


def rows(db: Path) -> tuple[int, int]:
    conn = sqlite3.connect(db)
    counts = (
        conn.execute("select count(*) from conversations").fetchone()[0],
        conn.execute("select count(*) from events").fetchone()[0],
    )
    conn.close()
    return counts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domain", "narnia"], "unknown domain 'narnia'"),
        (["--emotions", "neutral,schadenfreude"], "unknown emotion 'schadenfreude'"),
        (["--agent", "scripted/genius"], "genius"),
        (["--agent", "nosuch/model"], "unknown model provider 'nosuch'"),
        (["--concurrency", "-4"], "--concurrency must be at least 1 (got -4)"),
        (["--intensities", "extreme"], "'extreme' is not low, medium, high"),
        (["--tasks", "retail-999"], "has no task 'retail-999'"),
        (["--politeness", "cold,hot"], "--politeness: unknown politeness level 'hot'"),
        (["--urgency", "extreme"], "--urgency: unknown urgency level 'extreme'"),
        (["--trust", "paranoid"], "--trust: unknown trust level 'paranoid'"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_keeps_data(populated: Path, args, message) -> None:
    before = rows(populated)
    out = run_error("run", *args, "--db", str(populated))
    assert message in out.stderr
    assert rows(populated) == before


def test_malformed_task_file(populated: Path, tmp_path: Path) -> None:
    good = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
    lines = good.read_text().splitlines()[:3]
    lines[1] = lines[1].replace('"auth_slots":[', '"auth_slots":"email", "x":[', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    before = rows(populated)
    out = run_error("run", "--tasks-file", str(bad), "--db", str(populated))
    assert f"{bad}:2: invalid task" in out.stderr and "auth_slots" in out.stderr
    assert rows(populated) == before


def test_task_file_with_a_leaf_of_another_family(populated: Path, tmp_path: Path) -> None:
    good = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
    lines = [json.loads(line) for line in good.read_text().splitlines()[:3]]
    lines[0]["emotion"] = {"family": "anger", "leaf": "irritation", "urgency": "high"}
    lines[2]["emotion"] = {"family": "fear", "leaf": "frustration", "intensity": 0.9}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = rows(populated)
    out = run_error("run", "--tasks-file", str(bad), "--db", str(populated))
    assert f"{bad}:3: emotion.leaf 'frustration' belongs to family 'anger', not 'fear'" in (
        out.stderr
    )
    lines[2]["emotion"] = {"leaf": "dread", "trust": "gullible"}
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = run_error("run", "--tasks-file", str(bad), "--db", str(populated))
    assert f"{bad}:3: emotion.trust: unknown trust level 'gullible'" in out.stderr
    assert rows(populated) == before


def test_dimension_levels_are_grid_dimensions_and_report_rows(tmp_path: Path) -> None:
    db = tmp_path / "dims.db"
    args = ["--tasks", "2", "--emotions", "neutral,anger", "--intensities", "high"]
    tau_sim("run", *args, "--politeness", "default,cold", "--urgency", "high", "--db", str(db))
    data = report(db)
    assert data["conversations"] == 2 * 2 * 2  # tasks x emotions x politeness levels
    assert set(data["groups"]["politeness"]) == {"default", "cold"}
    assert set(data["groups"]["urgency"]) == {"high"}
    assert set(data["groups"]["trust"]) == {"default"}
    conditions = {(c["emotion"], c["politeness"], c["urgency"]) for c in data["conditions"]}
    assert conditions == {
        ("neutral", "default", "high"),
        ("neutral", "cold", "high"),
        ("frustration", "default", "high"),
        ("frustration", "cold", "high"),
    }
    conn = sqlite3.connect(db)
    stored = set(conn.execute("select politeness, urgency, trust from conversations"))
    conn.close()
    assert stored == {(None, "high", None), ("cold", "high", None)}
    text = tau_sim("report", "--db", str(db)).stdout
    assert "politeness" in text and "cold" in text


def test_database_of_another_schema_version(populated: Path) -> None:
    conn = sqlite3.connect(populated)
    conn.execute("update meta set value = '0' where key = 'schema_version'")
    conn.commit()
    conn.close()
    before = rows(populated)
    out = run_error("run", "--tasks", "1", "--db", str(populated))
    assert "schema version 0" in out.stderr
    run_error("report", "--db", str(populated))
    assert rows(populated) == before


def test_report_of_unknown_run_and_missing_db(tmp_path: Path, populated: Path) -> None:
    run_error("report", "run-nope", "--db", str(populated))
    run_error("report", "--db", str(tmp_path / "absent.db"))
    assert not (tmp_path / "absent.db").exists()


def test_domains_show_lists_tools() -> None:
    out = tau_sim("domains", "show", "retail").stdout
    assert "cancel_pending_order" in out and "write" in out and "benchmark tasks" in out
    run_error("domains", "show", "narnia")


def test_ctrl_c_stops_cleanly_and_resume_finishes(tmp_path: Path) -> None:
    db = tmp_path / "int.db"
    slow = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "2"]
    proc = subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *slow, "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_for_completed(db, 2) >= 2
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    run_id, status = conn.execute("select id, status from runs").fetchone()
    done = conn.execute("select count(*) from conversations where status='completed'").fetchone()
    conn.close()
    assert status == "interrupted" and 0 < done[0] < SMALL_CELLS
    assert err == (
        f"tau-sim: interrupted; {done[0]} of {SMALL_CELLS} conversations are stored; "
        f"resume with: tau-sim run --resume {run_id} --db {db}\n"
    )
    tau_sim("run", "--resume", run_id, *ALL_AT_ONCE, "--db", str(db), "--quiet")
    data = report(db, run_id)
    assert data["status"] == "completed" and data["completed"] == SMALL_CELLS


def test_worker_processes_give_the_same_results(grid_run: tuple[Path, str], tmp_path: Path) -> None:
    single, sharded = grid_run[0], tmp_path / "two.db"
    tau_sim("run", *GRID, "--workers", "2", "--db", str(sharded), "--quiet")
    a, b = report(single), report(sharded)
    for data in (a, b):
        data.pop("run_id")
    assert a == b
    q = "select cell, reason, reward, turns, tokens_in from conversations order by cell"
    assert sqlite3.connect(single).execute(q).fetchall() == (
        sqlite3.connect(sharded).execute(q).fetchall()
    )


def test_interrupted_workers_flush_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    slow = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "2"]
    proc = subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *slow, "--workers", "2", "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_for_completed(db, 2) >= 2
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    run_id, status = conn.execute("select id, status from runs").fetchone()
    done = conn.execute("select count(*) from conversations where status='completed'").fetchone()
    conn.close()
    assert status == "interrupted" and 0 < done[0] < SMALL_CELLS
    tau_sim("run", "--resume", run_id, *ALL_AT_ONCE, "--db", str(db), "--quiet")
    conn = sqlite3.connect(db)
    assert (
        conn.execute(
            "select count(*), count(distinct cell), sum(status='completed') from conversations"
        ).fetchone()
        == (SMALL_CELLS,) * 3
    )
    conn.close()


def test_run_file_sets_defaults_and_per_model_options(tmp_path: Path) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(
        "[run]\n"
        'tasks = 3\nagent = ["scripted/gold", "scripted/sloppy"]\ntrials = 2\nseed = 11\n'
        '[models."scripted/sloppy"]\nerror_rate = 1.0\n'
    )
    db = tmp_path / "cfg.db"
    tau_sim("run", "--config", str(run_file), "--db", str(db), "--quiet")
    data = report(db)
    assert data["conversations"] == 2 * 3 * 2
    sloppy = data["groups"]["agent"]["scripted/sloppy"]
    oracle = data["groups"]["agent"]["scripted/gold"]
    assert oracle["success_rate"] == 1.0 and sloppy["success_rate"] < 1.0
    conn = sqlite3.connect(db)
    config = json.loads(conn.execute("select config from runs").fetchone()[0])
    conn.close()
    assert config["seed"] == 11
    assert config["agent_options"] == {
        "scripted/gold": {},
        "scripted/sloppy": {"error_rate": 1.0},
    }
    # the command line wins over the file
    tau_sim("run", "--config", str(run_file), "--trials", "1", "--db", str(db), "--quiet")
    assert report(db)["conversations"] == 2 * 3


def test_bad_run_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[run]\nwarp = 9\n")
    out = run_error("run", "--config", str(bad), "--db", str(tmp_path / "x.db"))
    assert "[run] has unknown setting 'warp'" in out.stderr
    bad.write_text("[run\n")
    out = run_error("run", "--config", str(bad), "--db", str(tmp_path / "x.db"))
    assert "invalid TOML" in out.stderr


def test_unreachable_endpoint_fails_before_anything_is_stored(populated: Path) -> None:
    before = rows(populated)
    conn = sqlite3.connect(populated)
    runs_before = conn.execute("select count(*) from runs").fetchone()[0]
    conn.close()
    out = run_error(
        "run",
        "--tasks",
        "1",
        "--agent",
        "openai/some-model",
        "--agent-arg",
        "base_url=http://127.0.0.1:9/v1",
        "--db",
        str(populated),
    )
    assert "cannot reach http://127.0.0.1:9/v1" in out.stderr
    conn = sqlite3.connect(populated)
    assert conn.execute("select count(*) from runs").fetchone()[0] == runs_before
    conn.close()
    assert rows(populated) == before


def test_a_new_run_that_never_starts_leaves_no_database_file(tmp_path: Path) -> None:
    unreachable = ["--agent", "openai/m", "--agent-arg", "base_url=http://127.0.0.1:9/v1"]
    launching = ["--agent", "server/m", "--agent-arg", "serve=python -m x --port {port}"]
    for n, (args, message) in enumerate(
        [
            (unreachable, "cannot reach http://127.0.0.1:9/v1"),  # found by the preflight
            ([*launching, "--workers", "2"], "starts its own servers"),  # found by the runner
        ]
    ):
        db = tmp_path / f"new-{n}.db"
        out = run_error("run", "--tasks", "1", *args, "--db", str(db))
        assert message in out.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == [], out.stderr


def test_missing_api_key_names_the_variable(populated: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "ANTHROPIC"))}
    for model, variable in (
        ("openai/gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
    ):
        out = subprocess.run(
            [*TAU_SIM, "run", "--tasks", "1", "--agent", model, "--db", str(populated)],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        assert out.returncode == 2 and variable in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_vllm_model_without_a_known_tool_parser(populated: Path) -> None:
    out = run_error(
        "run", "--tasks", "1", "--agent", "vllm/acme/mystery-7b", "--db", str(populated)
    )
    assert "tool" in out.stderr and "parser" in out.stderr


def interrupted_run(tmp_path: Path, *extra: str) -> tuple[Path, str]:
    """A finished small run made to look crashed: one conversation lost its ending."""
    db = tmp_path / "crashed.db"
    tau_sim("run", "--tasks", "3", "--trials", "2", *extra, "--db", str(db), "--quiet")
    conn = sqlite3.connect(db)
    run_id = conn.execute("select id from runs").fetchone()[0]
    with conn:
        conn.execute("update runs set status = 'interrupted'")
        conn.execute("update conversations set status = 'running' where cell = 4")
    conn.close()
    return db, run_id


def stored(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    data = (
        conn.execute("select * from runs").fetchall()
        + conn.execute("select id, status, reward from conversations order by id").fetchall()
    )
    data.append(conn.execute("select count(*) from events").fetchone())
    conn.close()
    return data


def test_resume_refuses_a_changed_task_set(tmp_path: Path) -> None:
    retail = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
    tasks = tmp_path / "tasks.jsonl"
    original = "\n".join(retail.read_text().splitlines()[:3]) + "\n"
    tasks.write_text(original)
    db, run_id = interrupted_run(tmp_path, "--tasks-file", str(tasks))
    before = stored(db)
    first = json.loads(original.splitlines()[0])
    first["scenario"]["goal"] += " Ask twice."
    edited = "\n".join([json.dumps(first), *original.splitlines()[1:]]) + "\n"
    assert edited != original
    tasks.write_text(edited)
    out = run_error("run", "--resume", run_id, "--db", str(db))
    assert f"--resume {run_id}: the tasks of {tasks} changed" in out.stderr
    assert stored(db) == before
    tasks.write_text(original)  # the same tasks again: the resume goes through
    tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert report(db, run_id)["completed"] == 6


def test_resume_with_a_missing_db_creates_nothing(tmp_path: Path) -> None:
    absent = tmp_path / "absent.db"
    out = run_error("run", "--resume", "run-x", "--db", str(absent))
    assert f"no database at {absent}" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_resume_refuses_options_that_define_the_run(tmp_path: Path) -> None:
    db, run_id = interrupted_run(tmp_path)
    before = stored(db)
    given = ["--agent", "scripted/sloppy", "--emotions", "anger", "--agent-arg", "latency=1"]
    out = run_error("run", "--resume", run_id, *given, "--db", str(db))
    assert "remove --agent, --emotions, --agent-arg latency" in out.stderr
    out = run_error("run", "--resume", run_id, "--tasks", "1", "--db", str(db))
    assert "remove --tasks" in out.stderr
    out = run_error("run", "--resume", run_id, "--concurrency", "0", "--db", str(db))
    assert "--concurrency must be at least 1 (got 0)" in out.stderr
    assert stored(db) == before
    tau_sim("run", "--resume", run_id, "--concurrency", "2", "--workers", "2", "--db", str(db))
    assert report(db, run_id)["completed"] == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent-arg", "temprature=0.5"], "--agent-arg: unknown option 'temprature'"),
        (["--user-arg", "temprature=1"], "--user-arg: unknown option 'temprature'"),
        (
            [
                *("--agent", "openai/m", "--agent-arg", "base_url=http://127.0.0.1:9/v1"),
                *("--agent-arg", "temprature=0"),
            ],
            "--agent-arg: openai/m: unknown option 'temprature'",
        ),
        (["--agent-arg", "latency=-1"], "--agent-arg latency=-1: Expected `float` >= 0.0"),
        (["--agent-arg", "error_rate=1.5"], "--agent-arg error_rate=1.5: Expected `float` <= 1"),
        (["--user-arg", "threshold_scale=0"], "--user-arg threshold_scale=0: Expected `float` >="),
        (["--workers", "0"], "--workers must be at least 1 (got 0)"),
        (["--trials", "0"], "--trials must be at least 1 (got 0)"),
        (["--trials", "-2"], "--trials must be at least 1 (got -2)"),
        (["--max-steps", "0"], "--max-steps must be at least 2 (got 0)"),
        (["--max-tool-errors", "-1"], "--max-tool-errors must be at least 0 (got -1)"),
        (["--timeout", "0"], "--timeout must be positive (got 0)"),
        (["--timeout", "-5"], "--timeout must be positive (got -5)"),
        (["--tasks", "0"], "--tasks must select at least one task"),
    ],
)
def test_bad_options_and_numbers_are_one_line_errors(populated: Path, args, message) -> None:
    before = stored(populated)
    out = run_error("run", *args, "--db", str(populated))
    assert message in out.stderr
    assert stored(populated) == before


def test_a_database_of_schema_1_is_migrated_reported_but_not_resumed(populated: Path) -> None:
    reference = report(populated)
    as_version_2(populated)
    conn = sqlite3.connect(populated)  # what tau-sim wrote before runs had a task-set hash
    with conn:
        conn.execute("alter table runs drop column tasks_hash")
        for column in ("politeness", "urgency", "trust"):
            conn.execute(f"alter table conversations drop column {column}")
        conn.execute("update meta set value = '1' where key = 'schema_version'")
        run_id = conn.execute("select id from runs").fetchone()[0]
        conn.execute("update runs set status = 'interrupted' where id = ?", [run_id])
    conn.close()
    kept = [row[1:] for row in stored(populated)[1:]]  # conversations and the event count
    out = run_error("run", "--resume", run_id, "--db", str(populated))
    assert "stored by an older tau-sim without the hash of its task set" in out.stderr
    migrated = report(populated, run_id)  # the migration lost nothing a report reads
    for data in (migrated, reference):
        data.pop("status")
    assert migrated == reference
    assert [row[1:] for row in stored(populated)[1:]] == kept
    version = sqlite3.connect(populated).execute("select value from meta").fetchone()[0]
    assert version == str(SCHEMA_VERSION)


def test_the_console_script_loads_the_cli_and_a_ctrl_c_while_loading_is_quiet() -> None:
    script = Path(sys.executable).parent / "tau-sim"
    out = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("tau-sim ")


# A finder that, when the entry point imports the CLI, sends the process a signal and waits
# for it: the signal arrives exactly while the CLI loads.
SIGNAL_WHILE_LOADING = """
import os, signal, sys, time
class Stop:
    def find_spec(self, name, path=None, target=None):
        if name == "tau_sim.simulator.cli.main":
            os.kill(os.getpid(), signal.{name})
            time.sleep(30)
        return None
sys.meta_path.insert(0, Stop())
from tau_sim import entry
sys.exit(entry.main())
"""


@pytest.mark.parametrize(("name", "code"), [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_stop_signal_while_the_cli_loads_is_one_line_and_128_plus_its_number(
    name: str, code: int
) -> None:
    """Ctrl-C, SIGTERM and SIGHUP while the console script imports the CLI: one line, exit
    128 + the signal (as shells, timeout, Slurm and Kubernetes read it), no traceback."""
    program = SIGNAL_WHILE_LOADING.replace("{name}", name)
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == code, out.stderr
    assert out.stderr == "tau-sim: interrupted while starting; nothing was stored\n"


def test_the_console_script_imports_only_its_entry_before_it_takes_the_signals() -> None:
    # the console script takes Ctrl-C before any module of the project's is imported
    probe = "import sys, tau_sim.entry; print(sorted(m for m in sys.modules if 'tau_sim.' in m))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['tau_sim.entry']"


def test_help_texts_list_what_each_command_takes() -> None:
    """The top-level help has no reST markup; `tui --help` does not offer the run options it
    refuses; `run --help` says --resume takes --count-errors."""
    top = subprocess.run([*TAU_SIM, "--help"], capture_output=True, text=True, timeout=60)
    assert "``" not in top.stdout and "tracer" in top.stdout
    tui = subprocess.run([*TAU_SIM, "tui", "--help"], capture_output=True, text=True, timeout=60)
    options = [line.split()[0] for line in tui.stdout.splitlines() if line.startswith("  --")]
    assert "--attach" in options and "--dry-run" not in options and "--keep-errors" not in options
    refused = subprocess.run(
        [*TAU_SIM, "tui", "--dry-run"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and "goes with `tau-sim run`" in refused.stderr
    run = subprocess.run([*TAU_SIM, "run", "--help"], capture_output=True, text=True, timeout=60)
    resume = " ".join(run.stdout.split("--resume RUN_ID", 2)[-1].split()[:40])
    assert "--count-errors" in resume
