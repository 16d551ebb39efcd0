"""Bad input through the real ``tau-sim`` command: one line, exit 2, nothing stored, no traceback.

Also the discoverability commands (``models``, ``emotions``, ``--version``, ``--dry-run``) and
the quiet exit on a closed stdout.
"""

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.helpers.cli import TAU_SIM, one_line_error
from tests.helpers.servers import BodyServers

RETAIL = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
RETAIL_TASKS = len(RETAIL.read_text().splitlines())


tau_sim = partial(cli.tau_sim, check=False)


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("inputs") / "keep.db"
    out = tau_sim("run", "--tasks", "2", "--db", str(db), "--quiet")
    assert out.returncode == 0, out.stderr
    return db


def digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def stored(db: Path) -> tuple[list[tuple], int]:
    conn = sqlite3.connect(db)
    try:
        runs = conn.execute("select id, status, cells from runs order by id").fetchall()
        events = conn.execute("select count(*) from events").fetchone()[0]
    finally:
        conn.close()
    return runs, events


def task_file(tmp: Path, edit: str) -> Path:
    """The first 8 retail tasks with one edited (``edit`` names the case)."""
    lines = RETAIL.read_text().splitlines()[:8]
    task = json.loads(lines[6])
    if edit == "unknown-tool":
        task["actions"][-1]["name"] = "cancel_order"
    elif edit == "wrong-type":
        task["actions"][1]["arguments"][next(iter(task["actions"][1]["arguments"]))] = 5
    elif edit == "unknown-argument":
        task["actions"][1]["arguments"]["colour"] = "red"
    elif edit == "fails":
        task["actions"][1]["arguments"]["user_id"] = "nobody_0000"
    elif edit == "other-domain":
        task["domain"] = "airline"
    lines[6] = json.dumps(task)
    path = tmp / f"{edit}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


LAST = len(json.loads(RETAIL.read_text().splitlines()[6])["actions"]) - 1
"""The index of the last gold action of the edited task (``unknown-tool`` renames it)."""
GOLD_CASES = [
    ("unknown-tool", f":7: task retail-006: actions[{LAST}] cancel_order: unknown tool (known: "),
    ("wrong-type", ":7: task retail-006: actions[1].arguments."),
    ("unknown-argument", ":7: task retail-006: actions[1].arguments: Object contains unknown"),
    (
        "fails",
        ":7: task retail-006: actions[1] get_user_details fails on a fresh database: Error: ",
    ),
    ("other-domain", ":7: task retail-006: is for domain 'airline', not 'retail'"),
]


@pytest.mark.parametrize(("edit", "message"), GOLD_CASES, ids=[c[0] for c in GOLD_CASES])
def test_gold_paths_are_checked_when_the_task_file_loads(
    populated: Path, tmp_path: Path, edit: str, message: str
) -> None:
    before = digest(populated)
    bad = task_file(tmp_path, edit)
    line = one_line_error(tau_sim("run", "--tasks-file", str(bad), "--db", str(populated)))
    assert f"{bad}{message}" in line
    assert digest(populated) == before


