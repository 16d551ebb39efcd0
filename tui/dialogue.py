r"""One conversation drawn as a dialogue: the widgets a conversation screen is built from.

``DialogueView`` takes events one by one (``add_event``) and appends what each says: the
user's and the agent's messages, tool calls and their results, the user's own device (phone)
calls and what they showed, each with its own CSS class
(``.user``, ``.agent``, ``.tool-call``, ``.tool-result``, ``.tool-error``); ``EmotionTrack``
draws the user's intensity and dissatisfaction turn by turn on a fixed 0..1 scale
(``LevelLine``); ``Outcome`` shows how the conversation ended. They know nothing of where the
events come from, so a screen where a person plays one side reuses them. Every text is a
``rich.text.Text``: markup in a message shows literally, and what came from a model, a user or
the store passes through ``core.escapes.visible`` (Textual itself drops only BEL, BS, VT, FF
and CR): NUL, ESC, a bidirectional override or a zero-width space shows as its escape
(``\x1b``, ``\u202e``), never raw.
"""

from __future__ import annotations

import json

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from tau_sim.simulator.core import (
    AgentMessage,
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
    UserToolCall,
    UserToolResult,
    visible,
)
from tau_sim.tui.state import ABANDONED, status_of
from tau_sim.tui.widgets import STATUS_STYLES, intensity_style

RESULT_CHARS = 240
"""A tool result longer than this is cut (the store keeps it whole)."""


def _arguments(arguments: dict[str, object]) -> str:
    return json.dumps(arguments, ensure_ascii=False, separators=(", ", ": "))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Turn(Static):
    """One entry of the dialogue."""


class DialogueView(VerticalScroll):
    """The dialogue so far; stays at the newest entry until the person scrolls up."""

    def on_mount(self) -> None:
        """Follow the end as entries arrive (Textual's anchor)."""
        self.anchor()

    def add_events(self, events: list[Event]) -> None:
        """Append several events at once (one layout pass)."""
        turns = [turn for event in events if (turn := self.turn_of(event)) is not None]
        if turns:
            self.mount_all(turns)

    def add_event(self, event: Event) -> None:
        """Append what one event says (events nobody reads in a dialogue are skipped)."""
        self.add_events([event])

    @staticmethod
    def turn_of(event: Event) -> Turn | None:
        """The dialogue entry of one event (None: not part of the dialogue)."""
        if isinstance(event, UserMessage):
            text = Text("user  ", style="bold")
            text.append(visible(event.text))
            return Turn(text, classes="user")
        if isinstance(event, AgentMessage):
            if not event.text:
                return None  # its tool calls come as ToolCall events
            text = Text("agent ", style="bold")
            text.append(visible(event.text))
            return Turn(text, classes="agent")
        if isinstance(event, ToolCall):
            text = Text("call  ", style="bold")
            text.append(visible(event.call.name), style="bold")
            text.append(visible(f"({_arguments(event.call.arguments)})"))
            return Turn(text, classes="tool-call")
        if isinstance(event, ToolResult):
            text = Text("error " if event.error else "result", style="bold")
            text.append(" ")
            text.append(visible(_cut(event.content, RESULT_CHARS)))
            return Turn(text, classes="tool-error" if event.error else "tool-result")
        if isinstance(event, UserToolCall):
            text = Text("phone ", style="bold")
            text.append(visible(event.call.name), style="bold")
            text.append(visible(f"({_arguments(event.call.arguments)})"))
            return Turn(text, classes="tool-call")
        if isinstance(event, UserToolResult):
            text = Text("error " if event.error else "shows ", style="bold")
            text.append(visible(_cut(event.content, RESULT_CHARS)))
            return Turn(text, classes="tool-error" if event.error else "tool-result")
        return None


LEVELS = " ▁▂▃▄▅▆▇█"
"""A column's eighths of a row, from none to full."""


