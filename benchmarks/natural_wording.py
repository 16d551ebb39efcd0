"""The natural agent double's own words: greetings, questions, confirmations, reports, farewells.

Written for ``benchmarks/natural_agent.py`` apart from the scripted calibrators' phrases: each
act has many phrasings, as capable LLM agents word them (markdown lists, two slots in one
question, "X, or Y and Z", apologies with refusals). ``Wording`` picks among them with a
generator seeded by the run's seed, the task and the turn, so a conversation is reproducible and
no two tasks read alike. Nothing here reads the dialogue; ``natural_agent`` decides what to say.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

GREETINGS = (
    "Hi there, thanks for reaching out!",
    "Hello! I'd be glad to help with that.",
    "Hi! Happy to look into this for you.",
    "Thanks for getting in touch.",
    "Hello, and thanks for contacting us.",
    "Hi! Let's get this sorted out.",
)
COMFORT = (
    "I'm really sorry you're dealing with this; I completely get why you're upset.",
    "I can hear how frustrating this has been, and I'm sorry about that.",
    "That sounds stressful, and I'm sorry. Let's fix it together.",
    "I understand this has been a real hassle. I'll do my best to help right away.",
    "I'm sorry this has caused you so much trouble.",
)
AUTH = (
    "To pull up your account, I'll need {slots}.",
    "Could you share {slots} so I can find your account?",
    "First, I need to verify your identity: could you give me {slots}?",
    "Before we go further, may I have {slots}?",
)
AUTH_LIST = (
    "To find your account, please send me:\n{bullets}",
    "I'll just need a couple of details to verify you:\n{bullets}",
)
FACTS = (
    "Could you tell me {slots}?",
    "One more thing: could you let me know {slots}?",
    "May I ask for {slots}?",
    "Could you also let me know {slots}?",
)
WHICH = (
    "To make sure I pick the right one, could you tell me {slots}?",
    "Just so I work on the right record, may I have {slots}?",
)
CONFIRM = (
    "Here's the plan: {summary}. Would you like me to go ahead?",
    "Just to confirm before I make any changes, I'll {summary}. Is that okay?",
    "I'm ready to {summary}. Shall I proceed?",
    "Okay, so I'll {summary}. Can you confirm that's what you want?",
)
CONFIRM_LIST = (
    "Before I proceed, here's what I'll do:\n{bullets}\n\nDoes that look right to you?",
)
DECLINED = (
    "No problem, I won't change anything.",
    "Understood, I'll leave everything as it is.",
    "Okay, nothing has been changed.",
)
DONE = (
    "Done! I was able to {what}.",
    "All set: the request to {what} went through.",
    "That's taken care of. I've completed the request to {what}.",
)
DONE_LIST = ("Everything's done. Here's a summary:\n{bullets}",)
CHECKED = (
    "I've looked into it and checked the {what}.",
    "I went through the {what}.",
    "I've reviewed the {what} for you.",
)
REFUSED = (
    "I'm sorry, but that isn't something I'm able to do under our policy.",
    "Unfortunately, our policy doesn't allow me to do that, and I'm sorry about it.",
    "I'm afraid I can't make that change; the policy rules it out.",
)
RESTATE = (
    "I truly understand how important this is to you, and I'm sorry. Still, I'm not able to "
    "make an exception here.",
    "I hear you, and I know it's not what you hoped for. My answer has to stay the same, though: "
    "the policy doesn't let me do it.",
    "I'm sorry, I really wish I could do more. This is one thing I can't change.",
)
OUTPUT = (
    "For your records, the key detail is: {out}.",
    "To be clear, what applies here is: {out}.",
    "One thing worth noting: {out}.",
)
AMOUNT = (
    "The amount that applies here is {out}.",
    "That comes to {out}.",
    "For your records, the figure is {out}.",
)
HOLDING = (
    "I'll hold off for now, so nothing has been changed.",
    "Since I don't have your go-ahead, I won't make any changes.",
)
MORE = (
    "Is there anything more I can do for you today?",
    "Can I help with anything else?",
    "Is there something else you'd like me to look into?",
    "Anything else on your mind?",
)
FAREWELL = (
    "You're welcome! Take care.",
    "Have a wonderful day!",
    "Glad I could help. Take care!",
    "It was a pleasure helping you. Goodbye!",
    "Thanks for your patience, and have a great rest of your day.",
)
TRANSFER = (
    "I'll connect you with a specialist who can take this further. One moment please.",
    "This needs a colleague from our specialist team, so I'm transferring you now.",
)
FAILED = (
    "I'm sorry, something went wrong on my side: {error}.",
    "Unfortunately the system didn't accept that: {error}. I'm sorry about this.",
)
NOTED = ("Thanks for checking that.", "Got it, thank you.", "Okay, that helps.", "Thanks, noted.")
"""What the double says on reading the customer's report of a device step, before the next."""
STEP_ONE = (
    "Could you {step} and tell me what you find?",
    "Next, please {step}. What do you see?",
    "Let's try this: {step}, then let me know what happens.",
)
STEP_MANY = ("Please do these on your phone and tell me what you see:\n{bullets}",)
REPHRASE = (
    "Sorry, I should have been clearer. ",
    "Let me put that another way. ",
    "Apologies for the confusion! ",
    "No worries, I'll explain. ",
)
FIXED = (
    "We've worked through it together:\n{bullets}\n\nYour phone should be working normally now.",
    "Thanks for doing those steps with me ({steps}). That should have fixed the problem.",
)
STEPS = {
    "check_status_bar": "look at the icons along the top edge of the screen",
    "toggle_airplane_mode": "switch airplane mode on and back off",
    "check_sim_card": "check whether the phone recognises the SIM card in its SIM settings",
    "reseat_sim_card": "pop the SIM tray out, reseat the SIM card firmly and slide it back in",
    "check_network_mode": "check which network mode is selected in the mobile network settings",
    "set_network_mode_automatic": "set the preferred network type back to automatic",
    "check_mobile_data": "open the mobile data settings and read me both switches there",
    "toggle_mobile_data": "turn mobile data on in your settings",
    "toggle_data_roaming": "switch data roaming on in your settings",
    "check_apn_settings": "read me the APN shown in the mobile network settings",
    "reset_apn_settings": "reset the APN to its default",
    "restart_device": "restart the phone",
    "check_vpn": "check in the VPN settings whether a VPN is connected",
    "toggle_vpn": "disconnect the VPN",
    "check_data_saver": "check whether Data Saver is switched on under data usage",
    "toggle_data_saver": "turn Data Saver off",
    "check_battery_saver": "check in the battery settings whether battery saver is on",
    "toggle_battery_saver": "turn battery saver off",
    "check_app_permissions": "look at the Messages app's permissions and tell me what it may do",
    "grant_messaging_permissions": "grant the Messages app all the permissions it requests",
    "check_wifi_calling": "check in the call settings whether Wi-Fi calling is enabled",
    "toggle_wifi_calling": "turn Wi-Fi calling on",
    "check_call_forwarding": "check whether call forwarding is active",
    "toggle_call_forwarding": "turn call forwarding off",
    "check_software_update": "check whether a software update is waiting",
    "install_software_update": "install the pending software update",
    "run_speed_test": "turn Wi-Fi off and run a speed test",
    "make_test_call": "place a test call to 611",
    "send_test_picture_message": "send a picture message to your own number as a test",
}
"""How the double asks for each telecom device step (its own words, not the domain's hint)."""


