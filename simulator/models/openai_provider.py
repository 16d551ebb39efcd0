"""``openai/MODEL``: OpenAI, or any OpenAI-compatible server (vLLM, SGLang, llama.cpp).

Requests go through the ``openai`` SDK's async client, its retries included. Non-streaming calls
POST a msgspec-encoded body and decode the raw answer with msgspec (``hosted.post_json``: why, and
the CPU measured). A request body holds the model, the tools, the sampling fields, then the
messages last: every request of a conversation starts with the bytes of the one before (less
its closing ``]}``), and conversations of one domain share the bytes up to the end of the system
policy, so servers' prefix caches hit. ``stream=true`` uses the SDK's streaming API
(``chat.completions.with_raw_response.create``) and assembles the deltas, tool-call deltas
included; a stream cut off after its headers (its attempt's ``timeout`` ran out, the connection
dropped) is played again up to ``max_retries``, as the SDK retries what fails before them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import msgspec

from tau_sim.simulator.core.chat import (
    ChatMessage,
    ChatResponse,
    EndpointError,
    ModelError,
    ToolCallSpec,
    ToolSpec,
)
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.core.toolargs import dump_arguments, parse_arguments
from tau_sim.simulator.models.hosted import (
    HostedChatModel,
    HostedOptions,
    HostedProvider,
    Reply,
    empty_body,
    post_json,
    retry_delay,
    split_connection_args,
)
from tau_sim.simulator.models.reasoning import join_reasoning, split_think

if TYPE_CHECKING:
    from openai import AsyncOpenAI

    from tau_sim.simulator.core.chat import EndpointPool


DEFAULT_BASE_URL = "https://api.openai.com/v1"
_REASONING_MODELS = re.compile(r"^(o\d|gpt-5)")
"""OpenAI's reasoning models: they take ``max_completion_tokens``, not ``max_tokens``."""


def takes_max_completion_tokens(model: str, base_url: str | None) -> bool:
    """Whether ``model`` on ``base_url`` is an OpenAI reasoning model (o1, o3, o4-mini, gpt-5…)."""
    return base_url == DEFAULT_BASE_URL and bool(_REASONING_MODELS.match(model))


class OpenAIOptions(HostedOptions, frozen=True, kw_only=True):
    """Options of an OpenAI-compatible model (``--agent-arg key=value`` or a run file).

    Attributes:
        seed: sampling seed, where the server supports one.
        reasoning_effort: ``low``/``medium``/``high`` for reasoning models.
        tool_choice: ``auto``, ``required`` or ``none``.
        parallel_tool_calls: whether the model may call several tools at once.
        stream: use the streaming API and assemble the deltas.
        stream_usage: ask for token usage in the stream (``stream_options``).
    """

    api_key_env: str = "OPENAI_API_KEY"
    seed: int | None = None
    reasoning_effort: str | None = None
    tool_choice: str | None = None
    parallel_tool_calls: bool | None = None
    stream: bool = False
    stream_usage: bool = True

    def request_fields(self) -> Mapping[str, Any]:
        """The chat-completions fields these options set (None: left out)."""
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "stop": self.stop,
            "reasoning_effort": self.reasoning_effort,
            "tool_choice": self.tool_choice,
            "parallel_tool_calls": self.parallel_tool_calls,
        }


# the wire format of a chat completion, decoded leniently (unknown fields ignored) -------------


class _Function(msgspec.Struct):
    name: str | None = None
    arguments: str | dict[str, Any] | None = None


class _ToolCall(msgspec.Struct):
    id: str | None = None
    function: _Function = msgspec.field(default_factory=_Function)


class _Message(msgspec.Struct):
    content: str | None = None
    reasoning_content: str | None = None
    reasoning: str | None = None
    tool_calls: list[_ToolCall] | None = None


class _Choice(msgspec.Struct):
    message: _Message
    finish_reason: str | None = None


class _PromptDetails(msgspec.Struct):
    cached_tokens: int | None = None


