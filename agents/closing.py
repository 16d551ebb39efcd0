"""What a scripted agent did, said in plain words for its closing text.

A closing names what was done, not the tools that did it: "I cancelled the pending order
#W3956140, with the reason ordered by mistake." rather than "cancel pending order with the order
id #W3956140 …", and "I looked up line L434106" rather than "having checked get line details".
A tool's name is read as a verb and what it acts on (``cancel_pending_order``: cancel, pending
order); the verb is put in the past (``PAST``), ids are said after the thing they name ("line
L434106"), a payment method as "paid with …", other values in words. A step the customer took
on the device (telecom's ``toggle_*``, ``reseat_sim_card`` …) makes the closing say that the
trouble was in the phone's own settings and which of the customer's steps sorted it out ("you
switched the mobile data and reset the apn settings").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tau_sim.agents.cues import insists, threatens
from tau_sim.agents.summary import WORDS, describe, listing
from tau_sim.agents.tool_sentences import SENTENCES
from tau_sim.simulator.world import Action

PAST = {
    "add": "added",
    "allow": "allowed",
    "apply": "applied",
    "ask": "asked",
    "book": "booked",
    "cancel": "cancelled",
    "change": "changed",
    "close": "closed",
    "create": "set up",
    "credit": "credited",
    "disconnect": "disconnected",
    "dispute": "disputed",
    "enable": "turned on",
    "exchange": "exchanged",
    "extend": "extended",
    "file": "filed",
    "freeze": "froze",
    "give": "gave",
    "grant": "granted",
    "install": "installed",
    "issue": "issued",
    "make": "made",
    "modify": "changed",
    "open": "opened",
    "pay": "paid",
    "put": "put",
    "record": "recorded",
    "redeem": "redeemed",
    "refund": "refunded",
    "remove": "removed",
    "replace": "replaced",
    "report": "reported",
    "request": "requested",
    "reschedule": "rescheduled",
    "reseat": "reseated",
    "reset": "reset",
    "restart": "restarted",
    "resume": "resumed",
    "return": "returned",
    "reverse": "reversed",
    "set": "set",
    "submit": "submitted",
    "suspend": "suspended",
    "swap": "swapped",
    "switch": "switched",
    "take": "took",
    "toggle": "switched",
    "transfer": "transferred",
    "turn": "turned",
    "unfreeze": "unfroze",
    "update": "updated",
    "upgrade": "upgraded",
    "use": "used",
    "withdraw": "withdrew",
}
"""Verbs of tool names and of the agent's device steps, in the past tense."""

LOOKS = frozenset({"get", "find", "list", "search", "check", "quote", "calculate", "days"})
"""Verbs of tools that read and change nothing."""

TESTS = frozenset({"run_speed_test", "make_test_call", "send_test_picture_message"})
"""Device steps that test, not fix."""


def is_fix(tool: str) -> bool:
    """Whether a device step changes the device (not a ``check_*`` or a test)."""
    return not tool.startswith("check_") and tool not in TESTS


def _words(name: str) -> str:
    return " ".join(WORDS.get(part, part) for part in name.split("_") if part)


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return listing([_value(v) for v in value])
    if isinstance(value, bool):
        return "yes" if value else "no"
    return (
        str(value).replace("_", " ") if isinstance(value, str) and " " in str(value) else str(value)
    )


def _said_args(thing: str, arguments: Mapping[str, Any]) -> tuple[str, list[str], list[str]]:
    """The id of ``thing``, the other ids ("line L434106") and the other values in words."""
    own = ""
    ids: list[str] = []
    values: list[str] = []
    for key, value in arguments.items():
        if value in ("", None, [], {}) or isinstance(value, dict):
            continue
        if isinstance(value, list) and any(isinstance(v, dict) for v in value):
            continue  # a record (passengers, flights): named in the confirmation, not here
        noun = _words(key.removesuffix("_ids").removesuffix("_id"))
        if key.endswith("payment_method_id"):
            values.append(f"paid with {_value(value)}")
        elif key.endswith(("_id", "_ids")) and (noun == thing or thing.endswith(noun)):
            own = _value(value)
        elif key.endswith(("_id", "_ids")):
            ids.append(f"{noun} {_value(value)}")
        else:
            values.append(f"the {_words(key)} {_value(value).replace('_', ' ')}")
    return own, ids, values


