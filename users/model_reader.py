"""The model reader: a chat model reads each agent text into the acts (``--user-arg reader=``).

The scripted user's dynamics and replies stay deterministic given the acts; only the reading
changes. Per conversation the model is told the acts (``ACT_KEYS``, as ``users.perception``
defines them), the user's slots (name and how an agent would name it) and, in telecom, the
user's own phone tools (name and what it does); each agent text is one request whose answer is
one JSON object under ``schema`` (an ``enum`` of those names where the endpoint takes a
schema). Details the schema does not ask for come from the rule reader of the same text: a
detail that backs a claim, a lookup announced, the unknown items named, the groups of
alternatives and choices among the slots the model found.

An answer that is not that object (not JSON, a key missing, a value of the wrong type, a name
that is not the user's) is *malformed*: the rule reader's acts stand for that turn, marked
``fallback`` (the scripted user records the turn with the ``unstructured_reply`` trigger, as
the LLM user records its own malformed answers). A model that fails for good (``ModelError``)
fails the turn, as every model call does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tau_sim.simulator.core import ChatMessage, ChatModel, Usage
from tau_sim.simulator.models import first_object
from tau_sim.simulator.world import InfoSlot, UserStep
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.perception import ACT_FLAGS, ACT_KEYS, AgentActs

INSTRUCTIONS = """You read one message a customer-service agent wrote to a customer and say \
which acts it performs. Answer with one JSON object with exactly these keys:
- "asks": the names of the customer's facts (listed below) the message asks the customer for, \
by meaning, however worded; all of them when it offers alternatives ("your email, or your name \
and ZIP code"); a choice among records ("which of your two orders?") asks the fact that says \
which one.
- "confirms": true when it asks the customer's go-ahead (yes/no) for an action.
- "done": true when it reports an action carried out ("I've cancelled it"); a lookup result \
("I found your order") is not.
- "refuses": true when it turns down all or part of what the customer asked, however worded \
("I can't find an account" is not a refusal).
- "closes": true when it asks whether there is anything else, or says goodbye.
- "transfers": true when it hands the customer to a person, a specialist or another team.
- "acknowledges": true when it shows care for the customer or their situation (empathy, an \
apology, warm reassurance), not mere thanks or greetings.
- "steps": the names of the customer's own phone tools (listed below) the message asks the \
customer to use, in the order asked; a question about what the phone shows is the tool that \
shows it.
- "asks_other": true when it asks the customer something that is none of the facts below (an \
id the customer never holds, a question nobody could place).
Answer with the JSON object only."""


class ReadActs(msgspec.Struct, forbid_unknown_fields=True):
    """The model's answer, under the corpus schema's keys."""

    asks: list[str]
    confirms: bool
    done: bool
    refuses: bool
    closes: bool
    transfers: bool
    acknowledges: bool
    steps: list[str]
    asks_other: bool


def schema(slots: Sequence[str], steps: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of one answer for a user with ``slots`` and own tools ``steps``."""
    flags = {key: {"type": "boolean"} for key in (*ACT_FLAGS, "asks_other")}
    return {
        "type": "object",
        "properties": {
            "asks": {"type": "array", "items": {"enum": list(slots)}},
            **flags,
            "steps": {"type": "array", "items": {"enum": list(steps)}},
        },
        "required": list(ACT_KEYS),
        "additionalProperties": False,
    }


def system_prompt(slots: Sequence[InfoSlot], steps: Sequence[UserStep]) -> str:
    """The reader's instructions with the user's facts and phone tools."""
    facts = "\n".join(f"- {s.name}: {s.prompt}" for s in slots) or "- (none)"
    tools = "\n".join(f"- {s.name}: {s.request}" for s in steps) or "- (none)"
    return (
        f"{INSTRUCTIONS}\n\nThe customer's facts:\n{facts}\n\nThe customer's phone tools:\n{tools}"
    )


def parsed(content: str | None, slots: Sequence[str], steps: Sequence[str]) -> ReadActs | None:
    """The model's answer, or None when it is malformed (see the module docstring)."""
    found = first_object(content or "")
    if found is None:
        return None
    try:
        answer = msgspec.convert(found, ReadActs, strict=True)
    except msgspec.ValidationError:
        return None
    if not set(answer.asks) <= set(slots) or not set(answer.steps) <= set(steps):
        return None
    return answer


class ModelReader:
    """Reads one conversation's agent texts through ``model``; ``rules`` fills and stands in."""

    def __init__(
        self,
        model: ChatModel,
        slots: Sequence[InfoSlot],
        unknown_info: Sequence[str] = (),
        steps: Sequence[UserStep] = (),
    ) -> None:
        self.model = model
        self.rules = AgentTextReader(slots, unknown_info, steps)
        self.order = [s.name for s in slots]
        self.step_names = [s.name for s in steps]
        self.system = ChatMessage("system", system_prompt(slots, steps))
        self.format = {"type": "json_object", "schema": schema(self.order, self.step_names)}
        self.usage: Usage | None = None
        self.fallbacks = 0

    async def perceive(self, text: str) -> AgentActs:
        """The acts the model reads in ``text`` (the rules' where its answer is malformed)."""
        messages = [self.system, ChatMessage("user", text)]
        response = await self.model.chat(messages, [], response_format=self.format)
        self.usage = _added(self.usage, response.usage)
        rules = self.rules.read(text)
        answer = parsed(response.message.content, self.order, self.step_names)
        if answer is None:
            self.fallbacks += 1
            rules.fallback = True
            return rules
        return merged(answer, rules, self.order)

    def spent(self) -> Usage | None:
        """What the model calls since the last call cost, then reset."""
        usage, self.usage = self.usage, None
        return usage


def merged(answer: ReadActs, rules: AgentActs, order: Sequence[str]) -> AgentActs:
    """The model's acts, with the details only the rules read (see the module docstring)."""
    asked = [name for name in order if name in answer.asks]
    groups = [g for g in rules.alternatives if set(g) <= set(asked)]
    return AgentActs(
        asked=asked,
        chosen=[n for n in rules.chosen if n in asked],
        confirmation=answer.confirms,
        completion=answer.closes,
        transfer=answer.transfers,
        acknowledged=answer.acknowledges,
        progress=answer.done or rules.progress,
        unknown=list(rules.unknown) if answer.asks_other else [],
        unclear=int(answer.asks_other and not rules.unknown),
        announced=rules.announced,
        done=answer.done,
        detailed=rules.detailed,
        steps=list(dict.fromkeys(answer.steps)),
        refused=answer.refuses,
        not_found=rules.not_found,
        alternatives=groups if len(groups) >= 2 else [],
    )


def _added(a: Usage | None, b: Usage | None) -> Usage | None:
    if a is None or b is None:
        return a or b
    cost = None if a.cost_usd is None or b.cost_usd is None else a.cost_usd + b.cost_usd
    return Usage(
        tokens_in=a.tokens_in + b.tokens_in,
        tokens_out=a.tokens_out + b.tokens_out,
        latency_s=a.latency_s + b.latency_s,
        retries=a.retries + b.retries,
        cost_usd=cost,
        tokens_cached=a.tokens_cached + b.tokens_cached,
    )
