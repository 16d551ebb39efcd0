import pytest

from tau_sim.agents.phrases import ACKNOWLEDGEMENTS, GREETINGS
from tau_sim.agents.scripted import ScriptedAgent, ScriptedAgentProvider
from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import (
    CalibrationAgentProvider,
    get_domain,
    make_agent_provider,
)
from tau_sim.simulator.world.domain import Task
from tau_sim.simulator.world.views import agent_view, answer_key
from tau_sim.users.dialogue import AgentTextReader
from tests.agents.dialog import context
from tests.agents.toy_domain import TASKS, gym

pytestmark = pytest.mark.anyio

DOMAIN = gym()
READER = AgentTextReader([])


def agent(profile: str, task: Task, **args: str) -> ScriptedAgent:
    provider = make_agent_provider(f"scripted/{profile}", dict(args))
    assert isinstance(provider, ScriptedAgentProvider)
    return provider.for_answer_key(agent_view(context(DOMAIN, task)), answer_key(DOMAIN, task))


async def script(
    model: ScriptedAgent,
    task: Task,
    reply: str = "ok",
    results: dict[str, str] | None = None,
    opening: str | None = None,
) -> list[ChatMessage]:
    """Drive the agent with a stub user (always ``reply``) and stub tools; return its turns.

    A stub tool answers ``results[name]`` when given, else ``{}``.
    """
    history = [ChatMessage(role="user", content=opening or task.scenario.opening)]
    turns: list[ChatMessage] = []
    for _ in range(40):
        response = await model.respond(list(history))
        message = response.message
        assert len(message.tool_calls) <= 1
        # a scripted agent is no model: it reports no made-up tokens and no cost
        assert response.usage.tokens_in == response.usage.tokens_out == 0
        assert response.usage.cost_usd is None
        turns.append(message)
        history.append(message)
        if message.tool_calls:
            call = message.tool_calls[0]
            content = (results or {}).get(call.name, "{}")
            history.append(
                ChatMessage(role="tool", content=content, tool_call_id=call.id, name=call.name)
            )
            if DOMAIN.toolkit.ends(call.name) is not None:
                break
        elif "anything else" in (message.content or "").lower():
            break
        else:
            history.append(ChatMessage(role="user", content=reply))
    return turns


def calls(turns: list[ChatMessage]) -> list[str]:
    return [m.tool_calls[0].name for m in turns if m.tool_calls]


def texts(turns: list[ChatMessage]) -> list[str]:
    return [m.content for m in turns if m.content]


async def test_provider_names_and_errors() -> None:
    provider = make_agent_provider("scripted/gold", {})
    assert isinstance(provider, CalibrationAgentProvider)
    assert provider.name == "scripted/gold"
    async with provider:
        model = agent("gold", TASKS[0])
        assert model.name == "scripted/gold"
    assert make_agent_provider("scripted", {}).name == "scripted/gold"
    alias = make_agent_provider("scripted/oracle", {})
    assert alias.name == "scripted/oracle" and isinstance(alias, ScriptedAgentProvider)
    assert alias.profile == "gold"
    with pytest.raises(UsageError, match="gold, scripted/over-asker, scripted/sloppy"):
        make_agent_provider("scripted/genius", {})
    with pytest.raises(UsageError, match="--agent-arg latency"):
        make_agent_provider("scripted/gold", {"latency": "fast"})
    with pytest.raises(UsageError, match="--agent-arg error_rate"):
        make_agent_provider("scripted/sloppy", {"error_rate": "1.5"})
    with pytest.raises(UsageError, match="--user"):
        from tau_sim.simulator.core.registry import make_user_provider

        make_user_provider("scripted/gold", {})


async def test_gold_follows_the_gold_path_with_confirmation_before_the_write() -> None:
    task = TASKS[0]
    turns = await script(agent("gold", task), task)
    assert calls(turns) == [a.name for a in task.actions]
    said = texts(turns)
    assert "your email address" in said[0]
    assert said[0].startswith("Thanks")  # neutral user: no emotional acknowledgement
    write_at = next(
        i for i, m in enumerate(turns) if m.tool_calls and m.tool_calls[0].name == "cancel_booking"
    )
    assert "Shall I go ahead?" in (turns[write_at - 1].content or "")
    assert "$40.00" in said[-1] and said[-1].endswith("Is there anything else I can help you with?")
    for m in turns:
        for call in m.tool_calls:
            action = next(a for a in task.actions if a.name == call.name)
            assert call.arguments == action.arguments
    ids = [m.tool_calls[0].id for m in turns if m.tool_calls]
    assert len(set(ids)) == len(ids)


