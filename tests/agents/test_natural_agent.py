"""The natural-wording agent double (``benchmarks/natural_agent.py``) through the real engine.

The double runs as an HTTP server on 127.0.0.1 and ``tau-sim run`` plays it as
``openai/natural`` against the scripted user, next to ``scripted/gold`` on the same tasks. What
the double must do is asserted: it finds the task from the user's words, its tool calls are
gold's path (all of it where the conversation succeeded, a prefix where the user stopped it), it
writes only after a yes, it says required outputs inside sentences and never the calibrators'
phrases. Whether the scripted user understands it is issue 33/38's open work (branches
``reader`` and ``dynamics``): that test is an expected failure naming what is misread today.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TAU_SIM = str(Path(sys.executable).parent / "tau-sim")
TASKS = ("retail-000", "airline-003", "banking-001", "telecom-011")
CALIBRATOR_PHRASES = (
    "Is there anything else I can help you with?",
    "Here is what I am going to do",
    "Please reply yes or no",
    "Here are the details:",
    "Before I can help, could you please provide",
    "and tell me what you see?",
)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "none"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Both agents' conversations on ``TASKS`` at neutral, the double's also at frustration 0.9."""
    path = tmp_path_factory.mktemp("natural") / "runs.db"
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "natural_agent.py"), "--seed", "3",
         "--domain", "retail,airline,banking,telecom"],
        stdout=subprocess.PIPE, text=True, env=_env(), cwd=ROOT,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        ready = server.stdout.readline().split()  # the server's own "listening" line
        assert ready[:1] == ["READY"], ready
        plays = [("openai/natural", "neutral"), ("openai/natural", "frustration"),
                 ("scripted/gold", "neutral")]  # fmt: skip
        for agent, emotion in plays:
            cmd = [TAU_SIM, "run", "--domain", "retail,airline,banking,telecom", "--quiet",
                   "--tasks", ",".join(TASKS), "--agent", agent, "--db", str(path),
                   "--emotions", emotion]  # fmt: skip
            if emotion != "neutral":
                cmd += ["--intensities", "0.9"]
            if agent.startswith("openai/"):
                cmd += ["--agent-arg", f"base_url=http://127.0.0.1:{ready[1]}/v1"]
            done = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=ROOT)
            assert done.returncode == 0, done.stderr
        yield path
    finally:
        server.terminate()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


def _conversations(
    db: Path, agent: str, emotion: str = "neutral"
) -> dict[str, tuple[float, list[dict[str, object]]]]:
    """Task id -> (reward, the agent's messages as the events hold them)."""
    con = sqlite3.connect(db)
    out: dict[str, tuple[float, list[dict[str, object]]]] = {}
    for cid, task, reward in con.execute(
        "select id, task_id, reward from conversations where agent = ? and emotion = ?",
        (agent, emotion),
    ):
        rows = con.execute(
            "select payload from events where conversation = ? and kind = 'agent_message' "
            "order by seq",
            (cid,),
        ).fetchall()
        out[task] = (float(reward or 0.0), [json.loads(p) for (p,) in rows])
    return out


def _calls(messages: list[dict[str, object]]) -> list[tuple[str, str]]:
    calls = [c for m in messages for c in m.get("tool_calls", []) or []]  # type: ignore[attr-defined]
    return [(c["name"], json.dumps(c["arguments"], sort_keys=True)) for c in calls]


def _texts(messages: list[dict[str, object]]) -> list[str]:
    return [str(m["text"]) for m in messages if m.get("text")]


@pytest.mark.parametrize("emotion", ["neutral", "frustration"])
def test_the_double_plays_golds_calls(db: Path, emotion: str) -> None:
    # the task is found from the user's words, framed by its feeling and persona
    natural = _conversations(db, "openai/natural", emotion)
    gold = _conversations(db, "scripted/gold")
    assert set(natural) == set(gold) == set(TASKS)
    for task in TASKS:
        mine, golds = _calls(natural[task][1]), _calls(gold[task][1])
        assert gold[task][0] == 1.0, task
        # gold also reads the records listed before the one it takes (agents.pick): the
        # double's calls are gold's, in gold's order, with those searching reads left out
        rest = iter(golds)
        assert all(call in rest for call in mine), task
        if natural[task][0] == 1.0:
            assert set(golds) - set(mine) <= {c for c in golds if c[0].startswith("get_")}, task
        assert mine, f"{task}: the double did not recognise the task"


def test_the_double_talks_in_its_own_words(db: Path) -> None:
    natural = _conversations(db, "openai/natural")
    texts = [t for _reward, messages in natural.values() for t in _texts(messages)]
    for text in texts:
        for phrase in CALIBRATOR_PHRASES:
            assert phrase not in text, text
    # seeded variety: hardly a text twice over these tasks, not every conversation ending alike
    assert len(set(texts)) >= 0.9 * len(texts)
    last = [_texts(messages)[-1] for _reward, messages in natural.values()]
    assert len(set(last)) > 1
    # a required output is said inside a sentence, never as a bare "details: x" list
    from tau_sim.simulator.core.registry import get_domain

    retail = {t.id: t for t in get_domain("retail").tasks}
    for output in retail["retail-000"].required_outputs:
        said = [t for t in _texts(natural["retail-000"][1]) if output in t]
        assert said and all(len(t.split()) > len(output.split()) + 3 for t in said)


def test_the_double_asks_for_device_steps_in_its_own_words(db: Path) -> None:
    _reward, messages = _conversations(db, "openai/natural")["telecom-011"]
    texts = " ".join(_texts(messages)).lower()
    assert "reseat the sim card" in texts and "restart the phone" in texts
    # device steps are the customer's to do: the double asks for them and never calls them
    assert {"restart_device", "reseat_sim_card"}.isdisjoint(n for n, _ in _calls(messages))


def test_the_scripted_user_understands_the_double(db: Path) -> None:
    """On these four tasks (telecom-011's device steps among them) the scripted user follows the
    double's own wording to reward 1; the wider measure is benchmarks/natural_vs_scripted.py."""
    natural = _conversations(db, "openai/natural")
    assert {task: reward for task, (reward, _m) in natural.items()} == dict.fromkeys(TASKS, 1.0)
