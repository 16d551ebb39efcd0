"""How a careful agent says each write tool of the ten built-in domains, for its confirmation.

``SENTENCES`` maps a tool to what follows "I'll": "cancel {order_id} {reason}" becomes "cancel
order #W4803757 since it was ordered by mistake". In a sentence (``agents.summary.fill``):

- ``{field}``: the argument said in words (``agents.summary.say``): a record by what people call
  it, dates as dates, money as money, enum values in words (``VALUE_WORDS``), a reason as its
  clause (``REASONS``);
- ``{field?words if true|words if false}``: a yes/no argument;
- ``{field#noun}``: a count with its noun ("2 checked bags", "1 guest");
- ``[…]``: a part left out when an argument in it is empty.

The user's id is never said (it is the customer's own account). Tools not listed here (τ²-bench's
domains, test domains) are said by the general form of ``agents.summary.describe``.
"""

from __future__ import annotations

REASONS = {
    "no longer needed": "since you no longer need it",
    "ordered by mistake": "since it was ordered by mistake",
    "changed my mind": "since you have changed your mind",
    "taking too long": "since it is taking too long",
    "missing item": "because it was missing from your order",
    "wrong item": "because you were sent the wrong item",
    "lost": "because it was lost",
    "stolen": "because it was stolen",
    "damaged": "because it is damaged",
    "duplicate charge": "as a duplicate charge",
    "goods not received": "because you never received what you paid for",
    "wrong amount": "because you were charged the wrong amount",
    "switching insurers": "since you are switching insurers",
    "sold the insured property": "since you have sold the insured property",
    "other": "",
    "customer_request": "at your request",
    "lost_device": "because your phone was lost",
    "unrecognized_charge": "because you don't recognise the charge",
    "service_not_received": "for a service you didn't receive",
    "billing_error": "because it was billed in error",
}
"""Each ``reason`` value as the clause that gives it ("" where it gives none)."""

VALUE_WORDS = {
    "one_way": "one-way",
    "round_trip": "round-trip",
    "basic_economy": "basic economy",
    "in_person": "in-person",
    "non_refundable": "non-refundable",
    "late_checkout": "late check-out",
    "early_checkin": "early check-in",
    "suv": "SUV",
    "fullsize": "full-size",
    "midsize": "mid-size",
    "gps": "GPS",
    "no supply": "with no supply at all",
    "intermittent supply": "with the supply cutting in and out",
}
"""Enum values a person writes otherwise than with spaces for underscores."""

ID_KINDS = {
    "credit_card": "your credit card {number}",
    "paypal": "your PayPal account",
    "gift_card": "your gift card",
    "chk": "your checking account ending in {last4}",
    "sav": "your savings account ending in {last4}",
    "card": "your card {number}",
}
"""Id prefixes ("credit_card_4795054", "sav_11494244") and what the record is, for an id no
tool result has named ("your credit card 4795054"; a bank account by its last four digits, as
``agents.naming`` names it)."""

