"""Start replicas of any OpenAI-compatible server and balance requests over them.

``ReplicaPool`` starts one subprocess per ``ReplicaSpec`` (each on its own free port on
127.0.0.1, in its own process group, output in a log file per replica), waits until each answers
its health check, hands out base URLs by least outstanding requests (``EndpointPool``), restarts
a replica that dies (out of rotation while it is down) and stops them all (SIGTERM, then SIGKILL
after a grace period, whole process group) when its ``async with`` block ends — also when the
run is cancelled or a replica fails to start.

The pool is an async context manager: entering it opens a task group in the caller's task
(the run enters its providers in order and leaves them in reverse, so the scopes nest) and
starts the host task there with ``tg.start``, which returns once every replica is healthy; the
watchdog runs in that group and leaving the block cancels it and stops the servers.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Self, TypeVar

import anyio
from anyio.abc import Process, TaskGroup, TaskStatus

from tau_sim.simulator.core.chat import EndpointError
from tau_sim.simulator.models._server_process import (
    LaunchError,
    free_port,
    log_tail,
    probe,
    redact_argv,
    spawn,
    stop_process,
)

__all__ = [
    "LaunchError",
    "LaunchOptions",
    "ReplicaPool",
    "ReplicaSpec",
    "ReplicaState",
    "ReplicaStatus",
    "StaticPool",
]

log = logging.getLogger("tau_sim.launcher")
_T = TypeVar("_T")


@dataclass(frozen=True)
class ReplicaSpec:
    """How to start one replica: ``{port}`` and ``{host}`` in ``argv`` are filled in at launch."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    name: str = "server"

    def command(self, host: str, port: int) -> list[str]:
        """The command line for one launch on ``host:port``."""
        return [a.replace("{port}", str(port)).replace("{host}", host) for a in self.argv]


@dataclass(frozen=True)
class LaunchOptions:
    """Timeouts and policies shared by every replica of a pool."""

    host: str = "127.0.0.1"
    health_paths: tuple[str, ...] = ("/health", "/v1/models")
    startup_timeout_s: float = 120.0
    stop_grace_s: float = 10.0
    watch_interval_s: float = 0.5
    max_restarts: int = 10
    acquire_timeout_s: float = 300.0
    log_dir: Path | None = None


class ReplicaState(enum.Enum):
    """Where a replica is in its life; only ``UP`` replicas receive requests."""

    STARTING = "starting"
    UP = "up"
    DOWN = "down"
    FAILED = "failed"
    STOPPED = "stopped"


@dataclass(frozen=True)
class ReplicaStatus:
    """A snapshot of one replica for reports and tests."""

    index: int
    state: ReplicaState
    url: str
    pid: int | None
    outstanding: int
    served: int
    restarts: int
    log_path: Path


@dataclass
class _Replica:
    index: int
    spec: ReplicaSpec
    host: str
    log_path: Path = Path()
    port: int = 0
    process: Process | None = None
    state: ReplicaState = ReplicaState.STARTING
    outstanding: int = 0
    served: int = 0
    last_pick: int = -1
    restarts: int = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def label(self) -> str:
        return f"{self.spec.name} replica {self.index}"


def _least_busy(items: Sequence[_T], outstanding: list[int], last_pick: list[int]) -> _T:
    """The item with the fewest outstanding requests; ties go to the least recently picked."""
    best = min(range(len(items)), key=lambda i: (outstanding[i], last_pick[i], i))
    return items[best]


