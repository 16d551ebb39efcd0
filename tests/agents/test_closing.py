"""The closing says what was done in plain words, never a tool's name or argument form."""

from tau_sim.agents.closing import did, is_fix, outcome
from tau_sim.simulator.world import Action
from tau_sim.users.read_command import reader_for


def test_a_write_is_said_as_a_deed_with_its_ids_and_values_in_words() -> None:
    cancel = Action("cancel_pending_order", {"order_id": "#W1", "reason": "ordered by mistake"})
    assert did(cancel) == "cancelled order #W1 since it was ordered by mistake"
    pay = Action("pay_bill", {"bill_id": "B7", "payment_method_id": "paypal_1"})
    assert did(pay) == "paid bill B7 with your PayPal account"
    named = {"paypal_1": "your PayPal account", "B7": "your June bill"}
    assert did(pay, named) == "paid your June bill (B7) with your PayPal account"  # a reference
    unknown = Action("rename_pet", {"pet_id": "P1", "name": "Rex"})  # no sentence of its own
    assert did(unknown) == "rename the pet P1, the name Rex"  # the general form, verb unknown


def test_a_lookup_names_the_record_not_the_tool() -> None:
    said = outcome([], [Action("get_line_details", {"line_id": "L434106"})], [], False)
    assert said == "Here is what I found: I looked up line L434106."
    assert "get line details" not in said


def test_device_fixes_are_said_as_where_the_trouble_was() -> None:
    steps = [t for t in ("check_sim_card", "reseat_sim_card", "run_speed_test") if is_fix(t)]
    assert steps == ["reseat_sim_card"]
    said = outcome([], [Action("get_line_details", {"line_id": "L1"})], steps, False)
    assert said.startswith("I looked up line L1 and found nothing wrong on our side.")
    assert said.endswith(
        "your phone's own settings: you reseated the sim card, which sorted it out."
    )


def test_the_customer_reads_the_named_fixes_as_done_not_as_new_steps() -> None:
    steps = ["toggle_mobile_data", "reset_apn_settings", "restart_device"]
    said = outcome([], [Action("get_line_details", {"line_id": "L1"})], steps, False)
    assert "you switched the mobile data, reset the apn settings and restarted the device" in said
    assert reader_for("telecom", "telecom-012").read(said).steps == []
