"""A tiny OpenAI-compatible HTTP endpoint on asyncio streams, for benchmarks and tests.

It speaks just enough HTTP/1.1 (keep-alive, Content-Length bodies) to serve the ``openai`` and
``anthropic`` SDKs; a ``Response`` with ``trickle`` sends its headers at once and its body in
``pieces`` parts that far apart (a slow stream, or a slow non-streamed body). ``HTTPServer`` runs
any async handler (tests script it per request); the ``plausible`` handler answers chat completions
after a fixed latency: an agent request (one with tools) gets a tool call, then a text once the tool
result is in; a user request (no tools) gets the JSON the LLM user reports, ending with STOP after
``user_turns`` turns.

    python benchmarks/fake_openai_server.py --latency 1.0 --port 8765

prints ``READY <port>`` once it listens. A request for the model ``latency-0.2`` is answered after
0.2 s whatever ``--latency`` says. One asyncio loop serves thousands of connections.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    408: "Request Timeout",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
    529: "Overloaded",
}


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    delay: float = 0.0
    drop: bool = False  # close the connection without answering
    trickle: float = 0.0  # headers at once, then the body in ``pieces`` parts this far apart
    pieces: int = 20

    @classmethod
    def json(cls, obj: Any, status: int = 200, **kw: Any) -> Response:
        return cls(status=status, body=json.dumps(obj).encode(), **kw)

    @classmethod
    def sse(cls, events: list[Any], done: bool = True, **kw: Any) -> Response:
        lines = [f"data: {json.dumps(e)}\n\n" for e in events]
        if done:
            lines.append("data: [DONE]\n\n")
        return cls(body="".join(lines).encode(), content_type="text/event-stream", **kw)


Handler = Callable[[Request], Awaitable[Response]]


class HTTPServer:
    """Serve ``handler`` on 127.0.0.1; use as ``async with HTTPServer(h) as srv: srv.url``.

    Every request is kept in ``requests`` for tests to inspect, unless ``keep_requests`` is
    False (the benchmark's long-lived endpoint, which would otherwise grow by each body).
    """

    def __init__(
        self,
        handler: Handler,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        keep_requests: bool = True,
    ) -> None:
        self.handler = handler
        self.host = host
        self.port = port
        self.keep_requests = keep_requests
        self.requests: list[Request] = []
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._serve, self.host, self.port, backlog=4096, limit=1 << 22
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def __aenter__(self) -> HTTPServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        key, value = line.split(":", 1)
                        headers[key.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
                body = await reader.readexactly(length) if length else b""
                request = Request(method, path, headers, body)
                if self.keep_requests:
                    self.requests.append(request)
                response = await self.handler(request)
                if response.delay:
                    await asyncio.sleep(response.delay)
                if response.drop:
                    return
                extra = "".join(f"{k}: {v}\r\n" for k, v in response.headers.items())
                head_bytes = (
                    f"HTTP/1.1 {response.status} {_REASONS.get(response.status, 'Status')}\r\n"
                    f"content-type: {response.content_type}\r\n"
                    f"content-length: {len(response.body)}\r\n{extra}\r\n"
                ).encode()
                if response.trickle:
                    await _trickle(writer, head_bytes, response)
                    continue
                writer.write(head_bytes + response.body)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            self._writers.discard(writer)
            writer.close()


async def _trickle(writer: asyncio.StreamWriter, head: bytes, response: Response) -> None:
    """Send ``head`` at once, then the body in ``response.pieces`` parts ``trickle`` s apart."""
    writer.write(head)
    await writer.drain()
    body, pieces = response.body, max(1, response.pieces)
    size = -(-len(body) // pieces)
    for start in range(0, len(body), size):
        await asyncio.sleep(response.trickle)
        writer.write(body[start : start + size])
        await writer.drain()


# ---- the plausible completion handler used by the benchmark ---------------------------------

_ids = itertools.count()


def completion(
    message: dict[str, Any], prompt_tokens: int, completion_tokens: int
) -> dict[str, Any]:
    """An OpenAI chat.completion object around one assistant message."""
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _example_args(schema: dict[str, Any]) -> dict[str, Any]:
    values = {"string": "A1", "integer": 1, "number": 1.0, "boolean": True}
    props = schema.get("properties", {})
    return {k: values.get(props[k].get("type", "string"), "A1") for k in schema.get("required", [])}


def plausible(body: dict[str, Any], user_turns: int) -> dict[str, Any]:
    """The next message of a scripted agent or user, decided from the request alone."""
    messages = body.get("messages", [])
    prompt_tokens = sum(len(str(m.get("content") or "")) // 4 + 4 for m in messages)
    if body.get("tools"):
        if messages and messages[-1].get("role") == "tool":
            text = "I have checked your account and it is all sorted. Anything else I can do?"
            return completion({"role": "assistant", "content": text}, prompt_tokens, 18)
        fn = body["tools"][0]["function"]
        call = {
            "id": f"call_{next(_ids)}",
            "type": "function",
            "function": {
                "name": fn["name"],
                "arguments": json.dumps(_example_args(fn["parameters"])),
            },
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return completion(message, prompt_tokens, 24)
    turns = sum(1 for m in messages if m.get("role") == "assistant")
    last = turns + 1 >= user_turns
    reply = {
        "message": "Thanks, that is all I needed." if last else "Hi, I need help with my order A1.",
        "intensity": 0.4,
        "dissatisfaction": 0.1,
        "ends": "STOP" if last else None,
        "reason": None,
    }
    return completion({"role": "assistant", "content": json.dumps(reply)}, prompt_tokens, 40)


def plausible_handler(latency: float, user_turns: int) -> Handler:
    """A handler answering chat completions after ``latency`` seconds, and ``GET /v1/models``."""

    async def handle(request: Request) -> Response:
        if request.method == "GET" and request.path.endswith("/models"):
            return Response.json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
        if not request.path.endswith("/chat/completions"):
            return Response.json({"error": {"message": "not found"}}, status=404)
        body = request.json()
        model = str(body.get("model", ""))
        # a model named "latency-0.2" asks for its own latency, so one server serves all runs
        delay = float(model[8:]) if model.startswith("latency-") else latency
        reply = plausible(body, user_turns)
        return Response(body=json.dumps(reply).encode(), delay=delay)

    return handle


async def _main(args: argparse.Namespace) -> None:
    server = HTTPServer(
        plausible_handler(args.latency, args.user_turns),
        args.host,
        args.port,
        keep_requests=False,
    )
    await server.start()
    print(f"READY {server.port}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0, help="seconds before each answer")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--user-turns", type=int, default=3, help="user turns per conversation")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(args))
    sys.exit(0)


if __name__ == "__main__":
    main()
