"""The human screens' own widgets: the dialogue as the person's role sees it, the abandon reason.

``HumanDialogue`` shows a tool result whole and pretty-printed for the agent player (who must
read ids and amounts) and cut for the user player; ``ReasonScreen`` asks why the user gives up
(one of ``ABANDON_REASONS`` or a reason written), which is stored, never said to the agent.
``PlainInput`` is the players' line: what is pasted into it arrives without control characters.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from tau_sim.simulator.core import Event, ToolResult, visible
from tau_sim.tui.dialogue import DialogueView, Turn

ABANDON_REASONS = (
    "the agent did not solve my problem",
    "the agent ignored how I feel",
    "the agent asked for too much",
    "the agent was too slow",
    "the agent refused without a reason",
    "the agent was rude",
)
"""The reasons a person may pick for abandoning (or they write their own)."""


def pretty(content: str) -> str:
    """A tool result as the agent player reads it: JSON indented, anything else as it is."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return content
    if not isinstance(value, dict | list):
        return content
    return json.dumps(value, ensure_ascii=False, indent=2)


def printable(text: str) -> str:
    """``text`` without control characters (a tab is a space)."""
    text = text.replace("\t", " ")
    return "".join(c for c in text if unicodedata.category(c) != "Cc")


class PlainInput(Input):
    """An ``Input`` whose pasted text loses its control characters before it is inserted.

    A pasted ctrl+b (character 2) is text, never a key, and never reaches the line or the agent.
    """

    def _on_paste(self, event: events.Paste) -> None:
        event.prevent_default()  # Input's own handler would insert the text as it came
        lines = event.text.splitlines()
        super()._on_paste(events.Paste(printable(lines[0]) if lines else ""))
        event.stop()


class HumanDialogue(DialogueView):
    """The dialogue as the person's role sees it.

    With ``whole_results`` (the agent player, who must read ids and amounts) a tool result is
    shown whole and pretty-printed; otherwise it is cut at ``RESULT_CHARS``.
    """

    def __init__(self, *, whole_results: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.whole_results = whole_results

    def turn_of(self, event: Event) -> Turn | None:  # type: ignore[override]
        """The dialogue's entry, a tool result whole with ``whole_results``."""
        if isinstance(event, ToolResult) and self.whole_results:
            text = Text("error" if event.error else "result", style="bold")
            text.append("\n")
            text.append(visible(pretty(event.content)))
            return Turn(text, classes="tool-error" if event.error else "tool-result")
        return DialogueView.turn_of(event)


class ReasonScreen(ModalScreen[str | None]):
    """Pick why you abandon, or write it (escape: keep talking): the abandon's confirmation.

    No reason is highlighted when it opens, so Enter alone picks none: a ctrl+b followed by a
    newline (text pasted where the terminal does not mark pastes) leaves the person asked,
    not abandoned. The reason is stored with the ending (the last ``EmotionUpdate``'s reason,
    which the failure diagnosis reads), never sent as something the user says.
    """

    BINDINGS = [Binding("escape", "dismiss_none", "Keep talking")]

    def compose(self) -> ComposeResult:
        """The list of reasons and a line for one's own."""
        with Vertical(id="reason-box"):
            yield Static(Text("Why do you give up?", style="bold"))
            yield OptionList(*ABANDON_REASONS, id="reasons")
            yield PlainInput(placeholder="or write your own reason, then Enter", id="own-reason")
            yield Static(Text("up/down and Enter pick a reason; escape keeps talking", "dim"))

    def on_mount(self) -> None:
        """Nothing picked yet: the person moves to a reason first."""
        self.query_one("#reasons", OptionList).highlighted = None

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        """The reason picked."""
        self.dismiss(ABANDON_REASONS[message.option_index])

    @on(Input.Submitted, "#own-reason")
    def written(self, message: Input.Submitted) -> None:
        """The reason written (an empty line picks nothing)."""
        message.stop()
        reason = " ".join(message.value.split())
        if reason:
            self.dismiss(reason)

    def action_dismiss_none(self) -> None:
        """Back to the conversation."""
        self.dismiss(None)
