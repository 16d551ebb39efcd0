"""The error a model reads for bad tool arguments: one plain sentence per shape, through the real
Toolkit of a domain (retail's, airline's nested arguments, telecom's user-side tools), with the
arguments as the model providers parse them (``core.toolargs.parse_arguments``)."""

from __future__ import annotations

from typing import Any

import pytest

from tau_sim.simulator.core import parse_arguments
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world import ToolOutcome

NOT_AN_OBJECT = "Error: arguments of `get_order_details` must be a JSON object (the tool takes: "
NOT_AN_OBJECT += "order_id); got "


def retail_call(name: str, arguments: Any) -> ToolOutcome:
    domain = get_domain("retail")
    return domain.toolkit.call(domain.new_database(domain.tasks[0]), name, arguments)


@pytest.mark.parametrize(
    ("raw", "got"),
    [
        ('{"order_id": ', 'text that is not valid JSON (it ends before the JSON is complete): {"'),
        ("order #W4803757", "text that is not valid JSON (invalid character (byte 0)): order #W"),
        ('["#W4803757", "#W1"]', 'a JSON array: ["#W4803757", "#W1"]'),
        ('"#W4803757"', 'a JSON string: "#W4803757"'),
        ("4803757", "a JSON number: 4803757"),
        ("null", "a JSON null: null"),
    ],
)
def test_arguments_that_are_not_an_object(raw: str, got: str) -> None:
    outcome = retail_call("get_order_details", parse_arguments(raw))
    assert outcome.error
    assert outcome.content.startswith(NOT_AN_OBJECT + got)
    assert "__raw__" not in outcome.content


def test_the_text_quoted_back_is_cut_to_200_characters() -> None:
    outcome = retail_call("get_order_details", parse_arguments("x" * 1000))
    quoted = outcome.content.rpartition(": ")[2]
    assert quoted == "x" * 200 + "…"


def test_arguments_handed_over_as_something_other_than_a_dict() -> None:
    outcome = retail_call("get_order_details", ["#W4803757"])
    assert outcome.error and outcome.content == NOT_AN_OBJECT + 'a JSON array: ["#W4803757"]'


@pytest.mark.parametrize(
    ("name", "arguments", "sentence"),
    [
        ("get_order_details", {}, "`order_id` is required (the tool takes: order_id)"),
        (
            "get_order_details",
            {"ordr_id": "#W4803757"},
            "unknown argument `ordr_id` (the tool takes: order_id)",
        ),
        ("get_order_details", {"order_id": 4803757}, "`order_id` must be a string, got 4803757"),
        ("get_order_details", {"order_id": None}, "`order_id` must be a string, got null"),
        (
            "cancel_pending_order",
            {"order_id": "#W4803757", "reason": "bored"},
            '`reason` must be one of "no longer needed", "ordered by mistake"; got "bored"',
        ),
        (
            "modify_pending_order_items",
            {"order_id": "#W1", "item_ids": "12", "new_item_ids": [], "payment_method_id": "p"},
            '`item_ids` must be a JSON array, got "12"',
        ),
        (
            "modify_pending_order_items",
            {"order_id": "#W1", "item_ids": ["12"], "new_item_ids": [13], "payment_method_id": "p"},
            "`new_item_ids[0]` must be a string, got 13",
        ),
        (
            "list_all_product_types",
            {"category": "lamps"},
            "unknown argument `category` (the tool takes no arguments)",
        ),
    ],
)
def test_a_field_that_is_missing_unknown_or_of_the_wrong_type(
    name: str, arguments: dict[str, Any], sentence: str
) -> None:
    outcome = retail_call(name, arguments)
    assert outcome.error
    assert outcome.content == f"Error: invalid arguments for `{name}`: {sentence}"


BOOKING: dict[str, Any] = {
    "user_id": "u",
    "origin": "JFK",
    "destination": "SFO",
    "trip_type": "one_way",
    "cabin": "economy",
    "flights": [],
    "passengers": [],
    "payment_method_id": "credit_card_1",
    "total_baggages": 0,
    "nonfree_baggages": 0,
    "insurance": "no",
}


@pytest.mark.parametrize(
    ("changed", "sentence"),
    [
        ({"total_baggages": "two"}, '`total_baggages` must be an integer, got "two"'),
        ({"total_baggages": 1.5}, "`total_baggages` must be an integer, got 1.5"),
        ({"flights": [{"date": "2024-05-01"}]}, "`flights[0].flight_number` is required"),
        (
            {"flights": [{"flight_number": 12, "date": "2024-05-01"}]},
            "`flights[0].flight_number` must be a string, got 12",
        ),
        ({"cabin": "eco"}, '`cabin` must be one of "basic_economy", "business", "economy"'),
    ],
)
def test_nested_arguments_are_named_by_their_path(changed: dict[str, Any], sentence: str) -> None:
    domain = get_domain("airline")
    db = domain.new_database(domain.tasks[0])
    outcome = domain.toolkit.call(db, "book_reservation", {**BOOKING, **changed})
    assert outcome.error
    prefix = "Error: invalid arguments for `book_reservation`: "
    assert outcome.content.startswith(prefix + sentence)


def test_user_side_tools_say_the_same() -> None:
    """The LLM user's own tools (telecom's phone) go through the same toolkit call."""
    domain = get_domain("telecom")
    assert domain.user_toolkit is not None
    db = domain.new_database(domain.tasks[0])
    call = domain.user_toolkit.call
    not_object = call(db, "toggle_airplane_mode", parse_arguments('"on"'))
    assert not_object.error and not_object.content == (
        "Error: arguments of `toggle_airplane_mode` must be a JSON object (the tool takes: "
        'phone_number); got a JSON string: "on"'
    )
    missing = call(db, "toggle_airplane_mode", {})
    assert missing.content == (
        "Error: invalid arguments for `toggle_airplane_mode`: `phone_number` is required "
        "(the tool takes: phone_number)"
    )