SENTENCES = {
    # retail
    "cancel_pending_order": "cancel {order_id} {reason}",
    "exchange_delivered_order_items": (
        "exchange the {item_ids} from {order_id} for the {new_item_ids}"
        "[, settling any price difference with {payment_method_id}]"
    ),
    "modify_pending_order_address": "change the delivery address of {order_id} to {address}",
    "modify_pending_order_items": (
        "swap the {item_ids} in {order_id} for the {new_item_ids}"
        "[, settling any price difference with {payment_method_id}]"
    ),
    "modify_pending_order_payment": "pay for {order_id} with {payment_method_id} instead",
    "modify_user_address": "change the address on your account to {address}",
    "return_delivered_order_items": (
        "return the {item_ids} from {order_id}, with the refund going to {payment_method_id}"
    ),
    # airline
    "book_reservation": (
        "[book a {trip_type} {cabin} trip from {origin} to {destination} on {flights} "
        "for {passengers}, {insurance?with travel insurance|without travel insurance}, with "
        "{total_baggages#checked bag} ({nonfree_baggages#paid bag}), "
        "charged to {payment_method_id}]"
        # the hotel's book_reservation shares the name: one of the two parts is empty
        "[book a {room_type} room at {property_id} for {guests#guest}, checking in on "
        "{check_in} and out on {check_out}, at the {rate_plan} rate[, with {special_requests}], "
        "charged to {payment_method_id}]"
    ),
    "cancel_reservation": "cancel {reservation_id} and refund {refund_amount}",
    "change_reservation_cabin": (
        "move {reservation_id} to {cabin} class, with any difference paid with {payment_method_id}"
    ),
    "change_reservation_flights": (
        "change the flights of {reservation_id} to {flights}[, with any difference paid with "
        "{payment_method_id}]"
    ),
    "issue_compensation": (
        "give you {amount} in compensation for flight {flight_number} on {reservation_id}"
    ),
    "update_reservation_baggages": (
        "set {reservation_id} to {total_baggages#checked bag} ({nonfree_baggages#paid bag}), "
        "charged to {payment_method_id}"
    ),
    "update_reservation_passengers": "change the passengers of {reservation_id} to {passengers}",
    # banking
    "file_dispute": "dispute {transaction_id} {reason}",
    "freeze_card": "freeze {card_id}",
    "unfreeze_card": "unfreeze {card_id}",
    "replace_card": "replace {card_id} {reason}, with the new card sent by {shipping} shipping",
    "reverse_fee": "reverse {transaction_id}",
    "transfer_between_accounts": "move {amount} from {from_account_id} to {to_account_id}",
    "update_mailing_address": "change your mailing address to {address}",
    # car rental
    "add_insurance": "add {coverage} to {booking_id}, charged to {payment_method_id}",
    "cancel_booking": "cancel {booking_id} and refund {refund_amount}",
    "change_return_location": (
        "change the return location of {booking_id} to {return_location}, with any fee "
        "charged to {payment_method_id}"
    ),
    "change_vehicle_class": (
        "change {booking_id} to a {vehicle_class} car, with any difference charged to "
        "{payment_method_id}"
    ),
    "create_booking": (
        "book a {vehicle_class} car for {driver}, picked up at {pickup_location} on "
        "{pickup_date} and returned to {return_location} on {return_date}[, with {add_ons}], "
        "{young_driver_surcharge?with|without} the young driver surcharge, charged to "
        "{payment_method_id}"
    ),
    "extend_booking": (
        "extend {booking_id} to return on {new_return_date}, with the extra days charged to "
        "{payment_method_id}"
    ),
    "file_damage_report": (
        "file a damage report on {booking_id}: {damage_type} to the {area}, caused by {cause}, "
        "estimated at {estimated_cost}, of which {customer_charge} is charged to you"
        "[, with the photos {photos}]"
    ),
    "record_late_return": (
        "record {booking_id} as returned {hours_late#hour} late and charge the {late_fee} late "
        "fee to {payment_method_id}"
    ),
    "waive_damage_charge": "waive the damage charge of {report_id} on {booking_id}",
    # food delivery
    "add_order_item": ("add {quantity#serving} of the {item_id}[ ({option})] to {order_id}"),
    "apply_promotion": "apply the promo code {code} to {order_id}",
    "cancel_order": "cancel {order_id} {reason}",
    "issue_late_delivery_credit": "credit you {amount} for the late delivery of {order_id}",
    "modify_order_address": "change the delivery address of {order_id} to {address}",
    "refund_order_item": "refund {amount} for the {item_id} on {order_id} {reason}",
    "remove_order_item": "remove the {item_id} from {order_id}",
    "update_tip": "change the tip on {order_id} to {tip}",
    # hotel
    "add_special_request": "add a {request} request to {reservation_id}",
    "change_reservation_dates": (
        "move {reservation_id} to check in on {check_in} and out on {check_out}, with any "
        "difference paid with {payment_method_id}"
    ),
    "credit_goodwill_points": (
        "credit {points#goodwill point} to your account for {reservation_id}"
    ),
    "redeem_points_for_night": (
        "use {points#point} to pay for the night of {night} on {reservation_id}"
    ),
    "upgrade_room": (
        "upgrade {reservation_id} to a {room_type} room, "
        "{complimentary?free of charge|with the difference charged to {payment_method_id}}"
    ),
    # insurance
    "add_driver": (
        "add {first_name} {last_name} (born {birth_date}, licence {license_number}), your "
        "{relationship}, as a driver on {policy_id}"
    ),
    "add_scheduled_item": (
        "add your {category}, valued at {value}, to {policy_id} as a scheduled item"
    ),
    "cancel_policy": (
        "cancel {policy_id}[ {reason}] and refund what is due to {refund_payment_method_id}"
    ),
    "file_claim": (
        "file a {loss_type} claim on {policy_id} for the loss on {loss_date}, estimated at "
        "{estimated_amount}, {injury?with someone injured|with nobody injured}"
    ),
    "make_payment": ("pay {amount} toward {policy_id}{account_id}[ with {payment_method_id}]"),
    "update_policy_payment_method": "pay for {policy_id} with {payment_method_id} from now on",
    "withdraw_claim": "withdraw {claim_id}",
    # telecom
    "add_data_addon": "add the {addon_id} to {line_id}, charged to {payment_method_id}",
    "apply_bill_credit": ("credit {amount} to {bill_id} for {charge_id} {reason}"),
    "change_plan": "move {line_id} to {plan_id}",
    "enable_roaming": "turn on roaming for {line_id}",
    "pay_bill": "pay {bill_id} with {payment_method_id}",
    "resume_line": "resume service on {line_id}",
    "suspend_line": "suspend {line_id} {reason}",
    # telehealth
    "book_appointment": "book a {visit_type} appointment on {slot_id}",
    "cancel_appointment": (
        "cancel {appointment_id} {charge_late_fee?and charge the late fee|with no late fee}"
    ),
    "change_prescription_pharmacy": "move {rx_id} to {pharmacy_id}",
    "request_refill": "request a refill of {rx_id} at {pharmacy_id}",
    "request_renewal": "ask your prescriber to renew {rx_id}",
    "reschedule_appointment": (
        "move {appointment_id} to {new_slot_id} "
        "{charge_late_fee?and charge the late fee|with no late fee}"
    ),
    "update_insurance": "change your insurance to {plan_id}, as {member_id}",
    "update_phone_number": "change your phone number to {phone}",
    # utilities
    "apply_outage_credit": "apply an outage credit to {account_id} for the {fuel} outage on {date}",
    "change_tariff": "switch {account_id} to {tariff_id}",
    "close_account": "close {account_id}",
    "create_bill": "issue a new bill for {account_id}",
    "create_payment_plan": (
        "set up a payment plan over {months#month} on {account_id}, paid with {payment_method_id}"
    ),
    "dispute_bill": "dispute {bill_id} with your own reading of {customer_reading} on {meter_id}",
    "open_account": "open an account for {premise_id} on {tariff_id}",
    "record_final_reading": "record a final reading of {value} on {meter_id}",
    "report_outage": "report a {fuel} outage on {account_id}, {problem}",
    "set_autopay": "pay the bills of {account_id} automatically with {payment_method_id}",
    "set_paperless_billing": "turn paperless billing {enabled?on|off} for {account_id}",
    "submit_meter_reading": "submit a reading of {value} for {meter_id}",
    "transfer_balance": "move the balance of {from_account_id} to {to_account_id}",
    "waive_late_fee": "waive the late fee on {account_id}",
}
"""What follows "I'll" in the confirmation of each write tool (see the module's docstring)."""
