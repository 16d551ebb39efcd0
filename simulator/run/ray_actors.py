"""Ray actors for one run (``tau-sim run --ray [ADDRESS]``): the driver stores what they send.

The run's cells are dealt round-robin (``RayPool``) to ``config.workers`` actors
(``PlayerActor``, one CPU each), every one playing its ``WorkOrder`` with a worker process's
own player (``simulator.run.player.order_player``) on its own event loop. An actor streams
back, every ``FLUSH_INTERVAL``, the events of the conversations it has *finished*
(``EndedSink``: a conversation's events leave the actor only with its ``ConversationEnded``),
so the driver, the only writer of the store, never receives part of a conversation. An actor
that dies (``RayActorError``: its process or node gone, ``ray.kill``) has its unfinished cells
played from scratch on a new actor, up to ``MAX_RESTARTS`` times per part: no cell is stored
twice and none is lost. Crash safety, ``--resume`` and reports are those of one process.

Without an address (``config.ray == LOCAL``) the run starts a local cluster of
``config.workers`` CPUs and stops it at the end; sealed API keys (``simulator.core.keys``) reach
its actors through the environment the cluster's processes inherit, as worker processes get
them, and never through a ``WorkOrder``, an actor's arguments or Ray's object store. An
address names a running cluster whose nodes have their own environment: a literal key would
have to be shipped, so it is refused (each node needs its keys in its environment).

Ray is the ``tau-sim[ray]`` extra and is imported only when a run asks for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Iterator
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import anyio
import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import ConversationEnded, Event, decode, encode
from tau_sim.simulator.core.keys import worker_environment
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.grid.cells import CellSet, grid_size
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.run.orders import (
    FLUSH_INTERVAL,
    MAX_BUFFERED,
    PartFailed,
    Pool,
    WorkOrder,
    encode_order,
)
from tau_sim.simulator.run.player import order_player
from tau_sim.simulator.run.ray_setup import LOCAL, import_ray

log = logging.getLogger(__name__)

NAMESPACE = "tau-sim"
"""The Ray namespace of the actors (named ``RUN_ID/PART.ATTEMPT``)."""
BACKPRESSURE_BATCHES = 16
"""Batches an actor may have streamed ahead of the driver before it pauses."""
MAX_RESTARTS = 3
"""How often one part's unfinished cells are played again on a new actor after a death."""
CONNECT_TIMEOUT_S = 5.0
"""How long the address of a running cluster may take to accept a TCP connection."""
DEFAULT_PORT = {"ray": 10001}
"""Ports of address schemes that may leave theirs out (Ray Client); a bare address: 6379."""


def _probe(address: str) -> None:
    """Refuse an address nothing listens on (``ray.init`` would wait on it for minutes)."""
    if address == "auto":
        return  # Ray finds (or refuses at once) the cluster started on this machine
    parts = urlsplit(address if "://" in address else f"gcs://{address}")
    host = parts.hostname
    try:
        port = parts.port or DEFAULT_PORT.get(parts.scheme, 6379)
    except ValueError:
        host = None
    if not host:
        raise UsageError(f"--ray {address}: not an address (expected HOST:PORT or ray://HOST)")
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        cause = exc.strerror or type(exc).__name__
        raise UsageError(
            f"--ray {address}: cannot reach a Ray cluster at {host}:{port} ({cause}); start "
            "one with `ray start --head` or leave the address out for a local cluster"
        ) from None


@contextlib.contextmanager
def _inherited_keys() -> Iterator[None]:
    """This process's environment with the sealed keys in it, for the processes Ray starts."""
    environment = worker_environment()
    if environment is None:
        yield
        return
    added = {k: v for k, v in environment.items() if k not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


@contextlib.contextmanager
def cluster(config: RunConfig) -> Iterator[None]:
    """Connected to the run's Ray cluster in the block (started and stopped if ``local``).

    A no-op without ``--ray``, and when Ray is already initialised in this process (a
    notebook, the tests): that cluster is used and left running.

    Raises:
        UsageError: the address is unreachable or the cluster has fewer CPUs than actors.
    """
    if config.ray is None:
        yield
        return
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "namespace": NAMESPACE,
            "logging_level": logging.WARNING,
            "include_dashboard": False,
        }
        if config.ray == LOCAL:
            with _inherited_keys():
                ray.init(address="local", num_cpus=config.workers, **options)  # not RAY_ADDRESS
        else:
            _probe(config.ray)
            try:
                ray.init(address=config.ray, **options)
            except ConnectionError as exc:
                raise UsageError(f"--ray {config.ray}: {exc}") from None
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < config.workers:
            where = "the local cluster" if config.ray == LOCAL else f"the cluster at {config.ray}"
            raise UsageError(
                f"--workers {config.workers}: {where} has {cpus} CPUs, one per actor is "
                f"needed; pass --workers {max(cpus, 1)} or add nodes"
            )
        yield
    finally:
        if started:
            ray.shutdown()


