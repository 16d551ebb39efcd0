from collections.abc import AsyncIterator

import pytest

from tests.helpers.servers import ScriptServer


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def server() -> AsyncIterator[ScriptServer]:
    async with ScriptServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def _no_provider_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
