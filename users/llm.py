"""The LLM emotional user: a chat model plays the customer of a task under an emotion profile.

The model's system prompt is its brief (``users.brief``: the task's scenario, never the gold
actions or the outputs the agent must give, the emotion profile and the pushback it plays).
Roles are flipped: the agent's texts are the model's "user" messages and its own earlier
messages are its "assistant" turns. Each turn it answers one JSON object (JSON mode where the
backend has one) with its message, intensity, dissatisfaction and whether it ends (``STOP``
satisfied, ``UNSATISFIED`` with a reason; a user that never abandons, neutral, is offered no
``UNSATISFIED`` and goes on if it writes one); ``parse_reply`` reads it leniently and falls back
to plain text with the stop tokens.

Where the domain gives the user tools of its own (its phone: ``UserView.tools``), the model
gets them as tools: a turn of tool calls runs them (the agent never sees them), and the model
is asked again with their results; after ``MAX_TOOL_ROUNDS`` rounds in a row it must write.

The JSON mode request carries the reply's schema (``REPLY_SCHEMA``), which endpoints that take
one (llama.cpp, ``json_schema=true``) turn into a grammar. A model with a known, small context
window (``context_tokens``; by default the provider's ``context_window``, e.g. the local model's
``n_ctx``) gets the system prompt and the most recent messages that fit (``fit_context``), so a
long conversation never outgrows the window.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.core import (
    EMPTY_TURN,
    REPAIRED_REPLY,
    STOP,
    UNSATISFIED,
    UNSTRUCTURED_REPLY,
    USERS,
    ChatMessage,
    EmotionUpdate,
    ModelBacked,
    Usage,
    UserTurn,
    make_model_provider,
)
from tau_sim.simulator.models import convert_options, first_object
from tau_sim.users.brief import MESSAGE_CHARS, REASONS, abandon_threshold, system_prompt
from tau_sim.users.emotions import profile_of

if TYPE_CHECKING:
    from tau_sim.simulator.core import ChatModel, ModelProvider
    from tau_sim.simulator.world import UserView

_REASON_WORDS: tuple[tuple[str, str], ...] = (
    ("dismiss", "dismissive tone"),
    ("rude", "dismissive tone"),
    ("cue", "ignored cues"),
    ("ignor", "ignored cues"),
    ("emotion", "emotional neglect"),
    ("empath", "emotional neglect"),
    ("neglect", "emotional neglect"),
    ("procedur", "procedural friction"),
    ("friction", "procedural friction"),
    ("repeat", "procedural friction"),
    ("circl", "procedural friction"),
)
REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "maxLength": MESSAGE_CHARS},
        "intensity": {"type": "number"},
        "dissatisfaction": {"type": "number"},
        "ends": {"enum": [None, "STOP", "UNSATISFIED"]},
        "reason": {"enum": [None, *REASONS]},
    },
    "required": ["message", "intensity", "dissatisfaction", "ends", "reason"],
}
"""The user's answer as a JSON schema (sent where the endpoint takes one: ``json_schema``)."""
STAYING_SCHEMA: dict[str, Any] = {
    **REPLY_SCHEMA,
    "properties": {
        **REPLY_SCHEMA["properties"],
        "ends": {"enum": [None, "STOP"]},
        "reason": {"enum": [None]},
    },
}
"""The answer's schema for a user that never abandons (neutral): no ``UNSATISFIED``."""
CHARS_PER_TOKEN = 3
"""A conservative estimate of a message's tokens: its characters over this (English is ~4)."""
REPLY_RESERVE = 1024
"""Tokens of ``context_tokens`` kept free for the chat template and the answer."""
_LEFT_OUT = (
    "(You are connected to a customer-service agent; the earliest messages of the conversation "
    "are left out here. Go on with your next message.)"
)
_KICKOFF = "(You are now connected to a customer-service agent. Write your first message.)"
_REPAIR = (
    "(Your last answer was not the JSON object asked for. Answer again with exactly one JSON "
    'object: {"message": ..., "intensity": ..., "dissatisfaction": ..., "ends": ..., '
    '"reason": ...})'
)
MAX_TOOL_ROUNDS = 4
"""How many rounds of the user's own tool calls may follow each other before it must write."""
_TOKENS = re.compile(r"#{2,3}\s*(STOP|UNSATISFIED|TRANSFER|OUT-OF-SCOPE)\s*#{2,3}", re.IGNORECASE)
"""Stop tokens in a reply's text: ours, and τ²-bench's ``###TRANSFER###`` / ``###OUT-OF-SCOPE###``
(their user's other endings; both are a user stop, as their orchestrator counts them). The brief
offers only ours: a question its scenario does not cover is answered "I don't know", not ended;
τ²-bench's are read where a model writes them anyway."""


class LLMUserOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options of the LLM user itself; its other options go to its model's provider.

    Attributes:
        repair: ask once more when an answer is neither the JSON asked for nor a usable text.
        context_tokens: the model's context window in tokens; the prompt keeps the system
            message and the most recent messages that fit in it less ``REPLY_RESERVE``
            (default: the model provider's ``context_window`` where it has one, else no limit).
    """

    repair: bool = True
    context_tokens: int | None = None


class ParsedReply(msgspec.Struct, frozen=True):
    """One parsed answer of the user model.

    Attributes:
        message: what the user writes to the agent (stop tokens removed).
        intensity: how strongly the user feels now (0..1).
        dissatisfaction: how dissatisfied the user is now (0..1).
        ends: ``STOP``, ``UNSATISFIED`` or None.
        reason: one of ``REASONS`` when the user abandons, else "".
        structured: whether the answer was the JSON object asked for.
    """

    message: str
    intensity: float
    dissatisfaction: float
    ends: str | None = None
    reason: str = ""
    structured: bool = True


def canonical_reason(text: str | None) -> str:
    """The ``REASONS`` entry a free-text reason names ("" when none fits)."""
    lowered = (text or "").lower()
    for reason in REASONS:
        if reason in lowered:
            return reason
    for word, reason in _REASON_WORDS:
        if word in lowered:
            return reason
    return ""


def _unit(value: Any, default: float) -> float:
    """A 0..1 number from a model's answer (accepts "0.7", 7 on a 0..10 scale, 70 on 0..100)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if number != number:  # NaN
        return default
    if 1.0 < number <= 10.0:
        number /= 10.0
    elif 10.0 < number <= 100.0:
        number /= 100.0
    return max(0.0, min(1.0, number))


def _ends(value: Any, message: str) -> str | None:
    if isinstance(value, str):
        word = value.strip("# ").upper()
        if word in ("STOP", "SATISFIED", "DONE", "END", "TRANSFER", "OUT-OF-SCOPE"):
            return STOP
        if word in ("UNSATISFIED", "ABANDON", "ABANDONED", "QUIT"):
            return UNSATISFIED
    found = _TOKENS.search(message)
    if found:
        return UNSATISFIED if found.group(1).upper() == "UNSATISFIED" else STOP
    return None


def parse_reply(
    text: str | None, intensity: float, dissatisfaction: float, *, abandons: bool = True
) -> ParsedReply:
    """Read the user model's answer: the JSON object asked for, else plain text with tokens.

    ``intensity`` and ``dissatisfaction`` are the previous values, kept when the answer does
    not report new ones. A user that never ``abandons`` (neutral: its brief offers no
    ``UNSATISFIED``) that answers ``UNSATISFIED`` anyway goes on: the reply does not end.
    """
    raw = (text or "").strip()
    obj = first_object(raw)
    structured = obj is not None
    if obj is not None:  # a JSON object without a message is an empty answer, not prose
        body = obj.get("message", obj.get("text", obj.get("reply")))
        message = body if isinstance(body, str) else ""
        intensity = _unit(obj.get("intensity"), intensity)
        dissatisfaction = _unit(obj.get("dissatisfaction"), dissatisfaction)
        ends = _ends(obj.get("ends", obj.get("end")), message)
        reason_text = obj.get("reason")
    else:
        message = raw
        ends = _ends(None, raw)
        reason_text = raw if ends == UNSATISFIED else None
    message = _TOKENS.sub("", message).strip()
    if ends == UNSATISFIED and not abandons:
        ends = None
    reason = ""
    if ends == UNSATISFIED:
        reason = canonical_reason(reason_text if isinstance(reason_text, str) else None)
        reason = reason or "procedural friction"
    return ParsedReply(message, intensity, dissatisfaction, ends, reason, structured)


def flip(transcript: list[ChatMessage]) -> list[ChatMessage]:
    """The user model's view: the agent's texts as "user" turns, its own as "assistant" turns."""
    out = [ChatMessage(role="user", content=_KICKOFF)]
    for m in transcript:
        if m.role == "user" and m.tool_calls:  # the user's own tool calls and their results
            out.append(ChatMessage(role="assistant", tool_calls=list(m.tool_calls)))
            continue
        if m.role == "tool":
            out.append(m)
            continue
        if not m.content:
            continue
        if m.role == "assistant":
            out.append(ChatMessage(role="user", content=m.content))
        elif m.role == "user":
            out.append(ChatMessage(role="assistant", content=_TOKENS.sub("", m.content).strip()))
    return out


def _tokens(message: ChatMessage) -> int:
    text = message.content or ""
    calls = sum(len(str(c.arguments)) + len(c.name) for c in message.tool_calls or [])
    return (len(text) + calls) // CHARS_PER_TOKEN + 4


def fit_context(
    system: ChatMessage, flipped: list[ChatMessage], context_tokens: int | None
) -> list[ChatMessage]:
    """``system`` and the flipped transcript, or its most recent part that fits the window.

    ``flipped`` starts with the kickoff; when older messages must go, the kickoff is replaced by
    a note saying so. The last message always stays. The size of a message is estimated from
    its characters (``CHARS_PER_TOKEN``), the system prompt's included.
    """
    if context_tokens is None:
        return [system, *flipped]
    budget = context_tokens - REPLY_RESERVE - _tokens(system)
    if sum(map(_tokens, flipped)) <= budget:
        return [system, *flipped]
    note = ChatMessage(role="user", content=_LEFT_OUT)
    budget -= _tokens(note)
    kept: list[ChatMessage] = []
    for message in reversed(flipped[1:]):
        budget -= _tokens(message)
        if budget < 0 and kept:
            break
        kept.append(message)
    while len(kept) > 1 and kept[-1].role == "tool":  # a tool result never opens the history
        kept.pop()
    return [system, note, *reversed(kept)]


def _add(a: Usage, b: Usage) -> Usage:
    cost = (
        None if a.cost_usd is None and b.cost_usd is None else (a.cost_usd or 0) + (b.cost_usd or 0)
    )
    return Usage(
        tokens_in=a.tokens_in + b.tokens_in,
        tokens_out=a.tokens_out + b.tokens_out,
        latency_s=a.latency_s + b.latency_s,
        retries=a.retries + b.retries,
        cost_usd=cost,
        tokens_cached=a.tokens_cached + b.tokens_cached,
    )


class LLMUser:
    """Plays the user of one conversation with a chat model.

    Args:
        model: the chat model playing the user.
        view: the user's view of the conversation (scenario, emotion, intensity, levels).
        repair: ask once more when an answer is neither the JSON asked for nor a usable text.
    """

    def __init__(
        self,
        model: ChatModel,
        view: UserView,
        *,
        repair: bool = True,
        context_tokens: int | None = None,
    ) -> None:
        self.profile = profile_of(view)
        self.conversation = view.conversation_id
        self.model = model
        self.repair = repair
        self.context_tokens = context_tokens
        self.system = ChatMessage(role="system", content=system_prompt(view, self.profile))
        self.tools = list(view.tools)
        self.intensity = self.profile.intensity
        self.dissatisfaction = 0.0
        self.abandons = abandon_threshold(self.profile) is not None
        schema = REPLY_SCHEMA if self.abandons else STAYING_SCHEMA
        self.json_mode = {"type": "json_object", "schema": schema}

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        """Write the next user message and report the emotional state."""
        messages = fit_context(self.system, flip(transcript), self.context_tokens)
        tools = self.tools if _tool_rounds(transcript) < MAX_TOOL_ROUNDS else []
        response = await self.model.chat(messages, tools, response_format=self.json_mode)
        usage = response.usage
        if response.message.tool_calls and tools:
            calls = list(response.message.tool_calls)
            return UserTurn(text="", model=self.model.name, usage=usage, tool_calls=calls)
        reply = self._parse(response.message.content)
        repaired = False
        if self.repair and not reply.message and reply.ends is None:
            repaired = True
            retry = [*messages, response.message, ChatMessage(role="user", content=_REPAIR)]
            again = await self.model.chat(retry, [], response_format=self.json_mode)
            usage = _add(usage, again.usage)
            reply = self._parse(again.message.content)
        self.intensity, self.dissatisfaction = reply.intensity, reply.dissatisfaction
        text = reply.message or (EMPTY_TURN if reply.ends is None else "")
        if reply.ends is not None:
            text = f"{text} {reply.ends}".strip()
        state = EmotionUpdate(
            conversation=self.conversation,
            emotion=self.profile.leaf,
            intensity=round(reply.intensity, 4),
            dissatisfaction=round(reply.dissatisfaction, 4),
            reason=reply.reason,
            triggers=[
                *([] if reply.structured else [UNSTRUCTURED_REPLY]),
                *([REPAIRED_REPLY] if repaired else []),
            ],
        )
        return UserTurn(text=text, ends=reply.ends, state=state, model=self.model.name, usage=usage)

    def _parse(self, text: str | None) -> ParsedReply:
        return parse_reply(text, self.intensity, self.dissatisfaction, abandons=self.abandons)


def _tool_rounds(transcript: list[ChatMessage]) -> int:
    """How many rounds of the user's own tool calls end the transcript, one after another."""
    rounds = 0
    for m in reversed(transcript):
        if m.role == "tool":
            continue
        if m.role == "user" and m.tool_calls:
            rounds += 1
            continue
        break
    return rounds


class LLMUserProvider(ModelBacked):
    """Makes LLM users of one model name; the model's provider is built once per run.

    Args:
        name: the model name (``openai/gpt-4.1-mini``).
        args: the model's options (checked by its provider), plus ``LLMUserOptions``.
    """

    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        own = LLMUserOptions.__struct_fields__
        model_args = {k: v for k, v in args.items() if k not in own}
        options = convert_options({k: v for k, v in args.items() if k in own}, LLMUserOptions, name)
        self.repair = options.repair
        self.model_provider: ModelProvider = make_model_provider(name, model_args, flag="--user")
        window = getattr(self.model_provider, "context_window", None)
        self.context_tokens: int | None = options.context_tokens or window

    def for_conversation(self, view: UserView) -> LLMUser:
        """A fresh LLM user for one conversation."""
        model = self.model_provider.for_conversation(view.conversation_id, "user")
        return LLMUser(model, view, repair=self.repair, context_tokens=self.context_tokens)


@USERS.register("llm")
def make_llm_user(name: str, args: dict[str, Any]) -> LLMUserProvider:
    """The user kind serving every ``provider/model`` name."""
    return LLMUserProvider(name, args)
