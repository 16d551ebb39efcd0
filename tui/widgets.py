"""The dashboard's widgets: run progress, the conversation table, early terminations, successes.

Each widget is handed the ``RunState`` and the ``Changes`` of one tick of the app's timer
(``show``): updates are coalesced there, never one refresh per event. Text from the run (task
ids, model names, what a user said) is put in ``rich.text.Text`` objects, never parsed as
markup, with its control and format characters escaped (``core.escapes.visible``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList, ProgressBar, Static
from textual.widgets.data_table import ColumnKey
from textual.widgets.option_list import Option

from tau_sim.simulator.core import intensity_label, visible
from tau_sim.tui.sources import RunInfo
from tau_sim.tui.state import (
    ABANDONED,
    ERROR,
    FAILED,
    LIVE,
    PASSED,
    STALE,
    STATUSES,
    Changes,
    ConversationSummary,
    RunState,
    grid_label,
)
from tau_sim.tui.table import MeasuredTable

BAR_WIDTH = 6
STATUS_STYLES = {
    LIVE: "bold cyan",
    PASSED: "green",
    FAILED: "yellow",
    ABANDONED: "bold red",
    ERROR: "magenta",
    STALE: "dim",
}


def intensity_style(value: float) -> str:
    """The colour of a level in 0..1, from calm to intense (the same at every value's place)."""
    return "green" if value < 0.4 else "yellow" if value < 0.7 else "red"


def intensity_bar(value: float, width: int = BAR_WIDTH) -> Text:
    """An intensity in 0..1 as a bar and its value, coloured from calm to intense."""
    value = min(max(value, 0.0), 1.0)
    filled = round(value * width)
    bar = Text("█" * filled, style=intensity_style(value))
    bar.append("░" * (width - filled), style="dim")
    bar.append(f" {value:.2f}")
    return bar


def percent(value: float | None) -> str:
    """A share as a percentage, ``-`` when nothing is counted yet."""
    return "-" if value is None else f"{value:.0%}"


def duration(seconds: float | None) -> str:
    """``1h02m03s`` / ``2m05s`` / ``7s``; ``-`` when unknown."""
    if seconds is None or seconds < 0:
        return "-"
    s = int(seconds)
    hours, rest = divmod(s, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


RESUMABLE = {"stale": "its process is gone", "interrupted": "stopped early"}
"""Statuses of a followed run that another ``--resume`` can finish, and what they mean."""


class RunSummary(Widget):
    """Run progress (done / total, rate, elapsed, ETA) and the live rates."""

    def __init__(self, clock: Callable[[], float] | None, **kwargs: object) -> None:
        """``clock`` gives the time (epoch s); None hides every figure that depends on it."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.clock = clock
        self.title_line = Static(id="run-title")
        self.bar = ProgressBar(show_eta=False, show_percentage=True, id="run-bar")
        self.figures = Static(id="run-figures")

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield self.title_line
        yield self.bar
        yield self.figures

    def show(self, info: RunInfo, state: RunState) -> None:
        """Draw the run's figures as they stand."""
        title = Text.assemble(
            ("run ", "bold"), (info.run_id, "bold"), "  ", (info.status, "italic")
        )
        if info.status in RESUMABLE and info.db is not None:
            title.append(f"  {RESUMABLE[info.status]}: resume with ", style="yellow")
            title.append(f"tau-sim run --resume {info.run_id} --db {info.db}", style="bold")
        self.title_line.update(title, layout=False)
        bar = self.bar
        total = info.total if info.total is not None else state.total
        bar.update(total=total, progress=state.done)
        figures = Text()
        figures.append(f"{state.done}/{total if total is not None else '?'} done", "bold")
        figures.append(f"  live {state.live}")
        if self.clock is not None:
            elapsed, rate, eta = self._timing(info, state, total)
            figures.append(f"  {rate:.1f}/s" if rate is not None else "  -/s")
            figures.append(f"  elapsed {duration(elapsed)}  ETA {duration(eta)}")
        figures.append("   success ")
        figures.append(percent(state.success_rate), "bold")
        pass_1 = state.pass_1
        figures.append("  pass^1 ")
        figures.append("-" if pass_1 is None else f"{pass_1:.3f}", "bold")
        figures.append("  abandoned ")
        figures.append(str(state.abandoned), "bold red" if state.abandoned else "bold")
        if state.finished:  # the share of the finished, as the headless bar shows it
            figures.append(f" ({percent(state.abandoned / state.finished)})")
        if state.errors:
            figures.append(f"  endpoint errors {state.errors}", "magenta")
        if state.user_errors:
            figures.append(f"  user-simulator errors {state.user_errors}", "magenta")
        if state.user_quits:
            figures.append(f"  users quit on their own pushback {state.user_quits}", "magenta")
        self.figures.update(figures, layout=False)

    def _timing(
        self, info: RunInfo, state: RunState, total: int | None
    ) -> tuple[float | None, float | None, float | None]:
        """Elapsed (a resumed run's earlier invocations included), this invocation's rate, ETA."""
        assert self.clock is not None
        if info.started_at is None:
            return None, None, None
        end = info.ended_at if info.ended_at is not None else self.clock()
        now = max(end - info.started_at, 0.0)
        elapsed = info.earlier + now
        played = state.ended - info.kept  # what ended since the start, not what was kept
        rate = played / now if now > 0 and played > 0 else None
        eta = None
        if total is not None and rate and info.status == "running":
            eta = (total - state.done) / rate
        return elapsed, rate, eta


COLUMNS = (
    ("id", "#"),
    ("status", "status"),
    ("agent", "agent"),
    ("emotion", "emotion"),
    ("intensity", "intensity"),
    ("turns", "turns"),
    ("tools", "tools"),
    ("task", "task"),
    ("domain", "domain"),
)
"""The table's columns (key, header): what changes while a conversation runs comes first."""
WIDTHS = {"status": 9, "intensity": BAR_WIDTH + 5, "turns": 5, "tools": 5}
CHANGING = (1, 4, 5, 6)
"""Indexes of the columns that change while a conversation runs."""
FILTER_FIELDS = ("agent", "domain", "emotion", "status", "task")


def _sort_value(summary: ConversationSummary, column: str) -> object:
    if column == "id":
        return summary.id
    if column == "task":
        return summary.task_id
    if column == "intensity":
        return summary.intensity
    if column == "tools":
        return summary.tool_calls
    value: object = getattr(summary, column)
    return value


def row_cells(summary: ConversationSummary) -> list[object]:
    """The table's cells of one conversation (text objects: never parsed as markup)."""
    return [
        Text(visible(summary.short_id), style="dim"),
        Text(summary.status, style=STATUS_STYLES.get(summary.status, "")),
        Text(visible(summary.agent)),
        Text(visible(summary.emotion)),
        intensity_bar(summary.intensity),
        Text(str(summary.turns), justify="right"),
        Text(str(summary.tool_calls), justify="right"),
        Text(visible(summary.task_id)),
        Text(visible(summary.domain)),
    ]


@dataclass(frozen=True, slots=True)
class RowFilter:
    """``field:value`` terms (a substring of that field) and bare words (of any field).

    ``emotion:`` matches the emotion's family too (``emotion:anger`` finds ``frustration``).
    """

    terms: tuple[tuple[str | None, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> RowFilter:
        """Read a filter such as ``agent:gold status:abandoned anger``."""
        terms: list[tuple[str | None, str]] = []
        for word in text.lower().split():
            name, sep, value = word.partition(":")
            if sep and name in FILTER_FIELDS:
                terms.append((name, value))
            else:
                terms.append((None, word))
        return cls(tuple(terms))

    @staticmethod
    def _fields(summary: ConversationSummary) -> dict[str, tuple[str, ...]]:
        return {
            "agent": (summary.agent,),
            "domain": (summary.domain,),
            "emotion": (summary.emotion, summary.family),
            "status": (summary.status,),
            "task": (summary.task_id,),
        }

    @classmethod
    def _term_matches(cls, name: str | None, value: str, summary: ConversationSummary) -> bool:
        fields = cls._fields(summary)
        values = [v for vs in fields.values() for v in vs] if name is None else fields[name]
        return any(value in v.lower() for v in values)

    def matches(self, summary: ConversationSummary) -> bool:
        """Whether every term matches the conversation."""
        return all(self._term_matches(name, value, summary) for name, value in self.terms)

    def unmatched(self, summaries: Iterable[ConversationSummary]) -> str | None:
        """A one-line notice naming the first term no conversation matches (None: all match).

        A ``status:`` value none of ``STATUSES`` holds is named as such, with the statuses.
        """
        summaries = list(summaries)
        for name, value in self.terms:
            if not value:
                continue
            if name == "status" and not any(value in status for status in STATUSES):
                return f"status:{value} is no status (one of {', '.join(STATUSES)})"
            if not any(self._term_matches(name, value, s) for s in summaries):
                term = f"{name}:{value}" if name else value
                return f"no conversation matches {term}"
        return None


class ConversationTable(MeasuredTable[object]):
    """Every conversation of the run, one row each, filtered and sorted as asked."""

    class Chosen(Message):
        """A conversation was chosen (Enter or a click on its row)."""

        def __init__(self, conversation: str) -> None:
            super().__init__()
            self.conversation = conversation

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.row_filter = RowFilter()
        self.sort_column: str | None = None
        self.sort_reverse = False
        self._summaries: dict[str, ConversationSummary] = {}
        self._pending: dict[str, ConversationSummary] = {}
        self._shown: dict[str, tuple[str, float, int, int]] = {}

    def on_mount(self) -> None:
        """Set up once mounted."""
        for key, label in COLUMNS:
            # cells that change keep the width of their widest value
            self.add_column(label, key=key, width=WIDTHS.get(key))

    def show(self, state: RunState, changes: Changes, *, flush: bool = True) -> None:
        """Take one tick's changed conversations; draw them when ``flush``.

        Rows are redrawn at most once per flush, and only the cells whose text changed: the
        table renders its visible rows again after every change, which at hundreds of live
        conversations costs more than all the rest of the screen.
        """
        for summary in changes.conversations:
            self._pending[summary.id] = summary
        if flush and self._pending:
            self._flush()

    @property
    def pending(self) -> bool:
        """Whether changed conversations wait for the next flush."""
        return bool(self._pending)

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for summary in pending.values():
            self._summaries[summary.short_id] = summary
            visible = summary.id in self.rows
            wanted = self.row_filter.matches(summary)
            changing = (
                summary.status,
                round(summary.intensity, 2),
                summary.turns,
                summary.tool_calls,
            )
            if visible and not wanted:
                self.remove_row(summary.id)
            elif wanted and not visible:
                self.add_row(*row_cells(summary), key=summary.id)
            elif visible:
                before = self._shown.get(summary.id)
                if before == changing:
                    continue
                cells = row_cells(summary)
                for i, column in enumerate(CHANGING):
                    if before is None or before[i] != changing[i]:
                        self.update_cell(summary.id, COLUMNS[column][0], cells[column])
            self._shown[summary.id] = changing
        if self.sort_column is not None:
            self._sort()

    def refilter(self, row_filter: RowFilter, state: RunState) -> None:
        """Show only the conversations ``row_filter`` matches, in the current order."""
        self.row_filter = row_filter
        self._pending.clear()
        self.clear()
        for summary in state.conversations.values():
            self._summaries[summary.short_id] = summary
            if row_filter.matches(summary):
                self.add_row(*row_cells(summary), key=summary.id)
        if self.sort_column is not None:
            self._sort()

    def sort_by(self, column: str, *, reverse: bool | None = None) -> None:
        """Sort by ``column``; the same column again reverses the order (or as ``reverse``).

        The sorted column's header shows the order: ``▲`` ascending, ``▼`` descending.
        """
        if reverse is not None:
            self.sort_column, self.sort_reverse = column, reverse
        elif self.sort_column == column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = column, False
        self._sort()
        for key, label in COLUMNS:
            mark = (" ▼" if self.sort_reverse else " ▲") if key == column else ""
            self.columns[ColumnKey(key)].label = Text(label + mark)
        self._require_update_dimensions = True  # the marked header may be wider
        self.refresh()

    def _sort(self) -> None:
        column = self.sort_column
        assert column is not None
        summaries = self._summaries

        def key(short_id: Text) -> object:
            return _sort_value(summaries[short_id.plain], column)

        self.sort("id", key=key, reverse=self.sort_reverse)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Open the conversation of the selected row."""
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Chosen(event.row_key.value))

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """Sort by the clicked column."""
        event.stop()
        if event.column_key.value is not None:
            self.sort_by(event.column_key.value)


class FilterBar(Input):
    """The table's filter: ``agent:gold status:abandoned``, words match any field."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            compact=True,
            placeholder="/ filter: agent:NAME emotion:NAME|FAMILY "
            "status:live|passed|failed|abandoned|error|stale|WORD",
            **kwargs,  # type: ignore[arg-type]
        )


class Terminations(OptionList):
    """Conversations that ended early (abandoned, step or tool-error limits, errors).

    Two lines each: who and under which condition, then the ending and why. The list follows
    the newest with Textual's anchor (``Widget.anchor``): the compositor keeps an anchored list
    scrolled to its end whenever it lays it out, so a list hidden while the screen was too
    small, resized, or grown by a tick shows its newest entries in the same frame, with no
    scroll left to run after a refresh. Scrolling up (or highlighting an entry) releases the
    anchor and the list stays where the person put it; scrolling back to the end follows again.
    """

    def on_mount(self) -> None:
        """Follow the newest from the start."""
        super().on_mount()
        self.anchor()

    @property
    def following(self) -> bool:
        """Whether new entries scroll the list to its end."""
        return self.is_anchored and not self._anchor_released

    def show(self, changes: Changes) -> None:
        """Add the conversations that ended early in this tick, in the order they ended."""
        options = []
        for summary in changes.terminations:
            prompt = Text()
            prompt.append(visible(summary.short_id), style="dim")
            prompt.append(visible(f"  {summary.agent}  {summary.emotion}"))
            if summary.emotion != "neutral":
                prompt.append(f" {summary.condition_intensity:.2f}")
            prompt.append("\n  ")
            prompt.append(
                visible(summary.reason.replace("_", " ")),
                style=STATUS_STYLES.get(summary.status, ""),
            )
            why = summary.feeling or summary.detail
            if why:
                prompt.append(": ")
                prompt.append(visible(why[:80]), style="italic")
            options.append(Option(prompt, id=summary.id))
        if options:
            if self.highlighted is not None and self.following:
                self.release_anchor()  # the person is choosing an entry: keep it in place
            self.add_options(options)
            self.border_subtitle = f"{self.option_count} so far"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the selected conversation."""
        event.stop()
        if event.option.id is not None:
            self.post_message(ConversationTable.Chosen(event.option.id))


def short_names(agents: list[str]) -> dict[str, str]:
    """Agent names without their provider (``scripted/gold`` -> ``gold``) when still unique."""
    short = {agent: agent.partition("/")[2] or agent for agent in agents}
    return short if len(set(short.values())) == len(agents) else {a: a for a in agents}


class SuccessGrid(MeasuredTable[object]):
    """Success per emotion x intensity (rows), one column per agent; fills in live."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="none", **kwargs)  # type: ignore[arg-type]
        self._agents: list[str] = []

    def show(self, state: RunState, changes: Changes) -> None:
        """Redraw when this tick finished a conversation (the grid is small)."""
        if not changes.grid and self._agents == state.agents and self.row_count:
            return
        self.clear(columns=self._agents != state.agents)
        if self._agents != state.agents or not self.columns:
            self._agents = list(state.agents)
            short = short_names(self._agents)
            self.add_column("condition", key="condition")
            for agent in self._agents:
                label = Text(visible(short[agent]))  # a str label would be parsed as markup
                self.add_column(label, key=agent)
        for emotion, intensity in sorted(state.grid):
            cells = state.grid[(emotion, intensity)]
            row: list[object] = [Text(visible(grid_label(emotion, intensity)))]
            for agent in self._agents:
                count = cells.get(agent)
                if count is None or not count.n:
                    row.append(Text("-", style="dim"))
                    continue
                share = count.successes / count.n
                style = "green" if share >= 0.8 else "yellow" if share >= 0.4 else "red"
                row.append(Text(f"{share:4.0%} ({count.successes}/{count.n})", style=style))
            self.add_row(*row, key=f"{emotion}@{intensity_label(intensity)}")
