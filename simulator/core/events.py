"""Every event that crosses the bus: one tagged union of frozen msgspec Structs.

The same bytes go to SQLite, to live viewers and across processes; use ``encode``/``decode``
below, never hand-built dicts.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.condition import Condition


class RewardBreakdown(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """How a conversation's reward was computed (τ-bench semantics, made explicit).

    Fields at their default (empty) are left out of event JSON; decoding puts them back.
    ``conversations.breakdown`` holds every field (``breakdown_json``).

    A domain with its own reward basis (τ²-bench's) names it in ``reward_basis``, the score of
    each part in ``checks`` and the parts it could not evaluate (no judge) in ``not_evaluated``.
    ``judged`` holds each natural-language assertion a judge model checked, and whether it was
    met (``AssertionJudged`` events; ``tau-sim run --judge``).
    """

    db_match: bool
    outputs_communicated: float
    missing_outputs: list[str] = []
    expected_hash: str = ""
    actual_hash: str = ""
    reward_basis: list[str] = []
    checks: dict[str, float] = {}
    not_evaluated: list[str] = []
    judged: dict[str, bool] = {}


class EventBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", gc=False, omit_defaults=True
):
    """Fields every event carries; ``seq`` and ``ts`` are assigned by the bus.

    Fields at their default are left out of the JSON (decoding puts the default back).
    """

    conversation: str
    seq: int = 0
    ts: float = 0.0


class ConversationStarted(EventBase, frozen=True, tag="conversation_started"):
    """A conversation was admitted: which task, under which condition, with which actors.

    ``refusal`` says whether the task is a refusal task (its line lists forbidden writes the
    user asks for: ``Task.violations``), stored so a report needs no domain to tell.

    The condition's fields stay flat and in this order, as every stored event has them
    (``Condition`` as a base or a nested struct would move or nest their keys); ``condition``
    reads them as one.
    """

    run_id: str
    task_id: str
    domain: str
    agent: str
    user: str
    emotion: str
    intensity: float
    trial: int
    seed: int
    politeness: str | None = None
    urgency: str | None = None
    trust: str | None = None
    refusal: bool = False

    @property
    def condition(self) -> Condition:
        """The condition the conversation plays under."""
        return Condition(
            emotion=self.emotion,
            intensity=self.intensity,
            politeness=self.politeness,
            urgency=self.urgency,
            trust=self.trust,
        )


class UserMessage(EventBase, frozen=True, tag="user_message"):
    """A message from the user; ``ends`` is set when the user ends the conversation."""

    text: str
    ends: str | None = None


class AgentMessage(EventBase, frozen=True, tag="agent_message"):
    """A turn of the agent: text for the user and/or tool calls; reasoning is never shown."""

    text: str | None = None
    tool_calls: list[ToolCallSpec] = []
    reasoning: str | None = None


class ToolCall(EventBase, frozen=True, tag="tool_call"):
    """A tool call routed to the environment."""

    call: ToolCallSpec


class ToolResult(EventBase, frozen=True, tag="tool_result"):
    """What the environment answered to one tool call; ``error`` marks a failed call."""

    call_id: str
    name: str
    content: str
    error: bool = False


class UserToolCall(EventBase, frozen=True, tag="user_tool_call"):
    """A call of one of the user's own tools (their device), routed to the environment.

    The agent never receives it: it sees only what the user then tells it in words.
    """

    call: ToolCallSpec


class UserToolResult(EventBase, frozen=True, tag="user_tool_result"):
    """What the environment answered to one user tool call (routed back to the user only)."""

    call_id: str
    name: str
    content: str
    error: bool = False


class EmotionUpdate(EventBase, frozen=True, tag="emotion_update"):
    """The user's emotional state after a turn."""

    emotion: str
    intensity: float
    dissatisfaction: float
    reason: str = ""
    triggers: list[str] = []


NO_LATENCY = 0.0
"""``ModelUsage.latency_s`` of a call that took no time (a scripted turn). msgspec leaves a
float out as a default only when it is this very object, so ``ModelUsage`` puts it in place of
any zero latency it is built or decoded with."""


class ModelUsage(EventBase, frozen=True, tag="model_usage"):
    """One model call: who made it, tokens, latency, retries and cost when known.

    A scripted actor's turn is a call without tokens or latency: its zeros are defaults, so
    the stored JSON leaves them out.
    """

    role: str
    backend: str
    model: str
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = NO_LATENCY
    retries: int = 0
    cost_usd: float | None = None
    error: str | None = None
    tokens_cached: int = 0

    def __post_init__(self) -> None:
        if not self.latency_s:
            msgspec.structs.force_setattr(self, "latency_s", NO_LATENCY)


class AssertionJudged(EventBase, frozen=True, tag="assertion_judged"):
    """A judge model's verdict on one natural-language assertion of the task, with its reason.

    Published after the conversation ended (``tau-sim run --judge MODEL``), before
    ``ConversationEnded``; the evaluator reads it, so ``rescore`` scores it the same way.
    """

    judge: str
    assertion: str
    met: bool
    reason: str = ""


class ChangedRecord(msgspec.Struct, frozen=True, gc=False):
    """One record that differs from the domain's base database (``record`` None: deleted).

    In the process that played the conversation ``record`` is the tool's own Struct; read back
    from the store it is that Struct's JSON object.
    """

    table: str
    key: str
    record: Any = None


class EnvironmentState(EventBase, frozen=True, tag="environment_state"):
    """The environment's final state: its hash and every record that differs from the base."""

    state_hash: str
    changes: list[ChangedRecord] = []


class ConversationEnded(EventBase, frozen=True, tag="conversation_ended"):
    """The referee ended the conversation: why, the reward and how it was computed.

    ``failure`` names why a conversation without full reward failed (``simulator.engine.failures``),
    ``failure_detail`` says what exactly (None and "" for a success). ``warnings`` are the codes
    of what went wrong in grading it (``simulator.core.grading.WARNINGS``; the store keeps them).
    """

    reason: str
    reward: float
    breakdown: RewardBreakdown | None = None
    detail: str = ""
    turns: int = 0
    tool_calls: int = 0
    questions: int = 0
    failure: str | None = None
    failure_detail: str = ""
    warnings: list[str] = []


Event = (
    ConversationStarted
    | UserMessage
    | AgentMessage
    | ToolCall
    | ToolResult
    | UserToolCall
    | UserToolResult
    | EmotionUpdate
    | ModelUsage
    | EnvironmentState
    | AssertionJudged
    | ConversationEnded
)

EVENT_TYPES: tuple[type[EventBase], ...] = (
    ConversationStarted,
    UserMessage,
    AgentMessage,
    ToolCall,
    ToolResult,
    UserToolCall,
    UserToolResult,
    EmotionUpdate,
    ModelUsage,
    EnvironmentState,
    AssertionJudged,
    ConversationEnded,
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def encode(event: Event) -> bytes:
    """Encode one event to JSON bytes (the tag is the ``kind`` field)."""
    return _encoder.encode(event)


def decode(data: bytes | str) -> Event:
    """Decode JSON bytes produced by ``encode`` back into the event."""
    return _decoder.decode(data)


def decode_lines(data: bytes) -> list[Event]:
    """Decode newline-delimited events (each ``encode`` and a newline), in order."""
    return _decoder.decode_lines(data)


_BASE_FIELDS = b',"conversation":'
"""Where the fields every event carries begin in its JSON: after every field of its own."""
_stored_decoders: dict[str, msgspec.json.Decoder[Event]] = {
    str(cls.__struct_config__.tag): msgspec.json.Decoder(cls) for cls in EVENT_TYPES
}


def encode_payload(event: Event) -> str:
    """The JSON the store keeps of an event: its own fields only (the store has its columns).

    ``kind``, ``conversation``, ``seq`` and ``ts`` are the ``events`` table's columns, so the
    payload leaves them out; ``decode_stored`` puts them back. The tag comes first and the
    fields of ``EventBase`` last (msgspec writes keyword-only fields after the others), so the
    last ``,"conversation":`` of the JSON is where they begin: a key inside a nested object
    comes before it, and a string's quotes are escaped.
    """
    data = _encoder.encode(event)
    start = len(kind_of(event)) + 10  # past {"kind":"TAG"
    end = data.rfind(_BASE_FIELDS)
    return "{" + data[start + 1 : end].decode() + "}" if end > start else "{}"


def decode_stored(conversation: str, seq: int, kind: str, ts: float, payload: str) -> Event:
    """The event of one ``events`` row: its payload with the row's columns put back.

    A payload stored before ``encode_payload`` existed holds the whole event (it starts with
    its ``kind``) and decodes as it is.
    """
    if payload.startswith('{"kind"'):
        return _decoder.decode(payload)
    head = (_encoder.encode(conversation), seq, _encoder.encode(ts))
    columns = b'{"conversation":%b,"seq":%d,"ts":%b' % head
    rest = payload.encode()
    data = columns + (b"}" if rest == b"{}" else b"," + rest[1:])
    return _stored_decoders[kind].decode(data)


def breakdown_json(breakdown: RewardBreakdown) -> str:
    """A breakdown as ``conversations.breakdown`` holds it: every field, empty ones too.

    The column is what SQL readers query (``json_extract(breakdown, '$.not_evaluated')``);
    only the event's payload leaves the empty fields out.
    """
    return _encoder.encode(msgspec.structs.asdict(breakdown)).decode()


def kind_of(event: EventBase) -> str:
    """The tag of an event, as stored in the ``kind`` column."""
    return type(event).__struct_config__.tag  # type: ignore[return-value]
