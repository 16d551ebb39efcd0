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

_PLANE = r"air ?plane|aeroplane|flight mode|(?:little )?plane(?: icon| symbol| tile)?\b"
_SIGNAL = (
    r"status bar",
    r"signal",
    r"(?:the |any )?bars\b",
    r"reception",
    r"no service|any service|(?:have|get|getting) service",
    r"top (?:\w+ )?(?:edge |corner |part |right |left )?of (?:the |your )?(?:screen|display|phone)",
    r"(?:very )?top (?:right|left)",
    r"(?:next to|near|beside|by) the clock",
    r"network indicator|(?:an? )?r icon|\ban r\b",
    r"emergency calls only|sos only|lock screen",
    _PLANE,
)
_SIM = r"sim\b|sim card|sim status|sim manager"
_SIM_OUT = (
    r"reseat|re-seat|reinsert|re-insert|sim\b|sim card|sim tray|tray\b",
    r"card (?:out|back)",
    r"(?:remove|take|pop|eject|pull|lift) (?:\w+ ){0,3}(?:card|tray)",
    r"(?:pull|take|pop|slide) (?:the |your )?(?:sim|card|tray)(?: \w+)? out"
    r"|slot (?:\w+ )?(?:back )?in\b",
)
_NETWORK = r"network (?:type|mode|generation|selection)|preferred network|connection type"
_NETWORK_SHOWN = (
    _NETWORK,
    r"(?:which|what) (?:kind of |type of |generation of )?(?:network|generation)",
    r"generation of network",
    r"(?:5g|4g|lte|3g)(?: only|/| or )",
    r"network technolog(?:y|ies)|which networks? (?:\w+ ){0,2}(?:uses?|connects?|prefers?)",
)
_NETWORK_SET = (
    _NETWORK,
    r"automatic|\bauto\b",
    r"top option",
    r"(?:5g|4g|lte|3g)(?: only|/| or )",
)
_DATA = (
    r"mobile data|cellular data|data (?:toggle|switch)"
    r"|(?:mobile|cellular) (?:data )?(?:switch|toggle)"
)
_ROAMING = r"roaming"
_APN = r"apns?\b|access point"
_APN_RESET = (
    _APN,
    r"reset to default|restore (?:the )?defaults?|factory defaults?|default (?:values|settings)",
)
_DEVICE = r"(?:it|the phone|your phone|the device|your device|the handset|your handset|everything)"
_RESTART = (
    r"(?<!let the phone )(?<!let it )(?:restart|reboot|re-boot)(?! by itself| on its own)",
    r"power[- ]?cycle|fresh start",
    r"(?:turn|switch|power|shut) " + _DEVICE + r" (?:\w+ )?(?:off|down)\W+(?:\w+\W+){0,8}"
    r"(?:back )?(?:on|up)\b",
    r"(?:turn|switch|power|shut) (?:off|down) "
    + _DEVICE
    + r"\W+(?:\w+\W+){0,8}(?:back )?(?:on|up)\b",
    r"(?:power|turn|switch) (?:it )?off and (?:back )?on|off and on again|on and off again",
)
_SPEED = (
    r"(?:speed[- ]?test|speed check)(?: (?:\w+ ){0,3}(?:on|over|using|with) (?:mobile|cellular)"
    r" (?:data|only|internet))?",
    r"fast\.com|speed-checking|speed-checking app(?:, on cellular only)?",
    r"how fast (?:\w+ ){0,4}(?:internet|data|connection) is",
    r"how fast (?:\w+ ){0,4}(?:internet|data|connection|is)",
    r"(?:download|upload) (?:speed|figure|rate)",
    r"(?:internet|connection|data) speed|speed of (?:your|the)",
    r"measure (?:your |the )?(?:connection|speed|internet)",
    r"(?:measure|test|check) (?:\w+ ){0,3}speed\b"
    r"(?: (?:\w+ ){0,2}(?:on|over|using|with) (?:mobile|cellular) (?:data|only|internet))?",
    r"bandwidth|speed (?:app|check|reading)",
)
_TEST_CALL = (
    r"test call|test (?:line|number)|611",
    r"(?:make|place) (?:a |one )?(?:quick |short )?(?:test )?(?:phone )?calls?\b(?! over)",
    r"dial (?:a|any|some|another|one) (?:\w+ )?number",
    r"(?:try|trying) (?:calling|ringing|to call|a call)",
    r"call (?:yourself|someone|a friend|your own)",
)
_PICTURE = (
    r"picture message|photo message|\bmms\b",
    r"(?:send|text|attach|messag(?:e|ing)|texting)(?:ing)? (?:\w+ ){0,4}"
    r"(?:photo|picture|image|pic)",
    r"(?:photo|picture|image|pic) (?:\w+ ){0,4}(?:text|message|sms)",
    r"test picture",
)
_VPN = (
    r"vpn|virtual private|freeshield|tunnel|privacy app"
    r"|key icon(?: (?:\w+ ){0,2}(?:near|next to|by|beside) the clock)?"
)
_DATA_SAVER = (
    r"data saver|data-sav(?:er|ing)|data sav(?:ing)|save data|saving data",
    r"(?:restrict|limit)s? background data|background data",
)
_BATTERY = (
    r"battery saver|battery-saver|low power|low-power|power[- ]sav(?:ing|er)|battery[- ]sav(?:ing)",
    r"battery (?:mode|optimi[sz]ation)",
)
_PERMISSIONS = (
    r"permissions?|permitted to",
    r"(?:messages|messaging|texting|sms) app(?!'s cache)",
    r"(?:messages|messaging|texting|sms) app(?:'s)? (?:access|settings|info)",
    r"app info",
    r"access (?:to|for) (?:phone|storage|sms)",
    r"what (?:access|the messages app)",
)
_GRANT = (
    r"permissions?",
    r"access (?:to|for) (?:phone|storage|sms)",
    r"(?:give|grant|allow) (?:\w+ ){0,3}(?:access|messages|messaging|texting)",
    r"(?:to|as) allowed|allow everything",
    r"(?:messages|messaging|texting|sms) app(?:'s)? (?:access|permissions?)",
)
_WIFI_CALLING = (
    r"wi-?fi calling|wifi calling",
    r"call(?:s|ing)? over (?:your |the )?(?:home )?(?:wi-?fi|internet)",
    r"(?:place|make) calls over",
)
_FORWARDING = r"forward|divert|555-0100"
_UPDATE_SHOWN = (
    r"software update|system update|carrier update|(?:carrier|system|software|os"
    r"|phone) (?:settings )?update",
    r"updates? (?:\w+ )?(?:available|waiting|pending)",
    r"(?:pending|waiting) update|any updates|check for (?:an )?updates?",
    r"up to date|latest (?:software|version|firmware)",
    r"update (?:page|screen|menu|section)|last updated?|new version|anything new (?:is )?offered",
)
_UPDATE = (
    *_UPDATE_SHOWN,
    r"update|installation|\binstall\b|latest (?:software|version|firmware)",
)

