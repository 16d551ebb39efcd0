"""Servers on 127.0.0.1 that speak the OpenAI and Anthropic wire formats, scripted per request."""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

import anyio

from benchmarks.fake_openai_server import HTTPServer, Request, Response, completion

_ids = itertools.count()


class ScriptServer:
    """Answers requests from a queue of ``Response``s (the last one repeats); counts in-flight."""

    def __init__(self) -> None:
        self.script: deque[Response] = deque()
        self.http = HTTPServer(self._handle)
        self.inflight = 0
        self.max_inflight = 0
        self.hold = 0.0  # seconds every chat request is held (to observe concurrency)

    @property
    def url(self) -> str:
        return self.http.url

    @property
    def requests(self) -> list[Request]:
        return [r for r in self.http.requests if r.method == "POST"]

    def bodies(self) -> list[Any]:
        return [r.json() for r in self.requests]

    def then(self, *responses: Response) -> ScriptServer:
        self.script.extend(responses)
        return self

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            if request.headers.get("authorization") == "Bearer bad-key" or (
                request.headers.get("x-api-key") == "bad-key"
            ):
                return Response.json({"error": {"message": "invalid key"}}, status=401)
            return Response.json({"object": "list", "data": [], "has_more": False})
        self.inflight += 1
        self.max_inflight = max(self.max_inflight, self.inflight)
        try:
            if self.hold:
                await anyio.sleep(self.hold)
            return self.script.popleft() if len(self.script) > 1 else self.script[0]
        finally:
            self.inflight -= 1

    async def __aenter__(self) -> ScriptServer:
        await self.http.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.close()


# OpenAI chat completions -----------------------------------------------------------------------


def oa_message(
    content: str | None = None,
    *,
    tool_calls: list[tuple[str, str]] | None = None,
    reasoning_content: str | None = None,
    usage: tuple[int, int] = (11, 7),
) -> Response:
    """A chat.completion with one assistant message; tool_calls are (name, raw arguments)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    if tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{next(_ids)}",
                "type": "function",
                "function": {"name": name, "arguments": args},
            }
            for name, args in tool_calls
        ]
    return Response.json(completion(message, *usage))


def oa_error(status: int, message: str = "boom", **headers: str) -> Response:
    """An OpenAI error body with ``status`` (headers: retry_after="1" -> Retry-After: 1)."""
    return Response.json(
        {"error": {"message": message, "type": "server_error", "code": None}},
        status=status,
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


def oa_chunk(delta: dict[str, Any], usage: tuple[int, int] | None = None) -> dict[str, Any]:
    """One chat.completion.chunk (an empty delta list when only usage is sent)."""
    chunk: dict[str, Any] = {
        "id": "chatcmpl-s",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}] if delta else [],
    }
    if usage is not None:
        chunk["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": sum(usage),
        }
    return chunk


# Anthropic messages ----------------------------------------------------------------------------


def an_message(blocks: list[dict[str, Any]], usage: tuple[int, int] = (20, 9)) -> Response:
    """A Messages API response with these content blocks."""
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return Response.json(
        {
            "id": f"msg_{next(_ids)}",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
        }
    )


def an_error(status: int, kind: str = "api_error", **headers: str) -> Response:
    """An Anthropic error body."""
    return Response.json(
        {"type": "error", "error": {"type": kind, "message": "boom"}},
        status=status,
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )
