"""A gold-driven rollout through the environment: full reward, and the run `tau-sim run` stores.

The scripted gold agent (built test-side with the answer key, outside the environment) drives
``tau-sim/retail-v0`` over every retail task under one condition, the episodes stored; then
the real ``tau-sim run`` plays the same cells (same seed, user, condition) into another store.
Every episode scores 1.0, and per task the two stores hold the same ending, reward, counts and
tool calls. Scripted agents calibrate the harness: these figures say the environment is the
engine, not how good an agent is.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.simulator.gym.needs import require_gym

require_gym()

import gymnasium  # noqa: E402

from tests.helpers import cli  # noqa: E402
from tests.simulator.gym.play import gold_action, gold_agent  # noqa: E402

SEED = 7
CONDITION = {"emotion": "anger", "intensity": "high", "politeness": "cold"}


def stored(db: Path, run_id: str) -> dict[str, dict[str, Any]]:
    """Per task: the conversation's ending, reward, counts and its agent's tool calls."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "select id, task_id, reason, reward, turns, tool_calls, failure, emotion, intensity, "
        "politeness, seed, cell from conversations where run_id = ? and status = 'completed'",
        [run_id],
    ).fetchall()
    out = {}
    for (
        cid,
        task,
        reason,
        reward,
        turns,
        calls,
        failure,
        emotion,
        intensity,
        polite,
        seed,
        cell,
    ) in rows:
        payloads = conn.execute(
            "select e.payload from event_rows e join conversations c on e.conversation = c.key "
            "where c.id = ? order by e.seq",
            [cid],
        ).fetchall()
        events = [json.loads(p) for (p,) in payloads]
        out[task] = {
            "reason": reason,
            "reward": reward,
            "turns": turns,
            "tool_calls": calls,
            "failure": failure,
            "condition": (emotion, intensity, polite, seed, cell),
            "calls": [
                (e["call"]["name"], e["call"]["arguments"])
                for e in events
                if e.get("type") == "tool_call"
            ],
            "said": [e["text"] for e in events if e.get("type") == "user_message"],
        }
    conn.close()
    return out


def test_gold_scores_one_on_every_retail_task_and_stores_the_run_tau_sim_run_stores(
    tmp_path: Path,
) -> None:
    db = tmp_path / "gym.db"
    env = gymnasium.make("tau-sim/retail-v0", store=db, seed=SEED, **CONDITION)
    tasks = list(env.unwrapped.config.tasks)
    rewards = {}
    for task in tasks:
        obs, info = env.reset(options={"task": task})
        assert info["task_id"] == task and info["trial"] == 0
        agent = gold_agent(info)
        done = False
        while not done:
            obs, reward, terminated, truncated, end = env.step(gold_action(agent, obs))
            done = terminated or truncated
        assert terminated and not truncated
        rewards[task] = (reward, end["reason"], end["failure"])
    run_id = env.unwrapped.run_id
    env.close()
    assert {t: r for t, r in rewards.items() if r[0] != 1.0} == {}

    theirs = tmp_path / "run.db"
    args = ["--domain", "retail", "--agent", "scripted/gold", "--user", "scripted"]
    condition = ["--emotions", "anger", "--intensities", "high", "--politeness", "cold"]
    cli.tau_sim("run", *args, *condition, "--seed", str(SEED), "--db", str(theirs))
    (their_run,) = sqlite3.connect(theirs).execute("select id from runs").fetchone()

    ours, reference = stored(db, run_id), stored(theirs, their_run)
    assert sorted(ours) == sorted(reference) == sorted(tasks)
    for task in tasks:
        assert ours[task] == reference[task], task
    status, cells = sqlite3.connect(db).execute("select status, cells from runs").fetchone()
    assert (status, cells) == ("completed", len(tasks))

    # report reads the stored episodes as a run of its own, with the same figures
    mine, run = cli.report(db, run_id), cli.report(theirs, their_run)
    assert mine["conversations"] == run["conversations"] == len(tasks)
    assert mine["success_rate"] == run["success_rate"] == 1.0
