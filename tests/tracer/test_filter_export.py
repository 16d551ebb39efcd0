from __future__ import annotations

import json
import sqlite3
import struct
from pathlib import Path

import datasets
import jsonschema
import pytest

from tau_sim.simulator.core.registry import get_domain, load_plugins
from tests.tracer.conftest import Pipeline, tau_sim


def conversations(pipeline: Pipeline) -> dict[str, tuple[str, str, float]]:
    with sqlite3.connect(pipeline.db) as conn:
        rows = conn.execute("select id, agent, reason, reward from conversations").fetchall()
    return {i: (agent, reason, reward) for i, agent, reason, reward in rows}


def test_the_filter_keeps_gold_and_drops_over_askers_for_reliance_and_abandonment(
    pipeline: Pipeline,
) -> None:
    rows = conversations(pipeline)
    selection = json.loads(pipeline.selection.read_text())
    kept = set(selection["kept"])
    gold = {i for i, (agent, _, _) in rows.items() if agent == "scripted/gold"}
    asker = {i: reason for i, (agent, reason, _) in rows.items() if agent != "scripted/gold"}
    assert kept == gold
    dropped = pipeline.filtered["dropped"]
    abandoned = sum(reason == "user_abandoned" for reason in asker.values())
    assert 0 < abandoned < len(asker)
    assert dropped["abandoned"] == abandoned
    # every over-asker that finished leaned on the user: asked what a tool could give, or again
    assert dropped["reliance"] > dropped["redundant"] > 0
    assert dropped["reliance"] + dropped["redundant"] == len(asker) - abandoned
    assert pipeline.filtered == {"kept": len(gold), "total": 60, "dropped": dropped}
    assert sum(dropped.values()) + len(kept) == 60