# (arguments of `run` before --db, the message). Each must leave the database's bytes as they are.
RUN_CASES: list[tuple[list[str], str]] = [
    (["--agent", "scripted/gold,scripted/gold"], "--agent: 'scripted/gold' is given twice"),
    (
        ["--agent", "scripted/gold,scripted/oracle"],
        "--agent: 'scripted/gold' and 'scripted/oracle' are the same agent (scripted/gold)",
    ),
    (["--emotions", "anger,frustration"], "--emotions: 'anger' and 'frustration' are the same"),
    (["--emotions", "worry,nervousness"], "--emotions: 'worry' and 'nervousness' are the same"),
    (["--intensities", "low,0.3"], "--intensities: 'low' and '0.3' are the same entry (0.3)"),
    (["--intensities", "0.5,0.50"], "--intensities: '0.5' and '0.50' are the same entry"),
    (
        ["--emotions", "task", "--intensities", "high"],
        "--intensities: --emotions task plays each task's own intensity",
    ),
    (
        ["--emotions", "neutral,task", "--intensities", "low"],
        "so --intensities would be ignored",
    ),
    (["--tasks", "retail-001,retail-001"], "--tasks: 'retail-001' is given twice"),
    (
        ["--tier", "hard", "--tasks", "retail-000"],
        "--tasks: 'retail-000' is a base task; --tier hard plays only the hard tasks",
    ),
    (["--emotions", "joyfulness"], "(`tau-sim emotions` lists the leaves and families)"),
    (["--user", "llm"], "(an LLM user is --user PROVIDER/MODEL, e.g. openai/gpt-4.1)"),
    (["--user", "scripted,scripted"], "--user: 'scripted' is given twice"),
    (["--politeness", "cold,cold"], "--politeness: 'cold' is given twice"),
    (["--trust", "default,default"], "--trust: 'default' is given twice"),
    (
        ["--emotions", "neutral", "--politeness", "default,neutral"],
        "--politeness: under --emotions neutral, 'default' is neutral's own politeness 'neutral'",
    ),
    (
        ["--emotions", "neutral,anger", "--urgency", "moderate,high,default"],
        "so default and moderate are one condition played twice",
    ),
    (["--trials", "1e309"], "argument --trials: invalid int value: '1e309'"),
    (["--trials", "99999999999"], "--trials must be at most 1000000 (got 99999999999)"),
    (["--concurrency", "99999999999999999999"], "--concurrency must be at most 100000"),
    (["--workers", "99999999999999999999"], "--workers must be at most 256"),
    (["--seed", "-1"], "--seed must be at least 0 (got -1)"),
    (["--seed", "99999999999999999999"], "--seed must be at most 9223372036854775807"),
    (["--max-steps", "99999999999999999999"], "--max-steps must be at most 1000000"),
    (["--max-tool-errors", "10000000000"], "--max-tool-errors must be at most 1000000"),
    (["--timeout", "nan"], "--timeout must be positive (got nan)"),
    (["--timeout", "inf"], "--timeout must be at most 1e+07 seconds (got inf)"),
    (["--timeout", "1e309"], "--timeout must be at most 1e+07 seconds (got inf)"),
    (["--intensities", "nan"], "--intensities: nan is outside 0..1"),
    (["--intensities", "1e309"], "--intensities: inf is outside 0..1"),
    (["--tasks", "99999999999999999999"], f"domain 'retail' has {RETAIL_TASKS} tasks"),
    (["--agent-arg", "latency=1e309"], "--agent-arg latency=inf: Expected `float` <= 60.0"),
    (["--user-arg", "latency=61"], "--user-arg latency=61: Expected `float` <= 60.0"),
    (
        ["--emotions", "anger", "--intensities", "0.1,0.2", "--trials", "400000"],
        # one agent x one emotion x two intensities x 400,000 trials per task
        f"the grid holds {RETAIL_TASKS * 800_000} conversations, more than 1000000 per run",
    ),
    (["--tasks-file", "/"], "--tasks-file / is a directory; give a JSONL file"),
    (["--config", "/"], "--config: cannot read /: Is a directory"),
    (["--resume", "x", "--dry-run"], "--resume takes the stored run as it is; remove --dry-run"),
]


@pytest.mark.parametrize(("args", "message"), RUN_CASES, ids=[" ".join(a) for a, _ in RUN_CASES])
def test_bad_run_input_is_one_line_and_stores_nothing(
    populated: Path, args: list[str], message: str
) -> None:
    before, rows = digest(populated), stored(populated)
    line = one_line_error(tau_sim("run", *args, "--db", str(populated)))
    assert message in line
    assert digest(populated) == before and stored(populated) == rows


@pytest.mark.parametrize(
    ("emotions", "warned"),
    [([], True), (["--emotions", "neutral"], True), (["--emotions", "neutral,anger"], False)],
)
def test_intensities_with_only_neutral_are_a_warning_and_the_run_goes_on(
    emotions: list[str], warned: bool
) -> None:
    out = tau_sim("run", "--tasks", "1", *emotions, "--intensities", "0.9", "--dry-run")
    assert out.returncode == 0 and "dry run: " in out.stdout, out.stderr
    warning = "tau-sim: warning: --intensities changes nothing with --emotions neutral"
    assert (out.stderr.splitlines() == [out.stderr.strip()] and warning in out.stderr) is warned
    assert (out.stderr == "") is not warned