_CODE = re.compile(r"#?[A-Z]*[0-9][A-Z0-9-]*|#?[A-Z]+-[A-Z0-9-]+")
"""An id people read out as a reference: "RX-183741", "#FD1", "C4854206" (not "paypal_1")."""


def _with_codes(names: Mapping[str, str]) -> dict[str, str]:
    """``names`` with each record's reference after a name that holds no figure.

    "your sertraline prescription (RX-183741)": a report of work done backs its claim with a
    detail the customer can quote; a name with a figure ("your Visa ending in 1320") is one.
    """
    plain = {k for k, name in names.items() if _CODE.fullmatch(k) and not re.search(r"\d", name)}
    return {key: f"{name} ({key})" if key in plain else name for key, name in names.items()}


def did(action: Action, names: Mapping[str, str] | None = None) -> str:
    """What one call did, in plain words, to follow "I".

    A write with a sentence of its own (``agents.tool_sentences``) is that sentence in the past
    tense, its records named as ``names`` (``agents.naming.names_in``) calls them: "credited
    $8.60 to bill B1 for the Directory assistance charge because it was billed in error". Other
    calls say their verb, their record and their arguments: "looked up the order #W1".
    """
    verb, _, rest = action.name.partition("_")
    if verb not in LOOKS and action.name in SENTENCES:
        first, _, said = describe(action, _with_codes(names or {})).partition(" ")
        return f"{PAST.get(first, first)} {said}"
    thing = _words(rest.removesuffix("_details").removesuffix("_by_email")) or "it"
    own, ids, values = _said_args(thing, action.arguments)
    if verb in LOOKS:
        if own:
            return f"looked up {thing} {own}"
        if ids:
            return f"looked up {listing(ids)}"
        # the values say which record it was: a look-up claimed without them is unbacked
        if values:
            return f"looked up the {thing} for {listing(values)}"
        return f"looked up your {thing}"
    said = f"{PAST.get(verb, verb)} the {thing}{f' {own}' if own else ''}"
    if ids:
        said += f" for {listing(ids)}"
    if values:
        said += f", {listing(values)}"
    return said


def outcome(
    writes: Sequence[Action],
    checked: Sequence[Action],
    steps: Sequence[str],
    expected: bool,
    names: Mapping[str, str] | None = None,
) -> str:
    """The opening of the closing text: what was done, or what was found, in plain words.

    ``writes`` are the changes made, ``checked`` the lookups, ``steps`` the tools of the fixing
    steps the customer took on the device (``is_fix``); ``expected``: changes were due
    (the sloppy profile may have dropped every one, and claims them done anyway); ``names``:
    what the records are called (``did``).
    """
    verbs = (step.partition("_") for step in steps)
    fixed = [f"{PAST.get(verb, verb)} the {_words(rest)}" for verb, _, rest in verbs]
    on_phone = (
        f"The trouble was in your phone's own settings: you {listing(fixed)}, which sorted it out."
        if steps
        else ""
    )
    if writes:
        done = f"All done: I {'; I '.join(did(a, names) for a in writes)}."
    elif expected:
        done = "All done."
    elif steps and checked:
        done = f"I {did(checked[-1])} and found nothing wrong on our side."
    elif checked:
        done = f"Here is what I found: I {did(checked[-1])}."
    else:
        done = "Here is what I found."
    return f"{done} {on_phone}".strip()


PRESSED = "I'm sorry for the trouble this has caused you."
"""How a text ends while the user presses, instead of "anything else?" (which winds down)."""

_CLOSES = re.compile(
    r"anything (else|more)|have a (great|good|nice|wonderful|lovely) (day|evening)|goodbye"
    r"|take care|glad i could help",
    re.IGNORECASE,
)


def closes(text: str) -> bool:
    """Whether an agent text says goodbye or offers "anything else?" (it winds the talk down)."""
    return _CLOSES.search(text) is not None


def pressing(text: str) -> bool:
    """Whether a user message presses: it insists, threatens or complains (``agents.cues``)."""
    return insists(text) or threatens(text)
