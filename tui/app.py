"""The ``tau-sim tui`` application: a run's dashboard and its conversations, live.

A worker plays the run (``LiveSource``) or follows the store another process writes
(``StoreSource``); a timer (``TICK_S``) drains the source, folds the events into the
``RunState`` and applies the tick's changes to the screen on top in one batch, so the screen
is redrawn at most ten times a second whatever the event rate.

Quitting a run played here stops it as Ctrl-C stops ``tau-sim run``: the finished
conversations are stored, the run is marked ``interrupted`` and ``--resume`` goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.worker import Worker, WorkerFailed, WorkerState

from tau_sim.tui.screens import ConversationScreen, DashboardScreen, HelpScreen
from tau_sim.tui.sources import Source
from tau_sim.tui.state import RunState
from tau_sim.tui.widgets import ConversationTable

QUIT_ARMED_S = 5.0
"""Seconds a first ``q`` on a run played here waits for the second that stops it."""
TICK_S = 0.1
"""How often the screen takes in new events (10 Hz)."""
CLOCK_EVERY = 10
"""Ticks between redraws of the time figures when nothing else changed (once a second)."""
TABLE_EVERY = 10
"""Ticks between redraws of the conversation table's rows (once a second).

Any change makes the table render all its visible rows again (about 2 ms a row on the
project's machines), and the event loop that plays the conversations waits meanwhile."""


def innermost(exc: BaseException) -> BaseException:
    """The first exception inside task-group wrappers (what the person should read)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


class CrashingApp(Protocol):
    """What ``stop_on_crash`` needs of an app: its source, its flags and Textual's own fields."""

    done: bool
    crash: BaseException | None
    _quitting: bool
    _exception: Exception | None

    @property
    def source(self) -> Source:
        """The run shown."""
        ...

    @property
    def _exception_event(self) -> asyncio.Event:
        """Textual's: set once an error closes the app (``run_test`` waits on it)."""
        ...

    def exit(self, result: None = None, return_code: int = 0) -> None:
        """Textual's ``App.exit``."""
        ...


def stop_on_crash(app: CrashingApp, error: Exception) -> None:
    """Keep the first unhandled ``error`` in ``app.crash`` and stop the run, then exit 1.

    A run played here is stopped as quitting stops it (it ends ``interrupted``, resumable) and
    the app exits once its worker has ended; a followed or finished run exits at once. The
    command prints the error as one line (no traceback). Under ``run_test`` the error is
    raised again when the test's app closes, as Textual does.
    """
    if app.crash is None:
        app.crash = error.error if isinstance(error, WorkerFailed) else error
        if app._exception is None:  # what run_test raises again (Textual's own bookkeeping)
            app._exception = error
            app._exception_event.set()
    if app.done or app.source.attached or not app.source.started:
        app.exit(return_code=1)
    elif not app._quitting:
        app._quitting = True
        app.source.stop()


class TauSimApp(App[None]):
    """The live dashboard of one run."""

    CSS_PATH = Path(__file__).with_name("tau_sim.tcss")  # also for subclasses elsewhere
    TITLE = "tau-sim"
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("t", "toggle_theme", "Theme"),
        Binding("q", "confirm_quit", "Quit"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, source: Source, *, clock: Callable[[], float] | None = time.time) -> None:
        """Show ``source``'s run; ``clock`` None hides elapsed time, rate and ETA."""
        super().__init__()
        self.source = source
        self.clock = clock
        self.state = RunState(source.info.total, agents=source.info.agents)
        self.updates = 0
        """Ticks that changed what the screen shows (the benchmark's screen updates)."""
        self.done = False
        """Whether the run is over (played to its end, stopped, or no longer written)."""
        self.error: BaseException | None = None
        """What stopped the worker that plays or follows the run, if anything did."""
        self.settled = False
        """Whether the run is over and the screen shows all of it."""
        self.crash: BaseException | None = None
        """An error the app itself did not handle (the run is stopped, the app exits 1)."""
        self._quitting = False
        self._quit_armed = False
        self._ticks = 0

        self.dashboard = DashboardScreen(self.state, clock)

    def get_default_screen(self) -> DashboardScreen:
        """The dashboard is the bottom screen."""
        return self.dashboard

    def on_mount(self) -> None:
        """Set up once mounted."""
        self.theme = "textual-dark"
        self.set_interval(TICK_S, self.tick)
        self.follow()

    @work(exclusive=True, exit_on_error=False, group="run")
    async def follow(self) -> None:
        """Play or follow the run until it ends."""
        await self.source.follow()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """When the run's worker ends: show the end; exit if quitting or stopped by a signal."""
        if event.worker.group != "run" or not event.worker.is_finished:
            return
        self.done = True
        self.tick()
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.error = event.worker.error
        error = self.error or self.source.error
        if error is not None:  # error texts may hold brackets: never markup
            message = f"the run stopped: {innermost(error)}"
            self.notify(message, severity="error", timeout=30, markup=False)
        # interrupted, not by the person: a signal (SIGHUP from a closed terminal, SIGTERM)
        # stopped the run; a screen left on a dead terminal would spin for ever
        signalled = not self.source.attached and self.source.info.status == "interrupted"
        if self._quitting or signalled:
            self.exit(return_code=1 if self.crash else 0)

    def _handle_exception(self, error: Exception) -> None:
        """An error no handler caught: stop the run played here, then exit 1 (``stop_on_crash``).

        Textual's own handling closes the app at once with a Rich traceback, which cancels the
        run's worker and leaves the run ``failed``; here the run ends ``interrupted`` instead.
        """
        stop_on_crash(self, error)

    def tick(self) -> None:
        """Take in the source's new events and show what changed."""
        if not self.dashboard.ready or not self.screen_stack:
            return  # not shown yet, or the app is closing (its timer may fire once more)
        self._ticks += 1
        done = self.done
        info = self.source.info
        self.state.already_done = info.already_done
        if info.total is not None:
            self.state.total = info.total
        events = self.source.drain()
        if events:
            self.state.apply(events)
        if info.status == "stale" and self.state.live:
            self.state.orphan()
        changes = self.state.take_changes()
        changed = bool(changes.conversations or changes.terminations or changes.grid)
        table = done or self._ticks % TABLE_EVERY == 0
        idle = not changed and not (table and self.dashboard.table.pending)
        if idle and self._ticks % CLOCK_EVERY and not done:
            return  # nothing new; the time figures are redrawn once a second
        self.updates += changed
        with self.batch_update():
            self.dashboard.show(info, changes, table=table)
            screen = self.screen
            if isinstance(screen, ConversationScreen):
                new = changes.events.get(screen.conversation)
                if new:
                    screen.show_events(new)
        self.settled = done

    def on_conversation_table_chosen(self, message: ConversationTable.Chosen) -> None:
        """Open the chosen conversation and stream its new events into it."""
        if isinstance(self.screen, ConversationScreen):
            self.state.unfollow(self.screen.conversation)
            self.pop_screen()
        cid = message.conversation
        kept = self.state.events_of(cid)
        events = list(kept) if kept is not None else self.source.stored_events(cid)
        self.state.follow(cid)
        screen = ConversationScreen(cid, events)
        self.push_screen(screen, callback=lambda _: self.state.unfollow(cid))

    def action_help(self) -> None:
        """Show the keys."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        """Switch between Textual's light and dark themes."""
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    async def action_confirm_quit(self) -> None:
        """``q``: quit; a run played here stops only on a second ``q`` (ctrl+c: at once)."""
        if self.done or self.source.attached or self._quit_armed:
            await self.action_quit()
            return
        self._quit_armed = True
        self.notify(
            "press q again to stop the run (what finished is kept; --resume goes on)",
            timeout=QUIT_ARMED_S,
        )
        self.set_timer(QUIT_ARMED_S, self._disarm_quit)

    def _disarm_quit(self) -> None:
        self._quit_armed = False

    async def action_quit(self) -> None:
        """Quit (q, ctrl+c, ctrl+q, the palette); a run played here stops first.

        The run is then marked interrupted and resumable, as after Ctrl-C on ``tau-sim run``.
        """
        if self.done or self.source.attached:
            self.exit()
            return
        if self._quitting:
            return
        self._quitting = True
        self.notify("stopping the run: storing what finished (resume it later)", timeout=30)
        self.source.stop()

    def on_unmount(self) -> None:
        """Release the store's read connection."""
        self.source.close()
