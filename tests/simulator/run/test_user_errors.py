"""A failing user simulator is not the agent's failure: the real ``tau-sim`` command with the
scripted gold agent and an LLM user played on a real HTTP endpoint on 127.0.0.1 that answers
empty texts (``blank``) or the same line forever (``loop``). Such conversations end with
``user_error``, the figures leave them out and count them apart (report table and JSON,
``runs``, the summary line, the exit code), ``--resume`` plays them again unless
``--keep-errors``, and ``rescore`` keeps them as they are; the scripted user never trips it.
"""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from itertools import groupby
from pathlib import Path

import pytest

from tau_sim.simulator.core.endings import REPEATED_USER_TURNS, Limits
from tests.helpers import cli
from tests.helpers.servers import FaultServer

GRID = [
    *("--tasks", "2", "--emotions", "neutral,anger", "--intensities", "high"),
    *("--trials", "2", "--seed", "1", "--agent", "scripted/gold"),
]
CELLS = 8
LOOPED = "Hi, I need help with my order A1."
"""The line the ``loop`` endpoint's user writes every turn."""
EMPTY = "user: [empty turn] the user simulator sent no usable message"
REPEATED = (
    f"user: [repeated turn] the user simulator sent the same message {REPEATED_USER_TURNS} "
    "times in a row"
)

tau_sim = partial(cli.tau_sim, check=False, clean=True)


def user_args(url: str) -> list[str]:
    options = [f"base_url={url}", "max_retries=0", "timeout=5"]
    return ["--user", "openai/fake", *(x for o in options for x in ("--user-arg", o))]


