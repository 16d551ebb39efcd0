"""Responses in the OpenAI and Anthropic wire formats, for ``servers.ScriptServer`` to send."""

from __future__ import annotations

import itertools
from typing import Any

from benchmarks.fake_openai_server import Response, completion

_ids = itertools.count()


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