class ReplicaPool:
    """Replicas of one server command, balanced by least outstanding requests.

    Use as ``async with ReplicaPool(specs) as pool`` (once per pool): entering starts every
    replica and waits until all are healthy (``LaunchError`` otherwise, with every replica
    stopped); leaving stops them. ``acquire()`` (the ``EndpointPool`` protocol) yields the base
    URL of the least busy replica that is up.
    """

    def __init__(self, specs: Sequence[ReplicaSpec], options: LaunchOptions | None = None) -> None:
        if not specs:
            raise ValueError("a replica pool needs at least one replica")
        self.options = options or LaunchOptions()
        given = self.options.log_dir
        self.log_dir = Path(given) if given else None
        self._replicas = [_Replica(i, spec, self.options.host) for i, spec in enumerate(specs)]
        # asyncio events (not anyio's) so that a pool can be built outside the event loop.
        self._changed = asyncio.Event()
        self._wakeup = asyncio.Event()
        self._picks = 0
        self._running: AbstractAsyncContextManager[ReplicaPool] | None = None
        self._closed = False

    # lifecycle -------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        if self._running is not None:
            raise RuntimeError("the pool was already started")
        self._running = self._run()
        await self._running.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._running is not None
        return await self._running.__aexit__(exc_type, exc, tb)

    @asynccontextmanager
    async def _run(self) -> AsyncIterator[ReplicaPool]:
        """Host the replicas in a task group around the caller's block.

        What the block raises is re-raised as it is once the servers are stopped (not wrapped
        in the task group's exception group); a failed start raises its ``LaunchError``.
        """
        if self.log_dir is None:
            self.log_dir = Path(tempfile.mkdtemp(prefix="tau-sim-servers-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for replica in self._replicas:
            replica.log_path = self.log_dir / f"{replica.spec.name}-{replica.index}.log"
        failure: BaseException | None = None
        try:
            async with anyio.create_task_group() as tg:
                await tg.start(self._host)
                try:
                    yield self
                except BaseException as exc:
                    failure = exc
                finally:
                    tg.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            launch = _first_launch_error(group)
            if launch is group:
                raise
            raise launch from None
        if failure is not None:
            raise failure

    # balancing -------------------------------------------------------------------------------

    def acquire(self) -> AbstractAsyncContextManager[str]:
        """Reserve the least busy replica that is up; yields its base URL."""
        return self._lease()

    @asynccontextmanager
    async def _lease(self) -> AsyncIterator[str]:
        replica = await self._pick()
        replica.outstanding += 1
        replica.served += 1
        self._picks += 1
        replica.last_pick = self._picks
        try:
            yield replica.url
        finally:
            replica.outstanding -= 1

    async def _pick(self) -> _Replica:
        with anyio.move_on_after(self.options.acquire_timeout_s):
            while True:
                changed = self._changed
                up = [r for r in self._replicas if r.state is ReplicaState.UP]
                for replica in up:
                    if not replica.alive:  # died since the watchdog last looked
                        self._set_state(replica, ReplicaState.DOWN)
                        self._wakeup.set()
                up = [r for r in up if r.state is ReplicaState.UP]
                if up:
                    return _least_busy(up, [r.outstanding for r in up], [r.last_pick for r in up])
                if self._closed:
                    raise EndpointError(f"the pool of {self._name} is closed", kind="pool closed")
                if all(
                    r.state in (ReplicaState.FAILED, ReplicaState.STOPPED) for r in self._replicas
                ):
                    raise EndpointError(
                        f"no replica of {self._name} is running", kind="no replica running"
                    )
                await changed.wait()
        raise EndpointError(
            f"no replica of {self._name} came up within {self.options.acquire_timeout_s:g} s",
            kind="no replica running",
        )

    def status(self) -> list[ReplicaStatus]:
        """A snapshot of every replica."""
        return [
            ReplicaStatus(
                index=r.index,
                state=r.state,
                url=r.url,
                pid=r.process.pid if r.process is not None else None,
                outstanding=r.outstanding,
                served=r.served,
                restarts=r.restarts,
                log_path=r.log_path,
            )
            for r in self._replicas
        ]

    @property
    def urls(self) -> list[str]:
        """Base URLs of the replicas that are up."""
        return [r.url for r in self._replicas if r.state is ReplicaState.UP]

    # the host task ---------------------------------------------------------------------------

    @property
    def _name(self) -> str:
        return self._replicas[0].spec.name

    def _set_state(self, replica: _Replica, state: ReplicaState) -> None:
        replica.state = state
        self._changed.set()
        self._changed = asyncio.Event()

    async def _host(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Launch every replica, report started, then watch them until cancelled; stop all."""
        try:
            async with anyio.create_task_group() as tg:
                async with anyio.create_task_group() as launching:
                    for replica in self._replicas:
                        launching.start_soon(self._launch, replica)
                log.info(
                    "%s: %d replica(s) up; logs in %s",
                    self._name,
                    len(self._replicas),
                    self.log_dir,
                )
                task_status.started()
                tg.start_soon(self._watch, tg)
                await anyio.sleep_forever()
        finally:
            self._closed = True
            with anyio.CancelScope(shield=True):
                await self._stop_all()

    async def _launch(self, replica: _Replica, port: int | None = None) -> None:
        """Start one replica (on ``port``, else a free one) and wait until it is healthy.

        Raises:
            LaunchError: the server exited, or was not healthy in time (it is stopped).
        """
        self._set_state(replica, ReplicaState.STARTING)
        replica.port = port or free_port(self.options.host)
        argv = replica.spec.command(self.options.host, replica.port)
        log.info(
            "%s: starting on port %d: %s", replica.label, replica.port, " ".join(redact_argv(argv))
        )
        replica.process = await spawn(
            argv, replica.spec.env, replica.log_path, self.options.stop_grace_s
        )
        try:
            await self._wait_healthy(replica)
        except LaunchError:
            await stop_process(replica.process, self.options.stop_grace_s)
            raise
        self._set_state(replica, ReplicaState.UP)

    async def _wait_healthy(self, replica: _Replica) -> None:
        assert replica.process is not None
        timeout = self.options.startup_timeout_s
        delay = 0.05
        with anyio.move_on_after(timeout):
            while True:
                code = replica.process.returncode
                if code is not None:
                    raise LaunchError(self._failure(replica, f"exited with code {code}"))
                if await probe(self.options.host, replica.port, self.options.health_paths):
                    return
                await anyio.sleep(delay)
                delay = min(delay * 1.5, 0.5)
        raise LaunchError(self._failure(replica, f"was not healthy after {timeout:g} s"))

    def _failure(self, replica: _Replica, what: str) -> str:
        tail = log_tail(replica.log_path) or "(empty log)"
        return (
            f"{replica.label} (port {replica.port}) {what}; "
            f"last lines of {replica.log_path}:\n{tail}"
        )

    async def _watch(self, tg: TaskGroup) -> None:
        """Notice dead replicas and restart them in the background."""
        while True:
            with anyio.move_on_after(self.options.watch_interval_s):
                await self._wakeup.wait()
            self._wakeup.clear()
            for replica in self._replicas:
                if replica.state in (ReplicaState.UP, ReplicaState.DOWN) and not replica.alive:
                    self._set_state(replica, ReplicaState.STARTING)
                    tg.start_soon(self._restart, replica)

    async def _restart(self, replica: _Replica) -> None:
        assert replica.process is not None
        code = replica.process.returncode
        log.warning(
            "%s died (exit code %s); restarting; log: %s", replica.label, code, replica.log_path
        )
        await stop_process(replica.process, self.options.stop_grace_s)
        failures = 0
        while True:
            if replica.restarts >= self.options.max_restarts:
                log.error("%s: gave up after %d restarts", replica.label, replica.restarts)
                self._set_state(replica, ReplicaState.FAILED)
                return
            if failures:
                await anyio.sleep(min(0.5 * 2 ** (failures - 1), 10.0))
            replica.restarts += 1
            try:
                # The same port first: the clients and connection limits of its URL stay valid.
                await self._launch(replica, replica.port if failures == 0 else None)
            except LaunchError as exc:
                log.warning("restart failed: %s", exc)
                failures += 1
                continue
            log.info("%s is back on port %d", replica.label, replica.port)
            return

    async def _stop_all(self) -> None:
        async with anyio.create_task_group() as tg:
            for replica in self._replicas:
                self._set_state(replica, ReplicaState.STOPPED)
                if replica.process is not None:
                    tg.start_soon(stop_process, replica.process, self.options.stop_grace_s)


def _first_launch_error(exc: BaseException) -> BaseException:
    """The ``LaunchError`` inside a task group's exception group, else ``exc`` itself."""
    if isinstance(exc, BaseExceptionGroup):
        match, _ = exc.split(LaunchError)
        if match is not None:
            return _first_launch_error(match.exceptions[0])
    return exc


class StaticPool:
    """Existing endpoints (``base_url`` lists) balanced by least outstanding requests."""

    def __init__(self, urls: Sequence[str]) -> None:
        if not urls:
            raise ValueError("a static pool needs at least one URL")
        self.urls = [u.rstrip("/") for u in urls]
        self._outstanding = [0] * len(self.urls)
        self._last_pick = [-1] * len(self.urls)
        self._picks = 0

    def acquire(self) -> AbstractAsyncContextManager[str]:
        """Reserve the least busy endpoint; yields its base URL."""
        return self._lease()

    @asynccontextmanager
    async def _lease(self) -> AsyncIterator[str]:
        i = _least_busy(list(range(len(self.urls))), self._outstanding, self._last_pick)
        self._outstanding[i] += 1
        self._picks += 1
        self._last_pick[i] = self._picks
        try:
            yield self.urls[i]
        finally:
            self._outstanding[i] -= 1

    async def __aenter__(self) -> Self:
        """Nothing to start: the endpoints are run by someone else."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Nothing to stop."""
