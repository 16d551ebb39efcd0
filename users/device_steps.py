"""Reading, by meaning, the steps an agent asks a customer to do on their own device.

An agent words a device step in many ways ("pop the SIM tray out and reseat the card", "what
do you see at the top of your screen?", "switch Wi-Fi Calling on"). A step is read as a *topic*
(what the step is about: the SIM, the network mode, the APN …) and a *kind* (look at it, or
change it); the pair names one of the user's tools (``STEP_OF``). A message is cut into clauses
(sentences, lines, list items, "then"); a clause is read only when it asks the user something
(a question, or a request: "please", "could you", an imperative at its start), so an
explanation ("airplane mode cuts every radio") asks for nothing. The steps come out in the order
asked, each once, and only those of tools the user has.
"""

from __future__ import annotations

import re
from collections.abc import Collection

TOPICS: tuple[tuple[str, str], ...] = (
    ("speed_test", r"speed ?test|speed-check|download speed|internet speed|how fast|fast\.com"),
    ("test_call", r"test call|\b611\b|(?:make|place) (?:a |one )?(?:quick |short )?call\b"),
    ("picture", r"picture message|picture|photo|\bmms\b|image"),
    ("wifi_calling", r"wi-?fi[ -]?calling|call(?:s|ing)? over wi-?fi"),
    ("forwarding", r"forward|divert"),
    (
        "permissions",
        r"permission|permitted|(?:app|messages|texting)[^.?!]{0,40}\baccess\b"
        r"|\baccess\b[^.?!]{0,30}\b(?:messages|texting) app",
    ),
    ("apn", r"\bapns?\b|access point"),
    ("vpn", r"\bvpns?\b|tunnel"),
    ("data_saver", r"data[ -]sav|data usage|restrict(?:ed)? background data"),
    ("battery_saver", r"battery|low[ -]power|power[ -]sav"),
    ("roaming", r"roaming"),
    (
        "network_mode",
        r"network (?:mode|type|selection)|preferred network|\b[2345]g\b|\blte\b"
        r"|generation of network|network generation|connection type",
    ),
    ("mobile_data", r"(?<!on )(?<!using )(?<!over )(?<!via )(?:mobile|cellular) data|data switch"),
    ("airplane", r"airplane|aeroplane|flight mode|plane icon"),
    ("sim", r"\bsim\b|sim card|sim tray"),
    ("update", r"\bupdates?\b|software version|system version|os version|installation"),
    (
        "restart",
        r"restart|reboot|power[ -]cycle|(?:turn|switch|power) (?:your |the )?(?:phone|device|"
        r"handset) (?:off|down)|(?:turn|switch|power) (?:it )?off and (?:back )?on",
    ),
    (
        "status_bar",
        r"status bar|top (?:right |left )?(?:edge )?of (?:your |the )?(?:phone'?s? )?"
        r"(?:screen|display)|signal (?:bars?|icon|indicator|strength)|network indicator"
        r"|notification bar|how many bars|icons? (?:at|along|in) the top",
    ),
)
"""Each topic and the words that name it ("on mobile data" is how, not what: not named)."""

CHANGE = re.compile(
    r"\b(turn|turning|switch|toggle|enable|disable|activate|deactivate|flip|disconnect|reset|"
    r"restore|install|download|grant|allow|give|reseat|reinsert|re-insert|insert|inserting|"
    r"remove|removing|pop|eject|take|taking|tap|pick|choose|select|start|apply|change|restart|"
    r"reboot|stop|cancel|put|slide|pull|lift|push|dial|ring|ringing|open fast)\b"
)
"""Verbs that ask the user to change something (or to do something: run a test, send a photo)."""

LOOK = re.compile(
    r"\b(check|checking|look|see|read|tell me|what|which|whether|if|confirm|verify|make sure"
    r"|let me know|describe)\b|(?:^|[:,]\s*)(?:is|are|does|do|has|have)\b"
)
"""Words that ask the user to look at something and say what it shows."""