class Wording:
    """Seeded choices among phrasings: one generator per text, from seed, task and turn."""

    def __init__(self, seed: int, task_id: str, turn: int) -> None:
        self.rng = random.Random(f"{seed}:{task_id}:{turn}")

    def pick(self, options: Sequence[str], **fields: str) -> str:
        """One of ``options``, with ``fields`` filled in."""
        return self.rng.choice(options).format(**fields)

    def chance(self, share: float) -> bool:
        """True in ``share`` of the draws."""
        return self.rng.random() < share


def listing(items: Sequence[str]) -> str:
    """``items`` as an English list: "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def bullets(items: Sequence[str]) -> str:
    """``items`` as a markdown bullet list."""
    return "\n".join(f"- {item}" for item in items)


def plain_value(value: Any) -> str:
    """A tool argument's value as a person says it."""
    if isinstance(value, list | tuple):
        return listing([plain_value(v) for v in value])
    if isinstance(value, dict):
        return listing([f"{k.replace('_', ' ')} {plain_value(v)}" for k, v in value.items()])
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def plain_action(name: str, arguments: dict[str, Any]) -> str:
    """A write in plain words: "cancel the pending order #W1 (reason: ordered by mistake)"."""
    verb, _, rest = name.partition("_")
    what = rest.replace("_", " ")
    shown = [
        (k.replace("_", " "), plain_value(v))
        for k, v in arguments.items()
        if v not in ("", None, [], {})
    ]
    head = f"{verb} the {what}" if what else verb
    if not shown:
        return head
    details = ", ".join(f"{k} {v}" if re.search(r"\bid$", k) else f"{k}: {v}" for k, v in shown)
    return f"{head} ({details})"
