from __future__ import annotations

import json
import sqlite3
import struct
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import datasets
import jsonschema
import pyarrow
import pyarrow.json
import pytest
import sqlite_utils

from tau_sim.agents.llm import ToolCallingAgent
from tau_sim.simulator.core import ChatMessage, Condition
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import ConversationContext, Domain, agent_view
from tau_sim.tracer import source
from tau_sim.tracer.filtering import failed_checks
from tau_sim.tracer.signals import signals
from tau_sim.tracer.thresholds import Thresholds
from tests.tracer.conftest import Pipeline, tau_sim


def conversations(pipeline: Pipeline) -> dict[str, tuple[str, str, float]]:
    with sqlite3.connect(pipeline.db) as conn:
        rows = conn.execute("select id, agent, reason, reward from conversations").fetchall()
    return {i: (agent, reason, reward) for i, agent, reason, reward in rows}


def judged(pipeline: Pipeline) -> dict[str, tuple[str, list[str]]]:
    """Every conversation of the pipeline: its agent and the checks it fails (in-process)."""
    load_plugins()
    db = sqlite_utils.Database(pipeline.db)
    return {
        c.id: (str(c.row["agent"]), failed_checks(c, signals(c), Thresholds()))
        for c in source.conversations(db, source.open_run(db, pipeline.run_id))
    }


def test_the_filter_keeps_grounded_gold_and_drops_over_askers_for_what_the_user_felt(
    pipeline: Pipeline,
) -> None:
    rows = conversations(pipeline)
    selection = json.loads(pipeline.selection.read_text())
    kept = set(selection["kept"])
    found = judged(pipeline)
    gold = {i for i, (agent, _, _) in rows.items() if agent == "scripted/gold"}
    asker = {i: reason for i, (agent, reason, _) in rows.items() if agent != "scripted/gold"}
    assert kept == {i for i in gold if not found[i][1]}
    # gold is never dropped: it states no fact before a tool showed it (it confirms a write
    # whose item ids come from a later lookup only after that lookup: ``agents.plan._parts``)
    assert gold <= kept
    dropped, flagged = pipeline.filtered["dropped"], pipeline.filtered["flagged"]
    abandoned = sum(reason == "user_abandoned" for reason in asker.values())
    assert 0 < abandoned < len(asker)
    assert dropped["abandoned"] == flagged["abandoned"] == abandoned
    # every over-asker that finished leaned on the user: it asked what a tool could give or
    # what the user had already given, and the user recorded a repeated question each time
    finished = [i for i, reason in asker.items() if reason != "user_abandoned"]
    assert all({"reliance", "redundant"} & set(found[i][1]) for i in finished)
    assert all("repeated_question" in found[i][1] for i in finished)
    # retail's policy prescribes asking which items and which refund method (SlotHint.policy_asks),
    # so only the over-asker's other lookup-able questions lean on the user
    assert dropped["reliance"] >= dropped["redundant"] > 0
    assert flagged["repeated_question"] >= len(finished) > 0
    assert dropped["ungrounded_arguments"] == flagged["ungrounded_arguments"] == 0
    for tag in ("dismissive", "unbacked_claim"):  # gold acknowledges and backs its claims
        assert not any(tag in found[i][1] for i in gold)
    assert pipeline.filtered["kept"] == len(kept) and pipeline.filtered["total"] == 60
    assert sum(dropped.values()) + len(kept) == 60
    assert pipeline.filtered["cells"]["cells"] == len(kept)  # one per condition x task x agent


