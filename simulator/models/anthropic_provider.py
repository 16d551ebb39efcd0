"""``anthropic/MODEL``: Claude through the ``anthropic`` SDK's async client (Messages API).

Our messages map onto Anthropic's without loss: system messages become the ``system`` prompt;
tool calls become ``tool_use`` blocks; consecutive tool results (and a user text after them) are
merged into one user message of ``tool_result`` blocks; ``thinking`` blocks come back as
reasoning. With extended thinking on, the API wants the signed thinking blocks of a tool-using
turn back during the tool loop: the model keeps them by tool-call id and re-attaches them, while
``ChatMessage.reasoning`` keeps only the readable text, never sent to anyone.

Requests go through the ``anthropic`` SDK's async client, its retries included: a msgspec-encoded
body is POSTed to ``/v1/messages`` and the raw answer decoded with msgspec (``hosted.post_json``).
The body holds the tools, the system prompt, then the messages last (the order of Anthropic's
cache prefix), so each request of a conversation starts with the bytes of the one before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.core.chat import (
    ChatMessage,
    ChatResponse,
    EndpointError,
    ToolCallSpec,
    ToolSpec,
)
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.core.toolargs import parse_arguments
from tau_sim.simulator.models.hosted import (
    HostedChatModel,
    HostedOptions,
    HostedProvider,
    Reply,
    empty_body,
    post_json,
    split_connection_args,
)
from tau_sim.simulator.models.reasoning import join_reasoning

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

    from tau_sim.simulator.core.chat import EndpointPool

DEFAULT_BASE_URL = "https://api.anthropic.com"
_KEEP_THINKING = 4096  # tool-using turns whose signed thinking blocks are remembered
_START = "(The conversation starts.)"


class AnthropicOptions(HostedOptions, frozen=True, kw_only=True):
    """Options of an Anthropic model (``--agent-arg key=value`` or a run file).

    Attributes:
        max_tokens: the most tokens one answer may have (the API requires a value).
        top_k: sample from the k most likely tokens.
        thinking_budget: turn extended thinking on with this many tokens (at least 1024).
        tool_choice: ``auto``, ``any`` or ``none``.
        cache_prompt: mark the end of the system prompt as a cache breakpoint
            (``cache_control``), so the tools and the policy are read from Anthropic's prompt
            cache by every later request (cache writes cost more than plain input tokens).
        json_mode: no effect (the Messages API has no JSON mode; callers fall back to
            instructions and a lenient parser).
    """

    api_key_env: str = "ANTHROPIC_API_KEY"
    max_tokens: int | None = 4096
    top_k: int | None = None
    thinking_budget: int | None = None
    tool_choice: str | None = None
    cache_prompt: bool = False

    def request_fields(self) -> Mapping[str, Any]:
        """The Messages API fields these options set (None: left out)."""
        return {
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "top_k": self.top_k,
            "stop_sequences": self.stop,
            "tool_choice": {"type": self.tool_choice} if self.tool_choice else None,
            "thinking": (
                {"type": "enabled", "budget_tokens": self.thinking_budget}
                if self.thinking_budget
                else None
            ),
        }


class _Block(msgspec.Struct):
    type: str
    text: str | None = None
    thinking: str | None = None
    signature: str | None = None
    data: str | None = None
    id: str | None = None
    name: str | None = None
    input: Any = None


class _Usage(msgspec.Struct):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int | None = None
    cache_read_input_tokens: int | None = None


class _Message(msgspec.Struct):
    content: list[_Block]
    usage: _Usage = msgspec.field(default_factory=_Usage)
    stop_reason: str | None = None


_message = msgspec.json.Decoder(_Message)


def to_anthropic(
    messages: list[ChatMessage], thinking: dict[str, list[dict[str, Any]]] | None = None
) -> tuple[str | None, list[dict[str, Any]]]:
    """(system prompt, messages) in the Messages API format.

    Same-role neighbours are merged (tool results and the user's text share one user message);
    the first message is a user message, as the API requires. ``thinking`` maps a tool-call id to
    the signed thinking blocks of the turn that made it.
    """
    system: list[str] = []
    out: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})

    for m in messages:
        if m.role == "system":
            if m.content:
                system.append(m.content)
        elif m.role == "user":
            add("user", [{"type": "text", "text": m.content or "…"}])
        elif m.role == "tool":
            text = m.content or ""
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": m.tool_call_id,
                "content": text,
            }
            if text.startswith("Error:"):
                block["is_error"] = True
            add("user", [block])
        else:
            blocks: list[dict[str, Any]] = []
            if thinking and m.tool_calls:
                blocks += thinking.get(m.tool_calls[0].id, [])
            if m.content:
                blocks.append({"type": "text", "text": m.content})
            blocks += [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                for c in m.tool_calls
            ]
            add("assistant", blocks or [{"type": "text", "text": "…"}])
    if out and out[0]["role"] != "user":
        out.insert(0, {"role": "user", "content": [{"type": "text", "text": _START}]})
    return ("\n\n".join(system) or None), out


def to_anthropic_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs in the Messages API ``tools`` format."""
    return [
        {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
    ]


def from_anthropic(blocks: list[_Block]) -> tuple[ChatMessage, list[dict[str, Any]]]:
    """Our assistant message from content blocks, and the signed thinking blocks to keep."""
    texts: list[str] = []
    thoughts: list[str] = []
    signed: list[dict[str, Any]] = []
    calls: list[ToolCallSpec] = []
    for b in blocks:
        if b.type == "text" and b.text:
            texts.append(b.text)
        elif b.type == "thinking":
            thoughts.append(b.thinking or "")
            signed.append({"type": "thinking", "thinking": b.thinking, "signature": b.signature})
        elif b.type == "redacted_thinking":
            signed.append({"type": "redacted_thinking", "data": b.data})
        elif b.type == "tool_use":
            args = b.input if isinstance(b.input, dict) else parse_arguments(_text(b.input))
            calls.append(
                ToolCallSpec(id=b.id or f"toolu_{len(calls)}", name=b.name or "", arguments=args)
            )
    message = ChatMessage(
        role="assistant",
        content="\n".join(texts) or None,
        tool_calls=calls,
        reasoning=join_reasoning(*thoughts),
    )
    return message, signed


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return msgspec.json.encode(value).decode()


class AnthropicChatModel(HostedChatModel):
    """A Claude model behind the Messages API (or a compatible endpoint via ``base_url``).

    Args:
        name: the full model name (``anthropic/claude-sonnet-4-5``).
        model: the model id sent to the API.
        base_url: the endpoint; else ``$ANTHROPIC_BASE_URL``, else Anthropic's API.
        pool: replicas to balance over instead of one base URL.
        api_key: the key; else ``$ANTHROPIC_API_KEY`` (or ``$<api_key_env>``).
        **options: ``AnthropicOptions`` fields; strings are converted.
    """

    package = "anthropic"
    client_class = "AsyncAnthropic"
    options_type = AnthropicOptions
    default_base_url = DEFAULT_BASE_URL
    base_url_env = "ANTHROPIC_BASE_URL"
    default_connections = 32
    wire_tools = staticmethod(to_anthropic_tools)
    options: AnthropicOptions

    def __init__(
        self,
        name: str,
        model: str,
        *,
        base_url: str | None = None,
        pool: EndpointPool | None = None,
        api_key: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(name, model, base_url=base_url, pool=pool, api_key=api_key, **options)
        self._thinking: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """The next assistant message; ``ModelError`` once the SDK's retries are exhausted.

        ``response_format`` is ignored: the Messages API has no JSON mode.
        """
        system, wire = to_anthropic(
            messages, self._thinking if self.options.thinking_budget else None
        )
        # tools, system, then the growing messages: the order of Anthropic's cache prefix
        body: dict[str, Any] = {"model": self.model, **self._sampling}
        if tools:
            body["tools"] = self._tools(tools)
        if system:
            body["system"] = (
                [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]
                if self.options.cache_prompt
                else system
            )
        body["messages"] = wire

        async def send(client: AsyncAnthropic) -> Reply:
            content, retries = await post_json(client, "/v1/messages", body)
            if empty_body(content):
                raise EndpointError("malformed response: empty body", kind="empty response")
            decoded = _message.decode(content)
            if not decoded.content and decoded.stop_reason is None:
                raise EndpointError("malformed response: no content", kind="empty response")
            message, signed = from_anthropic(decoded.content)
            if signed and message.tool_calls:
                self._remember(message.tool_calls[0].id, signed)
            u = decoded.usage
            tokens_in = (
                u.input_tokens
                + (u.cache_creation_input_tokens or 0)
                + (u.cache_read_input_tokens or 0)
            )
            cached = u.cache_read_input_tokens or 0
            return Reply(message, tokens_in, u.output_tokens, retries, cached)

        return await self._call(send)

    def _remember(self, call_id: str, blocks: list[dict[str, Any]]) -> None:
        self._thinking[call_id] = blocks
        while len(self._thinking) > _KEEP_THINKING:
            self._thinking.popitem(last=False)


@MODELS.register("anthropic")
def make_anthropic_provider(model: str, args: dict[str, Any]) -> HostedProvider:
    """The provider of ``anthropic/MODEL``: options checked and API key found before the run."""
    options, base_url, api_key = split_connection_args("anthropic", model, args)
    chat_model = AnthropicChatModel(
        f"anthropic/{model}", model, base_url=base_url, api_key=api_key, **options
    )
    return HostedProvider(chat_model)