class LevelLine(Widget):
    """Values in 0..1, one column each (stretched or bucketed to the width), on a fixed scale.

    Textual's ``Sparkline`` scales to its data's own range: a constant 0.9 drew as flat as a
    neutral 0.0, and a single value as a full bar. Here the height is the value itself, each
    column coloured as the table's intensity bar (``intensity_style``); 0.0 still shows the
    lowest mark, so a value is never blank.
    """

    data: reactive[list[float]] = reactive(list, layout=False)
    """The values, oldest first."""

    def column_values(self, width: int) -> list[float]:
        """The value of each of ``width`` columns: the largest of the values it covers."""
        data = self.data
        if not data or width <= 0:
            return []
        n = len(data)
        return [
            max(data[x * n // width : max(x * n // width + 1, (x + 1) * n // width)])
            for x in range(width)
        ]

    def render(self) -> Text:
        """One text row per line of the widget, the top row first."""
        width, height = self.size.width, max(self.size.height, 1)
        columns = [min(max(v, 0.0), 1.0) for v in self.column_values(width)]
        eighths = [max(1, round(v * 8 * height)) for v in columns]
        text = Text()
        for row in range(height):
            base = (height - 1 - row) * 8  # eighths below this row
            if row:
                text.append("\n")
            for value, filled in zip(columns, eighths, strict=True):
                text.append(LEVELS[min(max(filled - base, 0), 8)], style=intensity_style(value))
        return text


class EmotionTrack(Widget):
    """The user's intensity and dissatisfaction, one value per emotion update (``LevelLine``)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.intensity: list[float] = []
        self.dissatisfaction: list[float] = []
        self.intensity_label = Static(id="intensity-label", classes="track-label")
        self.intensity_line = LevelLine(id="intensity-line")
        self.dissatisfaction_label = Static(id="dissatisfaction-label", classes="track-label")
        self.dissatisfaction_line = LevelLine(id="dissatisfaction-line")

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield self.intensity_label
        yield self.intensity_line
        yield self.dissatisfaction_label
        yield self.dissatisfaction_line

    def clear(self) -> None:
        """Forget every value (a new conversation starts)."""
        self.intensity.clear()
        self.dissatisfaction.clear()
        self.intensity_line.data = []
        self.dissatisfaction_line.data = []
        self.intensity_label.update("")
        self.dissatisfaction_label.update("")

    def add_events(self, events: list[Event]) -> None:
        """Take the emotion updates among ``events``."""
        updates = [e for e in events if isinstance(e, EmotionUpdate)]
        if not updates:
            return
        self.intensity += [e.intensity for e in updates]
        self.dissatisfaction += [e.dissatisfaction for e in updates]
        self.intensity_line.data = list(self.intensity)
        self.dissatisfaction_line.data = list(self.dissatisfaction)
        self.intensity_label.update(self._label("intensity", self.intensity, updates[-1].reason))
        self.dissatisfaction_label.update(self._label("dissatisfaction", self.dissatisfaction, ""))

    @staticmethod
    def _label(name: str, values: list[float], reason: str) -> Text:
        text = Text(f"{name} ", style="bold")
        text.append(f"{values[0]:.2f} -> {values[-1]:.2f} (max {max(values):.2f})")
        if reason:
            text.append(visible(f"  {reason}"), style="italic")
        return text


class Outcome(Static):
    """How the conversation ended: reason, detail, reward and its breakdown."""

    def show(self, ended: ConversationEnded) -> None:
        """Draw the ending."""
        status = status_of(ended)
        text = Text("ended ", style="bold")
        reason = visible(ended.reason.replace("_", " "))
        text.append(reason, style=STATUS_STYLES.get(status, "bold"))
        text.append(f"  reward {ended.reward:.2f}", style="bold")
        text.append(f"  turns {ended.turns}  tool calls {ended.tool_calls}")
        if ended.detail:
            text.append("\ndetail ", style="bold")
            text.append(visible(_cut(ended.detail, 300)))
        b = ended.breakdown
        if b is not None:
            text.append("\nbreakdown ", style="bold")
            text.append(f"database {'matches' if b.db_match else 'differs'}")
            text.append(f" (expected {b.expected_hash[:8]}, got {b.actual_hash[:8]})")
            text.append(f"; outputs said {b.outputs_communicated:.0%}")
            if b.missing_outputs:
                text.append(visible("; missing: " + ", ".join(b.missing_outputs)))
        if status == ABANDONED and ended.failure_detail:  # the user's reason, not their words
            text.append("\nwhy ", style="bold")
            text.append(visible(_cut(ended.failure_detail, 160)))
        self.update(text)
        self.add_class("-ended")


def describe_start(started: ConversationStarted, *, condition: bool = True) -> Text:
    """A conversation's line of facts: agent, user, task and the user's condition.

    ``condition`` False leaves the condition out (the agent player never sees it).
    """
    text = Text()
    text.append(visible(started.agent), style="bold")
    text.append(visible(f" serving {started.user} on {started.domain} task "))
    text.append(visible(started.task_id), style="bold")
    if not condition:
        text.append(f"  trial {started.trial}")
        return text
    text.append(visible(f"  emotion {started.emotion}"))
    if started.emotion != "neutral":
        text.append(f" at {started.intensity:.2f}")
    levels = [
        f"{name} {value}"
        for name, value in (
            ("politeness", started.politeness),
            ("urgency", started.urgency),
            ("trust", started.trust),
        )
        if value is not None
    ]
    if levels:
        text.append(visible("  " + ", ".join(levels)))
    text.append(f"  trial {started.trial}")
    return text