def test_task_files_empty_nameless_or_with_a_byte_order_mark(
    populated: Path, tmp_path: Path
) -> None:
    """An empty task file names the file (not --tasks); a task without an id is refused with
    file, line and field; a UTF-8 byte-order mark (Windows editors) is read past."""
    before = digest(populated)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    line = one_line_error(tau_sim("run", "--tasks-file", str(empty), "--db", str(populated)))
    assert f"--tasks-file: {empty} holds no tasks" in line
    first = RETAIL.read_bytes().splitlines()[0]
    nameless = tmp_path / "nameless.jsonl"
    nameless.write_bytes(first.replace(b'"id":"retail-000"', b'"id":" "'))
    line = one_line_error(tau_sim("run", "--tasks-file", str(nameless), "--db", str(populated)))
    assert f"{nameless}:1: id: a task needs a non-empty id" in line
    assert digest(populated) == before
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + first + b"\n")
    out = tau_sim("run", "--tasks-file", str(marked), "--db", str(tmp_path / "m.db"), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["n"] == 1


def test_a_run_file_value_out_of_range_names_the_file_and_key(
    populated: Path, tmp_path: Path
) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text("[run]\nseed = -1\ntrials = 0\n")
    line = one_line_error(tau_sim("run", "--config", str(run_file), "--db", str(populated)))
    assert line.endswith(f"--config {run_file}: [run] trials = 0: must be at least 1 (got 0)")
    run_file.write_text("[run]\nseed = -1\n")
    line = one_line_error(tau_sim("run", "--config", str(run_file), "--db", str(populated)))
    assert line.endswith(f"--config {run_file}: [run] seed = -1: must be at least 0 (got -1)")
    flagged = tau_sim("run", "--config", str(run_file), "--seed", "-2", "--db", str(populated))
    assert one_line_error(flagged).endswith("--seed must be at least 0 (got -2)")  # the flag's


def test_a_task_file_on_a_pipe_or_a_directory_is_refused(populated: Path, tmp_path: Path) -> None:
    before = digest(populated)
    piped = subprocess.run(
        [*TAU_SIM, "run", "--tasks-file", "/dev/stdin", "--db", str(populated)],
        input=RETAIL.read_text().splitlines()[0] + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "--tasks-file /dev/stdin: not a regular file" in one_line_error(piped)
    line = one_line_error(tau_sim("run", "--tasks-file", str(tmp_path), "--db", str(populated)))
    assert f"--tasks-file {tmp_path} is a directory" in line
    assert digest(populated) == before


def test_an_empty_database_name_is_refused(tmp_path: Path) -> None:
    for command in (["run"], ["report"], ["runs"]):
        line = one_line_error(tau_sim(*command, "--db", ""))
        assert line.endswith("--db: the database file name is empty"), line


def test_binary_and_non_utf8_files_are_one_line_errors(populated: Path, tmp_path: Path) -> None:
    before = digest(populated)
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(bytes(range(256)) * 4)
    line = one_line_error(tau_sim("run", "--tasks-file", str(binary), "--db", str(populated)))
    assert f"{binary}:1: not valid JSON" in line
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"[run]\nseed = 1\n# caf\xe9\n")
    line = one_line_error(tau_sim("run", "--config", str(latin), "--db", str(populated)))
    assert f"--config {latin}: not UTF-8 text (byte 20)" in line
    huge = tmp_path / "huge.toml"
    huge.write_text("[run]\ntrials = 1e309\n")
    line = one_line_error(tau_sim("run", "--config", str(huge), "--db", str(populated)))
    assert f"--config {huge}: [run] trials: expected an integer, got inf" in line
    huge.write_text(f"[run]\ntimeout = 1{'0' * 400}\n")  # an integer too large for a float
    line = one_line_error(tau_sim("run", "--config", str(huge), "--db", str(populated)))
    assert f"--config {huge}: [run] timeout = 1000000000" in line and len(line) < 300
    assert line.endswith(": must be at most 1e+07 seconds (got inf)")
    line = one_line_error(tau_sim("report", "--db", str(binary)))
    assert "is not a tau-sim database" in line
    assert digest(populated) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "/proc/x", "--count", "2"], "--out /proc/x: cannot write ("),
        (["--out", "/", "--count", "2"], "--out / is a directory; give a file name"),
        (["--count", "99999999999999999999"], "--count must be at most 10000"),
        (["--count", "2", "--seed", "-3"], "--seed must be in 0..2^63-1 (got -3)"),
    ],
)
def test_domains_generate_bad_output_or_numbers(args: list[str], message: str) -> None:
    before = RETAIL.read_bytes()
    assert message in one_line_error(tau_sim("domains", "generate", "retail", *args))
    assert RETAIL.read_bytes() == before


