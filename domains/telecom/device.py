"""The user's own tools: what a customer can see and do on their phone (dual control).

Only the user can call these (``Domain.user_toolkit``); the agent must ask the user to check
or change something and rely on what the user says. They act on the ``devices`` table of the
conversation's database, so the final state the grader compares holds the phone too. Each
takes the phone's number (a scripted user fills it from its known ``phone_number``) and answers
in words, as a person reads their screen (``screen``). The toolkit, and a person's phone panel,
list them in this module's order: the radios, the SIM, the network settings, the restart and the
re-checks (speed test, test call, test picture message), then the app, saver, calling and update
settings.
"""

from __future__ import annotations

import msgspec

from tau_sim.domains.telecom.data import APN_DEFAULT, NETWORK_AUTO, Device
from tau_sim.domains.telecom.screen import (
    changed,
    on_off,
    phone_tool,
    put,
    service_of,
    state_tool,
    status_text,
    toggle_tool,
)
from tau_sim.simulator.world import Database, ToolKind

READ, WRITE = ToolKind.READ, ToolKind.WRITE
_RESTART = "the phone asks to be restarted."


@phone_tool(READ)
def check_status_bar(db: Database, device: Device) -> str:
    """Look at the status bar at the top of your phone's screen."""
    return status_text(db, device)


toggle_airplane_mode = toggle_tool(
    "toggle_airplane_mode",
    "Switch airplane mode on your phone on or off (whichever it is not now).",
    "airplane_mode",
    "Airplane mode",
)


@phone_tool(READ)
def check_sim_card(db: Database, device: Device) -> str:
    """Open your phone's SIM settings and read whether the SIM card is detected."""
    if device.sim == "loose":
        return "The SIM settings say: 'No SIM card detected'."
    if device.restart_pending:
        return "The SIM settings say: 'SIM card inserted, restart to use it'."
    return "The SIM settings say: 'SIM card detected'."


@phone_tool(WRITE)
def reseat_sim_card(db: Database, device: Device) -> str:
    """Take the SIM card out of your phone and put it back in firmly (a restart applies it)."""
    text = f"The SIM card is back in its tray; {_RESTART}"
    return changed(db, device, text, sim="seated", restart_pending=True)


@phone_tool(READ)
def check_network_mode(db: Database, device: Device) -> str:
    """Open your phone's mobile network settings and read the preferred network type."""
    return f"The preferred network type is '{device.network_mode}'."


@phone_tool(WRITE)
def set_network_mode_automatic(db: Database, device: Device) -> str:
    """Set your phone's preferred network type back to automatic (5G/4G/3G)."""
    device = msgspec.structs.replace(device, network_mode=NETWORK_AUTO)
    put(db, device)
    return f"The preferred network type is now '{NETWORK_AUTO}'. {status_text(db, device)}"


@phone_tool(READ)
def check_mobile_data(db: Database, device: Device) -> str:
    """Open your phone's mobile data settings and read the mobile data and data roaming switches."""
    return (
        f"Mobile data is {on_off(device.mobile_data)}; "
        f"data roaming is {on_off(device.data_roaming)}."
    )


toggle_mobile_data = toggle_tool(
    "toggle_mobile_data",
    "Switch mobile data on your phone on or off (whichever it is not now).",
    "mobile_data",
    "Mobile data",
)
toggle_data_roaming = toggle_tool(
    "toggle_data_roaming",
    "Switch data roaming in your phone's settings on or off (whichever it is not now).",
    "data_roaming",
    "Data roaming",
)


@phone_tool(READ)
def check_apn_settings(db: Database, device: Device) -> str:
    """Open your phone's mobile network settings and read the access point name (APN)."""
    return f"The access point name is '{device.apn}'."


@phone_tool(WRITE)
def reset_apn_settings(db: Database, device: Device) -> str:
    """Reset your phone's access point settings to the defaults (a restart applies them)."""
    text = f"The APN settings are back to the defaults; {_RESTART}"
    return changed(db, device, text, apn=APN_DEFAULT, restart_pending=True)


@phone_tool(WRITE)
def restart_device(db: Database, device: Device) -> str:
    """Turn your phone off and on again."""
    device = msgspec.structs.replace(device, restart_pending=False)
    put(db, device)
    return f"The phone has restarted. {status_text(db, device)}"


