"""``picks.untold_picks``: records an agent picked among several that nobody singled out."""

from __future__ import annotations

import json
from datetime import date
from itertools import count
from typing import Any

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.simulator.world import policy_today, untold_picks

C = "c1"
READS = ("get_user_details", "get_order_details")
PROFILE = {"user_id": "ann_1", "orders": ["#W111", "#W222", "#W333"]}
DETAILS = {
    "#W111": {"order_id": "#W111", "status": "delivered", "items": [{"name": "Desk Lamp"}]},
    "#W222": {"order_id": "#W222", "status": "pending", "items": [{"name": "Running Shoes"}]},
    "#W333": {"order_id": "#W333", "status": "delivered", "items": [{"name": "Yoga Mat"}]},
}
_ids = count()


def user(text: str) -> UserMessage:
    return UserMessage(conversation=C, text=text)


def agent(text: str) -> AgentMessage:
    return AgentMessage(conversation=C, text=text)


def exchange(tool: str, content: Any, **arguments: Any) -> list[Event]:
    """One agent call and its result."""
    call_id = f"t{next(_ids)}"
    return [
        AgentMessage(conversation=C, tool_calls=[ToolCallSpec(call_id, tool, arguments)]),
        ToolResult(conversation=C, call_id=call_id, name=tool, content=json.dumps(content)),
    ]


def profile(opening: str) -> list[Event]:
    return [user(opening), *exchange("get_user_details", PROFILE, user_id="ann_1")]


def read(order: str) -> list[Event]:
    return exchange("get_order_details", DETAILS[order], order_id=order)


def cancel(order: str) -> list[Event]:
    return exchange("cancel_order", {"status": "cancelled"}, order_id=order)


def test_a_record_the_user_named_by_its_id_is_told() -> None:
    events = [*profile("Please cancel order #W222."), *read("#W222"), *cancel("#W222")]
    assert untold_picks(events, READS) == []


def test_a_record_the_user_described_and_the_agent_matched_by_reading_is_told() -> None:
    opening = "Please cancel the order with the running shoes."
    events = [*profile(opening), *read("#W111"), *read("#W222"), *cancel("#W222")]
    assert untold_picks(events, READS) == []


def test_a_record_the_user_chose_when_asked_which_one_is_told() -> None:
    question = "I see three orders on your account: a desk lamp, running shoes and a yoga mat. "
    events = [
        *profile("Please cancel my order."),
        agent(question + "Which one do you mean?"),
        user("The shoes, the pending one."),
        *read("#W222"),
        *cancel("#W222"),
    ]
    assert untold_picks(events, READS) == []


def test_a_record_read_alone_and_acted_on_without_being_told_is_an_untold_pick() -> None:
    events = [*profile("Please cancel my order."), *read("#W222"), *cancel("#W222")]
    [pick] = untold_picks(events, READS)
    assert (pick.call, pick.path, pick.value) == ("cancel_order", "order_id", "#W222")
    assert pick.candidates == ("#W111", "#W222", "#W333")


def test_a_description_matched_without_reading_the_records_listed_before_is_untold() -> None:
    # the shoes are the second order: reading only it is a guess that the description then fits
    opening = "Please cancel the order with the running shoes."
    events = [*profile(opening), *read("#W222"), *cancel("#W222")]
    assert [p.value for p in untold_picks(events, READS)] == ["#W222"]


def test_a_fact_every_candidate_shares_does_not_single_one_out() -> None:
    opening = "Please cancel my delivered order."
    events = [*profile(opening), *read("#W111"), *read("#W222"), *read("#W333"), *cancel("#W333")]
    assert [p.value for p in untold_picks(events, READS)] == ["#W333"]


def test_a_search_through_the_records_is_not_a_pick_of_each() -> None:
    opening = "Where is the running shoes order?"
    events = [*profile(opening), *read("#W111"), *read("#W222")]
    assert untold_picks(events, READS) == []
    # reading every record and acting on none is a survey, whatever the user said
    events = [*profile("How are my orders doing?"), *read("#W111"), *read("#W222"), *read("#W333")]
    assert untold_picks(events, READS) == []
    # a record read alone, last, without being described, is a pick
    events = [*profile("How is my order doing?"), *read("#W111"), *read("#W222")]
    assert [p.value for p in untold_picks(events, READS)] == ["#W222"]


def test_a_record_described_in_a_listing_of_records_is_told_by_its_words_and_figures() -> None:
    slots = [
        {"slot_id": "SL-1", "start": "2026-03-11T10:00"},
        {"slot_id": "SL-2", "start": "2026-03-11T16:00"},
    ]
    events: list[Event] = [
        user("I'd like the 2026-03-11 at 16:00 slot."),
        *exchange("find_slots", slots, date="2026-03-11"),
        *exchange("book", {"ok": True}, slot_id="SL-2"),
    ]
    assert untold_picks(events, ("find_slots",)) == []
    events[0] = user("Book me something that day.")
    assert [p.value for p in untold_picks(events, ("find_slots",))] == ["SL-2"]


