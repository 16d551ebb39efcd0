"""Our runs in τ²-bench's results format, and their evaluator's verdict on them (parity)."""

from __future__ import annotations

import importlib
import os
import sqlite3
import subprocess
from pathlib import Path

import anyio
import pytest

from tests.domains.tau2.needs import require_tau2

require_tau2("tau2.evaluator.evaluator")

from tau2.data_model.simulation import Results, SimulationRun  # noqa: E402

from tau_sim.domains.tau2.adapter import Tau2Base  # noqa: E402
from tau_sim.domains.tau2.results import results_of, simulation_of  # noqa: E402
from tau_sim.simulator.core.events import ConversationEnded  # noqa: E402
from tau_sim.simulator.core.registry import get_domain  # noqa: E402
from tau_sim.simulator.grid import RunConfig  # noqa: E402
from tests.domains.tau2.play import play  # noqa: E402
from tests.domains.tau2.theirs import their_reward  # noqa: E402
from tests.helpers.cli import TAU_SIM  # noqa: E402
from tests.helpers.servers import FaultServer  # noqa: E402


@pytest.mark.parametrize(("name", "count"), [("retail", 4), ("airline", 2)])
def test_their_evaluator_agrees_on_gold_and_sloppy_runs(name: str, count: int) -> None:
    domain = get_domain(f"tau2/{name}")
    base = domain.base
    assert isinstance(base, Tau2Base)
    tasks = [t for t in domain.tasks if any(domain.tool(a.name).kind == "write" for a in t.actions)]  # type: ignore[union-attr]
    tasks = tasks[:count]
    simulations: list[SimulationRun] = []
    ours: list[float] = []
    for agent, args in (("scripted/gold", {}), ("scripted/sloppy", {"error_rate": 1.0})):
        for task in tasks:
            events = anyio.run(play, domain, task, agent, args)
            ended = events[-1]
            assert isinstance(ended, ConversationEnded)
            ours.append(ended.reward)
            simulations.append(simulation_of(domain, events))
    assert 1.0 in ours and 0.0 in ours  # the sloppy agent fails somewhere, the gold one not
    config = RunConfig(domains=[domain.name], tasks=[t.id for t in tasks])
    results = results_of(domain, config, simulations)
    loaded = Results.model_validate_json(results.model_dump_json())
    assert [t.id for t in loaded.tasks] == [base.initial[t.id].id for t in tasks]
    by_id = {t.id: t for t in loaded.tasks}
    theirs = [their_reward(name, by_id[s.task_id], s) for s in loaded.simulations]
    assert theirs == ours
    first = loaded.simulations[0]
    assert first.reward_info is not None and first.reward_info.info is not None
    assert first.reward_info.info["tau_sim"]["emotion"] == "neutral"
    assert any(m.role == "tool" for m in first.messages)


def test_exported_run_reads_back_in_their_model_with_their_rewards(tmp_path: Path) -> None:
    """A stored run (gold and sloppy agents, an LLM user on a local endpoint) exported."""
    db, out = tmp_path / "runs.db", tmp_path / "results.json"
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    with FaultServer() as server:
        run = subprocess.run(
            [
                *TAU_SIM,
                *("run", "--domain", "tau2/retail", "--task-split", "test", "--tasks", "2"),
                *("--agent", "scripted/gold,scripted/sloppy", "--agent-arg", "error_rate=1.0"),
                *("--user", "openai/fake", "--user-arg", f"base_url={server.url}"),
                *("--user-arg", "max_retries=0", "--db", str(db), "--quiet"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    assert run.returncode == 0, run.stderr
    run_id = sqlite3.connect(db).execute("select id from runs").fetchone()[0]
    export = subprocess.run(
        [*TAU_SIM, "export", run_id, "--db", str(db), "--format", "tau2", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert export.returncode == 0, export.stderr
    results = Results.load(out)
    stored = dict(sqlite3.connect(db).execute("select id, reward from conversations").fetchall())
    assert len(results.simulations) == len(stored) == 4 and len(results.tasks) == 2
    split = importlib.import_module("tau2.domains.retail.environment").get_tasks_split()
    assert {t.id for t in results.tasks} <= set(split["test"])
    by_id = {t.id: t for t in results.tasks}
    for simulation in results.simulations:
        assert simulation.reward_info is not None
        assert simulation.reward_info.reward == stored[simulation.id]
        assert (
            their_reward("retail", by_id[simulation.task_id], simulation) == stored[simulation.id]
        )
    assert sorted(stored.values()) == [0.0, 0.0, 1.0, 1.0]  # sloppy fails, gold passes
    # the file is written whole (``results.open_target``): not over itself without --force
    again = [*TAU_SIM, "export", run_id, "--db", str(db), "--format", "tau2", "--out", str(out)]
    before = out.read_bytes()
    refused = subprocess.run(again, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and f"--out {out} already exists" in refused.stderr
    assert out.read_bytes() == before
    forced = subprocess.run([*again, "--force"], capture_output=True, text=True, timeout=120)
    assert forced.returncode == 0, forced.stderr
    assert len(Results.load(out).simulations) == 4
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
