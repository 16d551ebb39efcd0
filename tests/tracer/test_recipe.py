"""The README's real-model recipe, its exact commands, against an OpenAI-compatible double.

The commands are the ``sh`` block of the README section "A real-model recipe", run by bash in
a temporary folder with ``tau-sim`` on ``PATH``; only the variables the block reads with a
default (endpoints, sizes) are set. The endpoint is the tests' ``FaultServer`` with a handler
that knows the task files the recipe writes: asked as the agent (a request with tools) it plays
the gold actions of the task the customer's first message names, one call per request, then
says what the task requires; asked as the user (no tools) it opens with the scenario's opening
and every fact it knows, and ends with STOP once the agent has answered; asked as the writer it
greets before the opening, or (every other request) loses the request. Nothing here reaches
the network or a GPU.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.fake_openai_server import Request, Response, completion
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world.domain import load_tasks
from tau_sim.tracer.paraphrase import SYSTEM
from tau_sim.tracer.splits import read_record
from tests.helpers.servers import FaultServer

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## A real-model recipe"
MODELS = ("Qwen/Qwen3-8B", "retail-sft")


def recipe() -> str:
    """The first ``sh`` block of the README's recipe section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match is not None, "the recipe section has no sh block"
    return match.group(1)


def _fact_lines(system: str) -> list[str]:
    """The ``- prompt: value`` lines under the LLM user's "What you know"."""
    block = system.split("## What you know", 1)[1].split("\n\n", 1)[0]
    return [line[2:] for line in block.splitlines()[2:] if line.startswith("- ")]


class GoldEndpoint(FaultServer):
    """Plays the gold agent and a forthcoming user for the task files in ``folder``."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.seen: dict[str, int] = {"agent": 0, "user": 0, "writer": 0}
        self.agent_models: set[str] = set()

    def __enter__(self) -> GoldEndpoint:
        super().__enter__()
        return self

    def _tasks(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in ("train.jsonl", "test.jsonl"):
            path = self.folder / name
            if path.exists():
                out += [json.loads(line) for line in path.read_text().splitlines() if line]
        return out

    def _task_of(self, first: str) -> dict[str, Any]:
        for task in self._tasks():
            scenario = task["scenario"]
            values = [v for v in scenario["known_info"].values() if v]
            if first.startswith(scenario["opening"]) and all(v in first for v in values):
                return task
        raise AssertionError(f"no task opens with {first!r}")

    def _agent(self, body: dict[str, Any]) -> dict[str, Any]:
        self.seen["agent"] += 1
        self.agent_models.add(body["model"])
        messages = body["messages"]
        first = next(m["content"] for m in messages if m["role"] == "user")
        task = self._task_of(first)
        done = sum(1 for m in messages if m["role"] == "tool")
        if done < len(task["actions"]):
            action = task["actions"][done]
            call = {
                "id": f"call_{done}",
                "type": "function",
                "function": {"name": action["name"], "arguments": json.dumps(action["arguments"])},
            }
            return completion({"role": "assistant", "content": None, "tool_calls": [call]}, 9, 9)
        said = "; ".join(task["required_outputs"])
        text = f"All done. {said}".strip() + " Is there anything else?"
        return completion({"role": "assistant", "content": text}, 9, 9)

    def _user(self, body: dict[str, Any]) -> dict[str, Any]:
        self.seen["user"] += 1
        messages = body["messages"]
        system = messages[0]["content"]
        opening = re.search(r'for example: "(.*)"\n', system)
        assert opening is not None, system
        reply: dict[str, Any]
        if any(m["role"] == "assistant" for m in messages[1:]):
            reply = {"message": "Thank you, that is all.", "ends": "STOP"}
        else:
            facts = "; ".join(_fact_lines(system))
            reply = {"message": f"{opening.group(1)} My details: {facts}.", "ends": None}
        reply |= {"intensity": 0.4, "dissatisfaction": 0.1, "reason": None}
        return completion({"role": "assistant", "content": json.dumps(reply)}, 9, 9)

    def _writer(self, body: dict[str, Any]) -> dict[str, Any]:
        self.seen["writer"] += 1
        template = json.loads(body["messages"][-1]["content"])
        opening = template["opening"]
        if self.seen["writer"] % 2:
            opening = f"Good morning. {opening}"
        else:  # the values kept, the request lost
            opening = " ".join(
                ["Hey, I have a problem with an order.", *re.findall(r"#\w+", opening)]
            )
        answer = {"goal": template["goal"], "opening": opening}
        return completion({"role": "assistant", "content": json.dumps(answer)}, 9, 9)

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            data = [{"id": m, "object": "model"} for m in ("fake", *MODELS)]
            return Response.json({"object": "list", "data": data})
        body: dict[str, Any] = request.json()
        if body.get("tools"):
            return Response.json(self._agent(body))
        if body["messages"][0]["content"] == SYSTEM:
            return Response.json(self._writer(body))
        return Response.json(self._user(body))


def test_the_readme_recipe_runs_end_to_end_and_evaluates_on_unseen_tasks(tmp_path: Path) -> None:
    script = recipe()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "tau-sim"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m tau_sim.simulator.cli.main "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    with GoldEndpoint(work) as server:
        env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "BASE_URL": server.url,
            "TUNED_URL": server.url,
            "OPENAI_API_KEY": "test-key",
            "COUNT": "12",
            "TRIALS": "1",
        }
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Traceback" not in done.stderr
    assert server.seen["agent"] > 0 and server.seen["user"] > 0 and server.seen["writer"] == 12
    made = json.loads(done.stdout.splitlines()[0])  # the train construct's counts
    assert made["paraphrased"] == 6 and made["paraphrase_rejected"] == 6
    assert made["paraphrase_rejected_by"]["lost_intent"] > 0
    assert server.agent_models == set(MODELS)

    load_plugins()
    retail = get_domain("retail")
    train = load_tasks(work / "train.jsonl", retail)
    test = load_tasks(work / "test.jsonl", retail)
    record = read_record(work / "test.jsonl.split.json")
    assert len(train) == 12 and record.split == "test"
    assert sum(t.scenario.opening.startswith("Good morning. ") for t in train) == 6
    assert [t.id for t in test] == record.test_tasks
    assert {t.intent for t in test} == set(record.held_out_intents)
    assert not {t.intent for t in train} & set(record.held_out_intents)

    rows = [
        json.loads(line) for line in (work / "dataset" / "train.jsonl").read_text().splitlines()
    ]
    assert len(rows) >= 6, f"only {len(rows)} of 12 collected conversations were kept"
    assert all(r["messages"][0]["role"] == "system" for r in rows)
    assert (work / "dataset" / "README.md").exists()

    with sqlite3.connect(work / "collect.db") as conn:
        collected = {r[0] for r in conn.execute("select task_id from conversations")}
    assert collected == {t.id for t in train}
    with sqlite3.connect(work / "eval.db") as conn:
        runs = conn.execute("select id from runs").fetchall()
        played = {r[0] for r in conn.execute("select task_id from conversations")}
        rewards = [r[0] for r in conn.execute("select reward from conversations")]
    assert len(runs) == 2
    assert played == set(record.test_tasks)  # only tasks no training conversation had
    assert rewards and all(r == 1.0 for r in rewards)
    assert "success" in done.stdout  # the comparison of the two runs is printed
