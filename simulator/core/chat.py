"""The chat types every layer shares: messages, tool specs and calls, usage, the model interface.

They live outside ``simulator/models/`` (which holds the providers only), so the engine, the
domain tools and the agents import them without importing a provider package.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

Role = Literal["system", "user", "assistant", "tool"]


class ToolCallSpec(msgspec.Struct, frozen=True, gc=False):
    """One tool call requested by an agent: id, tool name and JSON arguments."""

    id: str
    name: str
    arguments: dict[str, Any]


class ChatMessage(msgspec.Struct, frozen=True, gc=False):
    """One message of a chat: system prompt, user text, assistant turn or tool result."""

    role: Role
    content: str | None = None
    tool_calls: list[ToolCallSpec] = []
    tool_call_id: str | None = None
    name: str | None = None
    reasoning: str | None = None


class ToolSpec(msgspec.Struct, frozen=True):
    """A tool as the model sees it: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


class Usage(msgspec.Struct, frozen=True, gc=False):
    """Accounting of one model call.

    ``tokens_in`` counts every prompt token; ``tokens_cached`` is the part of them the API
    reports as read from its prompt cache (0 where it reports none). ``cost_usd`` is None when
    the model has no price (unpriced), never 0 for want of one. Scripted actors make no model
    call: they report no tokens (all 0, cost None) and their backend marks them simulated.
    The stored record of a call is the ``ModelUsage`` event: these fields, under the same names,
    with the conversation, the role and the model that made it (``engine.usage.usage_event``).
    """

    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    retries: int = 0
    cost_usd: float | None = None
    tokens_cached: int = 0


class ChatResponse(msgspec.Struct, frozen=True, gc=False):
    """The assistant message a model produced and what it cost."""

    message: ChatMessage
    usage: Usage = Usage()


class ModelError(Exception):
    """A model call failed for good (retries exhausted, bad response, timeout)."""


class EndpointError(ModelError):
    """The endpoint gave no usable reply (infrastructure, not the model's behaviour).

    An HTTP error, a timeout, a dropped connection, a body that is not a completion: the
    conversation ends with ``infra_error``, the figures leave it out and ``--resume`` plays it
    again. ``kind`` is a short label of the cause (``HTTP 429 rate limit``, ``timeout``,
    ``connection error``, ``invalid JSON``, ``empty response``), never holding a secret.
    """

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class RequestRejected(ModelError):
    """The endpoint answered that the request itself is invalid (HTTP 400, 413 or 422).

    Typically the conversation outgrew the model's context window. Not transient: playing it
    again gives the same answer, so the conversation ends with ``model_error`` (a failure of the
    model under test, counted in the results, not played again on ``--resume``). ``kind`` is
    the status label (``HTTP 400 bad request``).
    """

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


@runtime_checkable
class ChatModel(Protocol):
    """An async chat model with tools. ``name`` is ``provider/model``."""

    name: str

    @property
    def backend(self) -> str:
        """The provider part of the name (``openai``, ``anthropic``, ``scripted`` …)."""
        ...

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """Return the next assistant message; raise ``ModelError`` when it cannot."""
        ...

    async def aclose(self) -> None:
        """Release connections and processes the model holds."""
        ...


class EndpointPool(Protocol):
    """Replicas of one OpenAI-compatible server; hands out the least busy base URL.

    ``acquire()`` is an async context manager yielding a base URL (``http://host:port/v1``);
    the pool counts the request as outstanding on that replica until the context exits.
    """

    def acquire(self) -> AbstractAsyncContextManager[str]:
        """Reserve the replica with the fewest outstanding requests."""
        ...
