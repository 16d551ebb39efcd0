"""``tau-sim run --ray``: the grid on Ray actors gives what one process gives, and loses nothing.

One local cluster (2 CPUs) serves this module's runs (the Ctrl-C test's CLI reaches it by its
address); the key test's CLI starts a cluster of its own. CI installs the ``ray`` extra and
sets ``TAU_SIM_REQUIRE_RAY=1``: there a missing Ray fails these tests instead of skipping them.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.simulator.cli import configure_run, parsers
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.grid import RunConfig, auto_workers, decode_config, grid_size
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.run import INSTALL, LOCAL, NAMESPACE, Runner
from tau_sim.simulator.store import Store, get_run
from tests.helpers.cli import SMALL, SMALL_CELLS, TAU_SIM, tau_sim, wait_for_completed
from tests.helpers.require import import_or_require
from tests.simulator.core import test_keys
from tests.simulator.core.test_keys import SECRET, HTTPServer

ray: Any = import_or_require("ray", "RAY", f"Ray is not installed: {INSTALL} (.ci/run installs it)")

LATENCY = "0.004"
"""Seconds per scripted model call: long enough for an actor to die with cells unfinished."""


def config(**changes: Any) -> RunConfig:
    """16 tasks x (neutral + anger high) x 2 agents: gold and sloppy, so outcomes differ."""
    tasks = [t.id for t in get_domain("retail").tasks][:8]
    base = RunConfig(
        domains=["retail"],
        tasks=tasks,
        agents=["scripted/gold", "scripted/sloppy"],
        users=["scripted"],
        emotions=["neutral", "anger"],
        intensities=[0.9],
        trials=2,
        seed=5,
        concurrency=8,
        limits=Limits(timeout_s=120),
        agent_options={
            "scripted/gold": {"latency": LATENCY},
            "scripted/sloppy": {"latency": LATENCY},
        },
        user_options={"scripted": {"latency": LATENCY}},
    )
    return msgspec.structs.replace(base, **changes)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray cluster of 2 CPUs for the module (started in 3-4 s)."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(
        num_cpus=2, namespace=NAMESPACE, include_dashboard=False, logging_level=logging.WARNING
    )
    yield
    ray.shutdown()


def play(db: Path, cfg: RunConfig, run_id: str, on_end: Any = None) -> Store:
    store = Store(db)
    runner = Runner(store, cfg, run_id, create=True, on_end=on_end)
    anyio.run(runner.run)
    assert runner.status == "completed"
    return store


def figures(store: Store, run_id: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """The run's report (less its id) and each cell's stored outcome."""
    report = run_report(store.db, get_run(store.db, run_id))
    report.pop("run_id")
    outcomes = store.db.execute(
        "select cell, task_id, agent, emotion, status, reason, reward, turns, tool_calls, "
        "failure from conversations order by cell"
    ).fetchall()
    return report, outcomes


def assert_whole(store: Store, cells: int) -> None:
    """Every cell completed exactly once, each conversation's events gap-free from 0."""
    db = store.db
    rows = db.execute(
        "select count(*), count(distinct cell), sum(status = 'completed') from conversations"
    ).fetchone()
    assert tuple(rows) == (cells, cells, cells)
    seqs = db.execute(
        "select conversation, count(*), count(distinct seq), min(seq), max(seq), "
        "sum(kind = 'conversation_ended') from events group by conversation"
    ).fetchall()
    assert len(seqs) == cells
    for conversation, n, distinct, low, high, ended in seqs:
        assert (n, distinct, low, high, ended) == (n, n, 0, n - 1, 1), conversation


@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, ...]:
    store = play(tmp_path_factory.mktemp("one") / "one.db", config(), "run-one")
    return figures(store, "run-one")


def test_ray_run_reports_what_one_process_does(
    cluster: None, one_process: tuple[Any, ...], tmp_path: Path
) -> None:
    store = play(tmp_path / "ray.db", config(ray=LOCAL, workers=2), "run-ray")
    assert_whole(store, grid_size(config()))
    report, outcomes = figures(store, "run-ray")
    assert outcomes == one_process[1]
    assert {r[6] for r in outcomes} == {0.0, 1.0}  # the sloppy agent fails some: a real test
    assert report == one_process[0]


