"""What the phone's screens show, and the shared moves of the phone's tools (``device``).

The user's tools answer in words, as a person reads their screen; these helpers find a phone's
line, write a changed phone back and word its status bar and its switches.
"""

from __future__ import annotations

import msgspec

from tau_sim.domains.telecom.access import data_limit, load_device
from tau_sim.domains.telecom.data import Device, Line
from tau_sim.domains.telecom.faults import Service, service
from tau_sim.simulator.world import Database


def line_of(db: Database, phone_number: str) -> Line | None:
    """The line with number ``phone_number``, or None."""
    keys = db.find("lines_by_phone", phone_number.strip())
    line = db.get("lines", keys[0]) if keys else None
    return line if isinstance(line, Line) else None


def service_of(db: Database, device: Device) -> Service:
    """The service ``device`` gets on its line (none beyond signal once its data is used up)."""
    line = line_of(db, device.phone_number)
    limit = data_limit(db, line) if line is not None else 0.0
    used_up = bool(limit) and line is not None and line.data_used_gb >= limit
    return service(device, line, used_up)


def on_off(flag: bool) -> str:
    """ON or OFF, as a settings screen writes it."""
    return "ON" if flag else "OFF"


def status_text(db: Database, device: Device) -> str:
    """What the status bar of ``device`` shows: signal, data and the icons a user notices."""
    line = line_of(db, device.phone_number)
    if device.airplane_mode:
        return "The status bar shows the airplane icon and no signal bars."
    if device.sim == "loose" or device.restart_pending:
        return "The status bar shows 'No SIM' and no signal bars."
    if line is None or line.status == "suspended":
        return "The status bar shows 'Emergency calls only'."
    if device.abroad and not line.roaming_enabled:
        return "The status bar shows 'Emergency calls only' and an R for roaming."
    got = service_of(db, device)
    if not got.signal:
        return "The status bar shows 'No service' and no signal bars."
    network = "4 signal bars" + (" with an R for roaming" if device.abroad else "")
    if got.data:
        return f"The status bar shows {network} and the 5G data icon."
    return f"The status bar shows {network} but no data icon."


def put(db: Database, device: Device) -> None:
    """Write the changed phone back."""
    db.put("devices", device.phone_number, device)


def switch(db: Database, phone_number: str, setting: str, label: str) -> str:
    """Flip the on/off ``setting`` of the phone; its new state (as ``label``) and the status bar."""
    device = load_device(db, phone_number)
    on = not getattr(device, setting)
    device = msgspec.structs.replace(device, **{setting: on})
    put(db, device)
    return f"{label} is now {on_off(on)}. {status_text(db, device)}"


def changed(db: Database, phone_number: str, text: str, **fields: object) -> str:
    """Set ``fields`` on the phone and say ``text`` (what its screen says after the change)."""
    device = load_device(db, phone_number)
    put(db, msgspec.structs.replace(device, **fields))
    return text
