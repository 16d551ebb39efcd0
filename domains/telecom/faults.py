"""The faults a phone can have, what service it gets, and the manual's order of fixing them.

A phone's state lives in the ``devices`` table (``data.Device``); ``service`` says what the
phone gets from it (signal, data, fast data, picture messages, calls out and in) and the
device tools' answers read it. ``FAULTS`` lists the faults in the order of the
troubleshooting manual of ``policy.md``: each belongs to a symptom (``SYMPTOMS``), has the
user step that reads it (its check) and the user step that fixes it. ``faults_of`` names the
faults a phone has; a fix that needs a restart leaves ``restart_pending`` set.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tau_sim.domains.telecom.data import APN_DEFAULT, NETWORK_AUTO, SUSPENDED, Device, Line


class Fault(msgspec.Struct, frozen=True):
    """One fault: its symptom, its check and fix (user tools) and how to see it on a phone."""

    name: str
    symptom: str
    check: str
    fix: str
    present: Callable[[Device], bool]
    restart: bool = False


FAULTS: tuple[Fault, ...] = (
    Fault("airplane_mode", "service", "check_status_bar", "toggle_airplane_mode",
          lambda d: d.airplane_mode),
    Fault("sim_loose", "service", "check_sim_card", "reseat_sim_card",
          lambda d: d.sim == "loose", restart=True),
    Fault("network_3g", "service", "check_network_mode", "set_network_mode_automatic",
          lambda d: d.network_mode != NETWORK_AUTO),
    Fault("mobile_data_off", "data", "check_mobile_data", "toggle_mobile_data",
          lambda d: not d.mobile_data),
    Fault("wrong_apn", "data", "check_apn_settings", "reset_apn_settings",
          lambda d: d.apn != APN_DEFAULT, restart=True),
    Fault("vpn_on", "data", "check_vpn", "toggle_vpn", lambda d: d.vpn),
    Fault("data_saver_on", "slow", "check_data_saver", "toggle_data_saver",
          lambda d: d.data_saver),
    Fault("battery_saver_on", "slow", "check_battery_saver", "toggle_battery_saver",
          lambda d: d.battery_saver),
    Fault("mms_denied", "messages", "check_app_permissions", "grant_messaging_permissions",
          lambda d: not d.mms_permission),
    Fault("wifi_calling_off", "calls", "check_wifi_calling", "toggle_wifi_calling",
          lambda d: not d.wifi_calling),
    Fault("call_forwarding_on", "calls", "check_call_forwarding", "toggle_call_forwarding",
          lambda d: d.call_forwarding),
    Fault("update_pending", "calls", "check_software_update", "install_software_update",
          lambda d: d.update_pending, restart=True),
)  # fmt: skip
"""The faults, in the order the troubleshooting manual checks them."""

SYMPTOMS: dict[str, str] = {
    "service": "keeps losing its signal completely",
    "data": "often has no mobile internet",
    "slow": "has painfully slow mobile internet whenever it works",
    "messages": "won't send or receive picture messages",
    "calls": "has trouble with calls (they drop at home, fail, or never ring)",
}
"""How a user says each symptom, in the manual's order (after "my phone ...")."""

FINAL_CHECKS: dict[str, str] = {
    "service": "check_status_bar",
    "data": "run_speed_test",
    "slow": "run_speed_test",
    "messages": "send_test_picture_message",
    "calls": "make_test_call",
}
"""The re-check that shows a symptom gone, once every fix is made."""

BY_NAME = {f.name: f for f in FAULTS}


def faults_of(device: Device) -> list[Fault]:
    """The faults ``device`` has, in the manual's order."""
    return [f for f in FAULTS if f.present(device)]


class Service(msgspec.Struct, frozen=True):
    """What a phone gets from the network: signal, data, fast data, MMS, calls out and in."""

    signal: bool
    data: bool
    fast: bool
    mms: bool
    calls_out: bool
    calls_in: bool


def service(device: Device, line: Line | None, used_up: bool = False) -> Service:
    """The service ``device`` gets on ``line`` (None: a number the carrier does not know).

    ``used_up``: the line has used up its data allowance this cycle (no mobile internet).
    """
    active = line is not None and line.status != SUSPENDED
    roaming = not device.abroad or (line is not None and line.roaming_enabled)
    signal = (
        active
        and roaming
        and not device.airplane_mode
        and device.sim == "seated"
        and not device.restart_pending
        and device.network_mode == NETWORK_AUTO
    )
    data = (
        signal
        and device.mobile_data
        and (not device.abroad or device.data_roaming)
        and device.apn == APN_DEFAULT
        and not device.vpn
        and not used_up
    )
    calls_out = signal and not device.update_pending and device.wifi_calling
    return Service(
        signal=signal,
        data=data,
        fast=data and not device.data_saver and not device.battery_saver,
        mms=data and device.mms_permission,
        calls_out=calls_out,
        calls_in=calls_out and not device.call_forwarding,
    )