class _Usage(msgspec.Struct):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    prompt_tokens_details: _PromptDetails | None = None

    @property
    def cached(self) -> int:
        """Prompt tokens read from the cache (``prompt_tokens_details.cached_tokens``)."""
        details = self.prompt_tokens_details
        return (details.cached_tokens or 0) if details is not None else 0


class _Completion(msgspec.Struct):
    choices: list[_Choice]
    usage: _Usage | None = None


_completion = msgspec.json.Decoder(_Completion)


def to_openai_messages(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Our messages in the chat-completions format; reasoning is never sent back."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            # "" rather than null: llama.cpp's server rejects a null content next to tool calls
            item: dict[str, Any] = {"role": "assistant", "content": m.content or ""}
            if m.tool_calls:
                item["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": dump_arguments(c.arguments)},
                    }
                    for c in m.tool_calls
                ]
            out.append(item)
        elif m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content or ""})
        else:
            out.append({"role": m.role, "content": m.content or ""})
    return out


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs in the chat-completions ``tools`` format."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


def assistant_message(
    content: str | None,
    reasoning_field: str | None,
    calls: Sequence[tuple[str | None, str | None, str | dict[str, Any] | None]],
) -> ChatMessage:
    """Our assistant message from the wire parts: inline ``<think>`` moves into reasoning."""
    text, inline = split_think(content)
    tool_calls = [
        ToolCallSpec(id=cid or f"call_{i}", name=name or "", arguments=parse_arguments(args))
        for i, (cid, name, args) in enumerate(calls)
    ]
    return ChatMessage(
        role="assistant",
        content=text,
        tool_calls=tool_calls,
        reasoning=join_reasoning(reasoning_field, inline),
    )