@phone_tool(READ)
def run_speed_test(db: Database, device: Device) -> str:
    """Run the speed test app on mobile data (Wi-Fi off) and read its result."""
    got = service_of(db, device)
    if not got.data:
        return "The speed test says: 'No internet connection'."
    if not got.fast:
        return "The speed test says: 0.3 Mbps download, 0.1 Mbps upload (very slow)."
    return "The speed test says: 85 Mbps download, 20 Mbps upload."


@phone_tool(READ)
def make_test_call(db: Database, device: Device) -> str:
    """Call the carrier's free test number (611) from your phone, at home, and say what happens."""
    got = service_of(db, device)
    if not got.calls_out:
        return "The call fails: the screen says 'Call failed'."
    if not got.calls_in:
        return "The call connects, but the test line says calls to this number are forwarded."
    return "The call connects clearly and the test line says incoming calls reach this phone."


@phone_tool(READ)
def send_test_picture_message(db: Database, device: Device) -> str:
    """Send a photo by text message (MMS) to your own number and say whether it arrives."""
    if service_of(db, device).mms:
        return "The picture message is sent and arrives a few seconds later."
    return "The picture message is not sent: the screen says 'Message not sent'."


@phone_tool(READ)
def check_vpn(db: Database, device: Device) -> str:
    """Open your phone's VPN settings and read whether a VPN is connected."""
    if device.vpn:
        return "The VPN settings show 'FreeShield VPN: connected (no traffic)'."
    return "The VPN settings show no VPN connected."


toggle_vpn = toggle_tool(
    "toggle_vpn",
    "Connect or disconnect the VPN in your phone's settings (whichever it is not now).",
    "vpn",
    "The VPN",
)
check_data_saver = state_tool(
    "check_data_saver",
    "Open your phone's data usage settings and read whether Data Saver is on.",
    "data_saver",
    "Data Saver",
)
toggle_data_saver = toggle_tool(
    "toggle_data_saver",
    "Switch Data Saver on your phone on or off (whichever it is not now).",
    "data_saver",
    "Data Saver",
)
check_battery_saver = state_tool(
    "check_battery_saver",
    "Open your phone's battery settings and read whether battery saver (low power) is on.",
    "battery_saver",
    "Battery saver",
)
toggle_battery_saver = toggle_tool(
    "toggle_battery_saver",
    "Switch battery saver (low power mode) on or off (whichever it is not now).",
    "battery_saver",
    "Battery saver",
)


@phone_tool(READ)
def check_app_permissions(db: Database, device: Device) -> str:
    """Open the Messages app's permissions and read what it is allowed to do."""
    if device.mms_permission:
        return "The Messages app is allowed: SMS, phone, storage."
    return "The Messages app is allowed: SMS. Not allowed: phone, storage."


@phone_tool(WRITE)
def grant_messaging_permissions(db: Database, device: Device) -> str:
    """Allow the Messages app every permission it asks for (SMS, phone, storage)."""
    text = "The Messages app is now allowed: SMS, phone, storage."
    return changed(db, device, text, mms_permission=True)


check_wifi_calling = state_tool(
    "check_wifi_calling",
    "Open your phone's calling settings and read whether Wi-Fi calling is on.",
    "wifi_calling",
    "Wi-Fi calling",
)
toggle_wifi_calling = toggle_tool(
    "toggle_wifi_calling",
    "Switch Wi-Fi calling on or off (whichever it is not now).",
    "wifi_calling",
    "Wi-Fi calling",
)


@phone_tool(READ)
def check_call_forwarding(db: Database, device: Device) -> str:
    """Open your phone's calling settings and read whether calls are forwarded."""
    if device.call_forwarding:
        return "Call forwarding: always forward, to 555-0100."
    return "Call forwarding is OFF."


toggle_call_forwarding = toggle_tool(
    "toggle_call_forwarding",
    "Switch call forwarding on or off (whichever it is not now).",
    "call_forwarding",
    "Call forwarding",
)


@phone_tool(READ)
def check_software_update(db: Database, device: Device) -> str:
    """Open your phone's software update screen and read whether an update is waiting."""
    if device.update_pending:
        return "The screen says: 'Carrier settings update available: calling fixes'."
    return "The screen says: 'Your software is up to date'."


@phone_tool(WRITE)
def install_software_update(db: Database, device: Device) -> str:
    """Install the waiting software and carrier settings update (a restart finishes it)."""
    text = f"The update is installed; {_RESTART}"
    return changed(db, device, text, update_pending=False, restart_pending=True)
