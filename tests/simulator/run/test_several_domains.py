"""Several domains in one run through the real ``tau-sim`` command (``--domain a,b`` / ``all``)."""

import ast
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from tau_sim.simulator.grid import RunConfig, decode_config
from tests.helpers.cli import report, tau_sim

AIRLINE = len(
    (Path(__file__).parents[3] / "domains" / "airline" / "tasks.jsonl").read_text().splitlines()
)
"""Airline's benchmark tasks: more than banking's would be refused for airline."""

TWO = ["--domain", "retail,airline", "--tasks", "2", "--emotions", "neutral,anger"]


def stored(db: Path) -> list[tuple[str, str, str, float]]:
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "select domain, task_id, reason, reward from conversations order by cell"
    ).fetchall()
    conn.close()
    return rows


def test_two_domains_play_each_task_in_its_own_domain(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    tau_sim("run", *TWO, "--db", str(db), "--quiet")
    rows = stored(db)
    assert [(d, t) for d, t, _, _ in rows[::2]] == [
        ("retail", "retail-000"),
        ("retail", "retail-001"),
        ("airline", "airline-000"),
        ("airline", "airline-001"),
    ]
    assert all(reward == 1.0 for *_, reward in rows)  # the gold agent, each in its domain
    data = report(db)
    assert data["n"] == 8
    assert {name: g["n"] for name, g in data["groups"]["domain"].items()} == {
        "retail": 4,
        "airline": 4,
    }
    out = tau_sim("rescore", data["run_id"], "--db", str(db), "--json")
    assert json.loads(out.stdout)["changed"] == []


def installed_domains() -> list[str]:
    """The built-in domains a fresh process registers (this one may hold test domains too).

    ``all`` stands for these: an imported domain (``tau2/retail``) is named, never implied.
    """
    code = (
        "from tau_sim.simulator.core.registry import DOMAINS, load_plugins; "
        "load_plugins(); print(DOMAINS.names())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names: list[str] = ast.literal_eval(out.stdout)
    return [name for name in names if "/" not in name]


def test_all_is_every_registered_domain_stored_by_name(tmp_path: Path) -> None:
    db = tmp_path / "all.db"
    tau_sim("run", "--domain", "all", "--tasks", "1", "--db", str(db), "--quiet")
    names = installed_domains()
    assert len(names) >= 6 and [d for d, *_ in stored(db)] == names
    conn = sqlite3.connect(db)
    config = decode_config(conn.execute("select config from runs").fetchone()[0])
    conn.close()
    assert config.domains == names  # expanded: a resume plays the same domains


def test_a_run_stored_with_one_domain_field_is_read_and_resumed(tmp_path: Path) -> None:
    """Runs stored before several domains hold ``"domain": NAME``; they rescore and resume."""
    db = tmp_path / "old.db"
    tau_sim("run", "--domain", "airline", "--tasks", "2", "--db", str(db), "--quiet")
    conn = sqlite3.connect(db)
    run_id, raw = conn.execute("select id, config from runs").fetchone()
    fields = json.loads(raw)
    fields["domain"] = fields.pop("domains")[0]
    with conn:
        conn.execute("update runs set config = ?, status = 'interrupted'", [json.dumps(fields)])
        conn.execute("update conversations set status = 'pending' where cell = 1")
    conn.close()
    assert decode_config(json.dumps(fields)).domains == ["airline"]
    out = tau_sim("rescore", run_id, "--db", str(db), "--json")
    assert json.loads(out.stdout)["changed"] == []
    tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    assert [(d, reward) for d, _, _, reward in stored(db)] == [("airline", 1.0)] * 2
    assert report(db)["status"] == "completed"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domain", "retail,retail"], "--domain: 'retail' is given twice"),
        (["--domain", "retail,nowhere"], "unknown domain 'nowhere'"),
        (["--domain", ","], "--domain needs at least one domain"),
        (
            ["--domain", "retail,airline", "--tasks-file", "domains/retail/tasks.jsonl"],
            "--tasks-file takes one domain (got 2: retail, airline)",
        ),
        (
            ["--domain", "banking,airline", "--tasks", str(AIRLINE + 1)],
            f"--tasks {AIRLINE + 1}: domain 'airline' has {AIRLINE}",
        ),
    ],
)
def test_bad_domain_selections_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "never.db"
    out = tau_sim("run", *args, "--db", str(db), check=False)
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not db.exists()


def test_the_default_config_encodes_a_list_of_domains() -> None:
    encoded = json.loads(msgspec.json.encode(RunConfig()))
    assert encoded["domains"] == ["retail"] and "domain" not in encoded
