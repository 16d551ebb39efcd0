"""The TUI's screens: the run dashboard, one conversation, and the keyboard help.

Every screen hides its content and says so when the terminal is smaller than
``MIN_WIDTH`` x ``MIN_HEIGHT``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from tau_sim.simulator.core import ConversationEnded, ConversationStarted, Event, visible
from tau_sim.tui.dialogue import DialogueView, EmotionTrack, Outcome, describe_start
from tau_sim.tui.state import Changes, RunState
from tau_sim.tui.widgets import (
    COLUMNS,
    ConversationTable,
    FilterBar,
    RowFilter,
    RunSummary,
    SuccessGrid,
    Terminations,
)

if TYPE_CHECKING:
    from tau_sim.tui.sources import RunInfo

MIN_WIDTH, MIN_HEIGHT = 100, 30
"""The smallest terminal the screens are laid out for."""


class SizedScreen(Screen[None]):
    """A screen that hides its ``.main`` content below the minimum terminal size."""

    def too_small_notice(self) -> Static:
        """The notice shown instead of the content when the terminal is too small."""
        return self.small_notice("tau-sim tui", "q")

    @staticmethod
    def small_notice(command: str, quit_key: str) -> Static:
        """The too-small notice of ``command``, whose ``quit_key`` quits."""
        return Static(
            f"The terminal is too small: {command} needs at least {MIN_WIDTH}x{MIN_HEIGHT} "
            f"(press {quit_key} to quit).",
            classes="too-small",
        )

    @property
    def too_small(self) -> bool:
        """Whether the content is hidden for the terminal's size."""
        return self.has_class("-too-small")

    def on_resize(self, event: events.Resize) -> None:
        """Hide or show the content for the new size."""
        self.fit(event.size.width, event.size.height)

    def on_mount(self) -> None:
        """Set up once mounted."""
        self.fit(self.app.size.width, self.app.size.height)

    def fit(self, width: int, height: int) -> None:
        """Show the notice instead of the content when ``width`` x ``height`` is too small."""
        self.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-too-small")