def test_a_bad_input_leaves_no_new_database(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    one_line_error(tau_sim("run", "--agent-arg", "temprature=1", "--db", str(db)))
    one_line_error(tau_sim("run", "--workers", "0", "--db", str(db)))
    assert not db.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["runs"],
        ["report", "--json"],
        ["report"],
        ["emotions"],
        ["models", "--json"],
        ["domains", "generate", "retail", "--count", "3", "--out", "-"],
    ],
)
def test_a_closed_stdout_exits_quietly_with_141(populated: Path, args: list[str]) -> None:
    before = digest(populated)
    if args[0] in ("runs", "report"):
        args = [*args, "--db", str(populated)]
    read, write = os.pipe()
    os.close(read)
    try:
        out = subprocess.run(
            [*TAU_SIM, *args], stdout=write, stderr=subprocess.PIPE, text=True, timeout=60
        )
    finally:
        os.close(write)
    assert out.returncode == 141 and out.stderr == "", out.stderr
    assert digest(populated) == before


def test_dry_run_prints_the_plan_and_creates_no_database(tmp_path: Path) -> None:
    db = tmp_path / "dry.db"
    args = ["--tasks", "3", "--agent", "scripted/gold,scripted/sloppy"]
    args += ["--emotions", "neutral,anger", "--intensities", "low,high", "--trials", "2"]
    out = tau_sim("run", *args, "--dry-run", "--json", "--db", str(db))
    assert out.returncode == 0, out.stderr
    plan = json.loads(out.stdout)
    # 2 agents x 3 tasks x (neutral + anger at 2 intensities) x 2 trials
    assert plan["conversations"] == 36 and plan["per_agent"] == 18
    assert plan["per_condition"] == 6 and plan["conditions"] == 3
    assert plan["model_calls"] == 0  # scripted roles only
    assert plan["stored"] is False and not db.exists()
    text = tau_sim("run", *args, "--dry-run", "--db", str(db))
    assert "36 conversations" in text.stdout and "estimate" in text.stdout
    assert not db.exists()


def test_version_models_and_emotions() -> None:
    version = tau_sim("--version")
    assert version.returncode == 0 and version.stdout.startswith("tau-sim ")
    models = json.loads(tau_sim("models", "--json").stdout)
    assert set(models["model_providers"]) >= {"openai", "anthropic", "vllm", "server", "local"}
    assert "temperature" in models["model_providers"]["openai"]["options"]
    assert "tool_parser" in models["model_providers"]["vllm"]["options"]
    assert models["agents"]["scripted"]["options"] == {"latency": 0.0, "error_rate": 0.3}
    assert models["users"]["scripted"]["options"] == {
        "latency": 0.0,
        "threshold_scale": 1.0,
        "reader": "rules",
    }
    assert "repair" in models["users"]["llm"]["options"]
    emotions = json.loads(tau_sim("emotions", "--json").stdout)
    anger = emotions["families"]["anger"]
    assert anger["default_leaf"] == "frustration" and "annoyance" in anger["leaves"]
    assert anger["leaves"]["annoyance"]["aliases"] == ["irritation"]
    assert emotions["intensities"] == {"low": 0.3, "medium": 0.6, "high": 0.9}
    assert emotions["dimensions"]["trust"] == ["trusting", "cautious", "skeptical"]
    text = tau_sim("emotions").stdout
    assert "frustration (default)" in text and "family = its default leaf" in text
    tables = tau_sim("models").stdout
    assert "model providers (--agent/--user PROVIDER/MODEL)" in tables and "user kinds" in tables