STEP_HINTS: dict[str, StepHint] = {
    "check_status_bar": StepHint(
        ("status bar", "signal bars", "signal icon"),
        "look at the status bar at the top of your phone's screen",
        shows=_SIGNAL,
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
        does=(_PLANE,),
    ),
    "check_sim_card": StepHint(
        ("sim settings", "sim card is detected", "whether the sim", "check the sim"),
        "open the SIM settings and read whether the SIM card is detected",
        shows=(_SIM,),
    ),
    "reseat_sim_card": StepHint(
        ("reseat", "reinsert", "sim card out", "take the sim out", "sim out and"),
        "take the SIM card out of your phone and put it back in firmly",
        does=_SIM_OUT,
    ),
    "check_network_mode": StepHint(
        ("network type", "network mode", "preferred network"),
        "open the mobile network settings and read the network type it prefers",
        shows=_NETWORK_SHOWN,
    ),
    "set_network_mode_automatic": StepHint(
        ("automatic network", "network to automatic", "set it to automatic", "5g/4g/3g"),
        "set the network back to automatic (5G/4G/3G)",
        does=_NETWORK_SET,
    ),
    "check_mobile_data": StepHint(
        (
            "mobile data settings",
            "mobile data switch",
            "check mobile data",
            "check the mobile data",
        ),
        "open the mobile data settings and read both of their switches",
        shows=(_DATA, _ROAMING, r"mobile internet"),
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
        does=(_DATA,),
    ),
    "toggle_data_roaming": StepHint(
        ("toggle data roaming", "data roaming on", "on data roaming", "enable data roaming"),
        "toggle data roaming in your phone's settings",
        does=(_ROAMING,),
    ),
    "check_apn_settings": StepHint(
        ("access point name", "read the apn", "check the apn", "check your apn"),
        "read the access point name (APN) in your phone's mobile network settings",
        shows=(_APN,),
    ),
    "reset_apn_settings": StepHint(
        ("reset the apn", "reset your apn", "apn reset", "reset the access point"),
        "reset the APN settings on your phone to the defaults",
        does=_APN_RESET,
    ),
    "restart_device": StepHint(
        ("turn your phone off and on",),
        "restart your phone",
        shows=_RESTART,
        does=_RESTART,
    ),
    "check_vpn": StepHint(
        ("vpn settings", "check the vpn", "vpn is connected", "any vpn"),
        "open the VPN settings and read whether a VPN is connected",
        shows=(_VPN,),
    ),
    "toggle_vpn": StepHint(
        ("disconnect the vpn", "toggle the vpn", "vpn off", "turn off the vpn"),
        "disconnect the VPN in your phone's settings",
        does=(_VPN,),
    ),
    "check_data_saver": StepHint(
        ("data usage settings", "data saver is", "check data saver", "check the data saver"),
        "open the data usage settings and read whether Data Saver is on",
        shows=(*_DATA_SAVER, r"data usage (?:settings|options|menu)"),
    ),
    "toggle_data_saver": StepHint(
        ("toggle data saver", "data saver off", "turn off data saver", "switch off data saver"),
        "toggle Data Saver (turn it off)",
        does=_DATA_SAVER,
    ),
    "check_battery_saver": StepHint(
        ("battery settings", "battery saver is", "check battery saver", "low power mode is"),
        "open the battery settings and read whether battery saver is on",
        shows=(*_BATTERY, r"battery (?:settings|screen|page|menu)|settings > battery"),
    ),
    "toggle_battery_saver": StepHint(
        (
            "toggle battery saver",
            "battery saver off",
            "turn off battery saver",
            "low power mode off",
        ),
        "toggle battery saver (turn it off)",
        does=_BATTERY,
    ),
    "check_app_permissions": StepHint(
        ("app permissions", "permissions of the messages", "messages app's permissions"),
        "open the Messages app's permissions and read what it is allowed",
        shows=_PERMISSIONS,
    ),
    "grant_messaging_permissions": StepHint(
        ("allow the messages", "grant the messages", "grant messaging", "allow messaging"),
        "allow the Messages app every permission it asks for",
        does=_GRANT,
    ),
    "check_wifi_calling": StepHint(
        ("calling settings", "wi-fi calling is", "wifi calling is", "check wi-fi calling"),
        "open the calling settings and read whether Wi-Fi calling is on",
        shows=_WIFI_CALLING,
    ),
    "toggle_wifi_calling": StepHint(
        (
            "toggle wi-fi calling",
            "wi-fi calling on",
            "toggle wifi calling",
            "wifi calling on",
            "enable wi-fi calling",
        ),
        "toggle Wi-Fi calling (turn it on)",
        does=_WIFI_CALLING,
    ),
    "check_call_forwarding": StepHint(
        ("forwarding settings", "calls are forwarded", "check call forwarding"),
        "open the call forwarding settings and read whether calls are forwarded",
        shows=(_FORWARDING,),
    ),
    "toggle_call_forwarding": StepHint(
        (
            "toggle call forwarding",
            "call forwarding off",
            "turn off call forwarding",
            "stop forwarding",
        ),
        "toggle call forwarding (turn it off)",
        does=(_FORWARDING,),
    ),
    "check_software_update": StepHint(
        ("software update screen", "update is waiting", "check for updates", "check for an update"),
        "open the software update screen and read whether an update is waiting",
        shows=_UPDATE_SHOWN,
    ),
    "install_software_update": StepHint(
        ("install the update", "install the software", "install the waiting", "install it"),
        "install the waiting software update",
        does=_UPDATE,
    ),
    "run_speed_test": StepHint(
        ("speed test",),
        "run a speed test with Wi-Fi switched off",
        shows=_SPEED,
        does=_SPEED,
    ),
    "make_test_call": StepHint(
        ("test call", "call 611", "call the test number"),
        "make a test call to 611 from home",
        shows=_TEST_CALL,
        does=_TEST_CALL,
    ),
    "send_test_picture_message": StepHint(
        ("picture message to", "test picture", "send yourself a photo", "send a photo"),
        "send a test picture message to your own number",
        shows=_PICTURE,
        does=_PICTURE,
    ),
}
"""How an agent asks the user to run each of the phone's tools (``domains.telecom.device``)."""


def line_reads(identity: Identity, line: Line) -> list[Action]:
    """Authentication, the customer's profile and the line concerned."""
    return [*identity.actions, Action("get_line_details", {"line_id": line.line_id})]


def user_step(name: str, line: Line) -> Action:
    """A gold step the user performs on the phone of ``line``."""
    return Action(name, {"phone_number": line.phone_number})
