"""An OpenAI-compatible endpoint on 127.0.0.1 that is the simulated user and a judge at once.

Requests of tau-sim's judge (``simulator.engine.judging.SYSTEM``) and of τ²-bench's own NL-assertion
judge (their prompt asks for ``metExpectation``) get a verdict per assertion by one rule: an
assertion is met unless it contains one of ``unmet``. Each gets it in its own answer format, so
both judges hear the same verdicts. ``judge_mode`` ``500`` fails judge requests, ``garbage``
answers them with prose, ``empty`` with an empty message. Every other request is
``FaultServer``'s (the plausible user).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from benchmarks.fake_openai_server import Request, Response, completion
from tau_sim.simulator.engine.judging import SYSTEM
from tests.helpers.servers import FaultServer

_STATEMENT = re.compile(r"^(\d+)\. (.*)$", re.M)


class JudgeServer(FaultServer):
    """``FaultServer`` plus the judge; ``judge_requests`` counts ours, ``their_requests`` theirs."""

    def __init__(self, unmet: tuple[str, ...] = (), judge_mode: str = "ok") -> None:
        super().__init__()
        self.unmet = unmet
        self.judge_mode = judge_mode
        self.judge_requests = 0
        self.their_requests = 0

    def _met(self, assertion: str) -> bool:
        return not any(word in assertion for word in self.unmet)

    async def _handle(self, request: Request) -> Response:
        body: Any = request.json() if request.method == "POST" else None
        messages = body.get("messages", []) if isinstance(body, dict) else []
        system = str(messages[0].get("content") or "") if messages else ""
        if system == SYSTEM:
            self.judge_requests += 1
            if self.judge_mode == "500":
                return Response.json({"error": {"message": "judge down"}}, status=500)
            if self.judge_mode == "garbage":
                return _answer("I think the agent did well overall.")
            if self.judge_mode == "empty":
                return _answer("")
            text = str(messages[1]["content"])
            statements = _STATEMENT.findall(text.split("\nStatements:\n", 1)[1])
            verdicts = [
                {"index": int(i), "met": self._met(s), "reason": f"rule on statement {i}"}
                for i, s in statements
            ]
            return _answer(json.dumps({"verdicts": verdicts}))
        if "metExpectation" in system:
            self.their_requests += 1
            text = str(messages[1]["content"])
            listed = text.split("expectedOutcomes:", 1)[1].strip()
            results = [
                {"expectedOutcome": a, "reasoning": "rule", "metExpectation": self._met(a)}
                for a in ast.literal_eval(listed)
            ]
            return _answer(json.dumps({"results": results}))
        return await super()._handle(request)


def _answer(content: str) -> Response:
    return Response.json(completion({"role": "assistant", "content": content}, 50, 20))
