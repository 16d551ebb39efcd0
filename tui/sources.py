"""Where the TUI's events come from: a run in this process, or a run another process writes.

Both sources hand the app batches of events (``drain``) and what the run's row says
(``RunInfo``); the app folds the events into a ``RunState`` on its own timer.

- ``LiveSource`` plays a run in the app's event loop (``Runner.run`` in a worker) with a
  ``LiveFeed`` subscribed to its bus: the feed never slows the simulation.
- ``StoreSource`` follows a run in an SQLite file opened read-only: every poll is a few short
  read transactions (WAL readers never block the writer), reading the events stored since the
  last poll by ``rowid``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import anyio
import msgspec
import sqlite_utils

from tau_sim.simulator.core import (
    INFRA_REASON,
    USER_ERROR_REASON,
    ConversationEnded,
    Event,
    decode_stored,
)
from tau_sim.simulator.engine import LiveFeed
from tau_sim.simulator.grid import decode_config
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import (
    get_run,
    iter_events,
    open_database,
    ordered_rows,
    played_seconds,
    run_state,
)

SHOWN_KINDS = (
    "conversation_started",
    "user_message",
    "agent_message",
    "tool_call",
    "tool_result",
    "user_tool_call",
    "user_tool_result",
    "emotion_update",
    "conversation_ended",
)
"""The event kinds the TUI reads from a store (usage and final states are left there)."""
POLL_S = 0.5
"""How often ``StoreSource`` reads the store."""
READ_CHUNK = 20_000
"""Events read per query: a large backlog is read in several short transactions."""
FEED_CAPACITY = 1_000_000
"""Events the live feed holds between two drains before it drops the oldest."""


@dataclass(slots=True)
class RunInfo:
    """What the run's row says: id, size, status, and when it started and ended (epoch s).

    ``started_at`` is when this invocation of the run started (a resumed run's latest);
    ``earlier`` the seconds its earlier invocations played (``store.played_seconds``), so the
    run's elapsed time is ``earlier`` plus this invocation's.
    """

    run_id: str
    total: int | None
    status: str
    started_at: float | None = None
    ended_at: float | None = None
    earlier: float = 0.0
    already_done: int = 0
    kept: int = 0
    agents: tuple[str, ...] = ()
    """The run's agents as configured: the success grid has a column for each from the start."""
    """Finished conversations of the run's earlier invocations (left out of this one's rate)."""
    db: str | None = None
    """The store a followed run is in (for the resume hint; None: played here)."""


class Source(Protocol):
    """A run the TUI shows."""

    info: RunInfo
    attached: bool
    """True when another process plays the run (quitting leaves it alone)."""
    error: BaseException | None
    """What stopped the run played here (raised again once the app has exited)."""
    started: bool
    """Whether ``follow`` has been called (a run played here may then be running)."""

    def drain(self) -> list[Event]:
        """Events received since the last drain."""
        ...

    async def follow(self) -> None:
        """Play or follow the run until it ends (a worker of the app runs it)."""
        ...

    def stop(self) -> None:
        """Stop what this process plays (the run is then resumable); no-op when attached."""
        ...

    def stored_events(self, conversation: str) -> list[Event]:
        """One conversation's events as the store holds them."""
        ...

    def close(self) -> None:
        """Release the store's read connection."""
        ...


class _Reader:
    """A read-only connection to a store, opened on first use."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self._db: sqlite_utils.Database | None = None

    @property
    def db(self) -> sqlite_utils.Database:
        if self._db is None:
            self._db = open_database(self.path, readonly=True)
        return self._db

    def events(self, conversation: str) -> list[Event]:
        return list(iter_events(self.db, conversation))

    def close(self) -> None:
        if self._db is not None:
            self._db.conn.close()
            self._db = None


class LiveSource:
    """A run played in this process; its events arrive through a ``LiveFeed``."""

    attached = False

    def __init__(
        self,
        make_runner: Callable[[LiveFeed, Callable[[int], None]], Runner],
        run_id: str,
        db_path: str | Path,
        clock: Callable[[], float] = time.time,
        history: list[Event] | None = None,
    ) -> None:
        """``make_runner(feed, on_start)`` builds the run's ``Runner`` with both subscribed.

        ``history``: the stored events of the conversations a resumed run keeps (they are
        shown first and counted instead of the runner's ``already_done``).
        """
        self.feed = LiveFeed(FEED_CAPACITY)
        self.clock = clock
        self.runner = make_runner(self.feed, self._started)
        self.info = RunInfo(
            run_id, self.runner.total, "starting", agents=tuple(self.runner.config.agents)
        )
        self.error: BaseException | None = None
        self.started = False
        self._reader = _Reader(db_path)
        self._history = history
        self._resumed = history is not None
        self.info.kept = sum(isinstance(e, ConversationEnded) for e in history or [])

    def _started(self, already_done: int) -> None:
        self.info.already_done = 0 if self._resumed else already_done
        self.info.started_at = self.clock()
        if self._resumed:  # read before this invocation claims the run
            self.info.earlier = played_seconds(get_run(self._reader.db, self.info.run_id))
        self.info.status = "running"

    def drain(self) -> list[Event]:
        """Events published since the last drain (a resumed run's history first)."""
        if self._history is not None:
            history, self._history = self._history, None
            return history + self.feed.drain()
        return self.feed.drain()

    async def follow(self) -> None:
        """Play the run; its final status (or the error that stopped it) is kept."""
        self.started = True
        try:
            await self.runner.run()
        except Exception as exc:  # shown, then raised again once the app has exited
            self.error = exc
            self.info.status = self.runner.status or "failed"
        else:
            self.info.status = self.runner.status or "completed"
        finally:
            self.info.ended_at = self.clock()

    def stop(self) -> None:
        """Stop the run as Ctrl-C does: it ends ``interrupted`` and ``--resume`` goes on."""
        self.runner.interrupt()

    def stored_events(self, conversation: str) -> list[Event]:
        """One conversation's events from the store this run writes."""
        return self._reader.events(conversation)

    def close(self) -> None:
        """Release the read connection."""
        self._reader.close()


def kept_history(sqlite: sqlite_utils.Database, run_id: str, *, keep_errors: bool) -> list[Event]:
    """The shown events of the conversations ``--resume`` keeps.

    Those are the completed ones, less those an endpoint or the user simulator ended unless
    ``keep_errors`` (they are played again).
    """
    kinds = ",".join(f"'{k}'" for k in SHOWN_KINDS)
    r = ordered_rows(sqlite)
    rows = sqlite.execute(
        f"select {r.columns} from {r.joined} "
        f"where c.run_id = ? and c.status = 'completed' and {r.kind} in ({kinds}) "
        "and (? or (c.reason is not ? and c.reason is not ?)) order by e.rowid",
        [run_id, int(keep_errors), INFRA_REASON, USER_ERROR_REASON],
    )
    return [decode_stored(*row) for row in rows]


def configured_agents(run: dict[str, object]) -> tuple[str, ...]:
    """The agents a stored run's configuration names (none where it is unreadable)."""
    try:
        return tuple(decode_config(str(run.get("config") or "")).agents)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
        return ()


class StoreSource:
    """A run another process writes (or wrote), followed by polling its store read-only."""

    attached = True
    error: BaseException | None = None
    started = False

    def __init__(self, db_path: str | Path, run_id: str | None) -> None:
        """Open the store and find the run (``UsageError``: no such file, no such run)."""
        self._reader = _Reader(db_path)
        run = get_run(self._reader.db, run_id)
        self.info = RunInfo(
            str(run["id"]),
            int(run["cells"]),
            str(run["status"]),
            db=str(db_path),
            agents=configured_agents(run),
        )
        self._after = 0
        self._refresh(run)
        self._pending: list[Event] = []
        self.reads = 0

    def _refresh(self, run: dict[str, object]) -> None:
        """Take in the run's row: a stale run's time stops at its last heartbeat.

        This invocation's time runs from its claim (``claimed_at``; the creation in rows stored
        before that column), after the ``earlier_s`` seconds of the run's earlier invocations;
        the conversations those completed are ``kept`` (left out of this invocation's rate).

        A stale run written again (a ``--resume`` elsewhere deleted its unfinished
        conversations and plays them again) is read on from the last event of its completed
        conversations: SQLite may give the new events the rowids of the deleted ones.
        """
        was, now = self.info.status, run_state(run)
        self.info.status = now
        claimed = run.get("claimed_at")
        if claimed is not None and claimed != self.info.started_at:
            self.info.kept = self._completed_before(claimed)
        self.info.started_at = claimed or run.get("created_at")  # type: ignore[assignment]
        self.info.earlier = float(run.get("earlier_s") or 0.0)  # type: ignore[arg-type]
        self.info.ended_at = run.get("ended_at")  # type: ignore[assignment]
        if now == "stale":
            self.info.ended_at = run.get("heartbeat_at") or self.info.started_at  # type: ignore[assignment]
        elif was == "stale" and now == "running":
            self._after = min(self._after, self._last_kept_rowid())

    def _completed_before(self, claimed: object) -> int:
        row = self._reader.db.execute(
            "select count(*) from conversations "
            "where run_id = ? and status = 'completed' and ended_at < ?",
            [self.info.run_id, claimed],
        ).fetchone()
        return int(row[0])

    def _last_kept_rowid(self) -> int:
        r = ordered_rows(self._reader.db)
        row = self._reader.db.execute(
            f"select max(e.rowid) from {r.joined} where c.run_id = ? and c.status = 'completed'",
            [self.info.run_id],
        ).fetchone()
        return int(row[0] or 0)

    @property
    def finished(self) -> bool:
        """Whether nobody writes the run any more (a stale one may be resumed: it is watched)."""
        return self.info.status not in ("running", "stale")

    def read_once(self) -> list[Event]:
        """Read the run's row and the events stored since the last read (a worker thread)."""
        db = self._reader.db
        read: list[Event] = []
        run_id = self.info.run_id
        kinds = ",".join(f"'{k}'" for k in SHOWN_KINDS)
        r = ordered_rows(db)
        while True:
            rows = db.execute(
                f"select e.rowid, {r.columns} from {r.source} "
                f"where e.rowid > ? and {r.kind} in ({kinds}) and c.run_id = ? "
                "order by e.rowid limit ?",
                [self._after, run_id, READ_CHUNK],
            ).fetchall()
            if rows:
                self._after = rows[-1][0]
                read.extend(decode_stored(*row[1:]) for row in rows)
            if len(rows) < READ_CHUNK:
                break
        row = db.execute("select * from runs where id = ?", [run_id])
        names = [d[0] for d in row.description]
        found = row.fetchone()
        if found is not None:
            self._refresh(dict(zip(names, found, strict=True)))
        self.reads += 1
        return read

    def drain(self) -> list[Event]:
        """Events read since the last drain."""
        out, self._pending = self._pending, []
        return out

    async def follow(self) -> None:
        """Poll until the run is no longer written, then read what is left once more."""
        self.started = True
        while True:
            was_finished = self.finished
            # a busy file (a checkpoint in the way) is read again at the next poll
            with suppress(sqlite3.OperationalError):
                events = await anyio.to_thread.run_sync(self.read_once)
                self._pending += events  # after the await: drain() may swap the list
            if was_finished and self.finished:
                return
            await anyio.sleep(POLL_S)

    def stop(self) -> None:
        """Nothing to stop: another process plays the run."""

    def stored_events(self, conversation: str) -> list[Event]:
        """One conversation's events from the store."""
        return self._reader.events(conversation)

    def close(self) -> None:
        """Release the read connection."""
        self._reader.close()
