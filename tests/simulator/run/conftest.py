"""Fixtures of the runner's tests: one fake OpenAI-compatible endpoint per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.servers import FaultServer


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    """A fake endpoint on 127.0.0.1 for the module's tests."""
    with FaultServer() as srv:
        yield srv


@pytest.fixture
def endpoint(server: FaultServer) -> Iterator[FaultServer]:
    """The module's endpoint, healthy at the start of each test and again after it."""
    server.mode, server.fail_first, server.chat_requests = "ok", 0, 0
    yield server
    server.mode, server.fail_first = "ok", 0
