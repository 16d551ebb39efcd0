"""``told.untold``: the tool-call string arguments nobody said before the call."""

from __future__ import annotations

from typing import Any

from tau_sim.domains.kit.tools import transfer_to_human_agents
from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.events import (
    AgentMessage,
    Event,
    ToolResult,
    UserMessage,
    UserToolResult,
)
from tau_sim.simulator.world import Toolkit, Untold, untold

C = "c1"


def user(text: str) -> UserMessage:
    return UserMessage(conversation=C, text=text)


def call(tool: str, **arguments: Any) -> AgentMessage:
    return AgentMessage(conversation=C, tool_calls=[ToolCallSpec("t", tool, arguments)])


def result(content: str) -> ToolResult:
    return ToolResult(conversation=C, call_id="t", name="x", content=content)


def test_a_value_the_user_said_is_told_whatever_its_case_and_separators() -> None:
    events: list[Event] = [
        user("I want a One-Way trip for Zoe  Taylor, born 1995-04-12."),
        call("book", trip_type="one_way", passenger="zoe taylor", dob="1995_04_12"),
    ]
    assert untold(events) == []


def test_a_value_nobody_said_is_reported_with_its_call_and_path() -> None:
    events: list[Event] = [
        user("Hi, I'd like to book a flight from JFK to ORD."),
        call("search", origin="JFK", destination="ORD"),
        result('{"flights": [{"flight_number": "AT970", "date": "2026-05-21"}]}'),
        call(
            "book",
            flights=[{"flight_number": "AT970", "date": "2026-05-21"}],
            passengers=[{"first_name": "Zoe", "dob": "1995-04-12"}],
        ),
    ]
    assert untold(events) == [
        Untold("book", 1, "passengers[0].first_name", "Zoe"),
        Untold("book", 1, "passengers[0].dob", "1995-04-12"),
    ]


def test_a_value_said_only_after_the_call_is_untold() -> None:
    events: list[Event] = [call("lookup", order_id="#W123"), user("My order is #W123.")]
    assert untold(events) == [Untold("lookup", 0, "order_id", "#W123")]


def test_a_value_must_stand_as_whole_words() -> None:
    events: list[Event] = [user("My order is #W1234 and my name is Zoey."), call("x", a="W123")]
    assert [u.value for u in untold(events)] == ["W123"]
    events = [user("My name is Zoey."), call("x", first_name="Zoe")]
    assert [u.value for u in untold(events)] == ["Zoe"]


def test_numbers_booleans_expressions_and_empty_strings_are_not_facts() -> None:
    events: list[Event] = [
        user("Hello."),
        call("calculate", expression="147.00 * 2 + (3 - 1)"),
        call("pay", amount=294.0, insurance=False, count=2, address2=""),
    ]
    assert untold(events) == []
    # a bare number in a string is a fact (an account number), not arithmetic
    assert [u.value for u in untold([user("Hello."), call("x", account="4821")])] == ["4821"]


def test_what_the_users_own_tools_returned_is_not_told_to_the_agent() -> None:
    seen = UserToolResult(conversation=C, call_id="u", name="check_status", content="APN: tmo")
    assert [u.value for u in untold([seen, call("fix_apn", apn="tmo")])] == ["tmo"]
    assert untold([user("My phone says APN: tmo."), call("fix_apn", apn="tmo")]) == []


def test_a_composed_argument_is_the_agents_own_words() -> None:
    toolkit = Toolkit([transfer_to_human_agents])
    assert toolkit.composed == {"transfer_to_human_agents": frozenset({"summary"})}
    events: list[Event] = [
        user("I want a refund."),
        call("transfer_to_human_agents", summary="User asks for an out-of-policy refund."),
    ]
    assert untold(events, toolkit.composed) == []
    assert [u.path for u in untold(events)] == ["summary"]
