"""``--judge MODEL``: natural-language assertions judged through our provider layer, stored as
events, read back by rescore and the τ²-bench export, and agreeing with their own judge."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import anyio
import msgspec
import pytest

from tests.domains.tau2.needs import require_tau2

require_tau2("tau2.evaluator.evaluator")

from tau2.data_model.simulation import Results  # noqa: E402

from tau_sim.simulator.core.events import AssertionJudged, ConversationEnded  # noqa: E402
from tau_sim.simulator.core.registry import get_domain  # noqa: E402
from tau_sim.simulator.engine.judging import decode_verdicts, judge_prompt  # noqa: E402
from tau_sim.simulator.results.assertions import assertion_line, assertion_report  # noqa: E402
from tests.domains.tau2.judge_server import JudgeServer  # noqa: E402
from tests.domains.tau2.play import play  # noqa: E402
from tests.domains.tau2.theirs import their_judge_at, their_reward  # noqa: E402
from tests.helpers.cli import tau_sim  # noqa: E402

UNMET = "certificate"
"""The word of airline task 2's fourth assertion ("...offer a certificate of $50."): not met."""


def nl_task_file(path: Path) -> Path:
    """Airline tasks 0 (one assertion) and 2 (four) with NL_ASSERTION as their reward basis."""
    their = Path(__import__("tau2").__file__).parent / "data/tau2/domains/airline/tasks.json"
    tasks = [t for t in json.loads(their.read_text(encoding="utf-8")) if t["id"] in ("0", "2")]
    for task in tasks:
        task["evaluation_criteria"]["reward_basis"] = ["NL_ASSERTION"]
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``tau-sim ARGS`` with a fake OpenAI key (and ``env``) added to the environment."""
    return tau_sim(
        *args, check=False, env={**os.environ, "OPENAI_API_KEY": "sk-test", **(env or {})}
    )


def judged_run(tmp_path: Path, server: JudgeServer, db: Path, *extra: str) -> str:
    tasks = nl_task_file(tmp_path / "tasks.json")
    out = run(
        *("run", "--domain", "tau2/airline", "--tasks-file", str(tasks)),
        *("--agent", "scripted/gold"),
        *("--user", "openai/fake", "--user-arg", f"base_url={server.url}"),
        *("--user-arg", "max_retries=0", "--judge", "openai/judge"),
        *("--judge-arg", f"base_url={server.url}", "--judge-arg", "max_retries=0"),
        *("--judge-arg", "price_in=1", "--judge-arg", "price_out=2"),
        *("--db", str(db), "--quiet", "--json", *extra),
    )
    assert out.returncode in (0, 3), out.stderr
    return str(json.loads(out.stdout)["run_id"])


def test_verdicts_decide_the_reward_and_rescore_export_and_their_judge_agree(
    tmp_path: Path,
) -> None:
    db, exported = tmp_path / "runs.db", tmp_path / "results.json"
    with JudgeServer(unmet=(UNMET,)) as server:
        run_id = judged_run(tmp_path, server, db)
        assert server.judge_requests == 2  # one call per conversation
        with sqlite3.connect(db) as conn:
            rows = conn.execute(
                "select task_id, reason, reward, breakdown, judge_tokens_in, judge_cost_usd "
                "from conversations order by task_id"
            ).fetchall()
            judged = [
                json.loads(r[0])
                for r in conn.execute("select payload from events where kind = 'assertion_judged'")
            ]
        assert [r[1] for r in rows] == ["user_stop", "user_stop"]
        by_task = {r[0]: r for r in rows}
        assert by_task["tau2-airline-0"][2] == 1.0  # its one assertion met
        assert by_task["tau2-airline-2"][2] == 0.0  # the certificate one not met
        breakdown = json.loads(by_task["tau2-airline-2"][3])
        assert breakdown["checks"] == {"NL_ASSERTION": 0.0} and breakdown["not_evaluated"] == []
        assert [v for k, v in breakdown["judged"].items() if UNMET in k] == [False]
        assert sum(breakdown["judged"].values()) == 3
        assert all(r[4] > 0 and r[5] > 0 for r in rows)  # the judge's calls are in the costs
        assert len(judged) == 5 and all(j["judge"] == "openai/judge" for j in judged)

        report = run("report", run_id, "--db", str(db), "--json")
        assert report.returncode == 0, report.stderr
        assert json.loads(report.stdout)["assertions"] == {
            "conversations_judged": 2,
            "assertions_judged": 5,
            "assertions_met": 4,
            "conversations_not_evaluated": 0,
        }
        rescored = run("rescore", run_id, "--db", str(db), "--json")
        assert rescored.returncode == 0, rescored.stderr
        result = json.loads(rescored.stdout)
        assert result["rescored"] == 2 and result["changed"] == []

        export = run("export", run_id, "--format", "tau2", "--out", str(exported), "--db", str(db))
        assert export.returncode == 0, export.stderr
        results = Results.model_validate_json(exported.read_text(encoding="utf-8"))
        by_id = {s.task_id: s for s in results.simulations}
        checks = by_id["2"].reward_info.nl_assertions  # type: ignore[union-attr]
        assert checks is not None and [c.met for c in checks] == [True, True, True, False]
        assert checks[0].justification == "rule on statement 1"
        assert by_id["2"].reward_info.info["tau_sim"]["judge_cost"] > 0  # type: ignore[union-attr,index]
        # their evaluator, with their judge hearing the same verdicts, gives the same rewards
        tasks = {t.id: t for t in results.tasks}
        with their_judge_at(server.url):
            theirs = {
                s.task_id: their_reward("airline", tasks[s.task_id], s, nl=True)
                for s in results.simulations
            }
        assert server.their_requests == 2
        assert theirs == {"0": 1.0, "2": 0.0}

        # a later `tau-sim review` adds its calls to the judge's columns, never replaces them
        reviewed = run(
            *("review", run_id, "--db", str(db), "--judge", "openai/judge"),
            *("--judge-arg", f"base_url={server.url}", "--judge-arg", "max_retries=0"),
            *("--judge-arg", "price_in=1", "--judge-arg", "price_out=2"),
        )
        assert reviewed.returncode == 0, reviewed.stderr
        with sqlite3.connect(db) as conn:
            reviews = conn.execute(
                "select conversation, tokens_in, cost_usd from reviews"
            ).fetchall()
            after = dict(conn.execute("select id, judge_tokens_in from conversations").fetchall())
            cost_after = dict(
                conn.execute("select id, judge_cost_usd from conversations").fetchall()
            )
            task_of = dict(conn.execute("select id, task_id from conversations").fetchall())
        assert reviews, reviewed.stdout  # task 2's failed conversation was reviewed
        at_run = {r[0]: (r[4], r[5]) for r in rows}
        for conversation, tokens_in, cost in reviews:
            run_tokens, run_cost = at_run[task_of[conversation]]
            assert after[conversation] == run_tokens + tokens_in
            assert cost_after[conversation] == pytest.approx(run_cost + cost)


def test_a_judge_whose_endpoint_fails_is_an_infrastructure_error(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with JudgeServer(judge_mode="500") as server:
        judged_run(tmp_path, server, db, "--tasks", "tau2-airline-0")
    with sqlite3.connect(db) as conn:
        reason, detail, reward, failure = conn.execute(
            "select reason, detail, reward, failure from conversations"
        ).fetchone()
    assert reason == "infra_error" and detail.startswith("judge: [HTTP 500"), detail
    assert reward == 0.0 and failure == "infra_error"  # the measuring's fault, not the agent's


@pytest.mark.parametrize(
    ("mode", "code"), [("empty", "judge_empty"), ("garbage", "judge_unreadable")]
)
def test_an_empty_or_unreadable_judge_answer_is_not_evaluated_never_a_pass(
    tmp_path: Path, mode: str, code: str
) -> None:
    db = tmp_path / "runs.db"
    with JudgeServer(judge_mode=mode) as server:
        run_id = judged_run(tmp_path, server, db, "--tasks", "tau2-airline-0")
        assert server.judge_requests == 2  # asked again once, then not evaluated
    with sqlite3.connect(db) as conn:
        cid, reason, reward, breakdown, warnings = conn.execute(
            "select id, reason, reward, breakdown, warnings from conversations"
        ).fetchone()
    assert reason == "user_stop" and reward == 0.0  # the conversation ended well: not a pass
    assert json.loads(breakdown)["not_evaluated"] == ["NL_ASSERTION"]
    assert json.loads(warnings) == [code, "not_evaluated"]

    report = json.loads(run("report", run_id, "--db", str(db), "--json").stdout)
    assert report["grading"]["warnings"] == {code: 1, "not_evaluated": 1}
    assert report["grading"]["not_evaluated"] == 1
    assert report["assertions"]["conversations_not_evaluated"] == 1
    assert report["success_rate"] == 0.0 and report["infra_errors"] == 0
    shown = json.loads(run("show", cid, "--db", str(db), "--json").stdout)["provenance"]
    assert [w["code"] for w in shown["warnings"]] == [code, "not_evaluated"]
    assert shown["evaluated"] is False and shown["scored_by"] == "live"

    # rescore asks no judge: the live judge's warning is carried, nothing changes
    rescored = run("rescore", run_id, "--db", str(db), "--write")
    assert rescored.returncode == 0 and " 0 verdicts changed" in rescored.stdout
    with sqlite3.connect(db) as conn:
        after = conn.execute("select reward, scored_by, warnings from conversations").fetchone()
    assert after[:2] == (0.0, "rescored") and json.loads(after[2]) == [code, "not_evaluated"]


def test_without_a_judge_nl_assertions_are_not_evaluated_never_passed() -> None:
    domain = get_domain("tau2/mock")
    task = next(t for t in domain.tasks if t.id == "tau2-mock-create_task_1")
    base = domain.base
    theirs = base.initial[task.id]  # type: ignore[attr-defined]
    criteria = theirs.evaluation_criteria
    original = list(criteria.reward_basis)
    from tau2.data_model.tasks import RewardType

    criteria.reward_basis = [*original, RewardType.NL_ASSERTION]
    try:
        events = anyio.run(play, domain, task)
    finally:
        criteria.reward_basis = original
    ended = events[-1]
    assert isinstance(ended, ConversationEnded) and ended.reason == "user_stop"
    assert ended.reward == 0.0 and ended.breakdown is not None
    assert ended.breakdown.not_evaluated == ["NL_ASSERTION"]
    assert not any(isinstance(e, AssertionJudged) for e in events)
    row = {"status": "completed", "breakdown": msgspec.json.encode(ended.breakdown).decode()}
    section = assertion_report([row])
    assert section is not None and section["conversations_not_evaluated"] == 1
    assert "not judged (no --judge, or the judge's answer was empty or unreadable): scored 0, " in (
        assertion_line(section) or ""
    )


def test_the_judges_answer_is_decoded_strictly() -> None:
    fenced = (
        '```json\n{"verdicts": [{"index": 2, "met": false}, '
        '{"index": 1, "met": true, "reason": " ok  then "}]}\n```'
    )
    assert decode_verdicts(fenced, 2) == [(True, "ok then"), (False, "")]
    for bad, why in (
        ('{"verdicts": [{"index": 1, "met": true}]}', "no verdict for statement"),
        ('{"verdicts": [{"index": 3, "met": true}]}', "not one of 1..2"),
        ('{"verdicts": [{"index": 1, "met": "yes"}]}', "does not decode"),
        ("all good", "no JSON object"),
    ):
        with pytest.raises(ValueError, match=why):
            decode_verdicts(bad, 2)
    prompt = judge_prompt([], ["Agent refunds.", "Agent apologises."])
    assert prompt[1].content is not None
    assert prompt[1].content.endswith("Statements:\n1. Agent refunds.\n2. Agent apologises.")


def test_bad_judge_input_is_one_line_and_unused_judge_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tau_sim.simulator.cli.main import (
        main,  # in process: the checks end before anything would start
    )

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    for args, words in (
        (("--judge", "nosuch/model"), "--judge: unknown model provider 'nosuch'"),
        (("--judge", "scripted"), "--judge: expected a model PROVIDER/MODEL"),
        (("--judge-arg", "base_url=x"), "--judge-arg: options for a judge, but no --judge"),
        (("--judge", "openai/j", "--judge-arg", "bogus=1"), "--judge-arg"),
    ):
        code = main(["run", "--tasks", "1", "--dry-run", *args])
        lines = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and words in lines[0], lines
    assert main(["run", "--tasks", "1", "--dry-run", "--judge", "openai/j"]) == 0
    assert "judge openai/j: unused, no task of this run has natural-language assertions" in (
        capsys.readouterr().out
    )
    # a subprocess: reading a task file replaces the tasks of the (cached) domain in process
    tasks = nl_task_file(tmp_path / "tasks.json")
    plan = run(
        *("run", "--domain", "tau2/airline", "--tasks-file", str(tasks), "--user", "openai/u"),
        *("--dry-run", "--judge", "openai/j", "--json"),
    )
    assert plan.returncode == 0, plan.stderr
    assert json.loads(plan.stdout)["judge"] == {
        "model": "openai/j",
        "tasks_with_assertions": 2,
        "tasks_scored": 2,
        "calls": 2,
        "unused": False,
    }
