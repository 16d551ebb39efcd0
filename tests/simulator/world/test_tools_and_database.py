import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.world.database import Base, Database, Index
from tests.scoring import score
from tests.simulator.toy import Counter, increment, toy_domain


def test_schema_comes_from_signature_and_docstring() -> None:
    spec = increment.spec
    assert spec.name == "increment"
    assert spec.description == "Add to a counter."
    params = spec.parameters
    assert params["required"] == ["name"]
    assert params["properties"]["by"] == {
        "type": "integer",
        "default": 1,
        "description": "How much to add.",
    }
    assert params["additionalProperties"] is False


def test_bad_arguments_become_error_results_not_exceptions() -> None:
    domain = toy_domain()
    db = domain.new_database()
    kit = domain.toolkit
    wrong_type = kit.call(db, "increment", {"name": 1})
    assert wrong_type.error and "`name` must be a string, got 1" in wrong_type.content
    assert kit.call(db, "increment", {"name": "a", "zzz": 1}).error
    assert kit.call(db, "increment", "not-a-dict").error
    assert kit.call(db, "explode", {}).content == "Error: unknown tool 'explode'"
    refused = kit.call(db, "increment", {"name": "nope"})
    assert refused.error and "no counter 'nope'" in refused.content
    assert db.state_hash() == domain.new_database().state_hash()


def test_copy_on_write_isolation_and_hash() -> None:
    base = {"counters": {"a": Counter(0)}}
    one, two = Database(Base(base)), Database(Base(base))
    empty = one.state_hash()
    one.put("counters", "a", Counter(5))
    assert two.get("counters", "a") == Counter(0)
    assert base["counters"]["a"] == Counter(0)
    assert one.state_hash() != empty
    two.put("counters", "a", Counter(5))
    assert one.state_hash() == two.state_hash()
    one.put("counters", "a", Counter(0))  # back to the base value: no change
    assert one.state_hash() == empty
    one.delete("counters", "a")
    assert list(one.keys("counters")) == []
    fork = two.fork()
    fork.put("counters", "z", Counter(1))
    assert list(two.keys("counters")) == ["a"]
    assert list(fork.keys("counters")) == ["a", "z"]


def test_base_is_read_only() -> None:
    base = Base({"counters": {"a": Counter(0)}})
    with pytest.raises(TypeError):
        base.tables["counters"]["a"] = Counter(9)  # type: ignore[index]
    with pytest.raises(TypeError):
        base.tables["other"] = {}  # type: ignore[index]
    assert base.database().get("counters", "a") == Counter(0)


def test_find_follows_this_copys_writes_and_leaves_other_copies_alone() -> None:
    by_value = {"value": Index("counters", lambda c: (str(c.value),))}
    base = Base({"counters": {"a": Counter(0), "b": Counter(10), "c": Counter(0)}}, by_value)
    db, other = base.database(), base.database()
    assert db.find("value", "0") == ["a", "c"] and db.find("value", "7") == []
    db.put("counters", "a", Counter(7))
    db.put("counters", "z", Counter(0))
    db.delete("counters", "c")
    assert db.find("value", "0") == ["z"]
    assert db.find("value", "7") == ["a"]
    assert db.fork().find("value", "7") == ["a"]
    assert other.find("value", "0") == ["a", "c"] and other.find("value", "7") == []
    assert base.lookup("value")["0"] == ("a", "c")  # the base index never changes


def test_a_tool_declares_the_ending_it_causes() -> None:
    from tau_sim.simulator.core.endings import TerminationReason

    kit = toy_domain().toolkit
    assert kit.endings == {"transfer_to_human_agents": TerminationReason.TRANSFER}
    assert kit.ends("transfer_to_human_agents") is TerminationReason.TRANSFER
    assert kit.ends("increment") is None and kit.ends("no_such_tool") is None


def test_evaluate_needs_state_and_outputs() -> None:
    domain = toy_domain()
    task = domain.tasks[1]
    db = domain.new_database()
    increment.fn(db, "a", 2)
    reward, bd = score(domain, task, db, ["Done: Counter A is now 2."])
    assert reward == 1.0 and bd.db_match and bd.outputs_communicated == 1.0
    reward, bd = score(domain, task, db, ["Done."])
    assert reward == 0.0 and bd.missing_outputs == ["counter a is now 2"]
    wrong = domain.new_database()
    increment.fn(wrong, "a", 3)
    reward, bd = score(domain, task, wrong, ["counter a is now 2"])
    assert reward == 0.0 and not bd.db_match


def test_malformed_task_file_names_file_and_line(tmp_path) -> None:
    from tau_sim.simulator.core.errors import UsageError
    from tau_sim.simulator.world.domain import load_tasks
    from tau_sim.simulator.world.taskformat import dump_tasks

    path = tmp_path / "tasks.jsonl"
    dump_tasks(toy_domain().tasks, path)
    assert [t.id for t in load_tasks(path)] == ["toy-0", "toy-1", "toy-2", "toy-3"]
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"auth_slots":[]', '"auth_slots":7')
    path.write_text("\n".join(lines))
    with pytest.raises(
        UsageError,
        match=r"tasks.jsonl:3: invalid task: Expected `array`, got `int` - at `\$.auth_slots`",
    ):
        load_tasks(path)
    path.write_text("{not json\n")
    with pytest.raises(UsageError, match=r"tasks.jsonl:1: not valid JSON"):
        load_tasks(path)


def test_endings_come_from_declarations_not_names() -> None:
    import msgspec

    from tau_sim.agents.llm import system_prompt
    from tau_sim.simulator.core.endings import Limits, TerminationReason
    from tau_sim.simulator.core.events import ToolResult
    from tau_sim.simulator.engine.referee import Referee
    from tau_sim.simulator.world.tools import Tool, ToolKind, Toolkit
    from tau_sim.simulator.world.views import ConversationContext, agent_view

    hand_off = Tool(lambda db, summary: "ok", ToolKind.READ, "hand_off", TerminationReason.TRANSFER)
    plain = Tool(lambda db, summary: "ok", ToolKind.READ, "transfer_to_human_agents")
    domain = msgspec.structs.replace(toy_domain(), toolkit=Toolkit([increment, hand_off, plain]))
    ctx = ConversationContext(
        conversation_id="c",
        run_id="r",
        task=domain.tasks[0],
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0.0),
        trial=0,
        seed=0,
    )
    prompt = system_prompt(agent_view(ctx))
    assert "`hand_off`" in prompt and "`transfer_to_human_agents`" not in prompt

    def referee() -> Referee:
        return Referee(Limits(), domain.toolkit.endings)

    def result(name: str, error: bool = False) -> ToolResult:
        return ToolResult(conversation="c", call_id="1", name=name, content="ok", error=error)

    named, failed, declared = referee(), referee(), referee()
    named.observe(result("transfer_to_human_agents"))
    failed.observe(result("hand_off", error=True))
    declared.observe(result("hand_off"))
    assert named.reason is None and failed.reason is None
    assert declared.reason is TerminationReason.TRANSFER
