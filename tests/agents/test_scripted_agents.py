import pytest

from agents.scripted import ScriptedAgentModel
from simulator.chat import ChatMessage, ChatModel
from simulator.domain import Task
from simulator.errors import UsageError
from simulator.registry import make_model_provider
from tests.agents.dialog import context
from tests.agents.toy_domain import TASKS, ToyDomain

pytestmark = pytest.mark.anyio

DOMAIN = ToyDomain()


def agent(profile: str, task: Task, emotion: str = "neutral", **args: str) -> ChatModel:
    provider = make_model_provider(f"scripted/{profile}", dict(args))
    ctx = context(DOMAIN, task, emotion)
    return provider.for_conversation(ctx, "agent")


async def script(model: ChatModel, task: Task, reply: str = "ok") -> list[ChatMessage]:
    """Drive the agent with a stub user (always ``reply``) and stub tools; return its turns."""
    history = [ChatMessage(role="user", content=task.scenario.opening)]
    turns: list[ChatMessage] = []
    for _ in range(40):
        response = await model.chat([ChatMessage(role="system", content="p"), *history], [])
        message = response.message
        assert len(message.tool_calls) <= 1
        assert response.usage.tokens_out > 0
        turns.append(message)
        history.append(message)
        if message.tool_calls:
            call = message.tool_calls[0]
            history.append(
                ChatMessage(role="tool", content="{}", tool_call_id=call.id, name=call.name)
            )
            if call.name == DOMAIN.transfer_tool:
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
    provider = make_model_provider("scripted/oracle", {})
    assert provider.name == "scripted/oracle"
    async with provider:
        model = provider.for_conversation(context(DOMAIN, TASKS[0]), "agent")
        assert isinstance(model, ChatModel)
        assert model.name == "scripted/oracle" and model.backend == "scripted"
        await model.aclose()
    assert make_model_provider("scripted", {}).name == "scripted/oracle"
    with pytest.raises(UsageError, match="oracle, scripted/over-asker, scripted/sloppy"):
        make_model_provider("scripted/genius", {})
    with pytest.raises(UsageError, match="--agent-arg latency"):
        make_model_provider("scripted/oracle", {"latency": "fast"})
    with pytest.raises(UsageError, match="--agent-arg error_rate"):
        make_model_provider("scripted/sloppy", {"error_rate": "1.5"})
    with pytest.raises(UsageError, match="--user"):
        provider.for_conversation(context(DOMAIN, TASKS[0]), "user")


async def test_oracle_follows_the_gold_path_with_confirmation_before_the_write() -> None:
    task = TASKS[0]
    turns = await script(agent("oracle", task), task)
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


async def test_oracle_acknowledges_emotional_users_and_skips_given_slots() -> None:
    task = TASKS[0]
    said = texts(await script(agent("oracle", task, emotion="frustration"), task))
    assert "sorry" in said[0].lower()
    given = Task(**{**{f: getattr(task, f) for f in task.__struct_fields__}, "id": "given"})
    history = [ChatMessage(role="user", content="Hi, I am ana@example.com and want to cancel.")]
    model = agent("oracle", given)
    first = (await model.chat(history, [])).message
    assert first.tool_calls and first.tool_calls[0].name == "find_customer"


async def test_oracle_without_write_asks_no_confirmation() -> None:
    task = TASKS[1]
    turns = await script(agent("oracle", task), task)
    assert calls(turns) == ["find_customer", "get_booking"]
    assert not any("go ahead" in t.lower() for t in texts(turns))
    assert "confirmed" in texts(turns)[-1]


async def test_oracle_announces_then_transfers_last() -> None:
    task = TASKS[2]
    turns = await script(agent("oracle", task), task)
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
    oracle = await script(agent("oracle", task), task)
    assert [(m.content, m.tool_calls) for m in never] == [(m.content, m.tool_calls) for m in oracle]


async def test_retried_call_gives_the_same_step() -> None:
    task = TASKS[0]
    model = agent("oracle", task)
    assert isinstance(model, ScriptedAgentModel)
    history = [ChatMessage(role="user", content=task.scenario.opening)]
    a = await model.chat(history, [])
    b = await model.chat(history, [])
    assert a.message == b.message


async def test_latency_is_reported() -> None:
    task = TASKS[1]
    model = agent("oracle", task, latency="0.01")
    response = await model.chat([ChatMessage(role="user", content="hi")], [])
    assert response.usage.latency_s == pytest.approx(0.01)
