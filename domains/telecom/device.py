"""The user's own tools: what a customer can see and do on their phone (dual control).

Only the user can call these (``Domain.user_toolkit``); the agent must ask the user to check
or change something and rely on what the user says. They act on the ``devices`` table of the
conversation's database, so the final state the grader compares holds the phone too. Each
takes the phone's number (a scripted user fills it from its known ``phone_number``) and answers
in words, as a person reads their screen. This module holds the radios, the SIM, the network
settings, the restart and the re-checks (speed test, test call, test picture message); the
app, saver, calling and update settings are ``device_settings``' tools, collected here too.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import msgspec

from tau_sim.domains.telecom import device_settings as _settings
from tau_sim.domains.telecom.access import load_device
from tau_sim.domains.telecom.data import APN_DEFAULT, NETWORK_AUTO
from tau_sim.domains.telecom.screen import changed, on_off, put, service_of, status_text, switch
from tau_sim.simulator.world import Database, ToolKind, tool


@tool(ToolKind.READ)
def check_status_bar(db: Database, phone_number: str) -> str:
    """Look at the status bar at the top of your phone's screen.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return status_text(db, load_device(db, phone_number))


@tool(ToolKind.WRITE)
def toggle_airplane_mode(db: Database, phone_number: str) -> str:
    """Switch airplane mode on your phone on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "airplane_mode", "Airplane mode")


@tool(ToolKind.READ)
def check_sim_card(db: Database, phone_number: str) -> str:
    """Open your phone's SIM settings and read whether the SIM card is detected.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    if device.sim == "loose":
        return "The SIM settings say: 'No SIM card detected'."
    if device.restart_pending:
        return "The SIM settings say: 'SIM card inserted, restart to use it'."
    return "The SIM settings say: 'SIM card detected'."


@tool(ToolKind.WRITE)
def reseat_sim_card(db: Database, phone_number: str) -> str:
    """Take the SIM card out of your phone and put it back in firmly (a restart applies it).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return changed(
        db,
        phone_number,
        "The SIM card is back in its tray; the phone asks to be restarted.",
        sim="seated",
        restart_pending=True,
    )


@tool(ToolKind.READ)
def check_network_mode(db: Database, phone_number: str) -> str:
    """Open your phone's mobile network settings and read the preferred network type.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return f"The preferred network type is '{load_device(db, phone_number).network_mode}'."


@tool(ToolKind.WRITE)
def set_network_mode_automatic(db: Database, phone_number: str) -> str:
    """Set your phone's preferred network type back to automatic (5G/4G/3G).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = msgspec.structs.replace(load_device(db, phone_number), network_mode=NETWORK_AUTO)
    put(db, device)
    return f"The preferred network type is now '{NETWORK_AUTO}'. {status_text(db, device)}"


@tool(ToolKind.READ)
def check_mobile_data(db: Database, phone_number: str) -> str:
    """Open your phone's mobile data settings and read the mobile data and data roaming switches.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    return (
        f"Mobile data is {on_off(device.mobile_data)}; "
        f"data roaming is {on_off(device.data_roaming)}."
    )


@tool(ToolKind.WRITE)
def toggle_mobile_data(db: Database, phone_number: str) -> str:
    """Switch mobile data on your phone on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "mobile_data", "Mobile data")


@tool(ToolKind.WRITE)
def toggle_data_roaming(db: Database, phone_number: str) -> str:
    """Switch data roaming in your phone's settings on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "data_roaming", "Data roaming")


@tool(ToolKind.READ)
def check_apn_settings(db: Database, phone_number: str) -> str:
    """Open your phone's mobile network settings and read the access point name (APN).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    return f"The access point name is '{device.apn}'."


@tool(ToolKind.WRITE)
def reset_apn_settings(db: Database, phone_number: str) -> str:
    """Reset your phone's access point settings to the defaults (a restart applies them).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return changed(
        db,
        phone_number,
        "The APN settings are back to the defaults; the phone asks to be restarted.",
        apn=APN_DEFAULT,
        restart_pending=True,
    )


@tool(ToolKind.WRITE)
def restart_device(db: Database, phone_number: str) -> str:
    """Turn your phone off and on again.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    device = msgspec.structs.replace(device, restart_pending=False)
    put(db, device)
    return f"The phone has restarted. {status_text(db, device)}"


@tool(ToolKind.READ)
def run_speed_test(db: Database, phone_number: str) -> str:
    """Run the speed test app on mobile data (Wi-Fi off) and read its result.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    got = service_of(db, device)
    if not got.data:
        return "The speed test says: 'No internet connection'."
    if not got.fast:
        return "The speed test says: 0.3 Mbps download, 0.1 Mbps upload (very slow)."
    return "The speed test says: 85 Mbps download, 20 Mbps upload."


@tool(ToolKind.READ)
def make_test_call(db: Database, phone_number: str) -> str:
    """Call the carrier's free test number (611) from your phone, at home, and say what happens.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    got = service_of(db, device)
    if not got.calls_out:
        return "The call fails: the screen says 'Call failed'."
    if not got.calls_in:
        return "The call connects, but the test line says calls to this number are forwarded."
    return "The call connects clearly and the test line says incoming calls reach this phone."


@tool(ToolKind.READ)
def send_test_picture_message(db: Database, phone_number: str) -> str:
    """Send a photo by text message (MMS) to your own number and say whether it arrives.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    if service_of(db, device).mms:
        return "The picture message is sent and arrives a few seconds later."
    return "The picture message is not sent: the screen says 'Message not sent'."


# The settings' tools come after the radios' (the toolkit, and a person's phone panel, list
# the tools in this module's order).
check_vpn = _settings.check_vpn
toggle_vpn = _settings.toggle_vpn
check_data_saver = _settings.check_data_saver
toggle_data_saver = _settings.toggle_data_saver
check_battery_saver = _settings.check_battery_saver
toggle_battery_saver = _settings.toggle_battery_saver
check_app_permissions = _settings.check_app_permissions
grant_messaging_permissions = _settings.grant_messaging_permissions
check_wifi_calling = _settings.check_wifi_calling
toggle_wifi_calling = _settings.toggle_wifi_calling
check_call_forwarding = _settings.check_call_forwarding
toggle_call_forwarding = _settings.toggle_call_forwarding
check_software_update = _settings.check_software_update
install_software_update = _settings.install_software_update
