"""The rule reader on natural wording: each act in many phrasings, with its look-alikes.

These turns are written the way tool-calling models write to customers (not the calibrators'
phrases, and none of the corpus's): each case names the acts it holds; every other act of the
corpus schema must be absent.
"""

from __future__ import annotations

import pytest

from tau_sim.users.perception import ACT_KEYS, public
from tau_sim.users.read_command import reader_for

CASES: list[tuple[str, str, str, dict[str, object]]] = [
    # closings and farewells, with and without "anything else"
    (
        "retail",
        "retail-011",
        "Is there anything else I can assist you with today?",
        {"closes": True},
    ),
    ("retail", "retail-011", "Let me know if you need anything else!", {"closes": True}),
    ("retail", "retail-011", "Is there something else on your list?", {"closes": True}),
    ("retail", "retail-011", "Will that be all for today?", {"closes": True}),
    ("airline", "airline-001", "Cheers, and safe flying!", {"closes": True}),
    ("hotel", "hotel-000", "Take it easy, and enjoy the lake view!", {"closes": True}),
    ("banking", "banking-000", "Thanks for chatting with us today. Goodbye!", {"closes": True}),
    (
        "retail",
        "retail-011",
        "Happy to help! Have a great evening.",
        {"closes": True, "acknowledges": True},
    ),
    # refusals with and without a cue word; lookups that miss are no refusal
    (
        "retail",
        "retail-011",
        "I'm sorry, but that order has already shipped, so it can no longer be cancelled.",
        {"refuses": True, "acknowledges": True},
    ),
    (
        "airline",
        "airline-001",
        "Per our policy, refunds aren't available for basic economy fares after 24 hours.",
        {"refuses": True},
    ),
    (
        "airline",
        "airline-001",
        "That's not something I'm able to do, as the booking belongs to another member.",
        {"refuses": True},
    ),
    (
        "airline",
        "airline-001",
        "Our system doesn't let me change the name on a ticket.",
        {"refuses": True},
    ),
    (
        "retail",
        "retail-011",
        "Exchanges are only possible between items of the same product.",
        {"refuses": True},
    ),
    (
        "food_delivery",
        "food_delivery-003",
        "Sadly, that promo code has expired.",
        {"refuses": True},
    ),
    (
        "banking",
        "banking-000",
        "The best I can offer is a partial credit of $20.00 on this fee.",
        {"refuses": True},
    ),
    (
        "airline",
        "airline-001",
        "I couldn't locate a reservation under that code. Could you double-check it for me?",
        {"asks": ["reservation_id"]},
    ),
    (
        "retail",
        "retail-011",
        "No problem, I can definitely do that for you.",
        {"acknowledges": True},
    ),
    # transfers
    (
        "banking",
        "banking-000",
        "I'm going to loop in a specialist from our fraud team who can sort this out.",
        {"transfers": True},
    ),
    (
        "insurance",
        "insurance-001",
        "Let me escalate this to a supervisor right away.",
        {"transfers": True},
    ),
    (
        "telecom",
        "telecom-000",
        "You'll be connected to one of our billing agents shortly.",
        {"transfers": True},
    ),
    (
        "hotel",
        "hotel-000",
        "A member of our guest relations team will be with you in a moment.",
        {"transfers": True},
    ),
    # actions done, and what only looks like one
    ("retail", "retail-011", "I've gone ahead and cancelled the order for you.", {"done": True}),
    ("retail", "retail-011", "All set! Your new address is saved on the account.", {"done": True}),
    ("hotel", "hotel-000", "Your booking is confirmed, confirmation code QX7P2L.", {"done": True}),
    ("retail", "retail-011", "Once you confirm, I'll cancel the order.", {"confirms": True}),
    ("retail", "retail-011", "The order was delivered on 2025-05-03.", {}),
    ("banking", "banking-000", "Nothing has been charged to your card yet.", {}),
    # go-ahead questions and statements
    ("airline", "airline-001", "Would you like me to go ahead and book it?", {"confirms": True}),
    (
        "insurance",
        "insurance-001",
        "Please confirm you'd like to move forward with the claim.",
        {"confirms": True},
    ),
    ("retail", "retail-011", "Just reply 'yes' and I'll take care of it.", {"confirms": True}),
    (
        "airline",
        "airline-001",
        "Is it okay if I charge the $25.00 change fee to your Mastercard?",
        {"confirms": True},
    ),
    # slots asked by keyword and by meaning
    (
        "retail",
        "retail-011",
        "To get started, can you share the email tied to your account?",
        {"asks": ["email"]},
    ),
    (
        "retail",
        "retail-011",
        "What name is the account under, and what's the ZIP?",
        {"asks": ["first_name", "last_name", "zip"]},
    ),
    (
        "retail",
        "retail-011",
        "Could I get the order number? It starts with #W.",
        {"asks": ["order_id"]},
    ),
    ("airline", "airline-000", "What date are you looking to travel?", {"asks": ["travel_dates"]}),
    ("airline", "airline-000", "How many bags will you be checking?", {"asks": ["bags"]}),
    ("hotel", "hotel-000", "How many guests will be staying with you?", {"asks": ["guests"]}),
    ("telehealth", "telehealth-001", "And what's your date of birth?", {"asks": ["dob"]}),
    (
        "retail",
        "retail-001",
        "Where would you like the package shipped instead?",
        {"asks": ["new_address"]},
    ),
    ("insurance", "insurance-001", "When did the accident happen?", {"asks": ["loss_date"]}),
    # device steps
    (
        "telecom",
        "telecom-003",
        "Can you toggle Airplane Mode on and then off again?",
        {"steps": ["toggle_airplane_mode"]},
    ),
    (
        "telecom",
        "telecom-004",
        "Please power your phone down and back up.",
        {"steps": ["restart_device"]},
    ),
    (
        "telecom",
        "telecom-012",
        "Try turning off your VPN, then run a speed test.",
        {"steps": ["toggle_vpn", "run_speed_test"]},
    ),
    (
        "telecom",
        "telecom-012",
        "Could you verify that mobile data is enabled?",
        {"steps": ["check_mobile_data"]},
    ),
    # several acts in one turn; ids the user never holds
    (
        "banking",
        "banking-000",
        "I'm sorry about the delay. I've issued a $10.00 credit to your account. Is there"
        " anything else I can do?",
        {"acknowledges": True, "done": True, "closes": True},
    ),
    ("airline", "airline-001", "Could you provide your user ID?", {"asks_other": True}),
    ("car_rental", "car_rental-007", "What's the VIN of the vehicle?", {"asks_other": True}),
    # more slots by meaning, in each domain
    (
        "retail",
        "retail-002",
        "Which of your orders is this about, the one with the boots or the one with the tent?",
        {"asks": ["order_desc"]},
    ),
    (
        "retail",
        "retail-002",
        "How would you like to pay the price difference?",
        {"asks": ["payment_method"]},
    ),
    (
        "retail",
        "retail-011",
        "Can you tell me why you'd like to cancel?",
        {"asks": ["cancel_reason"]},
    ),
    (
        "airline",
        "airline-000",
        "Where will you be flying from, and where to?",
        {"asks": ["origin", "destination"]},
    ),
    (
        "airline",
        "airline-000",
        "Do you need a one-way ticket or a round trip?",
        {"asks": ["trip_type"]},
    ),
    (
        "airline",
        "airline-000",
        "Who will be travelling? I'll need each passenger's full name and date of birth.",
        {"asks": ["passengers"]},
    ),
    (
        "airline",
        "airline-000",
        "Would you like to add travel insurance for $30.00 per passenger?",
        {"asks": ["insurance"]},
    ),
    (
        "airline",
        "airline-001",
        "Could you share your six-character booking code?",
        {"asks": ["reservation_id"]},
    ),
    (
        "hotel",
        "hotel-000",
        "Would you prefer the flexible rate or the member rate?",
        {"asks": ["rate_plan"]},
    ),
    (
        "hotel",
        "hotel-000",
        "Do you have any special requests for your stay?",
        {"asks": ["special_request"]},
    ),
    (
        "telehealth",
        "telehealth-001",
        "What day and time would suit you better?",
        {"asks": ["new_time"]},
    ),
    (
        "banking",
        "banking-000",
        "Could you give me the last four digits of the card?",
        {"asks": ["card"]},
    ),
    ("utilities", "utilities-000", "Which property is this for?", {"asks": ["account"]}),
    (
        "utilities",
        "utilities-000",
        "What number is showing on the meter right now?",
        {"asks": ["reading"]},
    ),
    (
        "car_rental",
        "car_rental-007",
        "What class would you like to move up to?",
        {"asks": ["new_class"]},
    ),
    ("insurance", "insurance-001", "Was anyone injured?", {"asks": ["injury"]}),
    (
        "insurance",
        "insurance-001",
        "Roughly what will the repairs cost?",
        {"asks": ["estimated_amount"]},
    ),
    (
        "insurance",
        "insurance-001",
        "Is this for your auto policy or your home policy?",
        {"asks": ["which_policy"]},
    ),
    ("food_delivery", "food_delivery-003", "Which dish was wrong?", {"asks": ["item"]}),
    (
        "retail",
        "retail-002",
        "What color and size would you like instead?",
        {"asks": ["new_item"]},
    ),
    (
        "retail",
        "retail-002",
        "Should the refund go to the original card or to a gift card?",
        {"asks": ["payment_method"]},
    ),
    (
        "retail",
        "retail-011",
        "May I have the order ID you'd like to cancel?",
        {"asks": ["order_id"]},
    ),
    ("retail", "retail-011", "And the reason for cancelling?", {"asks": ["cancel_reason"]}),
    (
        "retail",
        "retail-011",
        "Can you verify your identity with your email address, or your name plus ZIP code?",
        {"asks": ["email", "first_name", "last_name", "zip"]},
    ),
    (
        "airline",
        "airline-000",
        "What's the departure city, and where are you headed?",
        {"asks": ["origin", "destination"]},
    ),
    ("airline", "airline-000", "Which flight works best for you?", {"asks": ["flight"]}),
    (
        "airline",
        "airline-001",
        "Which card should I charge the fare difference to?",
        {"asks": ["payment_method"]},
    ),
    ("hotel", "hotel-000", "Which property would you like to stay at?", {"asks": ["hotel"]}),
    (
        "hotel",
        "hotel-000",
        "What are your check-in and check-out dates?",
        {"asks": ["stay_dates"]},
    ),
    ("hotel", "hotel-000", "How many adults will be in the room?", {"asks": ["guests"]}),
    ("telehealth", "telehealth-001", "Which visit are we rescheduling?", {"asks": ["appointment"]}),
    (
        "telehealth",
        "telehealth-001",
        "When would you like the new appointment?",
        {"asks": ["new_time"]},
    ),
    ("banking", "banking-005", "How much would you like to transfer?", {"asks": ["amount"]}),
    (
        "banking",
        "banking-005",
        "From which account, and into which one?",
        {"asks": ["from_account", "to_account"]},
    ),
    ("insurance", "insurance-001", "What date did the incident occur?", {"asks": ["loss_date"]}),
    ("insurance", "insurance-001", "Could you describe what happened?", {"asks": ["loss_type"]}),
    ("car_rental", "car_rental-007", "Which booking should I upgrade?", {"asks": ["rental"]}),
    (
        "utilities",
        "utilities-000",
        "Which meter is that for, gas or electric?",
        {"asks": ["meter"]},
    ),
    (
        "food_delivery",
        "food_delivery-003",
        "What's the order number, and which item is missing?",
        {"asks": ["order_id", "item"]},
    ),
    ("telecom", "telecom-000", "What plan are you currently on?", {"asks": ["current_plan"]}),
    ("telecom", "telecom-000", "Which plan would you like to move to?", {"asks": ["new_plan"]}),
    (
        "retail",
        "retail-011",
        "Shall I cancel order #W1234567 for the reason 'no longer needed'?",
        {"confirms": True},
    ),
    (
        "hotel",
        "hotel-000",
        "Would you like me to book the deluxe room for those dates?",
        {"confirms": True},
    ),
    (
        "telecom",
        "telecom-003",
        "Please verify with either your account number and PIN or your full name and ZIP code.",
        {"asks": ["account_number", "pin", "first_name", "last_name", "zip"]},
    ),
    (
        "retail",
        "retail-011",
        "Could you give me the product ID of the new item?",
        {"asks_other": True},
    ),
    ("telecom", "telecom-000", "What's the line ID?", {"asks_other": True}),
    # more actions reported done, and their look-alikes
    (
        "retail",
        "retail-011",
        "Your return has been initiated; you'll get a prepaid label by email.",
        {"done": True},
    ),
    (
        "retail",
        "retail-011",
        "Great news: the refund went through and should show up in 3-5 days.",
        {"done": True},
    ),
    (
        "telehealth",
        "telehealth-001",
        "I just moved your appointment to Thursday at 10:00.",
        {"done": True},
    ),
    ("telecom", "telecom-000", "Okay, the add-on is now active.", {"done": True}),
    (
        "banking",
        "banking-000",
        "Your dispute is now open under reference DSP-1234.",
        {"done": True},
    ),
    ("retail", "retail-011", "The address on order #W1234567 now reads 12 Oak St.", {"done": True}),
    ("retail", "retail-011", "Reservation updated ✅", {"done": True}),
    ("retail", "retail-011", "I can cancel that for you right now.", {}),
    ("retail", "retail-011", "If I cancelled it today, the refund would be $40.00.", {}),
    # questions the user cannot place
    ("retail", "retail-011", "Could you send me a photo of the receipt?", {"asks_other": True}),
    ("retail", "retail-011", "Do you have the tracking number handy?", {"asks_other": True}),
    ("telecom", "telecom-000", "What's the serial number on the device?", {"asks_other": True}),
    # long turns, in prose and in markdown
    (
        "retail",
        "retail-011",
        "I've located order **#W1234567**. Here's a quick summary:\n\n| Item | Status |\n|---|---|"
        "\n| Desk Lamp | Pending |\n\nSince it hasn't shipped yet, it's eligible for cancellation."
        " Before I proceed, could you let me know the reason for cancelling? The options are:\n"
        "1. No longer needed\n2. Ordered by mistake",
        {"asks": ["cancel_reason"]},
    ),
    (
        "retail",
        "retail-011",
        "Thanks for your patience while I looked into this.\n\n**What I found:**\n- Order #W1234567"
        " was delivered on 2025-04-02.\n- Our return window is 30 days from delivery.\n\n"
        "Unfortunately, that means the order is no longer eligible for a return. I know that's"
        " disappointing, and I'm sorry I don't have better news.\n\nIf there's anything else I can"
        " help you with, just let me know!",
        {"refuses": True, "acknowledges": True, "closes": True},
    ),
    (
        "airline",
        "airline-001",
        "Absolutely, I can help you change your flight!\n\nTo get started, I'll need a couple of"
        " details:\n- **Your reservation ID** (6 characters, e.g. ABC123)\n- **The new date** you'd"
        " like to travel\n\nOnce I have those, I'll check availability for you.",
        {"asks": ["reservation_id", "flight"]},
    ),
    (
        "banking",
        "banking-000",
        "I'm so sorry to hear your card is missing, that's stressful. Here's what I'll do:\n\n1."
        " **Freeze** your debit card ending in 9222 so no new charges can go through.\n2. **Order a"
        " replacement** to your address on file.\n\nShall I go ahead with both?",
        {"acknowledges": True, "confirms": True},
    ),
    (
        "insurance",
        "insurance-001",
        "I've reviewed your home policy and the details of the water damage you described. Because"
        " the damage came from a slow leak that went on for months, it falls under the gradual"
        " damage exclusion, so I'm not able to open a claim for it. I understand this isn't the"
        " answer you were hoping for. If you'd like, I can connect you with a claims specialist to"
        " review any other damage from the same incident. Would that be helpful?",
        {"refuses": True, "acknowledges": True, "confirms": True},
    ),
    (
        "hotel",
        "hotel-000",
        "Good news! I was able to move your stay at the Harbour Hotel to 2026-08-05 through"
        " 2026-08-09. The new total is $612.00, and the $40.00 difference has been charged to your"
        " Visa ending in 4242. You'll receive an updated confirmation email shortly. Is there"
        " anything else you'd like me to adjust?",
        {"done": True, "closes": True},
    ),
    (
        "utilities",
        "utilities-000",
        "Here's a summary of your request:\n\n- **Account:** 8414 Main Street\n- **New tariff:** EV"
        " Night Fixed 12\n- **Start date:** your next billing cycle\n\nPlease note there's no exit"
        " fee since your current deal has ended. Would you like me to submit the switch?",
        {"confirms": True},
    ),
    (
        "car_rental",
        "car_rental-007",
        "I'm afraid I can't extend the rental past 2026-06-21, as the car is already booked by"
        " another customer from that date. I could offer you a different vehicle of the same class"
        " from 2026-06-21 onwards, if that works?",
        {"refuses": True, "confirms": True},
    ),
    (
        "telehealth",
        "telehealth-001",
        "Of course! I can help you reschedule. To make sure I have the right appointment, could you"
        " confirm which one you mean, the cardiology visit on March 12 or the dermatology one on"
        " March 20? And what day and time would work better for you?",
        {"asks": ["appointment", "new_time"]},
    ),
    (
        "telecom",
        "telecom-004",
        "Here's what I'd like you to try, in order:\n\n1. **Turn off Data Saver** (Settings >"
        " Network & internet > Data Saver).\n2. **Restart** the phone.\n3. Run a **speed test**"
        " with Wi-Fi off and tell me the download speed.",
        {"steps": ["toggle_data_saver", "restart_device", "run_speed_test"]},
    ),
    (
        "telecom",
        "telecom-013",
        "Thanks, that helps narrow it down. A couple of quick checks:\n\n- Is **Wi-Fi Calling**"
        " enabled?\n- Is **call forwarding** set to anything?\n\nThese two settings are the usual"
        " culprits when calls don't come through at home.",
        {"steps": ["check_wifi_calling", "check_call_forwarding"]},
    ),
    (
        "telecom",
        "telecom-004",
        "I can see why that's frustrating. Your phone's APN is set to something our network doesn't"
        " recognise, which is why data isn't working even though you have bars. To fix it, please"
        " open Settings, go to Mobile network > Access Point Names, tap the three-dot menu and"
        " choose Reset to default. After that, switch mobile data off and on once.",
        {"acknowledges": True, "steps": ["reset_apn_settings", "toggle_mobile_data"]},
    ),
    (
        "telecom",
        "telecom-016",
        "Here's a quick recap of what we did:\n\n1. Turned **Data Saver** off\n2. Switched battery"
        " saver off\n3. Placed a test call to 611\n\nEverything looks good on your line now."
        " Is there anything else I can help with?",
        {"done": True, "closes": True},
    ),
    (
        "telecom",
        "telecom-016",
        "We've covered these together:\n- turn Data Saver off\n- restart the phone\n\nYour data"
        " should work normally again. Have a good evening!",
        {"done": True, "closes": True},
    ),
    (
        "telecom",
        "telecom-016",
        "Here's what I'd like you to try next:\n- Turn Data Saver off\n- Restart the phone",
        {"steps": ["toggle_data_saver", "restart_device"]},
    ),
    (
        "telecom",
        "telecom-012",
        "Thanks for going through those steps with me (turning mobile data on, resetting the APN"
        " and restarting the phone). Your connection should be back to normal now.",
        {},
    ),
    (
        "telecom",
        "telecom-012",
        "Thanks for checking that. Now please turn mobile data on.",
        {"steps": ["toggle_mobile_data"]},
    ),
    (
        "telecom",
        "telecom-007",
        "Alright, I'll put a $7.53 credit on bill B91652311 for the directory assistance charge."
        " Can you confirm that's what you want?",
        {"confirms": True},
    ),
    (
        "telecom",
        "telecom-073",
        "That sounds stressful, and I'm sorry. Could you share your email address, or your first"
        " name, your last name and your zip code so I can find your account?",
        {"acknowledges": True, "asks": ["first_name", "last_name", "zip"]},
    ),
    (
        "telecom",
        "telecom-073",
        "Could you give me the line ID or the phone number of the line?",
        {"asks": ["phone_number"]},
    ),
    (
        "telecom",
        "telecom-062",
        "Just to confirm before I change anything: I'll switch roaming on for your line. Is that"
        " okay with you?",
        {"confirms": True},
    ),
    # more device steps
    (
        "telecom",
        "telecom-015",
        "Please go into Settings and switch Data Saver off.",
        {"steps": ["toggle_data_saver"]},
    ),
    (
        "telecom",
        "telecom-003",
        "Do you see an 'R' next to the signal bars?",
        {"steps": ["check_status_bar"]},
    ),
    (
        "telecom",
        "telecom-013",
        "Please remove the SIM, wait a few seconds, then put it back in.",
        {"steps": ["reseat_sim_card"]},
    ),
    (
        "telecom",
        "telecom-004",
        "Go ahead and reset your phone's access point settings to default.",
        {"steps": ["reset_apn_settings"]},
    ),
    (
        "telecom",
        "telecom-003",
        "Could you set your preferred network type back to automatic?",
        {"steps": ["set_network_mode_automatic"]},
    ),
    (
        "telecom",
        "telecom-013",
        "First check whether Wi-Fi Calling is on; if it isn't, turn it on.",
        {"steps": ["check_wifi_calling", "toggle_wifi_calling"]},
    ),
    (
        "telecom",
        "telecom-013",
        "Is anything set under call forwarding? If so, please turn it off.",
        {"steps": ["check_call_forwarding", "toggle_call_forwarding"]},
    ),
    (
        "telecom",
        "telecom-013",
        "Please install any pending system update and restart.",
        {"steps": ["install_software_update", "restart_device"]},
    ),
    # a confirmation that states ids with their values asks for none of them ("No." ends a
    # sentence unless a number follows)
    (
        "car_rental",
        "car_rental-020",
        "I'll book the economy car under user ID diego_khan_4232 with payment method"
        " paypal_9799075, without the young driver surcharge: no. Shall I go ahead?",
        {"confirms": True},
    ),
    ("car_rental", "car_rental-020", "What is your user ID?", {"asks_other": True}),
    # "see you" is a farewell, "see your …" is not
    ("retail", "retail-011", "Let me see your order history first.", {}),
    ("retail", "retail-011", "All done. See you next time!", {"closes": True, "done": True}),
    (
        "car_rental",
        "car_rental-004",
        "Nothing comes up for CRZZ1234. Are you sure about that booking code?",
        {"asks": ["booking_id"]},
    ),
    (
        "car_rental",
        "car_rental-020",
        "See clause No. 4 of the terms. Which email is on the account?",
        {"asks": ["email"]},
    ),
    # refusals and their look-alikes
    (
        "food_delivery",
        "food_delivery-003",
        "We don't offer same-day refunds in your area.",
        {"refuses": True},
    ),
    ("retail", "retail-011", "There's no fee for this change.", {}),
    (
        "retail",
        "retail-011",
        "Unfortunately I'm not finding any orders under that email.",
        {"asks": []},
    ),
    # two questions in one sentence ask two slots; a proposal asks nothing; meaning, not keywords
    (
        "banking",
        "banking-005",
        "What amount do you want to send, and from which account to which?",
        {"asks": ["amount", "from_account", "to_account"]},
    ),
    (
        "car_rental",
        "car_rental-000",
        "Where would you like to pick it up and where will you drop the car off?",
        {"asks": ["pickup_location", "return_location"]},
    ),
    (
        "car_rental",
        "car_rental-000",
        "What type of vehicle do you have in mind?",
        {"asks": ["vehicle_class"]},
    ),
    (
        "retail",
        "retail-000",
        "You have two orders with us. Which one should I cancel, and may I ask the reason?",
        {"asks": ["order_desc", "cancel_reason"]},
    ),
    (
        "airline",
        "airline-003",
        "Let's add the extra luggage. First, what's the email on your profile?",
        {"asks": ["email"]},
    ),
    ("airline", "airline-000", "Is anyone else flying with you?", {"asks": ["passengers"]}),
    (
        "telehealth",
        "telehealth-004",
        "Which pharmacy shall we send the refill to?",
        {"asks": ["new_pharmacy"]},
    ),
    (
        "food_delivery",
        "food_delivery-002",
        "Which dish do you want added to your order?",
        {"asks": ["new_item"]},
    ),
    (
        "telecom",
        "telecom-007",
        "Got it. What seems wrong with that charge?",
        {"asks": ["dispute_reason"]},
    ),
]


@pytest.mark.parametrize(("domain", "task", "text", "acts"), CASES, ids=[c[2][:40] for c in CASES])
def test_natural_wording_is_read_as_its_acts(
    domain: str, task: str, text: str, acts: dict[str, object]
) -> None:
    got = public(reader_for(domain, task).read(text))
    expected = {key: acts.get(key, [] if key in ("asks", "steps") else False) for key in ACT_KEYS}
    assert {key: got[key] for key in ACT_KEYS} == expected