def test_a_record_read_beside_the_one_written_is_not_a_pick() -> None:
    opening = "Please cancel the order with the running shoes."
    events = [*profile(opening), *read("#W111"), *read("#W222"), *read("#W333"), *cancel("#W222")]
    assert untold_picks(events, READS) == []


def test_an_empty_id_is_no_candidate() -> None:
    events: list[Event] = [
        user("Is my card active?"),
        *exchange("list_cards", {"cards": ["card_1", ""]}, user_id="u"),
        *exchange("get_card", {"card_id": "card_1"}, card_id="card_1"),
    ]
    assert untold_picks(events, ("list_cards", "get_card")) == []


def test_a_date_is_described_by_its_weekday_and_a_name_without_its_branch() -> None:
    orders = [
        {"order_id": "#F1", "restaurant": "Taco Loco Atlanta", "placed_at": "2025-06-17T18:57"},
        {"order_id": "#F2", "restaurant": "Taco Loco Atlanta", "placed_at": "2025-06-20T12:00"},
        {"order_id": "#F3", "restaurant": "Umi Bar Atlanta", "placed_at": "2025-06-17T19:30"},
    ]
    events: list[Event] = [
        user("The Taco Loco order from Tuesday never came."),
        *exchange("list_orders", orders, user_id="u"),
        *exchange("refund", {"ok": True}, order_id="#F1"),
    ]
    assert untold_picks(events, ("list_orders",)) == []
    # "Tuesday" alone fits two orders, "Taco Loco" alone two: together they fit one
    events[0] = user("My order from Tuesday never came.")
    assert [p.value for p in untold_picks(events, ("list_orders",))] == ["#F1"]


LISTED = [
    {"order_id": "#FD1", "restaurant": "Olive Tree Portland", "placed_at": "2025-06-18T07:39"},
    {"order_id": "#FD2", "restaurant": "Olive Tree Portland", "placed_at": "2025-06-20T19:12"},
]


def test_tonight_and_yesterday_describe_a_date_against_the_day_the_policy_says_is_today() -> None:
    today = policy_today("The current date and time is **2025-06-20 19:30**; every time ...")
    assert today == date(2025, 6, 20)
    assert policy_today("You help customers with their orders.") is None
    opening = "The Olive Tree order from tonight has to go to another address."
    events = [
        user(opening),
        *exchange("list_user_orders", LISTED, user_id="ann_1"),
        *exchange("update_tip", {"status": "preparing"}, order_id="#FD2"),
    ]
    assert untold_picks(events, READS, today) == []
    assert [p.value for p in untold_picks(events, READS)] == ["#FD2"]  # no today: untold
    # "tonight" fits no order of June 18: said of it, nothing singles it out
    wrong = [*events[:3], *exchange("update_tip", {"status": "delivered"}, order_id="#FD1")]
    assert [p.value for p in untold_picks(wrong, READS, today)] == ["#FD1"]


def test_a_search_that_read_past_the_described_record_is_not_a_pick_of_the_last_one() -> None:
    # the shoes are found first; reading the lamp after them checks that no other order fits
    listed = [
        {"order_id": "#W222", "dishes": ["Running Shoes"]},
        {"order_id": "#W111", "dishes": ["Desk Lamp"]},
        {"order_id": "#W333", "dishes": ["Yoga Mat"]},
    ]
    opening = "Where is the running shoes order?"
    events = [
        user(opening),
        *exchange("list_user_orders", listed, user_id="ann_1"),
        *read("#W222"),
        *read("#W111"),
    ]
    assert untold_picks(events, READS) == []
    events = [user("Where is my order?"), *events[1:]]  # nothing found: the last read is a pick
    assert [p.value for p in untold_picks(events, READS)] == ["#W111"]


def test_what_a_write_returns_describes_none_of_the_records_it_holds() -> None:
    order = {
        "order_id": "#W111",
        "items": [
            {"item_id": "i1", "name": "Pad Thai"},
            {"item_id": "i2", "name": "Green Curry"},
            {"item_id": "i3", "name": "Tom Yum Soup"},
        ],
    }
    events = [
        user("The Tom Yum Soup and the Green Curry were missing from order #W111."),
        *exchange("get_order_details", order, order_id="#W111"),
        *exchange("refund_item", order, order_id="#W111", item_id="i3"),
        *exchange("refund_item", order, order_id="#W111", item_id="i2"),
    ]
    assert untold_picks(events, READS) == []  # each dish named, whatever the refunds returned
    wrong = [user("Something was missing from order #W111."), *events[1:]]
    assert [p.value for p in untold_picks(wrong, READS)] == ["i3", "i2"]
