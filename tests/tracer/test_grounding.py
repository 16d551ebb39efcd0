"""``tracer.grounding``, ``signals.only_asks`` and ``tracer.balance`` on hand-made data."""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.tracer.balance import balance, cell_of
from tau_sim.tracer.grounding import grounding, stated_facts, unstated
from tau_sim.tracer.signals import only_asks
from tau_sim.tracer.thresholds import Balance

C = "c1"


def user(text: str) -> UserMessage:
    return UserMessage(conversation=C, text=text)


def say(text: str) -> AgentMessage:
    return AgentMessage(conversation=C, text=text)


def call(tool: str, **arguments: Any) -> AgentMessage:
    return AgentMessage(conversation=C, tool_calls=[ToolCallSpec("t", tool, arguments)])


def result(content: str) -> ToolResult:
    return ToolResult(conversation=C, call_id="t", name="x", content=content)


def test_ids_amounts_dates_and_long_numbers_are_facts_small_counts_are_not() -> None:
    text = (
        "Order #W6972769 (item 9343307358, account chk_52697927_025, code XZ5ATJ) costs $35.00 "
        "on 2025-03-08; I moved 100.0 and added 3 bags in 2 steps."
    )
    assert stated_facts(text) == [
        "#W6972769",
        "9343307358",
        "chk_52697927_025",
        "XZ5ATJ",
        "$35.00",
        "2025-03-08",
        "100.0",
    ]


def test_a_fact_stated_before_the_lookup_that_shows_it_is_ungrounded() -> None:
    # the gold agent's confirmation named the item id before it had looked up the order
    early: list[Event] = [
        user("Return an item from order #W9521219."),
        say("I will return item 9343307358 of order #W9521219. Shall I go ahead?"),
        call("get_order_details", order_id="#W9521219"),
        result('{"items": [{"item_id": "9343307358"}]}'),
    ]
    assert unstated(early) == ["9343307358"]
    late = [*early[:1], *early[2:], early[1]]
    assert unstated(late) == []


def test_an_amount_is_told_by_its_value_sign_aside_and_an_amount_argument_is_checked() -> None:
    events: list[Event] = [
        user("I got an overdraft fee."),
        call("get_account_transactions", account_id="chk_1"),
        result('[{"kind": "fee", "amount": -35.0}]'),
        say("I found the $35.00 fee."),
        call("transfer_between_accounts", amount=100.0, quantity=2),
    ]
    # (chk_1, a string argument nobody gave, is for untold: grounding().arguments)
    assert unstated(events) == ["transfer_between_accounts.amount=100"]
    told = [user("Please move $100 to checking."), *events]
    assert unstated(told) == []


def test_the_system_prompt_counts_as_given_and_arguments_go_through_untold() -> None:
    events: list[Event] = [user("Hi."), call("lookup", date="2025-06-15", order_id="#W1")]
    found = grounding(events, "Today is 2025-06-15.")
    assert found.arguments == ["lookup.order_id=#W1"]
    assert found.facts == []


def test_a_reply_that_only_asks_back_answers_nothing() -> None:
    assert only_asks("Could you give me your email? And your zip code?")
    assert not only_asks("Yes, it went through: refund #R1 of $20.00. Anything else?")
    assert not only_asks("")


def row(agent: str, task: str, emotion: str, intensity: float) -> dict[str, Any]:
    return {"agent": agent, "task_id": task, "emotion": emotion, "intensity": intensity}


def test_caps_and_evening_out_keep_a_seeded_subset_per_cell_in_order() -> None:
    rows = {
        f"r/{n:03d}": row("gold", f"t{n % 4}", "anger", 0.3 if n < 12 else 0.9) for n in range(16)
    }
    by = ("emotion", "intensity")
    kept = [(i, cell_of(r, by)) for i, r in rows.items()]
    assert cell_of(rows["r/000"], ("condition", "task", "agent")) == "anger/0.3 | t0 | gold"
    capped, counts = balance(kept, Balance(by=by, cap=5))
    assert len(capped) == 9 and counts.cut == 7
    assert (counts.before_min, counts.before_max, counts.after_min, counts.after_max) == (
        4,
        12,
        4,
        5,
    )
    assert capped == sorted(capped)  # the order the selection gave
    even, counts = balance(kept, Balance(by=by, even=True))
    assert sum(i < "r/012" for i in even) == sum(i >= "r/012" for i in even) == 4
    assert balance(kept, Balance(by=by, even=True))[0] == even  # the same seed, the same ones
    assert balance(kept, Balance(by=by, even=True, seed=1))[0] != even