class DashboardScreen(SizedScreen):
    """Run progress, the conversation table, early terminations and the success grid."""

    BINDINGS = [
        Binding("slash,f", "filter", "Filter"),
        Binding("s", "sort", "Sort"),
        Binding("S", "reverse_sort", "Reverse", show=False),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    def __init__(self, state: RunState, clock: Callable[[], float] | None) -> None:
        """``clock`` None hides the figures that depend on the time (``RunSummary``)."""
        super().__init__()
        self.state = state
        self.clock = clock
        self.ready = False
        """Whether every panel is mounted (ticks before that are left to the next one)."""

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield self.too_small_notice()
        with Vertical(classes="main"):
            yield RunSummary(self.clock, id="summary")
            yield FilterBar(id="filter")
            yield Static(id="filter-notice")
            table = ConversationTable(id="conversations")
            table.border_title = "conversations"
            yield table
            with Horizontal(id="panels"):
                grid = SuccessGrid(id="grid")
                grid.border_title = "success by emotion x intensity"
                yield grid
                ended = Terminations(id="terminations")
                ended.border_title = "early terminations"
                yield ended
        yield Footer()

    def on_mount(self) -> None:
        """Set up once mounted."""
        super().on_mount()
        self.summary = self.query_one(RunSummary)
        self.table = self.query_one(ConversationTable)
        self.terminations = self.query_one(Terminations)
        self.grid = self.query_one(SuccessGrid)
        self.table.focus()
        self.call_after_refresh(self._mounted)

    def _mounted(self) -> None:
        self.ready = True

    def show(self, info: RunInfo, changes: Changes, *, table: bool = True) -> None:
        """Apply one tick's changes to every panel (to the table's rows only if ``table``)."""
        self.summary.show(info, self.state)
        self.table.show(self.state, changes, flush=table)
        self.terminations.show(changes)
        self.grid.show(self.state, changes)

    def action_filter(self) -> None:
        """Focus the filter box."""
        self.query_one(FilterBar).focus()

    def action_clear_filter(self) -> None:
        """Clear the filter and go back to the table."""
        bar = self.query_one(FilterBar)
        if bar.value:
            bar.value = ""
            self.query_one(ConversationTable).refilter(RowFilter(), self.state)
            self._notice(None)
        self.query_one(ConversationTable).focus()

    def action_sort(self) -> None:
        """Sort by the next column (the table's own header click sorts by that one)."""
        table = self.query_one(ConversationTable)
        keys = [key for key, _ in COLUMNS]
        current = table.sort_column
        column = keys[(keys.index(current) + 1) % len(keys)] if current else keys[0]
        table.sort_by(column, reverse=False)
        self.notify(f"sorted by {table.sort_column} (S reverses)", timeout=1.5)

    def action_reverse_sort(self) -> None:
        """Reverse the order of the sorted column (by ``#`` when none is)."""
        table = self.query_one(ConversationTable)
        table.sort_by(table.sort_column or COLUMNS[0][0], reverse=not table.sort_reverse)

    def on_input_changed(self, event: FilterBar.Changed) -> None:
        """Filter the table as the filter is typed; a term nothing matches is named below it."""
        row_filter = RowFilter.parse(event.value)
        self.query_one(ConversationTable).refilter(row_filter, self.state)
        self._notice(row_filter.unmatched(self.state.conversations.values()))

    def _notice(self, text: str | None) -> None:
        notice = self.query_one("#filter-notice", Static)
        notice.update(Text(visible(text or ""), style="yellow"))
        notice.set_class(text is not None, "-shown")

    def on_input_submitted(self, event: FilterBar.Submitted) -> None:
        """Go back to the table."""
        self.query_one(ConversationTable).focus()


class ConversationScreen(SizedScreen):
    """One conversation: its facts, the user's emotion turn by turn, the dialogue, the end."""

    BINDINGS = [Binding("escape,backspace", "app.pop_screen", "Back")]

    def __init__(self, conversation: str, events: list[Event]) -> None:
        """``events``: the conversation's events so far (``show_events`` takes the next)."""
        super().__init__()
        self.conversation = conversation
        self.facts = Static(id="conversation-facts")
        self.track = EmotionTrack(id="emotion")
        self.dialogue = DialogueView(id="dialogue")
        self.outcome = Outcome(Text("in progress", style="italic"), id="outcome")
        self._waiting: list[Event] | None = list(events)

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield self.too_small_notice()
        with Vertical(classes="main"):
            yield Static(Text(visible(self.conversation), style="bold"), id="conversation-title")
            yield self.facts
            yield self.track
            yield self.dialogue
            yield self.outcome
        yield Footer()

    def on_mount(self) -> None:
        """Set up once mounted."""
        super().on_mount()
        self.dialogue.focus()
        self.call_after_refresh(self._mounted)

    def _mounted(self) -> None:
        waiting, self._waiting = self._waiting or [], None
        self.show_events(waiting)

    @property
    def shown(self) -> bool:
        """Whether the events handed in so far are on the screen."""
        return self._waiting is None

    def show_events(self, events: list[Event]) -> None:
        """Append the conversation's new events (kept until the screen is mounted)."""
        if self._waiting is not None:
            self._waiting += events
            return
        for event in events:
            if isinstance(event, ConversationStarted):
                self.facts.update(describe_start(event))
            elif isinstance(event, ConversationEnded):
                self.outcome.show(event)
        self.track.add_events(events)
        self.dialogue.add_events(events)


HELP = """\
[b]tau-sim tui[/b] — keys

[b]dashboard[/b]
  up/down, page up/down  move in the table
  enter / click          open the conversation
  / or f                 filter: agent:NAME domain:NAME emotion:NAME
                         status:live|passed|failed|abandoned|error|stale,
                         or a word; emotion:FAMILY matches its emotions too
  escape                 clear the filter
  s                      sort by the next column (ascending; ▲/▼ marks it)
  S                      reverse the order
  click a header         sort by that column (again: reverse)

[b]conversation[/b]
  escape / backspace     back to the dashboard

[b]everywhere[/b]
  ?                      this help
  t                      light / dark theme
  q / ctrl+c             quit; a run started here stops first (q twice, ctrl+c
                         at once), is marked interrupted and goes on with
                         tau-sim run --resume
"""


class HelpScreen(ModalScreen[None]):
    """The keys of every screen."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield Static(HELP, id="help")
