"""The user's own tools: what a customer can see and do on their phone (dual control).

Only the user can call these (``Domain.user_toolkit``); the agent must ask the user to check
or change something and rely on what the user says. They act on the ``devices`` table of the
conversation's database, so the final state the grader compares holds the phone too. Each
takes the phone's number (a scripted user fills it from its known ``phone_number``) and answers
in words, as a person reads their screen.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import msgspec

from tau_sim.domains.telecom.access import load_device
from tau_sim.domains.telecom.data import APN_DEFAULT, SUSPENDED, Device, Line
from tau_sim.simulator.world import Database, ToolKind, tool


def _line(db: Database, phone_number: str) -> Line | None:
    keys = db.find("lines_by_phone", phone_number.strip())
    line = db.get("lines", keys[0]) if keys else None
    return line if isinstance(line, Line) else None


def _on(flag: bool) -> str:
    return "ON" if flag else "OFF"


def status_text(db: Database, device: Device) -> str:
    """What the status bar of ``device`` shows: signal, data and the icons a user notices."""
    line = _line(db, device.phone_number)
    if device.airplane_mode:
        return "The status bar shows the airplane icon and no signal bars."
    if device.sim == "loose" or device.restart_pending:
        return "The status bar shows 'No SIM' and no signal bars."
    if line is None or line.status == SUSPENDED:
        return "The status bar shows 'Emergency calls only'."
    roaming_ok = not device.abroad or (line.roaming_enabled and device.data_roaming)
    if device.abroad and not line.roaming_enabled:
        return "The status bar shows 'Emergency calls only' and an R for roaming."
    data = device.mobile_data and device.apn == APN_DEFAULT and roaming_ok
    network = "4 signal bars" + (" with an R for roaming" if device.abroad else "")
    if data:
        return f"The status bar shows {network} and the 5G data icon."
    return f"The status bar shows {network} but no data icon."


def _put(db: Database, device: Device) -> None:
    db.put("devices", device.phone_number, device)


def _switch(db: Database, phone_number: str, setting: str, label: str) -> str:
    """Flip the on/off ``setting`` of the phone; its new state (as ``label``) and the status bar."""
    device = load_device(db, phone_number)
    on = not getattr(device, setting)
    device = msgspec.structs.replace(device, **{setting: on})
    _put(db, device)
    return f"{label} is now {_on(on)}. {status_text(db, device)}"


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
    return _switch(db, phone_number, "airplane_mode", "Airplane mode")


@tool(ToolKind.WRITE)
def toggle_mobile_data(db: Database, phone_number: str) -> str:
    """Switch mobile data on your phone on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return _switch(db, phone_number, "mobile_data", "Mobile data")


@tool(ToolKind.WRITE)
def toggle_data_roaming(db: Database, phone_number: str) -> str:
    """Switch data roaming in your phone's settings on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return _switch(db, phone_number, "data_roaming", "Data roaming")


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
    device = load_device(db, phone_number)
    _put(db, msgspec.structs.replace(device, apn=APN_DEFAULT, restart_pending=True))
    return "The APN settings are back to the defaults; the phone asks to be restarted."


@tool(ToolKind.WRITE)
def reseat_sim_card(db: Database, phone_number: str) -> str:
    """Take the SIM card out of your phone and put it back in firmly (a restart applies it).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    _put(db, msgspec.structs.replace(device, sim="seated", restart_pending=True))
    return "The SIM card is back in its tray; the phone asks to be restarted."


@tool(ToolKind.WRITE)
def restart_device(db: Database, phone_number: str) -> str:
    """Turn your phone off and on again.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    device = load_device(db, phone_number)
    device = msgspec.structs.replace(device, restart_pending=False)
    _put(db, device)
    return f"The phone has restarted. {status_text(db, device)}"
