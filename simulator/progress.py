"""A progress bar for ``tau-sim run`` (rich, on stderr), with live success and abandonment."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from simulator.events import ConversationEnded


class RunProgress:
    """Counts finished conversations; draws nothing when disabled or not on a terminal."""

    def __init__(self, total: int, *, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.successes = 0
        self.abandoned = 0
        console = Console(stderr=True)
        self._progress: Progress | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]run"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[stats]}"),
                TimeElapsedColumn(),
                console=console,
                transient=False,
            )
            self._task = self._progress.add_task("run", total=total, stats="")

    def start(self) -> None:
        """Start drawing (once the run has really started)."""
        if self._progress is not None:
            self._progress.start()

    def stop(self) -> None:
        """Stop drawing; the bar stays on screen."""
        if self._progress is not None:
            self._progress.stop()

    def advance_done(self, count: int) -> None:
        """Count conversations that were already complete (on resume)."""
        self.done += count
        if self._progress is not None:
            self._progress.update(self._task, completed=self.done)

    def conversation_ended(self, _cell: object, ended: ConversationEnded) -> None:
        """Count one finished conversation."""
        self.done += 1
        self.successes += ended.reward >= 1.0
        self.abandoned += ended.reason == "user_abandoned"
        if self._progress is not None:
            n = max(self.done, 1)
            stats = f"success {self.successes / n:.0%}  abandoned {self.abandoned / n:.0%}"
            self._progress.update(self._task, completed=self.done, stats=stats)