class OpenAIChatModel(HostedChatModel):
    """A chat model behind an OpenAI-compatible endpoint, or a pool of replicas of one.

    Args:
        name: the full model name (``openai/gpt-4.1``, ``vllm/Qwen/Qwen3-8B``); its provider
            part is the ``backend``.
        model: the model id sent to the server.
        base_url: the endpoint (``http://host:port/v1``); else ``$OPENAI_BASE_URL``, else
            OpenAI's API.
        pool: replicas to balance over; each request runs inside ``pool.acquire()``, with one
            client per replica URL. Takes the place of ``base_url``.
        api_key: the key; else ``$OPENAI_API_KEY`` (or ``$<api_key_env>``). Required for
            OpenAI's API; other endpoints get ``EMPTY`` when none is set.
        **options: ``OpenAIOptions`` fields; strings are converted (``"0.5"`` → 0.5).

    Raises:
        UsageError: unknown or ill-typed options, or no API key for OpenAI's API.
    """

    package = "openai"
    client_class = "AsyncOpenAI"
    options_type = OpenAIOptions
    default_base_url = DEFAULT_BASE_URL
    base_url_env = "OPENAI_BASE_URL"
    wire_tools = staticmethod(to_openai_tools)
    options: OpenAIOptions

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
        sampling = self._sampling
        if "max_tokens" in sampling and takes_max_completion_tokens(model, self.base_url):
            sampling["max_completion_tokens"] = sampling.pop("max_tokens")

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """The next assistant message; ``ModelError`` once the SDK's retries are exhausted."""
        body: dict[str, Any] = {"model": self.model}
        if tools:
            body["tools"] = self._tools(tools)
        if response_format is not None and self.options.json_mode:
            if not self.options.json_schema:
                response_format = {k: v for k, v in response_format.items() if k != "schema"}
            body["response_format"] = response_format
        body.update(self._sampling)
        body["messages"] = to_openai_messages(messages)  # last: the part that grows

        async def send(client: AsyncOpenAI) -> Reply:
            if self.options.stream:
                return await self._stream(client, body)
            return await self._complete(client, body)

        return await self._call(send)

    async def _complete(self, client: AsyncOpenAI, body: dict[str, Any]) -> Reply:
        content, retries = await post_json(client, "/chat/completions", body)
        if empty_body(content):
            raise EndpointError("malformed response: empty body", kind="empty response")
        completion = _completion.decode(content)
        if not completion.choices:
            raise EndpointError("malformed response: no choices", kind="empty response")
        wire = completion.choices[0].message
        usage = completion.usage or _Usage()
        calls = [(c.id, c.function.name, c.function.arguments) for c in wire.tool_calls or []]
        message = assistant_message(wire.content, wire.reasoning_content or wire.reasoning, calls)
        return Reply(message, usage.prompt_tokens, usage.completion_tokens, retries, usage.cached)

    async def _stream(self, client: AsyncOpenAI, body: dict[str, Any]) -> Reply:
        """Stream the answer; a stream that times out or breaks midway is played again.

        The SDK retries a stream until its headers come; what fails after them (the attempt's
        ``timeout`` running out, a dropped connection) is retried here, up to ``max_retries``
        in all, with the SDK's backoff.
        """
        request = dict(body, stream=True)
        if self.options.stream_usage:
            request["stream_options"] = {"include_usage": True}
        extra = {k: request.pop(k) for k in self.options.extra_body or () if k in request}
        if extra:
            request["extra_body"] = extra
        sdk = self.sdk
        before = 0  # attempts played before this call of the SDK
        while True:
            left = self.options.max_retries - before
            attempt = client if before == 0 else client.with_options(max_retries=left)
            raw: Any = None
            try:
                raw = await attempt.chat.completions.with_raw_response.create(**request)
                reply = await self._assemble(raw.parse())
            except ModelError:
                raise
            except Exception as exc:
                taken = before + (0 if raw is None else raw.retries_taken)
                cut = raw is not None and isinstance(exc, sdk.APIConnectionError)  # timeouts too
                if not cut or taken >= self.options.max_retries:
                    raise self._error(exc, earlier=before) from None
                await anyio.sleep(retry_delay(taken))
                before = taken + 1
                continue
            return msgspec.structs.replace(reply, retries=before + raw.retries_taken)

    async def _assemble(self, stream: Any) -> Reply:
        """The reply of a stream of chunks: text, reasoning and tool-call deltas joined."""
        content: list[str] = []
        reasoning: list[str] = []
        calls: dict[int, list[Any]] = {}  # index -> [id, name, argument parts]
        tokens_in = tokens_out = cached = 0
        async with stream:
            async for chunk in stream:
                if chunk.usage is not None:
                    tokens_in = chunk.usage.prompt_tokens
                    tokens_out = chunk.usage.completion_tokens
                    details = getattr(chunk.usage, "prompt_tokens_details", None)
                    cached = getattr(details, "cached_tokens", None) or 0
                for choice in chunk.choices[:1]:
                    delta = choice.delta
                    if delta.content:
                        content.append(delta.content)
                    thought = getattr(delta, "reasoning_content", None) or getattr(
                        delta, "reasoning", None
                    )
                    if isinstance(thought, str):
                        reasoning.append(thought)
                    for tc in delta.tool_calls or []:
                        slot = calls.setdefault(tc.index, [None, None, []])
                        if tc.id:
                            slot[0] = tc.id
                        if tc.function is not None:
                            if tc.function.name:
                                slot[1] = (slot[1] or "") + tc.function.name
                            if tc.function.arguments:
                                slot[2].append(tc.function.arguments)
        parts = [(c[0], c[1], "".join(c[2])) for _, c in sorted(calls.items())]
        message = assistant_message("".join(content) or None, "".join(reasoning) or None, parts)
        return Reply(message, tokens_in, tokens_out, 0, cached)


@MODELS.register("openai")
def make_openai_provider(model: str, args: dict[str, Any]) -> HostedProvider:
    """The provider of ``openai/MODEL``: options checked and API key found before the run."""
    options, base_url, api_key = split_connection_args("openai", model, args)
    chat_model = OpenAIChatModel(
        f"openai/{model}", model, base_url=base_url, api_key=api_key, **options
    )
    return HostedProvider(chat_model)
