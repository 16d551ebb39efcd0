"""Small HTTP servers on 127.0.0.1 that the tests talk to, each a real socket.

- ``InThread``: any ``benchmarks.fake_openai_server.HTTPServer`` served from its own event loop
  in a thread, so the real ``tau-sim`` command (a subprocess) talks to it while the test runs
  synchronously; ``plausible_server`` is the benchmark's plausible agent and user served so.
- ``FaultServer``: an OpenAI-compatible endpoint whose faults a test switches while it serves
  (below).
- ``ScriptServer``: an async server that answers requests from a queue of ``Response``s (the
  OpenAI and Anthropic bodies of ``tests.helpers.wire``), for provider tests in the test's own
  event loop.
- ``BodyServers``: stdlib servers that answer every request with one fixed body, or hang.

``tests/helpers/tiny_server.py`` is a server of its own process, for the launcher tests.

``FaultServer`` runs on ``InThread``. ``GET /v1/models`` always answers (the preflight passes);
chat completions answer by ``mode``:

- ``ok``: the benchmark's plausible agent (a tool call, then a text) and user;
- ``429`` / ``500``: an error status (``429-echo``: its message repeats the API key);
  ``invalid-json``: a body that is not JSON; ``empty``: ``{}``; ``no-choices``: a completion
  without choices; ``drop``: the connection is closed with nothing sent; ``slow``: the answer
  comes after 5 s; ``trickle``: the headers at once, then the plausible answer's body in 20
  parts 0.3 s apart (6 s; SSE chunks when the request asks for a stream); ``400-context``:
  HTTP 400, the conversation is too long for the context window (a rejected request: the
  model's limit, not the endpoint's fault);
- ``unknown-tool``: the model calls a tool the domain does not have; ``bad-tool-json``: the
  tool call's arguments are not JSON (both the agent model's own faults);
- ``blank``: a well-formed completion whose message is empty (no text, no tool call), and
  ``loop``: the plausible user that never ends, writing its opening line forever (both the
  user model's own faults: an LLM user played on this endpoint fails, its endpoint does not).

``fail_first`` makes the first N chat requests answer 429 whatever the mode.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio

from benchmarks.fake_openai_server import (
    HTTPServer,
    Request,
    Response,
    completion,
    plausible,
    plausible_handler,
)
from tests.helpers.wire import oa_chunk

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
    "trickle",
    "400-context",
    "blank",
    "loop",
)
CONTEXT_MESSAGE = "This model's maximum context length is 8192 tokens; your messages have 9001"
AGENT_FAULTS = ("unknown-tool", "bad-tool-json")


def _error(status: int, message: str) -> Response:
    return Response.json({"error": {"message": message, "type": "error"}}, status=status)


def _tool_call(name: str, arguments: str) -> Response:
    call = {"id": "call_x", "type": "function", "function": {"name": name, "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return Response.json(completion(message, 9, 9))


def trickled(answer: dict[str, Any], stream: bool) -> Response:
    """``answer`` (a chat.completion) sent slowly: headers at once, then 20 parts 0.3 s apart;
    as SSE chunks (text in pieces, each tool call, then the usage) where ``stream``."""
    if not stream:
        return Response(body=json.dumps(answer).encode(), trickle=0.3, pieces=20)
    message, usage = answer["choices"][0]["message"], answer["usage"]
    text = message.get("content") or ""
    step = max(1, -(-len(text) // 16))
    chunks = [oa_chunk({"role": "assistant"})]
    chunks += [oa_chunk({"content": text[i : i + step]}) for i in range(0, len(text), step)]
    for index, call in enumerate(message.get("tool_calls") or []):
        chunks.append(oa_chunk({"tool_calls": [{"index": index, **call}]}))
    chunks.append(oa_chunk({}, usage=(usage["prompt_tokens"], usage["completion_tokens"])))
    return Response.sse(chunks, trickle=0.3, pieces=20)


class InThread:
    """``server`` served on its own event loop in a daemon thread while in ``with`` (started
    when entered, closed when left); ``with`` gives the ``HTTPServer``."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> HTTPServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self._loop).result(10)
        return self.server

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


@contextmanager
def plausible_server(latency: float = 0.0, user_turns: int = 3) -> Iterator[HTTPServer]:
    """An OpenAI-compatible server of the benchmark's plausible agent and user, in a thread."""
    with InThread(HTTPServer(plausible_handler(latency=latency, user_turns=user_turns))) as s:
        yield s


class FaultServer:
    """The endpoint, started on ``with`` (``port`` 0 picks a free one); ``url`` ends in /v1."""

    def __init__(self, mode: str = "ok", port: int = 0) -> None:
        self.mode = mode
        self.fail_first = 0
        self.chat_requests = 0
        self.http = HTTPServer(self._handle, port=port)
        self._host = InThread(self.http)

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
        if mode == "trickle":
            return trickled(plausible(body, user_turns=3), bool(body.get("stream")))
        if mode == "unknown-tool" and body.get("tools"):
            return _tool_call("launch_rocket", '{"target": "moon"}')
        if mode == "bad-tool-json" and body.get("tools"):
            return _tool_call(body["tools"][0]["function"]["name"], '{"order_id": ')
        if mode == "blank":
            return Response.json(completion({"role": "assistant", "content": ""}, 9, 0))
        if mode == "stalling-agent":  # the agent answers nothing; the user repeats its request
            if body.get("tools"):
                return Response.json(completion({"role": "assistant", "content": ""}, 9, 0))
            return Response.json(plausible(body, user_turns=10**9))
        if mode == "off-topic-agent":  # the agent chats about nothing the user asked
            if body.get("tools"):
                text = "Our stores are open from nine to five on weekdays."
                return Response.json(completion({"role": "assistant", "content": text}, 9, 12))
            return Response.json(plausible(body, user_turns=10**9))
        if mode == "loop":
            return Response.json(plausible(body, user_turns=10**9))
        return Response.json(plausible(body, user_turns=3))

    def __enter__(self) -> FaultServer:
        self._host.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._host.__exit__(*exc)


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


class _Body(http.server.BaseHTTPRequestHandler):
    """Answers every request with ``server.body``, or never (``server.body`` None: it sets
    ``server.asked`` and hangs)."""

    def _answer(self) -> None:
        body = self.server.body  # type: ignore[attr-defined]
        if body is None:
            self.server.asked.set()  # type: ignore[attr-defined]
            self.server.hung.wait(30)  # type: ignore[attr-defined]
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


class BodyServers:
    """Starts endpoints on 127.0.0.1 while in ``with``: ``servers(body)`` is the base URL (ending
    in /v1) of a new one answering every request with ``body``, or hanging where ``body`` is
    None; ``asked`` is set once a hanging one got a request. Leaving releases the hanging ones
    and shuts every one down."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self._servers: list[http.server.ThreadingHTTPServer] = []

    def __call__(self, body: bytes | None) -> str:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Body)
        server.body = body  # type: ignore[attr-defined]
        server.asked = self.asked  # type: ignore[attr-defined]
        server.hung = threading.Event()  # type: ignore[attr-defined]
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    def __enter__(self) -> BodyServers:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self._servers:
            server.hung.set()  # type: ignore[attr-defined]
            server.shutdown()
            server.server_close()