STEP_OF: dict[tuple[str, str], str] = {
    ("status_bar", "look"): "check_status_bar",
    ("status_bar", "change"): "check_status_bar",
    ("airplane", "change"): "toggle_airplane_mode",
    ("airplane", "look"): "check_status_bar",
    ("sim", "look"): "check_sim_card",
    ("sim", "change"): "reseat_sim_card",
    ("network_mode", "look"): "check_network_mode",
    ("network_mode", "change"): "set_network_mode_automatic",
    ("mobile_data", "look"): "check_mobile_data",
    ("mobile_data", "change"): "toggle_mobile_data",
    ("roaming", "look"): "check_mobile_data",
    ("roaming", "change"): "toggle_data_roaming",
    ("apn", "look"): "check_apn_settings",
    ("apn", "change"): "reset_apn_settings",
    ("vpn", "look"): "check_vpn",
    ("vpn", "change"): "toggle_vpn",
    ("data_saver", "look"): "check_data_saver",
    ("data_saver", "change"): "toggle_data_saver",
    ("battery_saver", "look"): "check_battery_saver",
    ("battery_saver", "change"): "toggle_battery_saver",
    ("permissions", "look"): "check_app_permissions",
    ("permissions", "change"): "grant_messaging_permissions",
    ("wifi_calling", "look"): "check_wifi_calling",
    ("wifi_calling", "change"): "toggle_wifi_calling",
    ("forwarding", "look"): "check_call_forwarding",
    ("forwarding", "change"): "toggle_call_forwarding",
    ("update", "look"): "check_software_update",
    ("update", "change"): "install_software_update",
    ("restart", "look"): "restart_device",
    ("restart", "change"): "restart_device",
    ("speed_test", "look"): "run_speed_test",
    ("speed_test", "change"): "run_speed_test",
    ("test_call", "look"): "make_test_call",
    ("test_call", "change"): "make_test_call",
    ("picture", "look"): "send_test_picture_message",
    ("picture", "change"): "send_test_picture_message",
}
"""The user tool a (topic, kind) names."""

