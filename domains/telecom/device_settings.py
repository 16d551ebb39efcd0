"""The phone's app, saver, calling and update settings: user tools (``device`` collects them).

Each setting has a check (what its screen says) and a change; like every user tool they act on
the ``devices`` table and only the user can run them.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from tau_sim.domains.telecom.access import load_device
from tau_sim.domains.telecom.screen import changed, on_off, switch
from tau_sim.simulator.world import Database, ToolKind, tool


@tool(ToolKind.READ)
def check_vpn(db: Database, phone_number: str) -> str:
    """Open your phone's VPN settings and read whether a VPN is connected.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    if load_device(db, phone_number).vpn:
        return "The VPN settings show 'FreeShield VPN: connected (no traffic)'."
    return "The VPN settings show no VPN connected."


@tool(ToolKind.WRITE)
def toggle_vpn(db: Database, phone_number: str) -> str:
    """Connect or disconnect the VPN in your phone's settings (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "vpn", "The VPN")


@tool(ToolKind.READ)
def check_data_saver(db: Database, phone_number: str) -> str:
    """Open your phone's data usage settings and read whether Data Saver is on.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return f"Data Saver is {on_off(load_device(db, phone_number).data_saver)}."


@tool(ToolKind.WRITE)
def toggle_data_saver(db: Database, phone_number: str) -> str:
    """Switch Data Saver on your phone on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "data_saver", "Data Saver")


@tool(ToolKind.READ)
def check_battery_saver(db: Database, phone_number: str) -> str:
    """Open your phone's battery settings and read whether battery saver (low power) is on.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return f"Battery saver is {on_off(load_device(db, phone_number).battery_saver)}."


@tool(ToolKind.WRITE)
def toggle_battery_saver(db: Database, phone_number: str) -> str:
    """Switch battery saver (low power mode) on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "battery_saver", "Battery saver")


@tool(ToolKind.READ)
def check_app_permissions(db: Database, phone_number: str) -> str:
    """Open the Messages app's permissions and read what it is allowed to do.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    if load_device(db, phone_number).mms_permission:
        return "The Messages app is allowed: SMS, phone, storage."
    return "The Messages app is allowed: SMS. Not allowed: phone, storage."


@tool(ToolKind.WRITE)
def grant_messaging_permissions(db: Database, phone_number: str) -> str:
    """Allow the Messages app every permission it asks for (SMS, phone, storage).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return changed(
        db,
        phone_number,
        "The Messages app is now allowed: SMS, phone, storage.",
        mms_permission=True,
    )


@tool(ToolKind.READ)
def check_wifi_calling(db: Database, phone_number: str) -> str:
    """Open your phone's calling settings and read whether Wi-Fi calling is on.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return f"Wi-Fi calling is {on_off(load_device(db, phone_number).wifi_calling)}."


@tool(ToolKind.WRITE)
def toggle_wifi_calling(db: Database, phone_number: str) -> str:
    """Switch Wi-Fi calling on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "wifi_calling", "Wi-Fi calling")


@tool(ToolKind.READ)
def check_call_forwarding(db: Database, phone_number: str) -> str:
    """Open your phone's calling settings and read whether calls are forwarded.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    if load_device(db, phone_number).call_forwarding:
        return "Call forwarding: always forward, to 555-0100."
    return "Call forwarding is OFF."


@tool(ToolKind.WRITE)
def toggle_call_forwarding(db: Database, phone_number: str) -> str:
    """Switch call forwarding on or off (whichever it is not now).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return switch(db, phone_number, "call_forwarding", "Call forwarding")


@tool(ToolKind.READ)
def check_software_update(db: Database, phone_number: str) -> str:
    """Open your phone's software update screen and read whether an update is waiting.

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    if load_device(db, phone_number).update_pending:
        return "The screen says: 'Carrier settings update available: calling fixes'."
    return "The screen says: 'Your software is up to date'."


@tool(ToolKind.WRITE)
def install_software_update(db: Database, phone_number: str) -> str:
    """Install the waiting software and carrier settings update (a restart finishes it).

    Args:
        phone_number: Your phone's number, e.g. "206-555-0142".
    """
    return changed(
        db,
        phone_number,
        "The update is installed; the phone asks to be restarted.",
        update_pending=False,
        restart_pending=True,
    )