def test_run_help_shows_every_default() -> None:
    text = " ".join(tau_sim("run", "--help").stdout.split())
    for default in (
        "default retail",
        "default scripted/gold",
        "default scripted)",
        "default neutral",
        "default 0.6",
        "default 1)",
        "default 32",
        "default 0)",
        "default 600",
        "default 50",
        "default ./",
    ):
        assert default in text, default


def test_intensities_that_round_alike_are_two_report_rows(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    out = tau_sim(
        "run",
        "--tasks",
        "1",
        "--emotions",
        "anger",
        "--intensities",
        "0.3,0.304",
        "--db",
        str(db),
        "--quiet",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["conditions"]
    assert sorted(r["intensity"] for r in rows) == ["0.30", "0.304"]


def test_runs_lists_agents_conditions_seed_and_duration(populated: Path) -> None:
    text = tau_sim("runs", "--db", str(populated)).stdout
    for column in ("agents", "conditions", "seed", "duration", "status"):
        assert column in text
    assert "scripted/gold" in text and "completed" in text


@pytest.fixture
def endpoint() -> Iterator[BodyServers]:
    with BodyServers() as servers:
        yield servers


def openai_run(base_url: str, db: Path) -> list[str]:
    return [
        *TAU_SIM,
        "run",
        "--agent",
        "openai/m",
        "--agent-arg",
        f"base_url={base_url}",
        "--agent-arg",
        "max_retries=0",
        "--tasks",
        "1",
        "--db",
        str(db),
        "--quiet",
    ]


def test_an_endpoint_answering_garbage_in_the_preflight(
    populated: Path, endpoint: BodyServers
) -> None:
    before = digest(populated)
    url = endpoint(b"\x00garbage{")
    out = subprocess.run(
        openai_run(url, populated),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "OPENAI_API_KEY": "k"},
    )
    assert "answered the preflight with something that is not JSON" in one_line_error(out)
    assert digest(populated) == before


@pytest.mark.parametrize(
    ("signals", "code"),
    [
        ((signal.SIGINT,), 130),
        ((signal.SIGINT, signal.SIGINT), 130),
        ((signal.SIGTERM,), 143),
        ((signal.SIGHUP, signal.SIGINT), 129),
    ],
    ids=["ctrl-c", "ctrl-c twice", "sigterm", "sighup then ctrl-c"],
)
def test_a_signal_during_start_up_stores_nothing(
    populated: Path, endpoint: BodyServers, signals: tuple[int, ...], code: int
) -> None:
    """A preflight that hangs; the signal arrives before the run starts: SIGINT, SIGTERM and
    SIGHUP alike stop it with one line and exit 128 + the first signal, and a second signal
    changes nothing."""
    before = stored(populated)
    url = endpoint(None)
    proc = subprocess.Popen(
        openai_run(url, populated),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "OPENAI_API_KEY": "k"},
    )
    # past the imports and task checks: the preflight's request is in, never answered
    assert endpoint.asked.wait(60), "the preflight never asked"
    for number in signals:
        proc.send_signal(number)
        time.sleep(0.05)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code and "Traceback" not in err, err
    assert err.strip() == "tau-sim: interrupted before the run started; nothing was stored"
    assert stored(populated) == before


BROKEN_PLUGIN = """
import sys
from tau_sim.simulator.cli import main as cli
from tau_sim.simulator.core.registry import DOMAINS

def broken():
    return 1 / 0  # a plugin's own bug

DOMAINS.add("broken", broken)
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["domains", "show", "broken"], ["run", "--domain", "broken"]])
def test_an_unexpected_fault_is_one_line_asking_for_a_report(
    tmp_path: Path, command: list[str]
) -> None:
    """A bug (here a plugin's domain factory dividing by zero): exit 1, one line, nothing stored."""
    db = tmp_path / "never.db"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            BROKEN_PLUGIN,
            *command,
            *(["--db", str(db)] if command[0] == "run" else []),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.splitlines() == [
        "tau-sim: error: unexpected ZeroDivisionError: division by zero (please report this "
        "as a bug, with the command)"
    ]
    assert not out.stdout and not db.exists()
