"""What the scripted user perceives in one agent text: the acts, and the seam that reads them.

``AgentActs`` is the one typed result; a ``Reader`` turns an agent text into it. Two readers
implement the seam: the rule reader (``users.dialogue.AgentTextReader``) and the model reader
(``users.model_reader.ModelReader``). ``public`` gives the acts under the keys of the corpus
schema and of ``tau-sim users read --json`` (``asks``, ``confirms``, ``done`` …).
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from tau_sim.simulator.core import Usage

ACT_FLAGS: dict[str, str] = {
    "confirms": "confirmation",
    "done": "done",
    "refuses": "refused",
    "closes": "completion",
    "transfers": "transfer",
    "acknowledges": "acknowledged",
}
"""The boolean acts: public key -> ``AgentActs`` field."""
ACT_KEYS: tuple[str, ...] = ("asks", *ACT_FLAGS, "steps", "asks_other")
"""The acts of the corpus schema, in its order."""


class AgentActs(msgspec.Struct):
    """What one agent text does, as the scripted user reads it.

    ``asked``: the user's slots it asks for, in the scenario's order (every slot of every group
    when it offers ``alternatives``: groups of slots, any one of which will do, in the order
    offered); ``chosen``: those it asks to choose among records the agent found ("which one");
    ``confirmation``: it asks the user's go-ahead; ``completion``: it asks whether there is
    anything else or says goodbye; ``transfer``: it hands the user to a person or another team;
    ``acknowledged``: it shows care; ``progress``: it reports something done or found, ``done``
    an action carried out; ``detailed``: it states a detail that backs a claim (a digit, an id);
    ``announced``: it announces a lookup it has not made; ``unknown``: unknown items it asks for;
    ``unclear``: questions it asks that nobody could place; ``steps``: the user's own tools it
    asks the user to run, in order; ``refused``: it turns down all or part of the request;
    ``not_found``: it could not find what the user named (not a refusal); ``fallback``: a model
    reader's answer was malformed and these are the rule reader's acts.
    """

    asked: list[str] = []
    chosen: list[str] = []
    confirmation: bool = False
    completion: bool = False
    transfer: bool = False
    acknowledged: bool = False
    progress: bool = False
    unknown: list[str] = []
    unclear: int = 0
    announced: bool = False
    done: bool = False
    detailed: bool = False
    steps: list[str] = []
    refused: bool = False
    not_found: bool = False
    alternatives: list[list[str]] = []
    fallback: bool = False

    @property
    def unbacked(self) -> bool:
        """Whether the text claims progress without stating any detail to back it."""
        return self.progress and not self.detailed

    @property
    def asks_other(self) -> bool:
        """Whether it asks something the user cannot place or does not hold."""
        return bool(self.unknown or self.unclear)

    @property
    def substantive(self) -> bool:
        """Whether the text moves the conversation (asks, confirms, reports, ends or hands off)."""
        return bool(
            self.asked
            or self.steps
            or self.confirmation
            or self.completion
            or self.transfer
            or self.progress
            or self.unknown
            or self.unclear
        )


def public(acts: AgentActs) -> dict[str, Any]:
    """The acts under the corpus schema's keys, then ``not_found`` and ``alternatives``."""
    shown: dict[str, Any] = {"asks": list(acts.asked)}
    shown.update({key: getattr(acts, field) for key, field in ACT_FLAGS.items()})
    shown["steps"] = list(acts.steps)
    shown["asks_other"] = acts.asks_other
    shown["not_found"] = acts.not_found
    shown["alternatives"] = [list(group) for group in acts.alternatives]
    return shown


class Reader(Protocol):
    """Reads one agent text into its acts (``perceive``), with what reading it cost."""

    async def perceive(self, text: str) -> AgentActs:
        """The acts of ``text``."""
        ...

    def spent(self) -> Usage | None:
        """What the readings so far cost a model (None: no model reads), then reset to zero."""
        ...
