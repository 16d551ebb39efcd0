"""Agent requests keep their prefix: captured at a real endpoint on 127.0.0.1, sent by the SDK.

A prefix cache (vLLM's, the APIs') hits only when a request starts with the same bytes as one
before it. A real ``tau-sim run`` (the openai SDK as client, LLM agent and LLM user) plays four
retail conversations one at a time against a local endpoint; every agent request body is read
as the server received it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import anyio
import msgspec
import pytest

from benchmarks.fake_openai_server import HTTPServer, plausible_handler
from tau_sim.simulator.core.registry import get_domain
from tests.helpers.cli import TAU_SIM

pytestmark = pytest.mark.anyio


async def agent_bodies(tmp_path: Path) -> list[bytes]:
    """The raw agent request bodies (those with tools) of a 4-conversation run, in order."""
    async with HTTPServer(plausible_handler(0.0, user_turns=3)) as server:
        url = server.url + "/v1"
        command = [
            *TAU_SIM,
            *("run", "--domain", "retail"),
            *("--tasks", "2", "--trials", "2", "--concurrency", "1", "--quiet"),
            *("--agent", "openai/m", "--user", "openai/m"),
            *("--agent-arg", f"base_url={url}", "--user-arg", f"base_url={url}"),
            *("--db", str(tmp_path / "runs.db")),
        ]
        done = await anyio.run_process(command, check=False)
        assert done.returncode == 0, done.stderr.decode()
        posts = [r.body for r in server.requests if r.method == "POST"]
    return [body for body in posts if json.loads(body).get("tools")]


def conversations(bodies: list[bytes]) -> list[list[bytes]]:
    """Split sequential agent bodies into conversations: one starts where the history shrinks."""
    out: list[list[bytes]] = []
    last = 0
    for body in bodies:
        length = len(json.loads(body)["messages"])
        if length <= last or not out:
            out.append([])
        out[-1].append(body)
        last = length
    return out


async def test_agent_requests_extend_their_prefix_and_share_policy_and_tools(
    tmp_path: Path,
) -> None:
    convs = conversations(await agent_bodies(tmp_path))
    assert len(convs) == 4 and all(len(c) >= 2 for c in convs)
    for conv in convs:
        for earlier, later in itertools.pairwise(conv):
            assert earlier.endswith(b"]}")  # the messages close the body
            # the next request is the one before with the new messages appended
            assert later.startswith(earlier[:-2] + b","), (earlier[-200:], later[-400:])

    first = json.loads(convs[0][0])
    system = first["messages"][0]
    assert system["role"] == "system" and "# Policy" in system["content"]
    end_of_policy = convs[0][0].index(msgspec.json.encode(system["content"])) + len(
        msgspec.json.encode(system["content"])
    )
    shared = convs[0][0][:end_of_policy]
    assert shared.index(b'"tools"') < shared.index(b'"messages"')  # the tools come first
    retail = get_domain("retail").toolkit.specs
    assert [t["function"]["name"] for t in first["tools"]] == [t.name for t in retail]
    for conv in convs:  # every request of the domain starts with the same policy and tools
        for body in conv:
            assert body.startswith(shared)
