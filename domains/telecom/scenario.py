"""How telecom tasks talk: the slot hints, the hints of the user's own tools, the gold reads."""

from __future__ import annotations

from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.telecom.data import Line
from tau_sim.simulator.world import Action, SlotHint, StepHint

UNKNOWN_IDS = ["line id", "bill id", "charge id", "payment method id"]

MONTHS = {"2025-04": "April 2025", "2025-05": "May 2025", "2025-06": "June 2025"}

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "phone_number": SlotHint(
        ("phone number", "mobile number", "which line", "which number", "line number"),
        "the phone number of the line",
    ),
    "current_plan": SlotHint(
        ("current plan", "plan you are on", "plan you're on", "plan are you on"),
        "your current plan",
        True,
    ),
    "new_plan": SlotHint(
        ("which plan", "what plan", "new plan", "plan would you", "plan you want"),
        "the plan you want",
    ),
    "addon": SlotHint(
        ("which add-on", "what add-on", "which data add-on", "add-on would", "how much data"),
        "the data add-on you want",
    ),
    "bill_month": SlotHint(
        ("which bill", "which month", "billing period", "bill month", "month of the bill"),
        "the month of the bill",
    ),
    "charge": SlotHint(
        ("which charge", "what charge", "disputed charge", "charge you"),
        "the charge you dispute",
    ),
    "dispute_reason": SlotHint(
        ("reason", "why"),
        "why you dispute the charge",
    ),
    "country": SlotHint(
        ("which country", "what country", "where are you", "destination"),
        "the country you are in",
    ),
}
"""The kit's standard slots plus the lines, plans, add-ons, bills and charges of telecom."""

STEP_HINTS: dict[str, StepHint] = {
    "check_status_bar": StepHint(
        ("status bar", "signal bars", "signal icon"),
        "look at the status bar at the top of your phone's screen",
    ),
    "toggle_airplane_mode": StepHint(
        (
            "toggle airplane",
            "airplane mode off",
            "off airplane mode",
            "disable airplane",
            "switch airplane",
            "turn airplane",
            "flight mode off",
        ),
        "toggle airplane mode on your phone",
    ),
    "toggle_mobile_data": StepHint(
        (
            "toggle mobile data",
            "mobile data on",
            "on mobile data",
            "enable mobile data",
            "toggle cellular data",
            "cellular data on",
        ),
        "toggle mobile data in your phone's settings",
    ),
    "toggle_data_roaming": StepHint(
        ("toggle data roaming", "data roaming on", "on data roaming", "enable data roaming"),
        "toggle data roaming in your phone's settings",
    ),
    "check_apn_settings": StepHint(
        ("access point name", "read the apn", "check the apn", "check your apn"),
        "read the access point name (APN) in your phone's mobile network settings",
    ),
    "reset_apn_settings": StepHint(
        ("reset the apn", "reset your apn", "apn reset", "reset the access point"),
        "reset the APN settings on your phone to the defaults",
    ),
    "reseat_sim_card": StepHint(
        ("sim card", "reseat", "reinsert"),
        "take the SIM card out of your phone and put it back in firmly",
    ),
    "restart_device": StepHint(
        ("restart", "reboot", "turn your phone off and on"),
        "restart your phone",
    ),
}
"""How an agent asks the user to run each of the phone's tools (``domains.telecom.device``)."""


def line_reads(identity: Identity, line: Line) -> list[Action]:
    """Authentication, the customer's profile and the line concerned."""
    return [*identity.actions, Action("get_line_details", {"line_id": line.line_id})]


def user_step(name: str, line: Line) -> Action:
    """A gold step the user performs on the phone of ``line``."""
    return Action(name, {"phone_number": line.phone_number})
