"""The writer paraphrase through the real openai provider, against an HTTP double on 127.0.0.1."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.fake_openai_server import Request, Response, completion
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world.domain import load_tasks
from tests.helpers.servers import FaultServer
from tests.tracer.conftest import tau_sim


class Writer(FaultServer):
    """Answers each paraphrase request: every other one drops the values the template held."""

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            return Response.json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
        self.chat_requests += 1
        template = json.loads(request.json()["messages"][-1]["content"])
        goal, opening = template["goal"], template["opening"]
        if self.chat_requests % 2:
            answer = {"goal": "Rephrased: " + goal, "opening": "Hello there. " + opening}
        else:  # a paraphrase that loses what the user knows
            answer = {"goal": "I need some help with my account.", "opening": "Hi."}
        message = {"role": "assistant", "content": json.dumps(answer)}
        return Response.json(completion(message, 20, 20))


@pytest.fixture
def writer() -> Iterator[Writer]:
    with Writer() as server:
        yield server


def test_a_paraphrase_that_loses_a_known_value_is_rejected(writer: Writer, tmp_path: Path) -> None:
    template, rewritten = tmp_path / "template.jsonl", tmp_path / "rewritten.jsonl"
    base = ("tracer", "construct", "--domain", "retail", "--count", "12", "--seed", "2")
    assert tau_sim(*base, "--out", str(template)).returncode == 0
    done = tau_sim(
        *base,
        *("--out", str(rewritten), "--writer", "openai/fake"),
        *("--writer-arg", f"base_url={writer.url}", "--writer-arg", "max_retries=0"),
        env={**os.environ, "OPENAI_API_KEY": "k"},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert writer.chat_requests == 12
    assert summary["paraphrased"] + summary["paraphrase_rejected"] == 12
    assert summary["paraphrased"] > 0 and summary["paraphrase_rejected"] > 0
    load_plugins()
    retail = get_domain("retail")
    before = load_tasks(template, retail)
    after = load_tasks(rewritten, retail)  # still a valid task file, gold checked
    changed = 0
    for old, new in zip(before, after, strict=True):
        assert new.actions == old.actions and new.scenario.known_info == old.scenario.known_info
        if new.scenario != old.scenario:
            changed += 1
            assert new.scenario.goal == "Rephrased: " + old.scenario.goal
        else:
            assert new.scenario.goal == old.scenario.goal
    assert changed == summary["paraphrased"]


def test_only_a_json_answer_that_keeps_the_values_replaces_the_template() -> None:
    from tau_sim.tracer.construct import construct
    from tau_sim.tracer.paraphrase import accept

    load_plugins()
    (task,) = construct(get_domain("retail"), 1, seed=4).tasks
    goal, opening = task.scenario.goal, task.scenario.opening
    good = json.dumps({"goal": f"So: {goal}", "opening": f"Hey. {opening}"})
    assert accept(task, good).scenario.goal == f"So: {goal}"
    for bad in (
        "not json",
        "[1]",
        json.dumps({"goal": goal}),
        json.dumps({"goal": "x", "opening": opening}),
    ):
        assert accept(task, bad) is task
