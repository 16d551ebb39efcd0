"""What the phone's screens show, and how the phone's tools (``device``) are declared.

The user's tools answer in words, as a person reads their screen; these helpers find a phone's
line, write a changed phone back and word its status bar and its switches. ``phone_tool``
declares a tool of the phone the user names; ``toggle_tool`` and ``state_tool`` the tools that
flip or read one of its on/off settings.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tau_sim.domains.kit.tools import Arg, declared
from tau_sim.domains.telecom.access import data_limit, load_device
from tau_sim.domains.telecom.data import Device, Line
from tau_sim.domains.telecom.faults import Service, service
from tau_sim.simulator.world import Database, Tool, ToolKind


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


def switch(db: Database, device: Device, setting: str, label: str) -> str:
    """Flip the on/off ``setting`` of the phone; its new state (as ``label``) and the status bar."""
    on = not getattr(device, setting)
    device = msgspec.structs.replace(device, **{setting: on})
    put(db, device)
    return f"{label} is now {on_off(on)}. {status_text(db, device)}"


def changed(db: Database, device: Device, text: str, **fields: object) -> str:
    """Set ``fields`` on the phone and say ``text`` (what its screen says after the change)."""
    put(db, msgspec.structs.replace(device, **fields))
    return text


PHONE_NUMBER: Arg = ("phone_number", 'Your phone\'s number, e.g. "206-555-0142".')
"""The one parameter of every phone tool (a scripted user fills it from its known number)."""

PhoneMove = Callable[[Database, Device], str]
"""What a phone tool does on the phone the user named, and the words it answers with."""


def phone_tool(kind: ToolKind) -> Callable[[PhoneMove], Tool]:
    """Declare the phone tool ``fn.__name__``: ``fn(db, device)`` on the phone the user names.

    The tool takes ``phone_number`` (an unknown number is a ``ToolError``); ``fn``'s docstring
    is what the user's tool list says of it.
    """

    def deco(fn: PhoneMove) -> Tool:
        def run(db: Database, **arguments: str) -> str:
            return fn(db, load_device(db, arguments["phone_number"]))

        return declared(run, fn.__name__, kind, fn.__doc__ or "", (PHONE_NUMBER,))

    return deco


def toggle_tool(name: str, description: str, setting: str, label: str) -> Tool:
    """The WRITE phone tool ``name`` that flips the on/off ``setting`` (``switch``)."""

    def flip(db: Database, device: Device) -> str:
        return switch(db, device, setting, label)

    flip.__name__, flip.__doc__ = name, description
    return phone_tool(ToolKind.WRITE)(flip)


def state_tool(name: str, description: str, setting: str, label: str) -> Tool:
    """The READ phone tool ``name`` that reads the on/off ``setting``: "<label> is ON."."""

    def read(db: Database, device: Device) -> str:
        return f"{label} is {on_off(getattr(device, setting))}."

    read.__name__, read.__doc__ = name, description
    return phone_tool(ToolKind.READ)(read)
