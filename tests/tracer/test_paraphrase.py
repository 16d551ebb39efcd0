"""The writer paraphrase through the real openai provider, against an HTTP double on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.fake_openai_server import Request, Response, completion
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world.domain import load_tasks
from tests.helpers.servers import FaultServer
from tests.tracer.conftest import tau_sim

VAGUE = "Hey, I have a problem with an order."


class Writer(FaultServer):
    """Answers each paraphrase request in turn: a faithful one, one that drops the values the
    template held, one that keeps the values (the opening's codes) but not the request."""

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            return Response.json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
        self.chat_requests += 1
        template = json.loads(request.json()["messages"][-1]["content"])
        goal, opening = template["goal"], template["opening"]
        if self.chat_requests % 3 == 1:
            answer = {"goal": "Rephrased: " + goal, "opening": "Hello there. " + opening}
        elif self.chat_requests % 3 == 2:  # a paraphrase that loses what the user knows
            answer = {"goal": "I need some help with my account.", "opening": "Hi."}
        else:  # what the user knows, but not what they want
            codes = " ".join(re.findall(r"#?[A-Z0-9]*\d[A-Z0-9]*", opening))
            answer = {"goal": "Rephrased: " + goal, "opening": f"{VAGUE} {codes}".strip()}
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
    by = summary["paraphrase_rejected_by"]
    assert summary["paraphrased"] == 4 and sum(by.values()) == 8
    assert by["lost_value"] >= 4 and by["lost_intent"] >= 1 and by["writer_error"] == 0
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


GENERIC = (
    VAGUE,
    "Hi, I need some help.",
    "Hello, I have a question about my account.",
    "Hi there, can you help me with something?",
)
"""Openings that say nothing of the request (the writer's 6 of 30 in issue 24, and kin)."""
DOMAINS = (
    "retail",
    "airline",
    "banking",
    "car_rental",
    "hotel",
    "telecom",
    "insurance",
    "utilities",
    "food_delivery",
    "telehealth",
)


@pytest.mark.parametrize("name", DOMAINS)
def test_a_paraphrase_that_keeps_the_values_but_not_the_request_is_rejected(name: str) -> None:
    from tau_sim.tracer.construct import construct
    from tau_sim.tracer.meaning import IntentIndex
    from tau_sim.tracer.paraphrase import judge

    load_plugins()
    domain = get_domain(name)
    tasks = construct(domain, 40, seed=3).tasks
    index = IntentIndex.of(domain, tasks)
    assert {t.tier for t in tasks} == {"base", "hard"}
    for task in tasks:
        goal, opening = task.scenario.goal, task.scenario.opening
        kept = [v for v in task.scenario.known_info.values() if v and v.lower() in opening.lower()]
        # a hard task is never paraphrased: its intent builds on a base one's request, so the
        # classifier cannot check that a paraphrase kept it (the template is kept instead)
        rejected = ("lost_intent",) if task.tier == "base" else ("hard_tier",)
        for generic in GENERIC:
            vague = json.dumps({"goal": goal, "opening": " ".join([generic, *kept])})
            assert judge(task, vague, index)[1] in rejected, (task.intent, generic)
        short = json.dumps({"goal": "I need help.", "opening": opening})
        assert judge(task, short, index)[1] in (*rejected, "lost_value")
        faithful = {"goal": f"In short: {goal}", "opening": f"Good morning. {opening}"}
        expected = None if task.tier == "base" else "hard_tier"
        assert judge(task, json.dumps(faithful), index)[1] == expected, task.intent
        if expected is None:
            assert (
                judge(task, json.dumps(faithful), index)[0] == judge(task, json.dumps(faithful))[0]
            )


REWORDED = {
    "I'd like to cancel my order": "Could you please cancel order",
    "I no longer need it": "I don't need it anymore",
    "I need to change the shipping address on my order": "Can you fix the address my order "
    "goes to,",
    "can I change how I pay for my order": "I'd like to switch the payment method on my order",
    "I'd like to return something from an order that was delivered,": "I want to send back an "
    "item from my delivered order",
    "I want to exchange the": "Could I swap the",
    "for a different one": "for another version",
    "where is my order": "could you tell me where my order is",
    "I moved recently and need to update the address on my account": "I've moved and my "
    "account needs my new address",
    "how much would I get back if I returned a couple of things from my order": "if I return a "
    "few items from my order, how much money would I get back",
    "picked the wrong option. Can I change it?": "chose the wrong variant. Can it be changed?",
    "I need to cancel my order": "Cancel my order",
    "right now": "immediately, please",
    "I have two things:": "two requests:",
}
"""A person's rewordings of retail's openings: other words, the same request."""


def test_a_reworded_opening_that_keeps_the_request_is_kept() -> None:
    from tau_sim.tracer.construct import construct
    from tau_sim.tracer.meaning import IntentIndex

    load_plugins()
    retail = get_domain("retail")
    tasks = [t for t in construct(retail, 240, seed=1).tasks if t.tier == "base"]  # judged
    index = IntentIndex.of(retail, tasks)
    changed = 0
    for task in tasks:
        opening = task.scenario.opening
        for old, new in REWORDED.items():
            opening = opening.replace(old, new)
        changed += opening != task.scenario.opening
        assert index.keeps_intent(task, task.scenario.goal, opening), (task.intent, opening)
    assert changed > len(tasks) // 4 and len(tasks) > 100  # many openings describe, not name


def test_the_intent_classifier_ranks_each_template_first_or_among_its_look_alikes() -> None:
    from tau_sim.tracer.construct import construct
    from tau_sim.tracer.meaning import IntentIndex, stem, words

    assert {stem(w) for w in ("cancel", "cancels", "cancelled", "cancelling")} == {"cancel"}
    assert words("Hi, where is my order #W1?", ["#W1"]) == {stem("where"), "order"}
    load_plugins()
    retail = get_domain("retail")
    tasks = [t for t in construct(retail, 120, seed=1).tasks if t.tier == "base"]
    index = IntentIndex.of(retail, tasks)
    ranks = [index.rank(t, t.scenario.opening, "opening") for t in tasks]
    assert all(r >= 1 for r in ranks) and sum(r == 1 for r in ranks) > len(ranks) * 0.8
    scores = index.scores("I'd like to cancel my order", "opening")
    best = max(scores.values())
    assert {i for i, s in scores.items() if s == best} <= {
        "cancel_pending_order",
        "out_of_policy_transfer",
        "cancel_and_return",
    }
