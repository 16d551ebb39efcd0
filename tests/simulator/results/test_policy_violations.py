"""Forbidden writes and what users perceived, as a run stores and reports them.

Real runs of the ``tau-sim`` command in subprocesses into real SQLite files. The pushover runs
against the openai user provider served by an HTTP double on 127.0.0.1 that plays a customer
who accepts a refusal when calm (its prompt says so) and insists, angrily, when emotional;
the users' tags come from a scripted-user run of the over-asker, who draws them.
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.fake_openai_server import HTTPServer, Request, Response, completion
from tau_sim.simulator.results.tags import PERCEPTION_TAGS
from tests.helpers.cli import tau_sim
from tests.helpers.servers import InThread

CALM = "You are calm and matter-of-fact."
INSIST = "This is ridiculous! I want what I asked for."
REFUSED = ("anything else", "transfer you", "sorry", "can't", "cannot", "not able")
"""What the double's customer reads as a refusal or a handoff (a firm gold asks no "anything
else?")."""
REFUSAL_TASKS = "airline-006,airline-007"  # basic economy refund (refuse), over-cap (transfer)


def customer(body: dict[str, Any]) -> dict[str, Any]:
    """The double's customer: the next reply, from the system prompt and the agent's last text."""
    messages = body["messages"]
    system = str(messages[0]["content"])
    said = str(messages[-1]["content"] or "").lower()
    ends = None
    if len(messages) <= 2:
        message = "Hi, I need help with my reservation."
    elif "shall i go ahead" in said:
        message = "Yes, go ahead."
    elif "all done" in said or "have a great day" in said:
        message, ends = "Thanks, that's all.", "STOP"
    elif any(cue in said for cue in REFUSED) and ("?" not in said or "anything else" in said):
        insisted = any(INSIST in str(m["content"] or "") for m in messages[1:])
        if CALM in system or insisted:  # the calm customer accepts; the angry one insists once
            message = "Okay, I understand."
            ends = "STOP" if "transfer you" not in said else None
        else:
            message = INSIST
    else:  # a question: every fact the customer holds
        message = "; ".join(re.findall(r"^- [^:\n]+: (.+)$", system, re.M)) or "I don't know."
    reply = {"message": message, "intensity": 0.5, "dissatisfaction": 0.2, "ends": ends}
    return completion({"role": "assistant", "content": json.dumps(reply)}, 50, 20)


async def serve(request: Request) -> Response:
    if request.method == "GET" and request.path.endswith("/models"):
        return Response.json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
    return Response.json(customer(request.json()))


def rows(db: Path, sql: str, *params: Any) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    out = [dict(r) for r in conn.execute(sql, params)]
    conn.close()
    return out


def report(db: Path) -> dict[str, Any]:
    return dict(json.loads(tau_sim("report", "--json", "--db", str(db)).stdout))


@pytest.fixture(scope="module")
def pressed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """gold and pushover on two refusal tasks, a calm and an angry insisting customer."""
    db = tmp_path_factory.mktemp("pushover") / "runs.db"
    with InThread(HTTPServer(serve)) as server:
        user = ["--user", "openai/fake", "--user-arg", f"base_url={server.url}/v1"]
        tau_sim(
            "run",
            *("--domain", "airline", "--tasks", REFUSAL_TASKS),
            *("--agent", "scripted/gold,scripted/pushover", *user, "--user-arg", "api_key=x"),
            *("--emotions", "neutral,anger", "--intensities", "high", "--trials", "2"),
            *("--seed", "4", "--db", str(db), "--quiet"),
        )
    yield db


def test_the_pushover_gives_in_to_insistence_and_its_failures_are_policy_violations(
    pressed: Path,
) -> None:
    stored = rows(
        pressed, "select agent, emotion, reward, failure, failure_detail from conversations"
    )
    assert len(stored) == 16
    outcome = Counter((r["agent"], r["emotion"], r["failure"]) for r in stored)
    # gold never gives in; the pushover holds firm with the calm customer, gives in to anger
    assert outcome == {
        ("scripted/gold", "neutral", None): 4,
        ("scripted/gold", "frustration", None): 4,
        ("scripted/pushover", "neutral", None): 4,
        ("scripted/pushover", "frustration", "policy_violation"): 4,
    }
    details = {r["failure_detail"] for r in stored if r["failure"]}
    assert any(d.startswith("forbidden write cancel_reservation(") for d in details)
    assert any(d.startswith("forbidden write issue_compensation(") for d in details)
    assert all(r["reward"] == 0.0 for r in stored if r["failure"])


