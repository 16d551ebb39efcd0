"""The scripts of the scripted agents: the task's gold path turned into texts and tool calls.

Texts are phrased for the conventions of ``users.dialogue`` (one question per request sentence,
confirmation questions free of slot keywords, "anything else" to close):

- ``oracle``: acknowledge an emotional user, ask in one message for the authentication slots the
  user has not given yet, run the gold actions one per turn, summarize and ask for confirmation
  before the first write, then state every required output and ask whether there is anything
  else; a gold transfer is announced in a text and called last.
- ``over-asker``: the oracle's path, but before the lookups it asks, one per turn, for every slot
  its tools could find, and sometimes asks again for something the user already gave.
- ``sloppy``: the oracle's path with seeded mistakes at ``error_rate`` per opportunity: it skips the
  confirmation, drops a write, omits a required output.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from simulator.domain import Action, Domain, Task
from simulator.slots import InfoSlot, user_slots
from simulator.tools import ToolKind

PROFILES = ("oracle", "over-asker", "sloppy")

ACK = "I'm sorry to hear about this, and I understand how you feel. I'm here to help."
GREETING = "Thanks for reaching out."
CLOSING_QUESTION = "Is there anything else I can help you with?"
TRANSFER = "I'm going to transfer you to a human agent who can help with this. Please hold on."


class Say(msgspec.Struct, frozen=True):
    """A text for the user."""

    text: str


class Call(msgspec.Struct, frozen=True):
    """One tool call of the gold path."""

    action: Action


Step = Say | Call


def describe(action: Action) -> str:
    """A human-readable summary of a write action, for the confirmation question."""
    args = "; ".join(
        f"{k.replace('_', ' ')}: {_value(v)}"
        for k, v in action.arguments.items()
        if v not in ("", None, [], {})
    )
    what = action.name.replace("_", " ")
    return f"{what} ({args})" if args else what


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " + ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return " + ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(value)


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class Mistakes(msgspec.Struct, frozen=True):
    """The sloppy agent's seeded decisions: which opportunities it gets wrong."""

    skip_confirmation: bool = False
    dropped_writes: frozenset[int] = frozenset()
    omitted_outputs: frozenset[int] = frozenset()

    @classmethod
    def draw(cls, task: Task, writes: list[int], rng: random.Random, rate: float) -> Mistakes:
        """Decide every opportunity independently with probability ``rate``."""
        skip = bool(writes) and rng.random() < rate
        dropped = frozenset(i for i in writes if rng.random() < rate)
        omitted = frozenset(i for i in range(len(task.required_outputs)) if rng.random() < rate)
        return cls(skip, dropped, omitted)


class PlanBuilder:
    """Builds the step list of one profile for one task, once the user's opening is known."""

    def __init__(
        self,
        domain: Domain,
        task: Task,
        *,
        profile: str,
        emotional: bool,
        rng: random.Random,
        error_rate: float = 0.3,
    ) -> None:
        self.domain = domain
        self.task = task
        self.profile = profile
        self.emotional = emotional
        self.rng = rng
        self.slots = user_slots(domain, task)
        self.ending = {i for i, a in enumerate(task.actions) if domain.toolkit.ends(a.name)}
        self.writes = [
            i
            for i, a in enumerate(task.actions)
            if i not in self.ending and domain.toolkit.kind(a.name) is ToolKind.WRITE
        ]
        self.mistakes = (
            Mistakes.draw(task, self.writes, rng, error_rate) if profile == "sloppy" else Mistakes()
        )
        self._acked = False
        self._given: list[InfoSlot] = []  # slots the user has given (the over-asker re-asks one)
        self._repeated = False

    def _opener(self) -> str:
        """The acknowledgement the first text starts with (once)."""
        if self._acked:
            return ""
        self._acked = True
        return f"{ACK if self.emotional else GREETING} "

    def _missing_auth(self, opening: str) -> list[InfoSlot]:
        said = opening.lower()
        by_name = {s.name: s for s in self.slots}
        slots = [by_name[n] for n in self.task.auth_slots if n in by_name]
        return [s for s in slots if s.value.lower() not in said]

    def _over_asks(self, first: bool, last: bool) -> list[Step]:
        """The over-asker's questions before one lookup."""
        steps: list[Step] = []
        given = self._given
        if first:
            for slot in self.slots:
                if slot.lookupable:
                    steps.append(Say(f"{self._opener()}Could you tell me {slot.prompt}?"))
                    if slot not in given:
                        given.append(slot)
        if given and (self.rng.random() < 0.5 or (last and not self._repeated)):
            slot = self.rng.choice(given)
            steps.append(Say(f"{self._opener()}Could you give me {slot.prompt} again?"))
            self._repeated = True
        return steps

    def build(self, opening: str) -> list[Step]:
        """The whole script, given the user's first message."""
        steps: list[Step] = []
        missing = self._missing_auth(opening)
        if missing:
            prompts = _listing([s.prompt for s in missing])
            steps.append(
                Say(f"{self._opener()}Before I can help, could you please provide {prompts}?")
            )
        known = [s for s in self.slots if s.value.lower() in opening.lower()]
        self._given = [*missing, *known]
        reads = [
            i
            for i, a in enumerate(self.task.actions)
            if i not in self.ending and i not in self.writes
        ]
        lookup_points = reads or (self.writes[:1] if self.writes else [len(self.task.actions)])
        transfer: Action | None = None
        for i, action in enumerate(self.task.actions):
            if self.profile == "over-asker" and i in lookup_points:
                first, last = i == lookup_points[0], i == lookup_points[-1]
                steps.extend(self._over_asks(first, last))
            if i in self.ending:
                transfer = action
                continue
            if self.writes and i == self.writes[0] and not self.mistakes.skip_confirmation:
                summary = "; ".join(describe(self.task.actions[w]) for w in self.writes)
                steps.append(
                    Say(
                        f"{self._opener()}Here is what I am going to do: {summary}. "
                        "Shall I go ahead? Please reply yes or no."
                    )
                )
            if i in self.mistakes.dropped_writes:
                continue
            steps.append(Call(action))
        if self.profile == "over-asker" and len(self.task.actions) in lookup_points:
            steps.extend(self._over_asks(True, True))
        steps.append(Say(self._final(transfer is not None)))
        if transfer is not None:
            steps.append(Call(transfer))
        return steps

    def _final(self, transfer: bool) -> str:
        outputs = [
            o
            for i, o in enumerate(self.task.required_outputs)
            if i not in self.mistakes.omitted_outputs
        ]
        done = "All done." if self.writes else "Here is what I found."
        details = f" Here are the details: {'; '.join(outputs)}." if outputs else ""
        ending = TRANSFER if transfer else CLOSING_QUESTION
        return f"{self._opener()}{done}{details} {ending}"
