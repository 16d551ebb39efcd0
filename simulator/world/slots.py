"""User-side annotations of a task's facts: how an agent asks for each one, joined on demand.

A task's scenario carries only facts (``known_info``: slot name -> value). How an agent names a
slot in a question, which words give the question away and whether the agent could have found
the value with its tools are a domain's vocabulary (``Domain.slot_hints``), read only by the
scripted user and the scripted agents through ``user_slots``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Domain, Task


class SlotHint(msgspec.Struct, frozen=True):
    """How an agent asks for one kind of slot.

    ``keywords`` are words an agent uses when it asks for it (matched case-insensitively);
    ``prompt`` is how an agent names it in a question ("your email address"); ``lookupable``
    marks information the agent could have found with its tools once the user is authenticated;
    ``value_keywords``, when set, adds keywords read from the value itself (a variant's option
    names: "size", "color"); ``policy_asks``, when set, is the domain policy's own words telling
    the agent to ask the user for it (a choice only the user makes: which items to return, where
    a refund goes), so asking it is never needless even where the tools list the candidates.
    """

    keywords: tuple[str, ...]
    prompt: str
    lookupable: bool = False
    value_keywords: Callable[[str], Sequence[str]] | None = None
    policy_asks: str = ""

    @classmethod
    def default(cls, name: str) -> SlotHint:
        """The hint of a slot the domain does not annotate: its name in words."""
        words = name.replace("_", " ")
        return cls((words,), f"your {words}")


class InfoSlot(msgspec.Struct, frozen=True):
    """A piece of information the user holds, with its hint (see ``SlotHint``)."""

    name: str
    value: str
    keywords: list[str]
    prompt: str
    lookupable: bool = False
    policy_asks: bool = False

    @property
    def needless(self) -> bool:
        """Whether asking the user for it is needless: lookupable, and no policy clause asks it."""
        return self.lookupable and not self.policy_asks


def user_slots(domain: Domain, task: Task) -> list[InfoSlot]:
    """The task's known facts joined with the domain's hints, in the scenario's order.

    A prompt that names none of its slot's keywords ("the code", "how the damage happened")
    becomes a keyword itself, so that a question phrased as the scripted agents phrase it
    ("could you tell me the code?") is understood as asking for that slot.
    """
    slots: list[InfoSlot] = []
    for name, value in task.scenario.known_info.items():
        hint = domain.slot_hints.get(name) or SlotHint.default(name)
        keywords = list(hint.keywords)
        if hint.value_keywords is not None:
            keywords += [k for k in hint.value_keywords(value) if k not in keywords]
        prompt = hint.prompt.lower()
        if not any(k.lower().strip() in prompt for k in keywords):
            keywords.append(prompt)
        slots.append(
            InfoSlot(name, value, keywords, hint.prompt, hint.lookupable, bool(hint.policy_asks))
        )
    return slots
