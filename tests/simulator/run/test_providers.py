"""Providers as async context managers: entered in order in the run's task, left in reverse."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import AGENTS
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Runner, open_providers
from tau_sim.simulator.store import Store
from tests.simulator.toy import StepProvider, install

pytestmark = pytest.mark.anyio


class Recording:
    """Appends ``enter NAME`` / ``exit NAME`` to a shared log; may fail on either."""

    def __init__(self, name: str, log: list[str], fail_enter: bool = False, fail_exit=False):
        self.name, self.log, self.fail_enter, self.fail_exit = name, log, fail_enter, fail_exit

    async def __aenter__(self) -> Recording:
        if self.fail_enter:
            raise UsageError(f"{self.name} cannot start")
        self.log.append(f"enter {self.name}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.log.append(f"exit {self.name}")
        if self.fail_exit:
            raise RuntimeError(f"{self.name} failed to close")


async def test_entered_in_order_and_left_in_reverse() -> None:
    log: list[str] = []
    async with open_providers([Recording(n, log) for n in "abc"]):
        log.append("play")
    assert log == ["enter a", "enter b", "enter c", "play", "exit c", "exit b", "exit a"]


async def test_a_failed_start_leaves_the_started_ones_and_propagates() -> None:
    log: list[str] = []
    providers = [Recording("a", log), Recording("b", log, fail_enter=True), Recording("c", log)]
    with pytest.raises(UsageError, match="b cannot start"):
        async with open_providers(providers):
            log.append("play")
    assert log == ["enter a", "exit a"]


async def test_a_failed_close_hides_neither_the_others_nor_the_outcome() -> None:
    log: list[str] = []
    providers = [Recording("a", log), Recording("b", log, fail_exit=True)]
    with pytest.raises(KeyError, match="the run's own error"):
        async with open_providers(providers):
            raise KeyError("the run's own error")
    assert log == ["enter a", "enter b", "exit b", "exit a"]


class HostingProvider(StepProvider):
    """A toy agent provider that hosts a background task for the whole run, like a pool."""

    events: list[str] = []

    def __init__(self, model: str, args: dict[str, Any]) -> None:
        super().__init__(model, args)
        self._tg: Any = None

    async def _serve(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        self.events.append("serving")
        task_status.started()
        try:
            await anyio.sleep_forever()
        finally:
            self.events.append("stopped")

    async def __aenter__(self) -> HostingProvider:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        await self._tg.start(self._serve)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)


def test_a_provider_may_host_a_task_group_for_the_whole_run(tmp_path) -> None:
    install()
    AGENTS.add("hosting", HostingProvider)
    try:
        cfg = RunConfig(
            domains=["toy"], tasks=["toy-0", "toy-1"], agents=["hosting/gold"], users=["patient"]
        )
        store = Store(tmp_path / "runs.db")
        anyio.run(Runner(store, cfg, "r", create=True).run)
    finally:
        AGENTS.remove("hosting")
    assert HostingProvider.events == ["serving", "stopped"]
    rewards = [r[0] for r in store.db.execute("select reward from conversations")]
    assert rewards == [1.0, 1.0]
