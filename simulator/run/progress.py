"""A progress bar for ``tau-sim run`` (rich, on stderr), with live success and abandonment.

Conversations an endpoint ended are counted apart (``endpoint errors N``), those the user
simulator ended too (``user-simulator errors N``), and both are left out of the rates, as the
report leaves them out.
"""

from __future__ import annotations

from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
)
from rich.text import Text

from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.core.infra import INFRA_REASONS, USER_ERROR_REASONS


class RunElapsedColumn(ProgressColumn):
    """The run's elapsed time: its earlier invocations' (``task.fields["earlier"]``) and this."""

    def render(self, task: Task) -> Text:
        """``0:01:05``; a resumed run's clock goes on from where its earlier part left it."""
        elapsed = task.finished_time if task.finished else task.elapsed
        earlier = float(task.fields.get("earlier", 0.0))
        seconds = earlier + (elapsed or 0.0)
        return Text(str(timedelta(seconds=max(0, int(seconds)))), style="progress.elapsed")


class RunProgress:
    """Counts finished conversations; draws nothing when disabled or not on a terminal."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.done = 0
        self.finished = 0
        self.successes = 0
        self.abandoned = 0
        self.infra_errors = 0
        self.user_errors = 0
        self._progress: Progress | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]run"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[stats]}"),
                RunElapsedColumn(),
                console=Console(stderr=True),
                transient=False,
            )

    def start(self, total: int, already_done: int, earlier: float = 0.0) -> None:
        """Start drawing once the run has really started.

        On resume, ``already_done`` conversations are kept and ``earlier`` seconds were played
        by the earlier invocations (``store.played_seconds``); the elapsed time counts them.
        """
        self.done = already_done
        if self._progress is not None:
            self._task = self._progress.add_task(
                "run", total=total, completed=already_done, stats="", earlier=earlier
            )
            self._progress.start()

    def stop(self) -> None:
        """Stop drawing; the bar stays on screen."""
        if self._progress is not None:
            self._progress.stop()

    def conversation_ended(self, _cell: object, ended: ConversationEnded) -> None:
        """Count one finished conversation; the rates cover this invocation's conversations."""
        self.done += 1
        if ended.reason in INFRA_REASONS:
            self.infra_errors += 1
        elif ended.reason in USER_ERROR_REASONS:
            self.user_errors += 1
        else:
            self.finished += 1
            self.successes += ended.reward >= 1.0
            self.abandoned += ended.reason == "user_abandoned"
        if self._progress is not None:
            n = self.finished
            stats = (
                f"success {self.successes / n:.0%}  abandoned {self.abandoned / n:.0%}" if n else ""
            )
            if self.infra_errors:
                stats += f"  endpoint errors {self.infra_errors}"
            if self.user_errors:
                stats += f"  user-simulator errors {self.user_errors}"
            self._progress.update(self._task, completed=self.done, stats=stats.strip())
