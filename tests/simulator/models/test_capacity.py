"""No silent caps and ``--workers auto``: the in-flight cap per endpoint against the concurrency."""

from __future__ import annotations

import json
import os
import sqlite3
from functools import partial
from pathlib import Path

import pytest

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.grid import auto_workers, resolve_workers
from tau_sim.simulator.models.capacity import fit_connections
from tau_sim.simulator.models.openai_provider import OpenAIChatModel, make_openai_provider
from tests.helpers import cli

REMOTE = "http://10.255.255.1/v1"  # never contacted: a dry run and provider objects only
LOCAL = "http://127.0.0.1:9/v1"


tau_sim = partial(cli.tau_sim, check=False)


def model_args(url: str, *extra: str) -> list[str]:
    return ["--agent", "openai/m", "--agent-arg", f"base_url={url}", *extra]


def test_a_cap_below_the_concurrency_is_said_in_one_line_in_the_dry_run() -> None:
    out = tau_sim(
        "run", "--domain", "retail", *model_args(REMOTE), "--concurrency", "512", "--dry-run"
    )
    assert out.returncode == 0, out.stderr
    notes = [line for line in out.stdout.splitlines() if "max_connections" in line]
    assert notes == [
        f"tau-sim: note: openai/m sends at most 64 requests at once to {REMOTE} "
        "(max_connections), below the 512 conversations of --concurrency 512; raise it with "
        "--agent-arg max_connections=512"
    ]
    as_json = tau_sim(
        "run",
        "--domain",
        "retail",
        *model_args(REMOTE),
        "--concurrency",
        "512",
        "--dry-run",
        "--json",
    )
    assert json.loads(as_json.stdout)["connection_notes"] == notes


def test_a_local_endpoint_takes_the_concurrency_unless_told_otherwise() -> None:
    out = tau_sim(
        "run", "--domain", "retail", *model_args(LOCAL), "--concurrency", "512", "--dry-run"
    )
    assert out.returncode == 0 and "max_connections" not in out.stdout + out.stderr
    told = tau_sim(
        "run",
        "--domain",
        "retail",
        *model_args(LOCAL, "--agent-arg", "max_connections=8"),
        "--concurrency",
        "512",
        "--dry-run",
    )
    assert "sends at most 8 requests at once" in told.stdout


@pytest.mark.parametrize(
    ("url", "options", "launched", "expected"),
    [
        (LOCAL, {}, False, 300),
        ("http://localhost:8000/v1", {}, False, 300),
        (REMOTE, {}, False, 64),
        (REMOTE, {}, True, 300),
        (LOCAL, {"max_connections": "8"}, False, 8),
    ],
)
def test_fit_concurrency(url: str, options: dict[str, str], launched: bool, expected: int) -> None:
    model = OpenAIChatModel("openai/m", "m", base_url=url, **options)
    model.fit_concurrency(300, launched=launched)
    assert model.connections == expected


def test_notes_count_per_worker_process() -> None:
    provider = make_openai_provider("m", {"base_url": REMOTE})
    notes = fit_connections({"--user-arg": {"openai/m": provider}}, 512, workers=4)
    assert notes == [
        f"tau-sim: note: openai/m sends at most 64 requests at once per worker process to "
        f"{REMOTE} (max_connections), below the 128 conversations per worker process of "
        "--concurrency 512; raise it with --user-arg max_connections=128"
    ]
    assert fit_connections({"--user-arg": {"openai/m": provider}}, 256, workers=4) == []


def test_workers_auto_is_one_per_core() -> None:
    assert resolve_workers("auto") == auto_workers() == len(os.sched_getaffinity(0))
    assert resolve_workers("3") == 3
    with pytest.raises(UsageError, match=r"^--workers: expected a number or auto \(got 'x'\)"):
        resolve_workers("x")


def test_workers_auto_runs_and_stores_the_cores(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    out = tau_sim(
        *("run", "--domain", "retail", "--tasks", "2", "--workers", "auto"),
        *("--db", str(db), "--quiet"),
    )
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(db) as conn:
        config = json.loads(conn.execute("select config from runs").fetchone()[0])
        done = conn.execute("select count(*) from conversations where status='completed'")
        assert done.fetchone()[0] == 2
    assert config["workers"] == auto_workers()


def test_workers_auto_with_launched_servers_says_what_to_do() -> None:
    out = tau_sim(
        "run", "--agent", "vllm/Qwen/Qwen3-8B", "--agent-arg", "gpus=0", "--workers", "auto"
    )
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "tau-sim: error: --workers auto: vllm/Qwen/Qwen3-8B starts its own servers, which "
        "worker processes cannot share; leave --workers out (one process drives them), or "
        "start the servers once and pass base_url=... to use every core"
    ]
    bad = tau_sim("run", "--workers", "many", "--dry-run")
    assert bad.returncode == 2 and "--workers: expected a number or auto" in bad.stderr