def report(db: Path, *extra: str) -> dict:
    out = tau_sim("report", "--json", "--db", str(db), *extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def query(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    rows = conn.execute(sql).fetchall()
    conn.close()
    return rows


def stored(db: Path) -> list[tuple]:
    return query(
        db,
        "select cell, status, reason, detail, failure, failure_detail, turns from conversations "
        "order by cell",
    )


def run_id_of(db: Path) -> str:
    return str(query(db, "select id from runs")[0][0])


def without_id(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "run_id"}


def summary(run_id: str, db: Path, share: str, causes: str) -> str:
    return (
        f"tau-sim: error: {share} hit user-simulator errors ({causes}); results exclude them; "
        f"resume with: tau-sim run --resume {run_id} --db {db}"
    )


def assert_whole(db: Path) -> None:
    """One completed conversation per cell, none a user or endpoint error, no event orphaned."""
    [per_cell] = query(
        db,
        "select count(*), count(distinct cell), sum(status = 'completed'), "
        "sum(reason in ('user_error', 'infra_error')) from conversations",
    )
    [[orphans]] = query(
        db,
        "select count(*) from event_rows where conversation not in (select key from conversations)",
    )
    assert per_cell == (CELLS, CELLS, CELLS, 0) and orphans == 0


@pytest.fixture(scope="module")
def reference_db(server: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The grid played against the healthy user endpoint."""
    server.mode = "ok"
    db = tmp_path_factory.mktemp("reference") / "ref.db"
    out = tau_sim("run", *GRID, *user_args(server.url), "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    data = report(db)
    assert (data["status"], data["n"], data["user_errors"]) == ("completed", CELLS, 0)
    assert data["pass_hat_k"]["1"] is not None
    return db


@pytest.fixture(scope="module")
def reference(reference_db: Path) -> dict:
    """The report of ``reference_db``."""
    return without_id(report(reference_db))


@pytest.fixture
def blank_run(endpoint: FaultServer, tmp_path: Path) -> tuple[Path, str]:
    """The grid played against a user endpoint that answers empty texts: exit 3, one line."""
    db = tmp_path / "blank.db"
    endpoint.mode = "blank"
    out = tau_sim("run", *GRID, *user_args(endpoint.url), "--db", str(db), "--quiet")
    run_id = run_id_of(db)
    assert out.returncode == 3, out.stderr
    assert out.stderr.splitlines() == [
        summary(run_id, db, f"{CELLS} of {CELLS} conversations (100%)", f"empty turn x{CELLS}")
    ]
    return db, run_id


def test_an_empty_user_turn_is_left_out_of_the_figures_and_counted_apart(
    blank_run: tuple[Path, str], endpoint: FaultServer, reference: dict
) -> None:
    db, run_id = blank_run
    rows = stored(db)
    assert len(rows) == CELLS
    for _cell, status, reason, detail, failure, failure_detail, turns in rows:
        assert (status, reason, detail, failure) == ("completed", "user_error", EMPTY, "user_error")
        assert failure_detail == f"{EMPTY} (1 unstructured answers, 1 repairs)"
        assert turns == 1
    # the empty turn ended the conversation before the agent saw it
    assert query(db, "select count(*) from events where kind = 'agent_message'") == [(0,)]
    assert endpoint.chat_requests == 2 * CELLS  # each user asked once more (its repair)

    data = report(db)
    assert data["status"] == "completed_with_errors"
    assert (data["completed"], data["n"], data["infra_errors"], data["user_errors"]) == (
        CELLS,
        0,
        0,
        CELLS,
    )
    assert data["pass_hat_k"] == {"1": None, "2": None} and data["success_rate"] is None
    assert data["user_error_causes"] == {"empty turn": CELLS} and data["infra_causes"] == {}
    assert [(r["n"], r["user_errors"]) for r in data["conditions"]] == [(0, 4), (0, 4)]
    counted = report(db, "--count-errors")  # put back as failures, as endpoint errors are
    assert (counted["n"], counted["user_errors"]) == (CELLS, CELLS)
    assert counted["pass_hat_k"] == {"1": 0.0, "2": 0.0} and counted["success_rate"] == 0.0

    text = tau_sim("report", "--db", str(db)).stdout
    header = next(line for line in text.splitlines() if "pass^1" in line and "user err" in line)
    assert "infra" not in header  # no endpoint error: no infra column
    assert f"{CELLS}/{CELLS} conversations (0 counted, {CELLS} excluded)" in text
    assert (
        f"{CELLS} conversations hit user-simulator errors (empty turn x{CELLS}): left out of "
        "pass^k, success and abandonment (--count-errors counts them)"
    ) in " ".join(text.split())
    runs = tau_sim("runs", "--db", str(db)).stdout
    [line] = [line for line in runs.splitlines() if run_id in line]
    assert "completed_with_errors" in line
    # completed, infra, user err, success, abandoned
    assert [c.strip() for c in line.split("│")][-6:-1] == ["8", "0", "8", "-", "-"]

    endpoint.mode = "ok"
    out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert_whole(db)
    assert without_id(report(db)) == reference


def test_a_user_repeating_one_line_ends_as_user_error_long_before_max_steps(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    db = tmp_path / "loop.db"
    endpoint.mode = "loop"
    out = tau_sim("run", *GRID, *user_args(endpoint.url), "--db", str(db), "--quiet")
    run_id = run_id_of(db)
    assert out.returncode == 3, out.stderr
    assert out.stderr.splitlines() == [
        summary(run_id, db, f"{CELLS} of {CELLS} conversations (100%)", f"repeated turn x{CELLS}")
    ]
    for _cell, status, reason, detail, failure, failure_detail, turns in stored(db):
        assert (status, reason, detail, failure) == (
            "completed",
            "user_error",
            REPEATED,
            "user_error",
        )
        assert failure_detail == f"{REPEATED}: {LOOPED!r}"
        assert turns < Limits().max_steps / 2, turns
    said = query(
        db,
        "select conversation, count(*), count(distinct payload) from events "
        "where kind = 'user_message' group by conversation",
    )
    assert len(said) == CELLS
    assert {(n, distinct) for _c, n, distinct in said} == {(REPEATED_USER_TURNS, 1)}
    data = report(db)
    assert (data["n"], data["user_errors"], data["user_error_causes"]) == (
        0,
        CELLS,
        {"repeated turn": CELLS},
    )
    assert data["reasons"] == {"user_error": CELLS}


def test_keep_errors_keeps_user_errors_and_resume_replays_them_without_duplicates(
    blank_run: tuple[Path, str], endpoint: FaultServer, reference: dict, reference_db: Path
) -> None:
    db, run_id = blank_run
    out = tau_sim("run", "--resume", run_id, "--keep-errors", "--db", str(db))
    assert out.returncode == 2
    assert (
        f"--keep-errors keeps its {CELLS} conversations ended by user-simulator errors: "
        "nothing to play"
    ) in out.stderr
    conn = sqlite3.connect(db)  # made to look crashed: cell 5 never finished
    with conn:
        conn.execute("update runs set status = 'interrupted'")
        conn.execute("update conversations set status = 'running' where cell = 5")
    conn.close()
    before = stored(db)
    endpoint.mode = "ok"
    out = tau_sim("run", "--resume", run_id, "--keep-errors", "--db", str(db), "--quiet")
    assert out.returncode == 3, out.stderr  # the 7 kept user errors are still 7 of 8
    assert out.stderr.startswith("tau-sim: error: 7 of 8 conversations (88%) hit user-simulator")
    after = stored(db)
    assert after[:5] + after[6:] == before[:5] + before[6:]  # kept as they were
    assert after[5][1:3] == ("completed", "user_stop")
    assert report(db)["user_errors"] == CELLS - 1
    # compare leaves a pair with a user error out, as the report leaves the conversation out
    both = [run_id_of(reference_db), run_id, "--db", str(reference_db), "--db-b", str(db)]
    out = tau_sim("compare", *both, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["left_out"] == {
        "only_in_a": 0,
        "only_in_b": 0,
        "not_completed": 0,
        "infra_errors": 0,
        "user_errors": CELLS - 1,
    }

    out = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert_whole(db)
    assert without_id(report(db)) == reference
    out = tau_sim("run", "--resume", run_id, "--db", str(db))
    assert out.returncode == 2 and "is already completed" in out.stderr


def test_rescore_keeps_the_user_errors(blank_run: tuple[Path, str]) -> None:
    db, run_id = blank_run
    before, figures = stored(db), report(db)
    out = tau_sim("rescore", run_id, "--db", str(db), "--json", "--write")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["rescored"] == CELLS and result["changed"] == []
    assert result["failures_changed"] == []
    after = report(db)
    assert stored(db) == before
    assert figures["grading"]["scored_by"] == {"live": CELLS}
    assert after.pop("grading")["scored_by"] == {"rescored": CELLS}  # only how they were scored
    figures.pop("grading")
    assert after == figures


def test_the_scripted_user_never_ends_as_a_user_error(tmp_path: Path) -> None:
    db = tmp_path / "scripted.db"
    agents = "scripted/gold,scripted/over-asker,scripted/sloppy"
    out = tau_sim(
        "run",
        *("--domain", "all", "--tasks", "4", "--agent", agents, "--emotions", "neutral,anger"),
        *("--db", str(db), "--quiet"),
    )
    assert out.returncode == 0 and out.stderr == "", out.stderr
    data = report(db)
    assert data["n"] == data["completed"] == 10 * 4 * 3 * 2
    assert (data["user_errors"], data["user_error_causes"]) == (0, {})
    assert "user_error" not in data["reasons"]
    text = tau_sim("report", "--db", str(db)).stdout
    assert "user err" not in text and "user-simulator" not in text
    assert "user err" not in tau_sim("runs", "--db", str(db)).stdout


def test_the_scripted_users_longest_repetition_stays_under_the_limit(tmp_path: Path) -> None:
    """Where the scripted user repeats itself most: agents that keep asking what it does not
    know (the over-asker) or skip steps (sloppy), anxious and frustrated at high intensity, in
    the domains with the most unknown items. No run of one line reaches the limit, so no
    scripted conversation ends as a user error."""
    db = tmp_path / "repeat.db"
    out = tau_sim(
        *("run", "--domain", "banking,telecom", "--agent", "scripted/over-asker,scripted/sloppy"),
        *("--emotions", "anxiety,frustration", "--intensities", "high"),
        *("--db", str(db), "--quiet"),
    )
    assert out.returncode == 0 and out.stderr == "", out.stderr
    rows = query(
        db,
        "select e.conversation, e.payload from events e where e.kind = 'user_message' "
        "order by e.conversation, e.seq",
    )
    longest = 0
    for _conversation, messages in groupby(rows, key=lambda row: row[0]):
        texts = [json.loads(payload)["text"] for _c, payload in messages]
        longest = max(longest, *(len(list(run)) for _text, run in groupby(texts)))
    assert 1 <= longest < REPEATED_USER_TURNS
    assert query(db, "select count(*) from conversations where reason = 'user_error'") == [(0,)]


def agent_args(url: str) -> list[str]:
    options = [f"base_url={url}", "max_retries=0", "timeout=5"]
    return ["--agent", "openai/fake", *(x for o in options for x in ("--agent-arg", o))]


STALLING_GRID = [*GRID[: GRID.index("--agent")], *GRID[GRID.index("--agent") + 2 :]]
"""``GRID`` without its agent."""


def test_a_user_looping_because_the_agent_answers_nothing_is_the_agents_failure(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    """An LLM agent that answers empty texts; the LLM user repeats its request: the loop is
    ``agent_stalled``, counted in the figures as the agent's failure (exit 0, not the user
    simulator's 3), and ``--resume`` has nothing to play again."""
    db = tmp_path / "stall.db"
    endpoint.mode = "stalling-agent"
    args = [*STALLING_GRID, *agent_args(endpoint.url), *user_args(endpoint.url)]
    out = tau_sim("run", *args, "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    rows = stored(db)
    assert len(rows) == CELLS
    for _cell, status, reason, detail, failure, _failure_detail, turns in rows:
        assert (status, reason, failure) == ("completed", "agent_stalled", "agent_stalled")
        assert "nothing to answer" in detail and LOOPED in detail
        assert turns < Limits().max_steps / 2, turns
    data = report(db)
    assert (data["n"], data["user_errors"]) == (CELLS, 0)
    assert data["reasons"] == {"agent_stalled": CELLS}
    assert data["pass_hat_k"]["1"] == 0.0
    assert data["status"] == "completed"  # whole: nothing for --resume to play again
    run_id = run_id_of(db)
    again = tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert again.returncode == 2 and "is already completed" in again.stderr, again.stderr
    assert stored(db) == rows


def test_an_off_topic_agent_against_the_scripted_user_is_never_a_user_error(
    endpoint: FaultServer, tmp_path: Path
) -> None:
    """An LLM agent that chats about nothing the scripted user asked: however the conversation
    ends, it is charged to the agent and counted, never to the user simulator."""
    db = tmp_path / "off-topic.db"
    endpoint.mode = "off-topic-agent"
    out = tau_sim("run", *STALLING_GRID, *agent_args(endpoint.url), "--db", str(db), "--quiet")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    data = report(db)
    assert (data["n"], data["user_errors"]) == (CELLS, 0)
    assert set(data["reasons"]) <= {"agent_stalled", "max_steps", "user_abandoned"}
    assert data["pass_hat_k"]["1"] == 0.0