def test_killing_an_actor_mid_run_loses_nothing(
    cluster: None, one_process: tuple[Any, ...], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    killed: list[str] = []

    def kill_first_actor(cell: Any, ended: Any) -> None:
        if not killed:  # the first conversation has come back: part 0's actor is busy
            killed.append(ended.conversation)
            ray.kill(ray.get_actor("run-kill/0.0", namespace=NAMESPACE))

    with caplog.at_level(logging.WARNING, logger="tau_sim.simulator.run.ray_actors"):
        store = play(
            tmp_path / "kill.db", config(ray=LOCAL, workers=2), "run-kill", kill_first_actor
        )
    died = [r.getMessage() for r in caplog.records if "died" in r.getMessage()]
    assert len(died) == 1 and died[0].startswith("Ray actor 0 died (ActorDiedError)"), died
    assert_whole(store, grid_size(config()))
    assert figures(store, "run-kill") == one_process


cli = partial(tau_sim, check=False)


def test_bad_ray_input_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    shim = tmp_path / "no-ray"
    (shim / "ray").mkdir(parents=True)
    (shim / "ray" / "__init__.py").write_text("raise ImportError('blocked by the test')\n")
    without_ray = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shim), *sys.path])}
    launching = ["--agent", "server/m", "--agent-arg", "serve=python -m x --port {port}"]
    literal = ["--agent", "openai/m", "--agent-arg", "api_key=sk-x", "--agent-arg"]
    cases = [
        (["--ray"], without_ray, f"--ray: Ray is not installed; {INSTALL}"),
        (
            ["--ray", "127.0.0.1:9"],
            None,
            "--ray 127.0.0.1:9: cannot reach a Ray cluster at 127.0.0.1:9 (Connection refused)",
        ),
        ([*launching, "--ray"], None, "--ray: server/m starts its own servers"),
        (
            [*literal, "base_url=http://127.0.0.1:9/v1", "--ray", "10.0.0.1:6379"],
            None,
            "--ray 10.0.0.1:6379: openai/m was given a literal api_key",
        ),
    ]
    for n, (args, env, message) in enumerate(cases):
        db = tmp_path / f"bad-{n}.db"
        out = cli("run", "--tasks", "1", *args, "--db", str(db), env=env)
        assert out.returncode == 2, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert out.stderr.strip().startswith(f"tau-sim: error: {message}"), out.stderr
        assert not db.exists()


endpoint = test_keys.endpoint  # an OpenAI-compatible server on 127.0.0.1


def test_a_literal_key_reaches_local_actors_and_nothing_else(
    endpoint: HTTPServer, tmp_path: Path
) -> None:
    ray_dir = Path(tempfile.mkdtemp(prefix="tsr", dir="/tmp"))  # Ray's socket paths are short
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "TAU_SIM"))}
        env |= {"RAY_TMPDIR": str(ray_dir), "RAY_AUTH_MODE": "disabled"}
        url = f"{endpoint.url}/v1"
        db = tmp_path / "secret.db"
        model = ["--agent", "openai/fake", "--agent-arg", f"base_url={url}"]
        key = ["--agent-arg", f"api_key={SECRET}"]
        grid = ["--tasks", "4", "--max-steps", "8", "--ray", "--workers", "2"]
        out = cli("run", *grid, *model, *key, "--db", str(db), env=env)
        assert out.returncode == 0, out.stderr
        chats = [r for r in endpoint.requests if r.method == "POST"]
        assert len(chats) >= 4  # the actors called the model ...
        assert {r.headers.get("authorization") for r in endpoint.requests} == {
            f"Bearer {SECRET}"
        }  # ... with the key they inherited
        assert SECRET not in out.stdout + out.stderr
        stored = [*test_keys.files_of(db), *(p for p in ray_dir.rglob("*") if p.is_file())]
        assert len(stored) > 10  # Ray's logs and session files are there to search
        for path in stored:
            assert SECRET.encode() not in path.read_bytes(), path
    finally:
        shutil.rmtree(ray_dir, ignore_errors=True)


def test_ctrl_c_stops_a_run_on_a_running_cluster_and_resume_finishes_it(
    cluster: None, tmp_path: Path
) -> None:
    db = tmp_path / "int.db"
    address = ray.get_runtime_context().gcs_address  # this module's cluster, as a remote one
    slow = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "2"]
    on_ray = ["--ray", address, "--workers", "2"]
    proc = subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *slow, *on_ray, "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_for_completed(db, 2) >= 2
    proc.send_signal(signal.SIGINT)  # Ctrl-C reaches the driver: it stops the actors
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    run_id, status, stored = conn.execute("select id, status, config from runs").fetchone()
    done = conn.execute("select count(*) from conversations where status='completed'").fetchone()
    conn.close()
    assert status == "interrupted" and 0 < done[0] < SMALL_CELLS
    resumed = decode_config(stored)
    assert (resumed.ray, resumed.workers) == (address, 2)
    store = Store(db, create=False)  # what `--resume` runs, on this module's cluster
    runner = Runner(store, resumed, run_id)
    anyio.run(runner.run)
    assert runner.status == "completed"
    assert_whole(store, SMALL_CELLS)
    store.close_sync()


def test_ray_flag_names_the_cluster_and_one_actor_per_core_by_default() -> None:
    top, run = parsers()
    for flags, expected in (
        (["--ray"], (LOCAL, auto_workers())),
        (["--ray", "10.0.0.5:6379", "--workers", "12"], ("10.0.0.5:6379", 12)),
        (["--ray", "none"], (None, 1)),
        ([], (None, 1)),
    ):
        _settings, cfg = configure_run(top.parse_args(["run", "--tasks", "1", *flags]), run)
        assert (cfg.ray, cfg.workers) == expected, flags
