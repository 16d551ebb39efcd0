"""One bar for every registered domain: sizes, schemas, gold paths, mistakes, determinism.

Parametrised over ``DOMAINS`` (every built-in domain the installed plugins register: an
imported ``x/y`` domain, τ²-bench's, has no intents or scripted users and its own suite in
``tests/domains/tau2``), so a new domain is held to the same checks as retail without a line of
test code of its own. The gold agent plays
every benchmark task through the real runner (scripted user, neutral), the mistakes of each
intent replay on fresh databases, and the CLI lists and describes each domain.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import msgspec
import pytest

from tau_sim.simulator.cli import main as cli
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import Store
from tau_sim.simulator.world.domain import Action, Domain, Task, load_tasks
from tau_sim.simulator.world.tools import ToolKind
from tests.helpers.cli import TAU_SIM
from tests.scoring import score

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]


@pytest.fixture(scope="module", params=NAMES)
def domain(request: pytest.FixtureRequest) -> Domain:
    built: Domain = get_domain(request.param)
    return built


def replay(domain: Domain, task: Task, actions: list[Action]) -> tuple[float, bool]:
    """Every action of ``actions`` must succeed on a fresh database; the reward of the result."""
    db = domain.new_database()
    for action in actions:
        outcome = domain.call(db, action)
        assert not outcome.error, (task.id, action.name, outcome.content)
    said = ["Done. " + " and ".join(task.required_outputs)]
    reward, breakdown = score(domain, task, db, said)
    return reward, breakdown.db_match


def test_sized_like_a_benchmark_world(domain: Domain) -> None:
    endings = domain.toolkit.endings
    domain_tools = [t for t in domain.toolkit.tools.values() if t.name not in endings]
    kinds = {t.kind for t in domain_tools}
    assert len(domain_tools) >= 12 and kinds == {ToolKind.READ, ToolKind.WRITE}
    assert domain.toolkit.endings, "the kit's transfer tool"
    assert len(domain.intents) >= 8
    assert len(domain.tasks) >= 50
    assert {t.intent for t in domain.tasks} == {i.name for i in domain.intents}
    assert any(i.forbidden for i in domain.intents), "a task the policy forbids"
    assert any(len(domain.write_actions(t)) >= 2 for t in domain.tasks), "a multi-write task"
    assert any(t.scenario.known_info for t in domain.tasks)
    assert 2_000 <= len(domain.policy) <= 14_000, "a policy of one to two pages"


def test_every_tool_schema_is_valid_json_schema(domain: Domain) -> None:
    toolkits = [domain.toolkit, *([domain.user_toolkit] if domain.user_toolkit else [])]
    for toolkit in toolkits:
        for tool in toolkit.tools.values():
            schema = tool.spec.parameters
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object", tool.name
            assert tool.spec.description.strip(), tool.name
            for name, prop in schema.get("properties", {}).items():
                assert prop.get("description"), f"{tool.name}.{name} has no description"


def test_gold_actions_call_declared_tools_with_valid_arguments(domain: Domain) -> None:
    assert domain.tasks_path is not None
    load_tasks(domain.tasks_path, domain)  # the load-time check (tools, types, replay)
    for task in domain.tasks:
        for action in task.actions:
            tool = domain.tool(action.name)  # an agent tool, or a user tool: a user step
            assert tool is not None, (task.id, action.name)
            jsonschema.validate(dict(action.arguments), tool.spec.parameters)


def test_forbidden_tasks_write_nothing_and_end_in_refusal_or_transfer(domain: Domain) -> None:
    for task in domain.tasks:
        if domain.intent(task.intent).forbidden:
            assert not domain.write_actions(task), task.id


def test_every_mistake_is_allowed_by_the_tools_and_scores_zero(domain: Domain) -> None:
    for task in domain.tasks:
        intent = domain.intent(task.intent)
        # the grader is checked from the task line: what the generator gives, written there
        mistakes = task.mistakes
        assert mistakes == intent.mistakes(domain, task), task.id
        if domain.write_actions(task) or task.forbidden:
            assert mistakes, f"{task.id}: no mistake to check the grader with"
        for path in mistakes:
            reward, db_match = replay(domain, task, path)
            assert reward == 0.0 and not db_match, (task.id, path)


def test_violations_are_forbidden_writes_the_tools_allow_and_the_grader_fails(
    domain: Domain,
) -> None:
    refusal_intents = set()
    for task in domain.tasks:
        intent = domain.intent(task.intent)
        violations = domain.violations(task)
        # the run reads them from the task line: what the generator gives, written there
        assert violations == intent.violations(domain, task), task.id
        assert (task.rules, task.forbidden) == (list(intent.rules), intent.forbidden), task.id
        if not (intent.forbidden or intent.rules):
            assert violations == [], f"{task.id}: only a forbidden or mixed intent asks for one"
            continue
        if not violations:
            continue
        refusal_intents.add(intent.name)
        # a mixed task's allowed writes are in its gold path: they come first
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        reward, db_match = replay(domain, task, [*reads, *violations])
        assert reward == 0.0 and not db_match, task.id
        # the write is spelled once: the task's known mistakes make it too
        assert any(all(v in path for v in violations) for path in task.mistakes), task.id
    # every domain has a refusal task whose forbidden write its tools would make, but retail:
    # its one forbidden intent asks to cancel a shipped order, which no retail tool does
    assert refusal_intents or domain.name == "retail"


def test_gold_agent_scores_one_on_every_task_through_the_runner(
    domain: Domain, tmp_path: Path
) -> None:
    tasks = [t.id for t in domain.tasks]
    config = RunConfig(domains=[domain.name], tasks=tasks, seed=11, concurrency=16)
    store = Store(tmp_path / "gold.db")
    anyio.run(Runner(store, config, "gold", create=True).run)
    rows = list(store.db.query("select task_id, reason, reward from conversations"))
    assert len(rows) == len(domain.tasks)
    failed = [(r["task_id"], r["reason"]) for r in rows if r["reward"] != 1.0]
    assert not failed
    ends_in_transfer = {
        t.id for t in domain.tasks if t.actions and t.actions[-1].name in domain.toolkit.endings
    }
    assert {r["task_id"] for r in rows if r["reason"] == "transfer"} == ends_in_transfer


def test_same_seed_same_database_and_task_file(
    domain: Domain, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    again = DOMAINS.get(domain.name)()
    encode = msgspec.json.encode
    assert list(again.base.tables) == list(domain.base.tables)
    for table, rows in domain.base.tables.items():
        assert encode(dict(again.base.tables[table])) == encode(dict(rows)), table
    assert domain.tasks_path is not None
    # the CLI in this process (test_retail.py runs `domains generate` as a real subprocess)
    assert cli.main(["domains", "generate", domain.name, "--out", "-"]) == 0
    assert capsysbinary.readouterr().out == domain.tasks_path.read_bytes()


@pytest.fixture(scope="module")
def listed() -> str:
    """What ``tau-sim domains`` prints (one call: it builds every domain, τ²-bench's too)."""
    return subprocess.run(
        [*TAU_SIM, "domains"], capture_output=True, text=True, check=True, timeout=60
    ).stdout


def test_listed_and_described_by_the_cli(
    domain: Domain, listed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert re.search(rf"│ {domain.name} +│", listed)
    # `domains show` in this process (test_cli.py runs it as a real subprocess)
    assert cli.main(["domains", "show", domain.name, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["name"] == domain.name and shown["tasks"] == len(domain.tasks)
    assert [t["name"] for t in shown["tools"]] == list(domain.toolkit.tools)
    assert {t["kind"] for t in shown["tools"]} == {"read", "write"}
    user_tools = domain.user_toolkit.tools if domain.user_toolkit else {}
    assert [t["name"] for t in shown["user_tools"]] == list(user_tools)
    assert [i["name"] for i in shown["intents"]] == [i.name for i in domain.intents]
    marks = re.findall(r"\[rule ([a-z0-9-]+)\]", domain.policy)
    assert shown["rules"] == marks
    for intent in shown["intents"]:
        assert intent["tier"] in ("base", "hard") and set(intent["rules"]) <= set(marks)
        assert intent["description"].endswith(".") and "\n" not in intent["description"]


def _first_write(domain: Domain, lines: list[str]) -> tuple[int, int, dict[str, Any]]:
    """(line index, action index, task) of the first task line with a write action."""
    for n, line in enumerate(lines):
        task = json.loads(line)
        for i, action in enumerate(task["actions"]):
            if domain.toolkit.kind(action["name"]) is ToolKind.WRITE:
                return n, i, task
    raise AssertionError("no task writes")


def test_bad_task_files_are_refused_naming_file_line_task_and_field(
    domain: Domain, tmp_path: Path
) -> None:
    assert domain.tasks_path is not None
    lines = domain.tasks_path.read_text(encoding="utf-8").splitlines()
    n, i, task = _first_write(domain, lines)
    bad = tmp_path / "tasks.jsonl"
    where = rf"{re.escape(str(bad))}:{n + 1}: task {task['id']}: actions\[{i}\]"

    def refused(edit: dict[str, Any], pattern: str) -> None:
        edited = [*lines[:n], json.dumps(edit), *lines[n + 1 :]]
        bad.write_text("\n".join(edited) + "\n", encoding="utf-8")
        with pytest.raises(UsageError, match=where + pattern):
            load_tasks(bad, domain)

    action = task["actions"][i]
    unknown = json.loads(json.dumps(task))
    unknown["actions"][i]["name"] = "no_such_tool"
    refused(unknown, r" no_such_tool: unknown tool")

    key = sorted(action["arguments"])[0]
    wrong_type = json.loads(json.dumps(task))
    wrong_type["actions"][i]["arguments"][key] = {"not": "a value"}
    refused(wrong_type, rf"\.arguments\.{key}: Expected")

    ids = [k for k, v in action["arguments"].items() if isinstance(v, str) and k.endswith("_id")]
    assert ids, f"{action['name']} names no record by id"
    missing = json.loads(json.dumps(task))
    missing["actions"][i]["arguments"][ids[0]] = "does-not-exist-0"
    refused(missing, rf" {action['name']} fails on a fresh database")
