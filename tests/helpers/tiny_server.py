"""A tiny OpenAI-compatible server for launcher tests (stdlib only).

Answers ``/health``, ``/v1/models`` and ``/v1/chat/completions``; the reply names the port, so a
test can tell replicas apart. Flags make it misbehave on purpose.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds per chat completion")
    parser.add_argument("--spawn-child", action="store_true", help="start a sleeping child")
    parser.add_argument("--ignore-term", action="store_true", help="ignore SIGTERM")
    parser.add_argument("--fail-start", action="store_true", help="exit 3 at once")
    parser.add_argument("--unhealthy", action="store_true", help="health answers 503")
    parser.add_argument("--echo-env", help="name an environment variable in every reply")
    args, _ = parser.parse_known_args()  # stands in for other servers: ignore their flags

    if args.fail_start:
        print("tiny_server: failing on purpose", flush=True)
        sys.exit(3)
    if args.ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.spawn_child:
        subprocess.Popen(["sleep", "600"])  # same process group; must be killed with us
    port = args.port
    reply = f"port {port}"
    if args.echo_env:
        reply += f" {args.echo_env}={os.environ.get(args.echo_env, '')}"

    class Handler(BaseHTTPRequestHandler):
        def _send(self, code: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/health":
                self._send(503 if args.unhealthy else 200, {"status": "ok"})
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": "tiny", "object": "model"}]})
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            self.rfile.read(length)
            if self.path != "/v1/chat/completions":
                self._send(404, {"error": "not found"})
                return
            time.sleep(args.delay)
            self._send(
                200,
                {
                    "id": "chatcmpl-tiny",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": "tiny",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
                },
            )

        def log_message(self, format: str, *a: Any) -> None:
            pass

    server = ThreadingHTTPServer((args.host, port), Handler)
    print(f"tiny_server: listening on {args.host}:{port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