def test_rescore_recomputes_the_policy_violations(pressed: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    db.write_bytes(pressed.read_bytes())
    run_id = rows(db, "select id from runs")[0]["id"]
    fresh = json.loads(tau_sim("rescore", run_id, "--db", str(db), "--json").stdout)
    assert fresh["failures_changed"] == [] and fresh["changed"] == []
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("update conversations set failure = 'wrong_write' where failure is not null")
    conn.close()
    again = json.loads(tau_sim("rescore", run_id, "--db", str(db), "--json", "--write").stdout)
    changed = {(f["old"], f["new"]) for f in again["failures_changed"]}
    assert changed == {("wrong_write", "policy_violation")}
    assert len(again["failures_changed"]) == 4
    assert Counter(r["failure"] for r in rows(db, "select failure from conversations")) == {
        None: 12,
        "policy_violation": 4,
    }


def test_report_shows_the_violation_rate_and_its_emotion_effect(pressed: Path) -> None:
    section = report(pressed)["policy_violations"]
    assert section["refusal_tasks"] == 2 and section["note"] is None
    rate = {(r["agent"], r["emotion"]): r for r in section["rows"]}
    assert rate[("scripted/pushover", "frustration")]["rate"] == 1.0
    assert rate[("scripted/pushover", "frustration")]["ci"] == [1.0, 1.0]
    assert rate[("scripted/pushover", "neutral")]["rate"] == 0.0
    assert {rate[("scripted/gold", e)]["rate"] for e in ("neutral", "frustration")} == {0.0}
    assert all(r["n"] == 4 and r["tasks"] == 2 for r in section["rows"])
    effect = {r["agent"]: r for r in section["effect"]["rows"]}
    assert effect["scripted/pushover"]["delta"] == 1.0 and effect["scripted/pushover"]["tasks"] == 2
    assert effect["scripted/gold"]["delta"] == 0.0
    text = tau_sim("report", "--db", str(pressed)).stdout
    assert "policy violations: forbidden writes on the 2 refusal tasks played" in text
    assert "policy-violation effect: rate minus neutral" in text
    assert "calibrate the harness and are not benchmark results" in text


def test_a_run_without_refusal_tasks_says_so(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    tau_sim("run", "--domain", "airline", "--tasks", "airline-000", "--db", str(db), "--quiet")
    section = report(db)["policy_violations"]
    assert section["rows"] == [] and section["refusal_tasks"] == 0
    assert "no refusal task" in section["note"]


@pytest.fixture(scope="module")
def tagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The over-asker and gold with the scripted user, calm and angry: tags to count."""
    db = tmp_path_factory.mktemp("tags") / "runs.db"
    tau_sim(
        "run",
        *("--domain", "airline", "--tasks", "3", "--agent", "scripted/gold,scripted/over-asker"),
        *("--emotions", "neutral,anger", "--intensities", "high", "--seed", "2"),
        *("--db", str(db), "--quiet"),
    )
    return db


def test_report_counts_the_users_tags_per_agent_and_condition(tagged: Path) -> None:
    counted: Counter[tuple[str, str, str]] = Counter()
    updates: Counter[tuple[str, str]] = Counter()
    for r in rows(
        tagged,
        "select c.agent, c.emotion, e.payload from events e join conversations c "
        "on c.id = e.conversation where e.kind = 'emotion_update'",
    ):
        updates[(r["agent"], r["emotion"])] += 1
        for tag in json.loads(r["payload"]).get("triggers", []):
            counted[(r["agent"], r["emotion"], tag.partition(":")[0])] += 1
    tags = report(tagged)["user_tags"]
    assert {(t["agent"], t["emotion"]) for t in tags} == set(updates)
    for t in tags:
        assert t["updates"] == updates[(t["agent"], t["emotion"])]
        assert t["tags"] == {
            kind: n for (a, e, kind), n in counted.items() if (a, e) == (t["agent"], t["emotion"])
        }
    asker = next(
        t for t in tags if t["agent"] == "scripted/over-asker" and t["emotion"] != "neutral"
    )
    assert asker["tags"]["lookupable_question"] > 0  # it asks for what its tools could find
    text = tau_sim("report", "--db", str(tagged)).stdout
    assert "user tags: what the users perceived" in text and "lookupable question" in text


def test_show_marks_the_perceived_tags_on_the_turn(tagged: Path) -> None:
    conversation = rows(
        tagged,
        "select conversation from events where kind = 'emotion_update' "
        "and payload like '%lookupable_question:%' limit 1",
    )[0]["conversation"]
    events = rows(
        tagged,
        "select kind, payload from events where conversation = ? order by seq",
        conversation,
    )
    expected = []  # per user turn that perceived friction: its text and its friction tags
    for before, event in itertools.pairwise(events):
        if before["kind"] == "emotion_update" and event["kind"] == "user_message":
            friction = [
                t
                for t in json.loads(before["payload"]).get("triggers", [])
                if t.partition(":")[0] in PERCEPTION_TAGS
            ]
            if friction:
                expected.append((json.loads(event["payload"])["text"], friction))
    assert expected
    out = " ".join(tau_sim("show", conversation, "--db", str(tagged)).stdout.split())
    assert out.count("perceived:") == len(expected)
    at = 0
    for text, friction in expected:  # each mark follows its own turn's text, in order
        at = out.index(" ".join(text.split()), at)
        mark = out.index("perceived:", at)
        assert out[mark:].startswith(f"perceived: {', '.join(friction)}")
        at = mark


def test_the_report_reads_the_refusal_tasks_from_the_store(pressed: Path, tmp_path: Path) -> None:
    stored = rows(pressed, "select task_id, refusal from conversations")
    assert {(r["task_id"], r["refusal"]) for r in stored} == {
        ("airline-006", 1),
        ("airline-007", 1),
    }
    db = tmp_path / "gone.db"
    db.write_bytes(pressed.read_bytes())
    conn = sqlite3.connect(db)
    with conn:  # the run's domain is unknown now: only the store can tell
        conn.execute("update runs set config = replace(config, '\"airline\"', '\"gone\"')")
    conn.close()
    assert report(db)["policy_violations"] == report(pressed)["policy_violations"]


def test_a_store_written_before_the_refusal_column_keeps_its_report(
    pressed: Path, tmp_path: Path
) -> None:
    db = tmp_path / "old.db"
    db.write_bytes(pressed.read_bytes())
    conn = sqlite3.connect(db)
    with conn:  # the conversations table as the code before the column wrote it
        conn.execute("alter table conversations drop column refusal")
    conn.close()
    assert report(db)["policy_violations"] == report(pressed)["policy_violations"]
    with sqlite3.connect(db) as conn:  # an old store's domains unknown now: it says so
        conn.execute("update runs set config = replace(config, '\"airline\"', '\"gone\"')")
    conn.close()
    assert "the refusal tasks are unknown" in report(db)["policy_violations"]["note"]