class EndedSink:
    """A bus subscriber that keeps each conversation's events until it ends, then releases them.

    ``take`` returns the released ones as msgspec JSON lines: only whole conversations ever
    leave the actor, so one that dies mid-conversation leaves nothing of it behind.
    """

    def __init__(self) -> None:
        self._open: dict[str, list[bytes]] = {}
        self._ready: list[bytes] = []
        self._size = 0
        self._room = asyncio.Event()

    def offer(self, event: Event) -> bool:
        """Keep one event; False when finished conversations fill the buffer (``deliver``)."""
        if self._size >= MAX_BUFFERED:
            return False
        self._keep(event)
        return True

    async def deliver(self, event: Event) -> None:
        """Keep one event once the buffer has room (never drops)."""
        while self._size >= MAX_BUFFERED:
            self._room.clear()
            await self._room.wait()
        self._keep(event)

    def _keep(self, event: Event) -> None:
        lines = self._open.setdefault(event.conversation, [])
        lines.append(encode(event))
        if isinstance(event, ConversationEnded):
            finished = self._open.pop(event.conversation)
            self._ready.extend(finished)
            self._size += sum(map(len, finished))

    def take(self) -> bytes:
        """The finished conversations' events since the last call, one JSON line each."""
        if not self._ready:
            return b""
        data = b"\n".join(self._ready)
        self._ready.clear()
        self._size = 0
        self._room.set()
        return data


class PlayerActor:
    """A Ray actor that plays one ``WorkOrder`` on its event loop and streams what it finished."""

    def __init__(self) -> None:
        self._task: asyncio.Task[int] | None = None
        self._stopping = False

    async def stream(self, order_line: bytes) -> AsyncIterator[bytes]:
        """Play the order; yield finished conversations' events every ``FLUSH_INTERVAL``.

        After ``stop`` the conversations under way are dropped, the finished ones still sent.
        """
        order = msgspec.json.decode(order_line, type=WorkOrder)
        sink = EndedSink()
        bus = Bus([sink])

        async def body() -> int:
            async with order_player(order) as (player, cells):
                return await player.play_cells(cells, bus, order.concurrency)

        task = self._task = asyncio.ensure_future(body())
        if self._stopping:
            task.cancel()
        while True:
            done, _ = await asyncio.wait({task}, timeout=FLUSH_INTERVAL)
            batch = sink.take()
            if batch:
                yield batch
            if done:
                break
        if not task.cancelled():
            task.result()  # the play's own error, if any, reaches the driver

    async def stop(self) -> None:
        """Stop playing (SIGINT of the run): finished conversations go out, the others not."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()


_remote_actor: Any = None


def _actor_class(ray: ModuleType) -> Any:
    """``PlayerActor`` as a Ray actor class (one CPU, never restarted by Ray itself)."""
    global _remote_actor
    if _remote_actor is None:
        _remote_actor = ray.remote(num_cpus=1, max_restarts=0)(PlayerActor)
    return _remote_actor


class RayPool(Pool):
    """Runs the cells of one run on ``config.workers`` Ray actors instead of processes.

    ``Pool``'s dealing and interface, as ``ProcessPool`` has; the cluster is the one
    ``cluster(config)`` connected this process to.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actors: dict[int, Any] = {}
        """The live actor of each part, by part number."""

    def interrupt(self) -> None:
        """Ask every actor to stop after sending what it has finished."""
        self.interrupted = True
        for actor in self.actors.values():
            actor.stop.remote()

    async def run(self) -> int:
        """Play every part on its own actor; returns the conversations completed."""
        share = self._share()
        async with anyio.create_task_group() as tg:
            for part in range(self.parts):
                tg.start_soon(self._play_part, part, share)
        return self.completed

    async def _play_part(self, number: int, concurrency: int) -> None:
        """Play one part, on a new actor again (its unfinished cells) whenever one dies.

        The part's cells done so far (the run's ``done`` plus what its actors finished) travel
        in each new actor's ``WorkOrder``, so a restarted actor plays only what is left.
        """
        ray = import_ray()
        from ray.exceptions import RayActorError, RayTaskError

        size = grid_size(self.config)
        done = CellSet(size, self.done) if self.done else CellSet(size)
        left = sum(1 for index in range(number, size, self.parts) if index not in done)
        for attempt in range(MAX_RESTARTS + 1):
            if self.interrupted or not left:
                return
            order = WorkOrder(
                self.config, self.run_id, number, self.parts, concurrency, bytes(done)
            )
            actor = (
                _actor_class(ray)
                .options(name=f"{self.run_id}/{number}.{attempt}", namespace=NAMESPACE)
                .remote()
            )
            self.actors[number] = actor
            try:
                stream = actor.stream.options(
                    _generator_backpressure_num_objects=BACKPRESSURE_BATCHES
                ).remote(encode_order(order))
                async for ref in stream:
                    left -= await self._store(await ref, done)
            except RayActorError as exc:
                if self.interrupted:
                    return
                log.warning(
                    "Ray actor %s died (%s); playing its %d unfinished cells again",
                    number,
                    type(exc).__name__,
                    left,
                )
                continue
            except RayTaskError as exc:
                if isinstance(exc.cause, UsageError):
                    raise exc.cause from None
                raise PartFailed(f"Ray actor {number} failed: {exc.cause!r}") from None
            finally:
                self.actors.pop(number, None)
                ray.kill(actor)
            if left and not self.interrupted:
                raise PartFailed(f"Ray actor {number} ended with {left} cells left")
            return
        raise PartFailed(
            f"Ray actor {number} died {MAX_RESTARTS + 1} times; {left} cells were "
            "not played (resume the run to play them)"
        )

    async def _store(self, batch: bytes, done: CellSet) -> int:
        """Hand a batch of finished conversations to the bus's subscribers, in order.

        Returns how many conversations it ended; their cells are added to ``done``.
        """
        on_end = self.on_end
        ended = 0
        for line in batch.split(b"\n"):
            event = decode(line)
            for subscriber in self.bus.subscribers:
                await subscriber.deliver(event)
            if isinstance(event, ConversationEnded):
                cell = self._cell_of(event.conversation)
                done.add(cell.index)
                ended += 1
                self.completed += 1
                if on_end is not None:
                    on_end(cell, event)
        return ended