def test_every_threshold_is_a_flag(pipeline: Pipeline, tmp_path: Path) -> None:
    out = tmp_path / "loose.json"
    loose = tau_sim(
        *("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db), "--out", str(out)),
        *("--max-reliance", "99", "--max-redundant", "99"),
    )
    assert loose.returncode == 0, loose.stderr
    report = json.loads(loose.stdout)
    dropped = pipeline.filtered["dropped"]
    assert report["kept"] == pipeline.filtered["kept"] + dropped["reliance"] + dropped["redundant"]
    tight = tau_sim(
        *("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db), "--out", str(out)),
        *("--max-turns", "2", "--force"),
    )
    assert json.loads(tight.stdout)["dropped"]["turns"] == pipeline.filtered["kept"]


@pytest.fixture(scope="module")
def exported(pipeline: Pipeline, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "ds"
    done = tau_sim("tracer", "export", str(pipeline.selection), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_the_export_loads_with_datasets_in_trls_shape(pipeline: Pipeline, exported: Path) -> None:
    ds = datasets.load_dataset("json", data_files=str(exported / "train.jsonl"), split="train")
    assert ds.num_rows == pipeline.filtered["kept"]
    assert set(ds.column_names) == {"id", "domain", "messages", "tools"}
    load_plugins()
    names = set(get_domain("retail").toolkit.tools)
    for row in ds:
        messages = row["messages"]
        assert messages[0]["role"] == "system" and "policy" in messages[0]["content"].lower()
        assert messages[1]["role"] == "user"
        assert {m["role"] for m in messages[1:]} <= {"user", "assistant", "tool"}
        assert {t["function"]["name"] for t in row["tools"]} == names
        assert all(t["type"] == "function" for t in row["tools"])
        for message in messages:
            if message["role"] == "tool":
                assert set(message) == {"role", "name", "content"}
                assert message["name"] in names
            for call in message.get("tool_calls") or []:
                assert call["type"] == "function"
                assert isinstance(call["function"]["arguments"], dict)


def test_every_tool_call_validates_against_its_schema(exported: Path) -> None:
    calls = 0
    for line in (exported / "train.jsonl").read_text().splitlines():
        row = json.loads(line)
        schemas = {t["function"]["name"]: t["function"]["parameters"] for t in row["tools"]}
        for message in row["messages"]:
            for call in message.get("tool_calls", []):
                jsonschema.validate(
                    call["function"]["arguments"], schemas[call["function"]["name"]]
                )
                calls += 1
    assert calls > 0


def test_the_users_hidden_fields_never_leak(pipeline: Pipeline, exported: Path) -> None:
    load_plugins()
    from tau_sim.simulator.world.domain import load_tasks

    tasks = load_tasks(pipeline.tasks, get_domain("retail"))
    text = (exported / "train.jsonl").read_text()
    for task in tasks:
        assert task.scenario.goal not in text
    for hidden in (
        "emotion",
        "intensity",
        "scenario",
        "dissatisfaction",
        "reward",
        "###STOP",
        "###UNSATISFIED",
    ):
        assert hidden not in text


def test_the_card_counts_and_names_its_sources(pipeline: Pipeline, exported: Path) -> None:
    card = (exported / "README.md").read_text()
    assert card.startswith("---\nlicense:")
    assert "path: train.jsonl" in card
    assert f"| retail | {pipeline.filtered['kept']} |" in card
    assert pipeline.run_id in card and "scripted/gold" in card
    assert "| 0.3 |" in card and "| anger |" in card
    assert f"| reliance | {pipeline.filtered['dropped']['reliance']} |" in card


def test_exporting_twice_is_byte_identical(
    pipeline: Pipeline, exported: Path, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    assert tau_sim("tracer", "export", str(pipeline.selection), "--out", str(again)).returncode == 0
    for name in ("train.jsonl", "README.md"):
        assert (again / name).read_bytes() == (exported / name).read_bytes()


def test_sharegpt_and_tools_as_string(pipeline: Pipeline, tmp_path: Path) -> None:
    out = tmp_path / "sg"
    done = tau_sim(
        "tracer", "export", str(pipeline.selection), "--out", str(out), "--format", "sharegpt"
    )
    assert done.returncode == 0, done.stderr
    row = json.loads((out / "train.jsonl").read_text().splitlines()[0])
    assert row["conversations"][0]["from"] == "human"
    froms = {t["from"] for t in row["conversations"]}
    assert froms == {"human", "gpt", "function_call", "observation"}
    call = next(t for t in row["conversations"] if t["from"] == "function_call")
    assert set(json.loads(call["value"])) == {"name", "arguments"}
    assert isinstance(json.loads(row["tools"]), list)
    flat = tmp_path / "flat"
    assert (
        tau_sim(
            "tracer", "export", str(pipeline.selection), "--out", str(flat), "--tools-as-string"
        ).returncode
        == 0
    )
    first = json.loads((flat / "train.jsonl").read_text().splitlines()[0])
    assert isinstance(first["tools"], str) and json.loads(first["tools"])[0]["type"] == "function"


def test_stats_tabulate_tools_against_questions(pipeline: Pipeline) -> None:
    done = tau_sim("tracer", "stats", pipeline.run_id, "--db", str(pipeline.db), "--json")
    assert done.returncode == 0, done.stderr
    bins = json.loads(done.stdout)["bins"]
    assert sum(b["conversations"] for b in bins) == 60
    filled = [b for b in bins if b["conversations"]]
    # the over-asker's question-heavy conversations fail more than the gold agent's
    assert filled[0]["success_rate"] < filled[-1]["success_rate"] == 1.0
    table = tau_sim("tracer", "stats", pipeline.run_id, "--db", str(pipeline.db))
    assert "follow-up questions" in table.stdout


def test_stats_plot_is_a_png_of_the_same_run(pipeline: Pipeline, tmp_path: Path) -> None:
    png = tmp_path / "balance.png"
    done = tau_sim("tracer", "stats", pipeline.run_id, "--db", str(pipeline.db), "--plot", str(png))
    assert done.returncode == 0, done.stderr
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (600, 400)  # 6 x 4 inches at matplotlib's 100 dpi
    unwritable = tau_sim(
        "tracer", "stats", pipeline.run_id, "--db", str(pipeline.db), "--plot", "/proc/x.png"
    )
    assert unwritable.returncode == 2 and "--plot /proc/x.png: cannot write" in unwritable.stderr


def test_bad_input_is_one_line_exit_2(pipeline: Pipeline, tmp_path: Path) -> None:
    unknown = tau_sim(
        "tracer", "filter", "run-nope", "--db", str(pipeline.db), "--out", str(tmp_path / "s.json")
    )
    empty_sel = tmp_path / "empty.json"
    none_kept = tau_sim(
        *("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db)),
        *("--out", str(empty_sel), "--min-reward", "2"),
    )
    assert none_kept.returncode == 0 and json.loads(none_kept.stdout)["kept"] == 0
    empty = tau_sim("tracer", "export", str(empty_sel), "--out", str(tmp_path / "ds"))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    bad = tau_sim("tracer", "export", str(garbage), "--out", str(tmp_path / "ds"))
    for done, words in (
        (unknown, "no run 'run-nope'"),
        (empty, "keeps no conversation"),
        (bad, "not a selection"),
    ):
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], done.stderr
    assert not (tmp_path / "ds").exists()


def test_reasoning_is_kept_only_when_asked() -> None:
    from tau_sim.simulator.core.chat import ToolCallSpec
    from tau_sim.simulator.core.events import AgentMessage, EmotionUpdate, ToolResult, UserMessage
    from tau_sim.tracer.sft import messages
    from tau_sim.tracer.source import Conversation

    load_plugins()
    retail = get_domain("retail")
    task = retail.tasks[0]
    call = ToolCallSpec("c1", "find_user_id_by_email", {"email": "a@b.c"})
    events = [
        UserMessage(conversation="x", text="hi"),
        EmotionUpdate(conversation="x", emotion="anger", intensity=0.9, dissatisfaction=0.5),
        AgentMessage(conversation="x", tool_calls=[call], reasoning="look the user up"),
        ToolResult(conversation="x", call_id="c1", name=call.name, content="u1"),
        AgentMessage(conversation="x", text="Found you."),
        UserMessage(conversation="x", text="bye", ends="###STOP###"),
    ]
    conversation = Conversation({"id": "x"}, task, retail, events)
    dropped = messages(conversation, "drop")
    kept = messages(conversation, "keep")
    assert [m["role"] for m in dropped] == ["system", "user", "assistant", "tool", "assistant"]
    assert "reasoning_content" not in dropped[2]
    assert kept[2]["reasoning_content"] == "look the user up"
    assert kept[2]["tool_calls"] == [
        {"type": "function", "function": {"name": call.name, "arguments": {"email": "a@b.c"}}}
    ]
