"""``tau-sim tracer stats`` over two real runs of one store, checked against the stored events.

Two small scripted runs (the gold agent and the over-asker, neutral and anger, 4 car_rental
tasks, whose payment-method question no policy clause prescribes, two seeds) in one SQLite
store; every figure of ``--json`` is recounted here from the events table with the tag
vocabulary written out below, not with Tracer's code. The scripted agents calibrate the
harness: these figures check the counting and the user's tags, they are not
benchmark results.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
from collections import Counter, defaultdict
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.helpers import cli
from tests.helpers.require import missing, switch

tau_sim = partial(cli.tau_sim, check=False, clean=True)

NECESSARY = {"question": "asked", "confirmation": "confirmation"}
NEEDLESS = {
    "lookupable_question": "lookupable",
    "unknown_question": "unknown",
    "repeated_question": "repeated",
}
AGENTS = ("scripted/gold", "scripted/over-asker")


class Store(msgspec.Struct):
    db: Path
    runs: list[str]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    db = tmp_path_factory.mktemp("stats") / "stats.db"
    for seed in ("1", "2"):
        ran = tau_sim(
            *("run", "--domain", "car_rental", "--agent", ",".join(AGENTS)),
            *("--emotions", "neutral,anger", "--tasks", "4", "--seed", seed),
            *("--db", str(db), "--quiet"),
        )
        assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(db) as conn:
        runs = [r for (r,) in conn.execute("select id from runs order by created_at, id")]
    assert len(runs) == 2
    return Store(db, runs)


def recount(db: Path, runs: list[str]) -> list[dict[str, Any]]:
    """Per completed conversation, from the raw events: condition, tools, question kinds."""
    out: list[dict[str, Any]] = []
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "select id, run_id, agent, emotion, intensity, reward, abandoned from conversations "
            f"where status = 'completed' and run_id in ({', '.join('?' * len(runs))})",
            runs,
        ).fetchall()
        for cid, run_id, agent, emotion, intensity, reward, abandoned in rows:
            kinds: Counter[str] = Counter()
            tools = 0
            for kind, payload in conn.execute(
                "select kind, payload from events where conversation = ?", [cid]
            ):
                if kind == "tool_result":
                    tools += 1
                elif kind == "emotion_update":
                    for trigger in json.loads(payload).get("triggers", []):
                        head = trigger.split(":")[0]
                        name = NECESSARY.get(head) or NEEDLESS.get(head)
                        if name is None and head == "unclear_question":
                            name = "unclear"
                        if name:
                            kinds[name] += 1
            out.append(
                {
                    "run_id": run_id,
                    "agent": agent,
                    "emotion": emotion,
                    "intensity": intensity,
                    "tools": tools,
                    "necessary": kinds["asked"] + kinds["confirmation"],
                    "needless": kinds["lookupable"] + kinds["unknown"] + kinds["repeated"],
                    "kinds": kinds,
                    "success": (reward or 0.0) >= 1.0 - 1e-6,
                    "abandoned": bool(abandoned),
                }
            )
    return out


def stats(store: Store, *args: str) -> dict[str, Any]:
    done = tau_sim("tracer", "stats", *store.runs, "--db", str(store.db), "--json", *args)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_figures_match_an_independent_count_of_the_events(store: Store) -> None:
    data = stats(store)
    mine = recount(store.db, store.runs)
    assert data["conversations"] == len(mine) == 32
    assert data["runs"] == dict(Counter(c["run_id"] for c in mine))
    assert data["calibration_agents"] == list(AGENTS)
    for section, fields in (
        ("by_agent", ("agent",)),
        ("by_emotion", ("agent", "emotion")),
        ("by_condition", ("agent", "emotion", "intensity")),
    ):
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
        for c in mine:
            groups[tuple(c[f] for f in fields)].append(c)
        shown = {tuple(row[f] for f in fields): row for row in data[section]}
        assert set(shown) == set(groups), section
        for key, group in groups.items():
            row = shown[key]
            assert row["conversations"] == len(group)
            totals = row["totals"]
            for figure in ("tools", "necessary", "needless"):
                assert totals[figure] == sum(c[figure] for c in group), (section, key, figure)
            for kind in ("asked", "confirmation", "lookupable", "unknown", "repeated", "unclear"):
                assert totals[kind] == sum(c["kinds"][kind] for c in group), (section, key)
            assert row["success_rate"] == pytest.approx(
                sum(c["success"] for c in group) / len(group)
            )
            assert row["abandon_rate"] == pytest.approx(
                sum(c["abandoned"] for c in group) / len(group)
            )
            assert totals["untagged"] == 0  # the scripted user tags every question
    by_agent = {row["agent"]: row["totals"] for row in data["by_agent"]}
    # calibration: the gold agent asks only what it needs; the over-asker asks for lookupable
    # slots and again for what the user gave
    gold, over = by_agent["scripted/gold"], by_agent["scripted/over-asker"]
    assert gold["needless"] == 0 and gold["necessary"] > 0 and gold["confirmation"] > 0
    assert over["lookupable"] > 0 and over["repeated"] > 0


def test_success_by_balance_bins_every_conversation_once(store: Store) -> None:
    data = stats(store)
    mine = recount(store.db, store.runs)

    def balance(c: dict[str, Any]) -> float | None:
        moves = c["tools"] + c["necessary"] + c["needless"]
        return (c["tools"] + c["necessary"]) / moves if moves else None

    def label(b: float | None) -> str:
        if b is None:
            return "none"
        low = min(int(b * 5), 4) / 5
        return f"{low:.1f}-{low + 0.2:.1f}"

    for rows, group in (
        (data["bins"], mine),
        *((data["bins_by_agent"][a], [c for c in mine if c["agent"] == a]) for a in AGENTS),
    ):
        counted = Counter(label(balance(c)) for c in group)
        assert {r["balance"]: r["conversations"] for r in rows if r["conversations"]} == counted
        wins = Counter(label(balance(c)) for c in group if c["success"])
        for r in rows:
            if r["conversations"]:
                assert r["success_rate"] == pytest.approx(wins[r["balance"]] / r["conversations"])
    gold = data["bins_by_agent"]["scripted/gold"]
    assert [r["balance"] for r in gold if r["conversations"]] == ["0.8-1.0"]
    # the claim, on the calibration agents: the top bin succeeds at least as often as the rest
    top = data["bins"][-1]
    rest = [c for c in mine if (b := balance(c)) is not None and b < 0.8]
    assert rest and top["success_rate"] >= sum(c["success"] for c in rest) / len(rest)


def test_runs_apart_add_up_to_runs_together(store: Store) -> None:
    together = stats(store)
    apart = []
    for run_id in store.runs:
        done = tau_sim("tracer", "stats", run_id, "--db", str(store.db), "--json")
        assert done.returncode == 0, done.stderr
        apart.append(json.loads(done.stdout))
    assert sum(a["conversations"] for a in apart) == together["conversations"]
    for agent_row in together["by_agent"]:
        parts = [r for a in apart for r in a["by_agent"] if r["agent"] == agent_row["agent"]]
        for figure in ("tools", "necessary", "needless"):
            assert sum(p["totals"][figure] for p in parts) == agent_row["totals"][figure]


def test_table_names_the_split_and_the_calibration(store: Store) -> None:
    done = tau_sim("tracer", "stats", *store.runs, "--db", str(store.db), env=_wide_terminal())
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for words in (
        "tool executions vs follow-up questions",
        "necessary",
        "needless",
        "success by balance",
        "scripted/over-asker",
        "calibrate the harness",
        *store.runs,
    ):
        assert words in out, words


def _wide_terminal() -> dict[str, str]:
    return {**os.environ, "COLUMNS": "200"}


@pytest.mark.skipif(
    missing("matplotlib", "PLOT"),
    reason=f"--plot needs matplotlib (pip install 'tau-sim[plot]'; {switch('PLOT')}=1 requires it)",
)
def test_plot_is_a_png_split_by_agent(store: Store, tmp_path: Path) -> None:
    png = tmp_path / "stats.png"
    stats(store, "--plot", str(png))
    data = png.read_bytes()
    assert len(data) > 10_000
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 2100 and height == 460 * len(AGENTS)  # a 4.6 in row of panels per agent
    again = tmp_path / "again.png"
    stats(store, "--plot", str(again))
    assert again.stat().st_size > 0


def test_bad_input_is_one_line_exit_2(store: Store, tmp_path: Path) -> None:
    run = store.runs[0]
    db = str(store.db)
    cases = (
        (("tracer", "stats", run, "run-nope", "--db", db), "no run 'run-nope'"),
        (("tracer", "stats", run, "--db", str(tmp_path / "none.db")), "no database at"),
        (("tracer", "stats", run, run, "--db", db), "given twice"),
        (("tracer", "stats", run, "--db", db, "--plot", str(tmp_path)), "is a directory"),
        (
            ("tracer", "stats", run, "--db", db, "--plot", str(tmp_path / "no" / "p.png")),
            "cannot write",
        ),
    )
    for args, words in cases:
        line = cli.one_line_error(tau_sim(*args))
        assert words in line, line
    assert not (tmp_path / "no").exists()


def test_plot_without_matplotlib_is_refused_before_the_work(store: Store, tmp_path: Path) -> None:
    blocked = tmp_path / "blocked" / "matplotlib"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text('raise ImportError("matplotlib blocked by the test")\n')
    path = os.pathsep.join([str(blocked.parent), os.environ.get("PYTHONPATH", "")])
    png = tmp_path / "p.png"
    done = tau_sim(
        *("tracer", "stats", *store.runs, "--db", str(store.db), "--plot", str(png)),
        env={**os.environ, "PYTHONPATH": path},
    )
    assert "pip install 'tau-sim[plot]'" in cli.one_line_error(done)
    assert not png.exists()