async def test_gold_apologises_from_the_users_words_and_skips_given_slots() -> None:
    task = TASKS[0]
    upset = "This is ridiculous! I want to cancel my gym booking."
    said = texts(await script(agent("gold", task), task, opening=upset))
    assert said[0].startswith(ACKNOWLEDGEMENTS["anger"]["high"])
    calm = texts(await script(agent("gold", task), task))
    assert calm[0].startswith(GREETINGS) and not READER.read(calm[0]).acknowledged
    # later texts acknowledge again only after a reply whose words show a feeling
    fed_up = await script(agent("gold", task), task, reply="Ugh, I'm fed up with this.")
    assert all(READER.read(t).acknowledged for t in texts(fed_up)[1:])
    assert not any(READER.read(t).acknowledged for t in calm[1:])
    given = Task(**{**{f: getattr(task, f) for f in task.__struct_fields__}, "id": "given"})
    history = [ChatMessage(role="user", content="Hi, I am ana@example.com and want to cancel.")]
    model = agent("gold", given)
    first = (await model.respond(history)).message
    assert first.tool_calls and first.tool_calls[0].name == "find_user_id_by_email"


async def test_gold_stops_without_writing_when_the_user_refuses() -> None:
    task = TASKS[0]
    turns = await script(agent("gold", task), task, reply="No, don't do that.")
    assert "cancel_booking" not in calls(turns)
    assert calls(turns) == ["find_user_id_by_email", "get_user_details", "get_booking"]
    said = texts(turns)
    assert "Shall I go ahead?" in said[-2]
    assert "not make any changes" in said[-1] and said[-1].endswith("help you with?")


async def test_gold_takes_ids_from_live_tool_results() -> None:
    retail = get_domain("retail")
    task = retail.tasks[0]  # find the user by name and zip, then read the user's details
    key = answer_key(retail, task)
    found, details = task.actions[0], task.actions[1]
    user_id = details.arguments["user_id"]
    assert found.name.startswith("find_user") and key.results[0] == user_id
    provider = make_agent_provider("scripted/gold", {})
    assert isinstance(provider, ScriptedAgentProvider)
    model = provider.for_answer_key(agent_view(context(retail, task)), key)
    turns = await script(model, task, results={found.name: "someone_else_42"})
    read = [m.tool_calls[0] for m in turns if m.tool_calls][1]
    assert read.name == details.name and read.arguments["user_id"] == "someone_else_42"
    # what the user gave (the order id) is still taken from the user, not from a result
    live = answer_key(DOMAIN, TASKS[0]).results[1].replace('"B1"', '"B9"')
    turns = await script(agent("gold", TASKS[0]), TASKS[0], results={"get_booking": live})
    cancel = [m.tool_calls[0] for m in turns if m.tool_calls][-1]
    assert cancel.name == "cancel_booking" and cancel.arguments["booking_id"] == "B1"


async def test_gold_reports_a_failed_gold_call_and_stops() -> None:
    task = TASKS[0]
    turns = await script(agent("gold", task), task, results={"get_booking": "Error: not found"})
    assert calls(turns) == ["find_user_id_by_email", "get_user_details", "get_booking"]
    assert "could not complete" in texts(turns)[-1]


async def test_gold_without_write_asks_no_confirmation() -> None:
    task = TASKS[1]
    turns = await script(agent("gold", task), task)
    assert calls(turns) == ["find_user_id_by_email", "get_user_details", "get_booking"]
    assert not any("go ahead" in t.lower() for t in texts(turns))
    assert "confirmed" in texts(turns)[-1]


async def test_gold_announces_then_transfers_last() -> None:
    task = TASKS[2]
    turns = await script(agent("gold", task), task)
    assert calls(turns)[-1] == "transfer_to_human_agents"
    assert turns[-1].tool_calls and turns[-1].content is None
    assert "transfer you to a human agent" in (turns[-2].content or "")


async def test_over_asker_asks_for_what_tools_know() -> None:
    task = TASKS[0]
    turns = await script(agent("over-asker", task), task)
    assert calls(turns) == [a.name for a in task.actions]
    said = texts(turns)
    assert any("your booking ID?" in t for t in said)
    assert any(t.endswith("again?") for t in said)
    first_read = next(i for i, m in enumerate(turns) if m.tool_calls)
    assert "your email address" in (turns[0].content or "")
    assert any("booking ID" in (m.content or "") for m in turns[1:first_read] + turns[first_read:])


async def test_sloppy_makes_its_mistakes_at_the_error_rate() -> None:
    task = TASKS[0]
    always = await script(agent("sloppy", task, error_rate="1"), task)
    assert "cancel_booking" not in calls(always)
    assert not any("go ahead" in t.lower() for t in texts(always))
    assert "$40.00" not in texts(always)[-1]
    never = await script(agent("sloppy", task, error_rate="0"), task)
    gold = await script(agent("gold", task), task)
    assert [(m.content, m.tool_calls) for m in never] == [(m.content, m.tool_calls) for m in gold]


async def test_retried_call_gives_the_same_step() -> None:
    task = TASKS[0]
    model = agent("gold", task)
    history = [ChatMessage(role="user", content=task.scenario.opening)]
    a = await model.respond(history)
    b = await model.respond(history)
    assert a.message == b.message


async def test_latency_is_reported() -> None:
    task = TASKS[1]
    model = agent("gold", task, latency="0.01")
    response = await model.respond([ChatMessage(role="user", content="hi")])
    assert response.usage.latency_s == pytest.approx(0.01)
