"""Confirmations in plain words, not in the tool-argument form."""

from tau_sim.agents.naming import names_in
from tau_sim.agents.summary import confirmation, describe
from tau_sim.simulator.world import Action


def test_a_write_of_an_unknown_tool_is_said_in_words() -> None:
    action = Action(
        name="update_passengers",
        arguments={
            "reservation_id": "ABC123",
            "passengers": [{"first_name": "Lucas", "last_name": "Ng", "dob": "1968-12-28"}],
            "note": "",
        },
    )
    said = describe(action)
    assert said == (
        "update passengers with reservation ABC123 and the passengers "
        "Lucas Ng (born December 28, 1968)"
    )
    assert " + " not in said and "dob" not in said and "_" not in said


def test_a_list_is_said_as_a_list() -> None:
    action = Action(name="return_items", arguments={"item_ids": ["1", "2", "3"]})
    assert describe(action) == "return items with item 1, item 2 and item 3"


def test_a_known_tool_names_its_records_from_the_tool_results() -> None:
    order = (
        '{"order_id": "#FD1", "user_id": "mia_1", "items": [{"item_id": "20947990", '
        '"name": "Elote", "quantity": 1, "price": 4.5}], "payment_method_id": "paypal_1"}'
    )
    refund = Action(
        name="refund_order_item",
        arguments={
            "order_id": "#FD1",
            "item_id": "20947990",
            "reason": "missing item",
            "amount": 4.5,
        },
    )
    tip = Action(name="update_tip", arguments={"order_id": "#FD1", "tip": 5.0})
    assert confirmation([refund, tip], names_in([order])) == (
        "I'll refund $4.50 for the Elote on order #FD1 because it was missing from your order, "
        "and then change the tip on order #FD1 to $5.00."
    )


def test_payment_methods_cards_and_flags_are_said_as_a_person_says_them() -> None:
    user = (
        '{"user_id": "mia_1", "payment_methods": [{"id": "credit_card_1", "source": "credit_card",'
        ' "brand": "visa", "last_four": "4242", "balance": null}]}'
    )
    upgrade = Action(
        name="upgrade_room",
        arguments={
            "reservation_id": "AB12CD",
            "room_type": "suite",
            "complimentary": False,
            "payment_method_id": "credit_card_1",
        },
    )
    assert describe(upgrade, names_in([user])) == (
        "upgrade reservation AB12CD to a suite room, with the difference charged to your Visa "
        "ending in 4242"
    )
    unnamed = describe(upgrade)
    assert unnamed.endswith("charged to your credit card 1") and "_" not in unnamed
