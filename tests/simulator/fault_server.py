"""An OpenAI-compatible endpoint on 127.0.0.1 whose faults a test switches while it serves.

It runs ``benchmarks.fake_openai_server.HTTPServer`` on its own event loop in a thread, so the
real ``tau-sim`` command (a subprocess) talks to it over real sockets while the test flips
``mode`` between runs. ``GET /v1/models`` always answers (the preflight passes); chat
completions answer by mode:

- ``ok``: the benchmark's plausible agent (a tool call, then a text) and user;
- ``429`` / ``500``: an error status (``429-echo``: its message repeats the API key);
  ``invalid-json``: a body that is not JSON; ``empty``: ``{}``; ``no-choices``: a completion
  without choices; ``drop``: the connection is closed with nothing sent; ``slow``: the answer
  comes after 5 s; ``400-context``: HTTP 400, the conversation is too long for the context
  window (a rejected request: the model's limit, not the endpoint's fault);
- ``unknown-tool``: the model calls a tool the domain does not have; ``bad-tool-json``: the
  tool call's arguments are not JSON (both the agent model's own faults).

``fail_first`` makes the first N chat requests answer 429 whatever the mode.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from benchmarks.fake_openai_server import HTTPServer, Request, Response, completion, plausible

MODES = (
    "ok",
    "429",
    "429-echo",
    "500",
    "invalid-json",
    "empty",
    "no-choices",
    "drop",
    "slow",
    "400-context",
)
CONTEXT_MESSAGE = "This model's maximum context length is 8192 tokens; your messages have 9001"
AGENT_FAULTS = ("unknown-tool", "bad-tool-json")


def _error(status: int, message: str) -> Response:
    return Response.json({"error": {"message": message, "type": "error"}}, status=status)


def _tool_call(name: str, arguments: str) -> Response:
    call = {"id": "call_x", "type": "function", "function": {"name": name, "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return Response.json(completion(message, 9, 9))


class FaultServer:
    """The endpoint, started on ``with`` (``port`` 0 picks a free one); ``url`` ends in /v1."""

    def __init__(self, mode: str = "ok", port: int = 0) -> None:
        self.mode = mode
        self.fail_first = 0
        self.chat_requests = 0
        self.http = HTTPServer(self._handle, port=port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"{self.http.url}/v1"

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            return Response.json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
        self.chat_requests += 1
        if self.chat_requests <= self.fail_first:
            return _error(429, "rate limit reached")
        body: dict[str, Any] = request.json()
        mode = self.mode
        if mode == "429":
            return _error(429, "rate limit reached")
        if mode == "429-echo":  # a server that repeats the key it was sent
            key = request.headers.get("authorization", "").removeprefix("Bearer ")
            return _error(429, f"rate limit reached for key {key}")
        if mode == "500":
            return _error(500, "internal error")
        if mode == "400-context":
            return _error(400, CONTEXT_MESSAGE)
        if mode == "invalid-json":
            return Response(body=b"<html>502 bad gateway</html>", content_type="text/html")
        if mode == "empty":
            return Response(body=b"{}")
        if mode == "no-choices":
            return Response.json({"id": "x", "object": "chat.completion", "choices": []})
        if mode == "drop":
            return Response(drop=True)
        if mode == "slow":
            return Response(body=b"{}", delay=5.0)
        if mode == "unknown-tool" and body.get("tools"):
            return _tool_call("launch_rocket", '{"target": "moon"}')
        if mode == "bad-tool-json" and body.get("tools"):
            return _tool_call(body["tools"][0]["function"]["name"], '{"order_id": ')
        return Response.json(plausible(body, user_turns=3))

    def __enter__(self) -> FaultServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.http.start(), self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.http.close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
