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
    "plan_charge": SlotHint(
        ("plan charge", "plan fee", "monthly charge"),
        "the plan charge you also dispute",
    ),
    "line_description": SlotHint(
        ("which one", "which of your lines", "line is it", "which phone", "describe the line"),
        "which of your lines it is",
    ),
    "country": SlotHint(
        ("which country", "what country", "where are you", "destination"),
        "the country you are in",
    ),
}
"""The kit's standard slots plus the lines, plans, add-ons, bills and charges of telecom."""

# What each device step is about, as an agent may name it (regular expressions over lower-case
# text): the scripted user reads a step as one of these topics and whether it is to be looked at
# or changed (``tau_sim.users.device_steps``). Steps that look at and change one thing share it.
SPEED_TEST = r"speed ?test|speed-check|download speed|internet speed|how fast|fast\.com"
TEST_CALL = r"test call|\b611\b|(?:make|place) (?:a |one )?(?:quick |short )?call\b"
PICTURE = r"picture message|picture|photo|\bmms\b|image"
WIFI_CALLING = r"wi-?fi[ -]?calling|call(?:s|ing)? over wi-?fi"
FORWARDING = r"forward|divert"
PERMISSIONS = (
    r"permission|permitted|(?:app|messages|texting)[^.?!]{0,40}\baccess\b"
    r"|\baccess\b[^.?!]{0,30}\b(?:messages|texting) app"
)
APN = r"\bapns?\b|access point"
VPN = r"\bvpns?\b|tunnel"
DATA_SAVER = r"data[ -]sav|data usage|restrict(?:ed)? background data"
BATTERY_SAVER = r"battery|low[ -]power|power[ -]sav"
ROAMING = r"roaming"
NETWORK_MODE = (
    r"network (?:mode|type|selection)|preferred network|\b[2345]g\b|\blte\b"
    r"|generation of network|network generation|connection type"
)
MOBILE_DATA = r"(?<!on )(?<!using )(?<!over )(?<!via )(?:mobile|cellular) data|data switch"
AIRPLANE = r"airplane|aeroplane|flight mode|plane icon"
SIM = r"\bsim\b|sim card|sim tray"
UPDATE = r"\bupdates?\b|software version|system version|os version|installation"
RESTART = (
    r"restart|reboot|power[ -]cycle|(?:turn|switch|power) (?:your |the )?(?:phone|device|"
    r"handset) (?:off|down)|(?:turn|switch|power) (?:it )?off and (?:back )?on"
)
STATUS_BAR = (
    r"status bar|top (?:right |left )?(?:edge )?of (?:your |the )?(?:phone'?s? )?"
    r"(?:screen|display)|signal (?:bars?|icon|indicator|strength)|network indicator"
    r"|notification bar|how many bars|icons? (?:at|along|in) the top"
)
AUTOMATIC = r"\bauto(?:matic)?\b"
RESET = r"\b(?:reset|restore|default)"
GRANT = r"\b(?:grant|give|allow|enable|turn on|approve)\b"

STEP_HINTS: dict[str, StepHint] = {
    "check_status_bar": StepHint(
        topic=STATUS_BAR,
        changes=False,
        request="look at the status bar at the top of your phone's screen",
        also_shows=(AIRPLANE,),
    ),
    "toggle_airplane_mode": StepHint(
        topic=AIRPLANE, changes=True, request="toggle airplane mode on your phone"
    ),
    "check_sim_card": StepHint(
        topic=SIM,
        changes=False,
        request="open the SIM settings and read whether the SIM card is detected",
    ),
    "reseat_sim_card": StepHint(
        topic=SIM,
        changes=True,
        request="take the SIM card out of your phone and put it back in firmly",
    ),
    "check_network_mode": StepHint(
        topic=NETWORK_MODE,
        changes=False,
        request="open the mobile network settings and read the network type it prefers",
    ),
    "set_network_mode_automatic": StepHint(
        topic=NETWORK_MODE,
        changes=True,
        request="set the network back to automatic (5G/4G/3G)",
        change_words=AUTOMATIC,
    ),
    "check_mobile_data": StepHint(
        topic=MOBILE_DATA,
        changes=False,
        request="open the mobile data settings and read both of their switches",
        also_shows=(ROAMING,),
    ),
    "toggle_mobile_data": StepHint(
        topic=MOBILE_DATA, changes=True, request="toggle mobile data in your phone's settings"
    ),
    "toggle_data_roaming": StepHint(
        topic=ROAMING, changes=True, request="toggle data roaming in your phone's settings"
    ),
    "check_apn_settings": StepHint(
        topic=APN,
        changes=False,
        request="read the access point name (APN) in your phone's mobile network settings",
    ),
    "reset_apn_settings": StepHint(
        topic=APN,
        changes=True,
        request="reset the APN settings on your phone to the defaults",
        change_words=RESET,
    ),
    "restart_device": StepHint(topic=RESTART, changes=True, request="restart your phone"),
    "check_vpn": StepHint(
        topic=VPN,
        changes=False,
        request="open the VPN settings and read whether a VPN is connected",
    ),
    "toggle_vpn": StepHint(
        topic=VPN, changes=True, request="disconnect the VPN in your phone's settings"
    ),
    "check_data_saver": StepHint(
        topic=DATA_SAVER,
        changes=False,
        request="open the data usage settings and read whether Data Saver is on",
    ),
    "toggle_data_saver": StepHint(
        topic=DATA_SAVER, changes=True, request="toggle Data Saver (turn it off)"
    ),
    "check_battery_saver": StepHint(
        topic=BATTERY_SAVER,
        changes=False,
        request="open the battery settings and read whether battery saver is on",
    ),
    "toggle_battery_saver": StepHint(
        topic=BATTERY_SAVER, changes=True, request="toggle battery saver (turn it off)"
    ),
    "check_app_permissions": StepHint(
        topic=PERMISSIONS,
        changes=False,
        request="open the Messages app's permissions and read what it is allowed",
    ),
    "grant_messaging_permissions": StepHint(
        topic=PERMISSIONS,
        changes=True,
        request="allow the Messages app every permission it asks for",
        change_words=GRANT,
    ),
    "check_wifi_calling": StepHint(
        topic=WIFI_CALLING,
        changes=False,
        request="open the calling settings and read whether Wi-Fi calling is on",
    ),
    "toggle_wifi_calling": StepHint(
        topic=WIFI_CALLING, changes=True, request="toggle Wi-Fi calling (turn it on)"
    ),
    "check_call_forwarding": StepHint(
        topic=FORWARDING,
        changes=False,
        request="open the call forwarding settings and read whether calls are forwarded",
    ),
    "toggle_call_forwarding": StepHint(
        topic=FORWARDING, changes=True, request="toggle call forwarding (turn it off)"
    ),
    "check_software_update": StepHint(
        topic=UPDATE,
        changes=False,
        request="open the software update screen and read whether an update is waiting",
    ),
    "install_software_update": StepHint(
        topic=UPDATE, changes=True, request="install the waiting software update"
    ),
    "run_speed_test": StepHint(
        topic=SPEED_TEST, changes=True, request="run a speed test with Wi-Fi switched off"
    ),
    "make_test_call": StepHint(
        topic=TEST_CALL, changes=True, request="make a test call to 611 from home"
    ),
    "send_test_picture_message": StepHint(
        topic=PICTURE, changes=True, request="send a test picture message to your own number"
    ),
}
"""How an agent asks the user to run each of the phone's tools (``domains.telecom.device``)."""


def line_reads(identity: Identity, line: Line) -> list[Action]:
    """Authentication, the customer's profile and the line concerned."""
    return [*identity.actions, Action("get_line_details", {"line_id": line.line_id})]


def user_step(name: str, line: Line) -> Action:
    """A gold step the user performs on the phone of ``line``."""
    return Action(name, {"phone_number": line.phone_number})