ASKING = re.compile(
    r"\?|\b(please|could you|can you|would you|will you|i'd like you to|i need you to|"
    r"you'll (?:need|want) to|you should|go ahead and|let me know|tell me|let's|try)\b"
)
VERBS = (
    r"turn|switch|toggle|enable|disable|open|go|tap|check|look|read|restart|reboot|reset|install"
    r"|grant|allow|pop|take|remove|reseat|reinsert|set|change|run|make|place|send|disconnect"
    r"|head|navigate|scroll|find|put|slide|power|flip|select|give|confirm|verify|see|call|dial"
    r"|ring|try|use|swipe|start|apply|pick|choose|eject|lift|push|insert|tell|let me know"
)
"""Verbs a request to the user starts with."""
IMPERATIVE_START = re.compile(
    r"^(?:(?:\d+[.)]|[-*•])\s*|(?:first|next|now|then|after that|finally|also|and|ok(?:ay)?|"
    rf"great|thanks|alright|please)[,:]?\s+)*(?:\*\*)?(?:{VERBS})\b"
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSES = re.compile(
    r"(?<=[.!?])\s+|\n+|;\s*|:\s+|,?\s+(?:and )?then\s+|\s+after that,?\s+"
    rf"|,\s+(?:and\s+)?(?=(?:please\s+)?(?:{VERBS})\b)"
    rf"|\s+and\s+(?=(?:please\s+)?(?:{VERBS})\b)"
    r"|,\s+(?=(?:since|because|as|so that|which)\b)|\s+so (?=(?:it|that|the|your)\b)"
)
_REFERS = re.compile(r"\b(it|its|that|them|this|one|yours)\b")


def clauses(text: str) -> list[str]:
    """The clauses of ``text``, lower-cased: sentences, lines, list items, "then" parts."""
    return [c.strip() for c in _CLAUSES.split(text.lower()) if c.strip()]


_AGENT_ACTS = re.compile(
    r"\b(i'll|i will|i can|i've|i have|i'd|shall i|should i|may i|let me (?!know)|i'm going to"
    r"|i am going to|we'll|we will|we can|would you like me to|do you want me to|has been done"
    r"|have been done|on my side|on our side|for your line|on your line|on your account)\b"
)
_TO_YOU = re.compile(r"\b(could you|can you|would you|will you|please|you'll|you should)\b")


def asks_something(clause: str) -> bool:
    """Whether a clause asks the user to do something (a question, a request, an imperative).

    A clause about what the agent does ("shall I turn on roaming for your line?") asks the user
    to do nothing on the device.
    """
    if _AGENT_ACTS.search(clause) and not _TO_YOU.search(clause):
        return False
    return bool(ASKING.search(clause) or IMPERATIVE_START.search(clause))


def _kind(clause: str, topic: str) -> str:
    """Whether ``clause`` asks to look at ``topic`` or to change it.

    The first of a change verb and a word of looking decides ("tell me whether the data toggle
    is on" looks).
    """
    if topic == "permissions":
        grants = re.search(r"\b(grant|give|allow|enable|turn on|approve)\b", clause)
        looks = LOOK.search(clause)
        if grants and not (looks and looks.start() < grants.start()):
            return "change"
        return "look"
    if topic == "network_mode" and re.search(r"\bauto(?:matic)?\b", clause):
        return "change" if CHANGE.search(clause) or "set" in clause else "look"
    if topic == "apn":
        return "change" if re.search(r"\b(reset|restore|default)", clause) else "look"
    change, look = CHANGE.search(clause), LOOK.search(clause)
    if change is None:
        return "look"
    if look is not None and look.start() < change.start():
        return "look"
    return "change"


def _topics(clause: str) -> list[str]:
    """The topics a clause names, in the order it names them."""
    found = sorted(
        (match.start(), topic)
        for topic, pattern in TOPICS
        if (match := re.search(pattern, clause)) is not None
    )
    topics = [topic for _start, topic in found]
    if "airplane" in topics and "status_bar" in topics:
        topics.remove("airplane")  # "the plane icon in the status bar": the bar is looked at
    return topics


class _Reading:
    """One message read clause by clause: the steps so far and what earlier clauses said."""

    def __init__(self, tools: Collection[str]) -> None:
        self.tools = tools
        self.steps: list[str] = []
        self.last: list[str] = []  # the topics the last clause that named any named
        self.changed: set[str] = set()
        self.asked_before = ""  # the last clause that asked something

    def clause(self, clause: str) -> None:
        """Read one clause of a sentence in which the user, not the agent, is to act."""
        topics, asks = _topics(clause), asks_something(clause)
        carried = False
        if not topics and self.last and asks and (_REFERS.search(clause) or CHANGE.search(clause)):
            topics, carried = self.last[-1:], not _REFERS.search(clause)  # "switch it off"
        read_as = clause
        bare = len(clause.split()) <= 4 and not (CHANGE.search(clause) or LOOK.search(clause))
        if topics and not asks and self.asked_before and bare:
            asks, read_as = True, self.asked_before  # "turn off Data Saver, then Battery Saver"
        if topics:
            self.last = topics
        if not asks:
            return
        self.asked_before = read_as
        for topic in topics:
            kind = _kind(read_as, topic)
            if (carried and kind != "change") or (kind == "look" and topic in self.changed):
                continue  # "tap the menu" names no step; "…then check it" checks the change
            if kind == "change":
                self.changed.add(topic)
            step = STEP_OF.get((topic, kind))
            if step is not None and step in self.tools and step not in self.steps:
                self.steps.append(step)


def read_steps(text: str, tools: Collection[str]) -> list[str]:
    """The user tools (of ``tools``) the agent's ``text`` asks the user to run, in order.

    A sentence about what the agent does ("Here is what I am going to do: enable roaming")
    asks for nothing; a clause that asks for a change without naming what ("please switch it
    off") is about the last topic named before it.
    """
    reading = _Reading(tools)
    for sentence in _SENTENCES.split(text.lower()):
        if _AGENT_ACTS.search(sentence) and not _TO_YOU.search(sentence):
            continue
        for clause in clauses(sentence):
            reading.clause(clause)
    return reading.steps
