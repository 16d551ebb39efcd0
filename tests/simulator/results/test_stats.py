"""pass@k and pass^k by hand; the report's intervals, effects and tables from real runs."""

import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.results.metrics import run_report, summarize
from tau_sim.simulator.results.stats import (
    Bootstrap,
    pass_at_k,
    pass_hat_k,
    task_pass_at_k,
    task_pass_hat_k,
)
from tau_sim.simulator.store import get_run, open_database
from tests.helpers.cli import report, tau_sim
from tests.simulator.results.test_faults import row

MIXED = [
    "--agent",
    "scripted/gold,scripted/sloppy",
    "--emotions",
    "neutral,frustration,annoyance",
    "--intensities",
    "high",
    "--seed",
    "3",
]


def run(db: Path, *args: str) -> str:
    tau_sim("run", *args, "--db", str(db), "--quiet")
    return report(db)["run_id"]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Gold and sloppy, neutral and two leaves of the anger family, 6 tasks x 3 trials."""
    db = tmp_path_factory.mktemp("stats") / "mixed.db"
    run(db, "--tasks", "6", "--trials", "3", *MIXED)
    return db


def sloppy(db: Path, tasks: int, trials: int) -> dict[str, Any]:
    """The report (computed in this process) of a run of scripted/sloppy under neutral."""
    args = ["--tasks", str(tasks), "--trials", str(trials), "--agent", "scripted/sloppy"]
    tau_sim("run", *args, "--db", str(db), "--quiet")
    store = open_database(db, readonly=True)
    return run_report(store, get_run(store, None))


def width(interval: Sequence[float]) -> float:
    return interval[1] - interval[0]


def test_pass_at_k_by_hand() -> None:
    assert task_pass_at_k(5, 2, 2) == pytest.approx(1 - 3 / 10)  # 1 - C(3,2)/C(5,2)
    assert task_pass_at_k(5, 2, 1) == pytest.approx(2 / 5)
    assert task_pass_at_k(4, 0, 3) == 0.0  # c = 0: no draw holds a success
    assert task_pass_at_k(4, 4, 3) == 1.0  # c = n
    assert task_pass_at_k(4, 3, 2) == 1.0  # n - c < k: every draw holds one
    assert task_pass_at_k(3, 1, 3) == 1.0  # k = n: any success at all
    assert task_pass_hat_k(5, 2, 2) == pytest.approx(1 / 10)  # C(2,2)/C(5,2)
    assert task_pass_hat_k(5, 1, 2) == 0.0
    # averaged over tasks; a task with fewer than k trials is left out (documented)
    assert pass_at_k([(5, 2), (5, 0), (1, 1)], 2) == pytest.approx((0.7 + 0.0) / 2)
    assert pass_at_k([(1, 1)], 2) is None and pass_at_k([], 1) is None
    assert pass_at_k([(4, 1), (4, 3)], 1) == pass_hat_k([(4, 1), (4, 3)], 1) == 0.5


def test_bootstrap_is_seeded_and_needs_two_tasks() -> None:
    values = [0.0, 1.0, 1.0, 0.5, 0.0, 1.0]
    first = Bootstrap("run-x").mean(values)
    assert first == Bootstrap("run-x").mean(values)
    assert first is not None and first[0] <= sum(values) / 6 <= first[1]
    assert list(Bootstrap("run-y").draws(6)) != list(Bootstrap("run-x").draws(6))
    assert Bootstrap("run-x").mean([0.4]) is None  # one task: nothing to resample
    assert Bootstrap("run-x").mean([0.4, 0.4]) == (0.4, 0.4)


def test_every_interval_holds_its_figure_and_the_same_store_prints_the_same(
    mixed: Path,
) -> None:
    data = report(mixed)
    assert data["intervals"]["resamples"] == 2000 and data["intervals"]["level"] == 0.95
    summaries = [
        data,
        *data["conditions"],
        *data["by_emotion"],
        *(s for group in data["groups"].values() for s in group.values()),
    ]
    checked = 0
    for s in summaries:
        assert s["tasks"] == 6 and s["n"] > 0
        for name in ("success_rate", "abandonment_rate"):
            low, high = s["ci"][name]
            assert low <= s[name] <= high
            checked += 1
        for name in ("pass_hat_k", "pass_at_k"):
            assert set(s[name]) == set(s["ci"][name]) == {"1", "2", "3"}
            for k, value in s[name].items():
                low, high = s["ci"][name][k]
                assert low <= value <= high
                checked += 1
    assert checked > 100
    sloppy_neutral = next(
        c
        for c in data["conditions"]
        if c["agent"] == "scripted/sloppy" and c["emotion"] == "neutral"
    )
    assert width(sloppy_neutral["ci"]["success_rate"]) > 0  # sloppy varies across tasks
    texts = [tau_sim("report", "--db", str(mixed)).stdout for _ in range(2)]
    assert texts[0] == texts[1]
    assert "pass@2" in texts[0] and "intervals: 95%, percentile bootstrap over tasks" in texts[0]
    assert (
        tau_sim("report", "--json", "--db", str(mixed)).stdout == json.dumps(data, indent=2) + "\n"
    )


def test_intervals_shrink_as_tasks_and_trials_grow(tmp_path: Path) -> None:
    few, many = sloppy(tmp_path / "few.db", 4, 2), sloppy(tmp_path / "many.db", 24, 2)
    assert (few["tasks"], many["tasks"]) == (4, 24)
    assert width(many["ci"]["success_rate"]) < width(few["ci"]["success_rate"])
    assert width(many["ci"]["pass_hat_k"]["2"]) < width(few["ci"]["pass_hat_k"]["2"])
    short, long = sloppy(tmp_path / "short.db", 8, 2), sloppy(tmp_path / "long.db", 8, 10)
    assert (short["n"], long["n"]) == (16, 80)
    assert width(long["ci"]["success_rate"]) < width(short["ci"]["success_rate"])
    assert width(long["ci"]["pass_hat_k"]["2"]) < width(short["ci"]["pass_hat_k"]["2"])


def test_emotion_effect_is_paired_by_task_per_agent(mixed: Path) -> None:
    data = report(mixed)
    effect = data["emotion_effect"]
    assert effect["note"] is None and effect["baseline"] == "neutral"
    conn = sqlite3.connect(mixed)
    per_task: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for agent, emotion, task, reward in conn.execute(
        "select agent, emotion, task_id, reward from conversations"
    ):
        per_task[(agent, emotion, task)].append(float(reward >= 1.0))
    conn.close()
    means = {key: sum(v) / len(v) for key, v in per_task.items()}
    rows = {(r["agent"], r["emotion"]): r for r in effect["rows"]}
    assert set(rows) == {
        (agent, emotion)
        for agent in ("scripted/gold", "scripted/sloppy")
        for emotion in ("frustration", "annoyance")
    }
    for (agent, emotion), r in rows.items():
        tasks = sorted({t for a, e, t in means if a == agent and e == emotion})
        diffs = [means[(agent, emotion, t)] - means[(agent, "neutral", t)] for t in tasks]
        assert r["tasks"] == len(tasks) == 6
        assert r["delta"] == pytest.approx(sum(diffs) / 6, abs=1e-4)
        assert r["ci"][0] <= r["delta"] <= r["ci"][1]
        if agent == "scripted/gold":
            assert r["delta"] == 0.0 and r["ci"] == [0.0, 0.0]
    text = tau_sim("report", "--db", str(mixed)).stdout
    assert "emotion effect: success minus neutral" in text


def test_a_run_without_neutral_has_no_effect_table(tmp_path: Path) -> None:
    db = tmp_path / "angry.db"
    run(db, "--tasks", "2", "--emotions", "anger", "--intensities", "high")
    effect = report(db)["emotion_effect"]
    assert effect["rows"] == [] and "no neutral condition" in effect["note"]
    text = tau_sim("report", "--db", str(db)).stdout
    assert "emotion effect: this run has no neutral condition" in text
    assert "emotion effect: success minus neutral" not in text


def test_by_emotion_is_per_agent_and_rolls_up_to_families(mixed: Path) -> None:
    data = report(mixed)
    rows = {(r["agent"], r["user"], r["emotion"]): r for r in data["by_emotion"]}
    assert len(rows) == 2 * 3 and all(r["n"] == 18 for r in rows.values())
    gold = rows[("scripted/gold", "scripted", "frustration")]
    assert gold["success_rate"] == 1.0
    assert "by_family" not in data
    out = tau_sim("report", "--json", "--by-family", "--db", str(mixed)).stdout
    families = {(r["agent"], r["family"]): r for r in json.loads(out)["by_family"]}
    assert set(families) == {
        (a, f) for a in ("scripted/gold", "scripted/sloppy") for f in ("anger", "neutral")
    }
    for agent in ("scripted/gold", "scripted/sloppy"):
        leaves = [rows[(agent, "scripted", e)] for e in ("frustration", "annoyance")]
        anger = families[(agent, "anger")]
        assert anger["n"] == sum(leaf["n"] for leaf in leaves) == 36
        assert anger["success_rate"] == pytest.approx(
            sum(leaf["success_rate"] for leaf in leaves) / 2, abs=1e-4
        )
    text = tau_sim("report", "--by-family", "--db", str(mixed)).stdout
    assert "pass^k by emotion family" in text and "scripted/sloppy" in text


def test_endpoint_errors_stay_out_of_pass_at_k_and_intervals() -> None:
    rows = [row("t1", 0, "user_stop", 1.0), row("t1", 1, "infra_error", 0.0, "agent: [timeout] x")]
    rows += [row(f"t{t}", trial, "user_stop", 1.0) for t in (2, 3, 4) for trial in (0, 1)]
    figures = summarize(rows, 2, bootstrap=Bootstrap("s"))
    assert (figures["n"], figures["infra_errors"], figures["tasks"]) == (7, 1, 4)
    assert figures["pass_at_k"] == {"1": 1.0, "2": None}  # t1 has one counted trial
    assert figures["ci"]["success_rate"] == figures["ci"]["pass_at_k"]["1"] == (1.0, 1.0)
    assert figures["ci"]["pass_hat_k"]["2"] is None and figures["cells_with_k"]["2"] == 3
    counted = summarize(rows, 2, count_errors=True, bootstrap=Bootstrap("s"))
    assert counted["n"] == 8 and counted["pass_at_k"]["1"] == 0.875
    assert counted["ci"]["success_rate"][0] < 1.0 and counted["ci"]["pass_at_k"]["1"][0] < 1.0
    assert counted["ci"]["pass_hat_k"]["2"][0] < 1.0


def test_bad_resamples_is_one_line_exit_2(mixed: Path) -> None:
    out = tau_sim("report", "--resamples", "5", "--db", str(mixed), check=False)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "tau-sim: error: --resamples must be in 100..100000 (got 5)\n"
