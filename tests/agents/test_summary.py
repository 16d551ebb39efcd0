"""Confirmations in plain words, not in the tool-argument form."""

from tau_sim.agents.summary import describe
from tau_sim.simulator.world import Action


def test_a_write_is_said_in_words() -> None:
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
        "update passengers with the reservation id ABC123 and the passengers "
        "(first name Lucas, last name Ng, date of birth 1968-12-28)"
    )
    assert " + " not in said and "dob" not in said and "_" not in said


def test_a_list_is_said_as_a_list() -> None:
    action = Action(name="return_items", arguments={"item_ids": ["1", "2", "3"]})
    assert describe(action) == "return items with the item ids 1, 2 and 3"
