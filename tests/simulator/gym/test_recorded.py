"""Episodes stored as a run: ``show``, ``tracer`` and ``tui`` attach read them like any run's.

Gold-driven episodes (the scripted gold agent, test-side: it calibrates the harness) of a few
hotel tasks go to a store; an episode abandoned by ``reset`` and one still going at ``close``
are discarded, so the run is ``completed`` with its finished episodes as its cells. Tracer's
SFT export of the run starts with the system prompt the policy was shown, byte for byte.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

import gymnasium  # noqa: E402

from tau_sim.simulator.gym import decode_observation  # noqa: E402
from tau_sim.tui.app import TauSimApp  # noqa: E402
from tau_sim.tui.screens import ConversationScreen  # noqa: E402
from tau_sim.tui.sources import StoreSource  # noqa: E402
from tests.helpers import cli  # noqa: E402
from tests.simulator.gym.play import gold_action, gold_agent  # noqa: E402
from tests.tui.runs import opened, until  # noqa: E402

TASKS = 4


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A store of ``TASKS`` finished gold episodes (and two abandoned); its run; their prompts."""
    db = tmp_path_factory.mktemp("gym") / "rl.db"
    env = gymnasium.make("tau-sim/hotel-v0", store=db, run_id="rl-run", emotion="sadness")
    tasks = env.unwrapped.config.tasks[:TASKS]
    prompts = {}
    env.reset(seed=4, options={"task": tasks[0]})
    env.step("Hello! How can I help?")  # abandoned by the next reset
    for task in tasks:
        obs, info = env.reset(options={"task": task})
        prompts[task] = decode_observation(obs)["messages"][0]["content"]
        agent, done = gold_agent(info), False
        while not done:
            obs, _, terminated, truncated, _ = env.step(gold_action(agent, obs))
            done = terminated or truncated
    env.reset()  # still going at close
    env.close()
    return db, "rl-run", prompts


def test_the_run_holds_the_finished_episodes_only(
    recorded: tuple[Path, str, dict[str, str]],
) -> None:
    db, _run_id, prompts = recorded
    conn = sqlite3.connect(db)
    status, cells, config = conn.execute("select status, cells, config from runs").fetchone()
    rows = conn.execute("select id, task_id, status, agent, cell from conversations").fetchall()
    assert (status, cells) == ("completed", TASKS)
    assert json.loads(config)["agents"] == ["gym/policy"]
    assert sorted(r[1] for r in rows) == sorted(prompts)
    assert {r[2] for r in rows} == {"completed"} and {r[3] for r in rows} == {"gym/policy"}
    assert sorted(r[4] for r in rows) == list(range(1, TASKS + 1))  # episode 0 was abandoned
    shown = json.loads(cli.tau_sim("show", "--json", "--db", str(db), rows[0][0]).stdout)
    assert json.dumps(shown).count("conversation_ended") >= 1


def test_tracer_exports_the_system_prompt_the_policy_saw(
    recorded: tuple[Path, str, dict[str, str]], tmp_path: Path
) -> None:
    db, run_id, prompts = recorded
    selection, out = tmp_path / "sel.json", tmp_path / "sft"
    cli.tau_sim("tracer", "filter", "--db", str(db), "--out", str(selection), run_id)
    cli.tau_sim("tracer", "export", "--out", str(out), str(selection))
    rows = [
        json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()
    ]
    assert len(rows) == TASKS
    assert {row["messages"][0]["content"] for row in rows} == set(prompts.values())


@pytest.mark.anyio
async def test_tui_attach_browses_the_episodes(recorded: tuple[Path, str, dict[str, str]]) -> None:
    db, run_id, _ = recorded
    app = TauSimApp(StoreSource(db, run_id), clock=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.1)
        app.dashboard.table.focus()
        await pilot.press("down", "enter")
        await opened(pilot)
        assert isinstance(app.screen, ConversationScreen)
    assert app.state.done == TASKS
