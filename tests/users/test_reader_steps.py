"""The rule reader on device steps (telecom's 29 user tools), worded as agents word them.

Three phrasings of our own per tool (none of the corpus's), then requests of several steps:
each text must be read as exactly those steps, in order.
"""

from __future__ import annotations

import pytest

from tau_sim.users.read_command import reader_for

ONE_STEP: dict[str, tuple[str, ...]] = {
    "check_status_bar": (
        "What's showing in the top corner of your screen, any bars, or 'No service'?",
        "Can you tell me what signal strength your phone is showing right now?",
        "Glance at the notification area at the top: do you see a signal indicator?",
    ),
    "toggle_airplane_mode": (
        "Please turn Airplane mode off from the quick settings panel.",
        "Could you switch flight mode on for ten seconds and then off again?",
        "Let's disable airplane mode; it's blocking every radio on the phone.",
    ),
    "check_sim_card": (
        "Could you check whether your phone is reading the SIM card?",
        "Does the phone say 'No SIM' anywhere in Settings > SIM card manager?",
        "Please look under Settings to see if the SIM is recognised.",
    ),
    "reseat_sim_card": (
        "Could you take out the SIM card, give it a gentle wipe, and put it back?",
        "Try re-inserting your SIM card; sometimes it just needs a firmer seat.",
        "Pull the SIM out and slot it back in, please.",
    ),
    "check_network_mode": (
        "Which network mode is your phone set to, 3G only or LTE/5G?",
        "Can you check the preferred network setting under Mobile networks?",
        "What does it say under 'Network mode' in your mobile network settings?",
    ),
    "set_network_mode_automatic": (
        "Please switch the network mode to the automatic LTE/5G option.",
        "Change the preferred network type from 3G only to automatic, please.",
        "Could you select the 'Auto' option for network mode?",
    ),
    "check_mobile_data": (
        "Can you confirm mobile data is switched on?",
        "Please check that cellular data isn't turned off.",
        "Is your mobile data toggle on or off right now?",
    ),
    "toggle_mobile_data": (
        "Please switch on mobile data.",
        "Could you turn cellular data on in Settings?",
        "Tap the Mobile data switch so it turns on.",
    ),
    "toggle_data_roaming": (
        "Please enable Data roaming in your mobile network settings.",
        "Could you switch on roaming on the phone itself?",
        "Turn the data roaming toggle on so your phone can use partner networks.",
    ),
    "check_apn_settings": (
        "Could you tell me which access point name is selected?",
        "Please check the APN settings and read me what's there.",
        "What's listed under Access Point Names on your phone?",
    ),
    "reset_apn_settings": (
        "Please reset the APN to its default values.",
        "Could you restore the default access point settings?",
        "Tap 'Reset to default' on the APN screen, please.",
    ),
    "restart_device": (
        "Please restart your phone.",
        "Could you reboot the device and let me know once it's back on?",
        "Give the phone a quick restart, please.",
    ),
    "run_speed_test": (
        "Could you run a speed test on mobile data?",
        "Please check your download speed with Wi-Fi turned off.",
        "Open a speed test app and tell me the results.",
    ),
    "make_test_call": (
        "Could you place a test call to 611?",
        "Please call 611 and tell me if it connects.",
        "Try making a call to our test line at 611.",
    ),
    "send_test_picture_message": (
        "Could you send a picture message to your own number?",
        "Please text a photo to yourself to test MMS.",
        "Try sending an MMS to your own phone number.",
    ),
    "check_vpn": (
        "Do you have a VPN turned on?",
        "Is FreeShield or any other VPN connected right now?",
        "Could you check your VPN settings for any active connection?",
    ),
    "toggle_vpn": (
        "Please turn the VPN off.",
        "Could you disconnect FreeShield VPN?",
        "Go ahead and switch off the VPN connection.",
    ),
    "check_data_saver": (
        "Is Data Saver turned on?",
        "Could you check whether data saver mode is enabled?",
        "Please look in your data usage settings and tell me if Data Saver is on.",
    ),
    "toggle_data_saver": (
        "Please turn Data Saver off.",
        "Could you disable the data saver?",
        "Switch off data-saving mode, please.",
    ),
    "check_battery_saver": (
        "Is Battery Saver on?",
        "Could you check if Low Power Mode is enabled?",
        "Please look at your battery settings and tell me whether power saving is on.",
    ),
    "toggle_battery_saver": (
        "Please turn off Battery Saver.",
        "Could you switch Low Power Mode off for now?",
        "Disable power saving mode, please.",
    ),
    "check_app_permissions": (
        "Could you check which permissions the Messages app has?",
        "Please open App info for Messages and read me its permissions.",
        "What permissions are granted to your messaging app?",
    ),
    "grant_messaging_permissions": (
        "Please grant the Messages app the SMS, Phone and Storage permissions.",
        "Could you allow all permissions for Messages?",
        "Give the messaging app permission to use storage and phone, please.",
    ),
    "check_wifi_calling": (
        "Is Wi-Fi calling enabled on your phone?",
        "Could you check your Wi-Fi Calling setting?",
        "Can you see whether Wi-Fi Calling is switched on under call settings?",
    ),
    "toggle_wifi_calling": (
        "Please turn on Wi-Fi Calling.",
        "Could you enable calling over Wi-Fi?",
        "Switch Wi-Fi Calling on, please.",
    ),
    "check_call_forwarding": (
        "Is call forwarding turned on?",
        "Could you check whether your calls are being forwarded?",
        "Please look at the call forwarding settings and tell me what's set.",
    ),
    "toggle_call_forwarding": (
        "Please turn off call forwarding.",
        "Could you disable call forwarding?",
        "Switch call forwarding off so calls reach your phone.",
    ),
    "check_software_update": (
        "Could you check for a software update?",
        "Is there a system update available on your phone?",
        "Please go to Settings > Software update and see if anything is waiting.",
    ),
    "install_software_update": (
        "Please install the pending update.",
        "Could you download and install the carrier update?",
        "Go ahead and update your phone to the latest software.",
    ),
}
SEVERAL: list[tuple[str, list[str]]] = [
    ("Please turn off the VPN and then restart your phone.", ["toggle_vpn", "restart_device"]),
    (
        "First, switch off Data Saver. Second, disable Battery Saver. Finally, run a speed test.",
        ["toggle_data_saver", "toggle_battery_saver", "run_speed_test"],
    ),
    (
        "Could you check your APN and, if it isn't the default one, reset it?",
        ["check_apn_settings", "reset_apn_settings"],
    ),
    (
        "To fix the dropped calls, please enable Wi-Fi Calling, since your home signal is weak,"
        " and then make a test call to 611.",
        ["toggle_wifi_calling", "make_test_call"],
    ),
]
MORE: list[tuple[str, list[str]]] = [
    # a place is where to look, not a step; a noun that looks like a verb starts a statement
    (
        "On the Messages app's permissions screen, could you set everything to allowed?",
        ["grant_messaging_permissions"],
    ),
    ("Voicemail aside, call forwarding is off, so nothing to change there.", []),
    ("Call forwarding was already disabled, which rules that out.", []),
    ("Please phone 611 and tell me what happens.", ["make_test_call"]),
    ("Please dial any number you like to see whether calls go through.", ["make_test_call"]),
    # a step named as what another is for is no step; a report of what was done asks nothing
    ("Open the APN settings for your mobile data and read me the name.", ["check_apn_settings"]),
    ("So far you've restarted the phone and reset the APN. Good progress.", []),
    # a step after a short condition is asked
    (
        "Look at the network mode; if it isn't automatic, change it to automatic.",
        ["check_network_mode", "set_network_mode_automatic"],
    ),
    ("Could you measure your download speed on mobile data now?", ["run_speed_test"]),
    (
        "Could you locate the Wi-Fi Calling setting in the phone app and tell me if it is on?",
        ["check_wifi_calling"],
    ),
    ("Are you seeing 'Emergency calls only' on the lock screen?", ["check_status_bar"]),
    ("Do you have service right now?", ["check_status_bar"]),
    ("Please get the phone out of flight mode.", ["toggle_airplane_mode"]),
    ("What network preference is selected on your phone?", ["check_network_mode"]),
    ("Please let the phone choose the network automatically.", ["set_network_mode_automatic"]),
    ("Please reset your network access point to factory settings.", ["reset_apn_settings"]),
    ("Could you do a quick restart?", ["restart_device"]),
    ("Could you test your data speed?", ["run_speed_test"]),
    ("Close the VPN connection, please.", ["toggle_vpn"]),
    ("Disable the setting that restricts background data.", ["toggle_data_saver"]),
    ("What is the Messages app allowed to access?", ["check_app_permissions"]),
    ("Enable all the permissions for the Messages app.", ["grant_messaging_permissions"]),
    ("Are your calls being diverted to another number?", ["check_call_forwarding"]),
    ("Remove the forwarding number, please.", ["toggle_call_forwarding"]),
    ("Is your phone's software up to date?", ["check_software_update"]),
    ("Install the new carrier settings, please.", ["install_software_update"]),
    (
        "Toggle airplane mode, then check whether you have signal.",
        ["toggle_airplane_mode", "check_status_bar"],
    ),
]
CASES = [(text, [name]) for name, texts in ONE_STEP.items() for text in texts] + SEVERAL + MORE


def test_every_user_tool_has_phrasings() -> None:
    from tau_sim.domains.telecom import device

    tools = {n for n in dir(device) if n in ONE_STEP}
    assert len(ONE_STEP) == 29 and tools == set(ONE_STEP)


@pytest.mark.parametrize(("text", "steps"), CASES, ids=[c[0][:40] for c in CASES])
def test_a_request_is_read_as_its_steps_in_order(text: str, steps: list[str]) -> None:
    assert reader_for("telecom", "telecom-004").read(text).steps == steps