def test_every_threshold_is_a_flag(pipeline: Pipeline, tmp_path: Path) -> None:
    out = tmp_path / "loose.json"
    base = ("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db), "--out", str(out))
    dropped = pipeline.filtered["dropped"]
    # the old two flags are not enough: the user's tags still drop every over-asker
    old = tau_sim(*base, "--max-reliance", "99", "--max-redundant", "99")
    assert old.returncode == 0, old.stderr
    assert json.loads(old.stdout)["kept"] == pipeline.filtered["kept"]
    relaxed = [
        "reliance",
        "redundant",
        "unanswered",
        "dismissive",
        "ignored_cue",
        "repeated_question",
        "unbacked_claim",
    ]
    loose = tau_sim(
        *base, "--force", *(a for r in relaxed for a in (f"--max-{r.replace('_', '-')}", "99"))
    )
    assert loose.returncode == 0, loose.stderr
    report = json.loads(loose.stdout)
    assert report["kept"] == pipeline.filtered["kept"] + sum(dropped[r] for r in relaxed)
    # without the grounding filter every gold conversation is kept (gold fails nothing else)
    grounded = tau_sim(*base, "--force", "--max-ungrounded-facts", "99")
    gold = sum(agent == "scripted/gold" for agent, _, _ in conversations(pipeline).values())
    assert json.loads(grounded.stdout)["kept"] == gold
    tight = tau_sim(*base, "--max-turns", "2", "--force")
    assert json.loads(tight.stdout)["dropped"]["turns"] == pipeline.filtered["kept"]


def test_caps_and_rebalancing_by_condition(pipeline: Pipeline, tmp_path: Path) -> None:
    out = tmp_path / "even.json"
    base = ("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db), "--out", str(out))
    done = tau_sim(*base, "--cell-by", "emotion,intensity", "--cap-per-cell", "3", "--rebalance")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    cells = report["cells"]
    assert cells["after_min"] == cells["after_max"] <= 3
    assert report["kept"] == cells["cells"] * cells["after_min"]
    assert report["dropped"]["balance"] == pipeline.filtered["kept"] - report["kept"] > 0
    rows = {
        i: r
        for i, r in conversations_rows(pipeline).items()
        if i in json.loads(out.read_text())["kept"]
    }
    per_cell = Counter((r["emotion"], r["intensity"]) for r in rows.values())
    assert set(per_cell.values()) == {cells["after_min"]}
    bad = tau_sim(*base, "--force", "--cell-by", "mood")
    assert bad.returncode == 2 and "--cell-by: 'mood'" in bad.stderr
    zero = tau_sim(*base, "--force", "--cap-per-cell", "0")
    assert zero.returncode == 2 and "--cap-per-cell 0" in zero.stderr
    assert "Traceback" not in bad.stderr + zero.stderr


def conversations_rows(pipeline: Pipeline) -> dict[str, dict[str, Any]]:
    with sqlite3.connect(pipeline.db) as conn:
        conn.row_factory = sqlite3.Row
        return {r["id"]: dict(r) for r in conn.execute("select * from conversations")}


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
    system = sent_system_prompt(get_domain("retail"))
    for row in ds:
        messages = row["messages"]
        assert messages[0] == {"role": "system", "content": system}
        assert messages[1]["role"] == "user"
        assert {m["role"] for m in messages[1:]} <= {"user", "assistant", "tool"}
        assert {t["function"]["name"] for t in row["tools"]} == names
        assert all(t["type"] == "function" for t in row["tools"])
        assert messages[-1]["role"] == "assistant"
        calls: dict[str, str] = {}
        for message in messages:
            if message["role"] == "tool":
                assert set(message) == {"role", "tool_call_id", "name", "content"}
                # each result answers an earlier call of the same tool, by its stored id
                assert calls.pop(message["tool_call_id"]) == message["name"] in names
            for call in message.get("tool_calls") or []:
                assert call["type"] == "function" and call["id"].startswith("call_")
                assert isinstance(call["function"]["arguments"], dict)
                calls[call["id"]] = call["function"]["name"]


def sent_system_prompt(domain: Domain) -> str:
    """The system message the tool-calling agent sends its model (captured, not rebuilt)."""
    sent: list[list[ChatMessage]] = []

    class Recorder:
        name = "recorder"

        async def chat(self, messages: list[ChatMessage], tools: Any) -> Any:
            sent.append(messages)
            return None

    view = agent_view(
        ConversationContext(
            conversation_id="c",
            run_id="r",
            task=domain.tasks[0],
            domain=domain,
            condition=Condition(emotion="neutral", intensity=0.0),
            trial=0,
            seed=0,
        )
    )
    anyio.run(ToolCallingAgent(Recorder(), view).respond, [])  # type: ignore[arg-type]
    ((system, *_),) = sent
    assert system.role == "system" and system.content
    return system.content


def arguments_type(folder: Path) -> Any:
    """The arrow type pyarrow's JSON reader gives the calls' ``arguments`` of an export."""
    message = pyarrow.json.read_json(folder / "train.jsonl").schema.field("messages").type
    call = message.value_type.field("tool_calls").type.value_type
    return call.field("function").type.field("arguments").type


def test_arguments_as_strings_and_mistral_call_ids(
    pipeline: Pipeline, exported: Path, tmp_path: Path
) -> None:
    out = tmp_path / "strings"
    done = tau_sim(
        *("tracer", "export", str(pipeline.selection), "--out", str(out)),
        *("--arguments-as-string", "--tools-as-string", "--call-ids", "mistral"),
    )
    assert done.returncode == 0, done.stderr
    plain = [json.loads(line) for line in (exported / "train.jsonl").read_text().splitlines()]
    flat = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    # datasets < 4.7 read JSON lines with pyarrow's reader: objects merge into one struct of
    # every key of every call (padded with nulls), strings stay strings
    assert arguments_type(exported).num_fields > 10
    assert arguments_type(out) == pyarrow.string()
    ds = datasets.load_dataset("json", data_files=str(out / "train.jsonl"), split="train")
    assert ds.num_rows == len(flat)
    for a, b in zip(plain, flat, strict=True):
        ids: dict[str, str] = {}
        for x, y in zip(a["messages"], b["messages"], strict=True):
            for cx, cy in zip(x.get("tool_calls", []), y.get("tool_calls", []), strict=True):
                assert json.loads(cy["function"]["arguments"]) == cx["function"]["arguments"]
                assert len(cy["id"]) == 9 and cy["id"].isalnum()
                ids[cx["id"]] = cy["id"]
            if x["role"] == "tool":
                assert y["tool_call_id"] == ids[x["tool_call_id"]]
        assert len(set(ids.values())) == len(ids)


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
    flagged = pipeline.filtered["flagged"]["repeated_question"]
    assert f"| repeated_question | {flagged} |" in card
    assert "Cells: condition x task x agent; cap per cell: none" in card


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
    # the over-asker's needless questions fail more than the gold agent's necessary ones
    assert filled[0]["success_rate"] < filled[-1]["success_rate"]
    table = tau_sim("tracer", "stats", pipeline.run_id, "--db", str(pipeline.db))
    assert "follow-up questions" in table.stdout


def test_stats_plot_is_a_png_of_the_same_run(pipeline: Pipeline, tmp_path: Path) -> None:
    png = tmp_path / "balance.png"
    done = tau_sim("tracer", "stats", pipeline.run_id, "--db", str(pipeline.db), "--plot", str(png))
    assert done.returncode == 0, done.stderr
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (2100, 920)  # a 21 x 4.6 inch row per agent at 100 dpi
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
    row = {"id": "x", "run_id": "r", "emotion": "anger", "intensity": 0.9, "trial": 0, "seed": 1}
    conversation = Conversation(row, task, retail, events)
    dropped = messages(conversation, "drop")
    kept = messages(conversation, "keep")
    assert [m["role"] for m in dropped] == ["system", "user", "assistant", "tool", "assistant"]
    assert "reasoning_content" not in dropped[2]
    assert kept[2]["reasoning_content"] == "look the user up"
    assert kept[2]["tool_calls"] == [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": call.name, "arguments": {"email": "a@b.c"}},
        }
    ]
    assert kept[3] == {"role": "tool", "tool_call_id": "c1", "name": call.name, "content": "u1"}
