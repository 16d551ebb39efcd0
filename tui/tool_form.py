"""A form for one tool call, built from the tools' JSON schemas (``tau-sim human --role agent``).

``ToolForm`` is a modal screen: a ``Select`` of the tools, the chosen tool's description, and
one ``ArgumentField`` per parameter of its schema (its name, type, and whether it is required;
an ``Input`` with the description as placeholder and tooltip, or a ``Select`` for an enum or a
boolean). Inputs complete values seen earlier in the conversation (``completion.IdBook``: a
``SuggestFromList``, or a ``ListSuggester`` for a list's items) and list the best of them
below. Calling checks every field (``read_value``, as a typed line is read: required present,
integers and numbers parse, enums one of theirs) and lists what is wrong; once all is right the
form is dismissed with the command line ``/name {json}``, which the screen sends exactly as if
it had been typed. Escape closes it and sends nothing.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import Suggester, SuggestFromList
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Select, Static

from tau_sim.simulator.core import ToolSpec
from tau_sim.tui.completion import IdBook, ListSuggester
from tau_sim.tui.tool_lines import CallError, kind_of, read_value

HINTS = 4
"""How many values seen earlier a field lists below its input."""
REQUIRED = "required"


class ArgumentCheck(Validator):
    """Checks an argument's text by its schema, as a typed line is read (``read_value``)."""

    def __init__(self, schema: dict[str, Any], required: bool) -> None:
        super().__init__()
        self.schema = schema
        self.required = required

    def validate(self, value: str) -> ValidationResult:
        """Valid when it reads by the schema; empty is valid only when not required."""
        if not value.strip():
            return self.failure(REQUIRED) if self.required else self.success()
        try:
            read_value(value, self.schema)
        except CallError as exc:
            return self.failure(str(exc))
        return self.success()


class ArgumentField(Vertical):
    """One parameter of the tool: its label, its input (or choice) and the values seen."""

    def __init__(self, name: str, schema: dict[str, Any], required: bool, book: IdBook) -> None:
        super().__init__(id=f"arg-{name}", classes="argument")
        self.argument = name
        self.schema = schema
        self.required = required
        self.book = book
        description = str(schema.get("description", ""))
        choices = schema.get("enum") or ([True, False] if schema.get("type") == "boolean" else [])
        self.control: Input | Select[Any]
        if choices:
            self.control = Select(
                [(json.dumps(c) if isinstance(c, bool) else str(c), c) for c in choices],
                prompt=f"choose {name}",
                tooltip=description or None,
            )
        else:
            self.control = Input(
                placeholder=description or kind_of(schema),
                tooltip=description or None,
                validators=[ArgumentCheck(schema, required)],
                validate_on=["submitted"],
                suggester=self._suggester(),
            )

    def _suggester(self) -> Suggester:
        candidates = self.book.candidates(self.argument, self.schema)
        if self.schema.get("type") == "array":
            return ListSuggester(candidates)
        return SuggestFromList(candidates)

    def compose(self) -> ComposeResult:
        """The label, the control and the values seen under a matching key."""
        label = Text(self.argument, style="bold")
        label.append(" *" if self.required else "", style="bold red")
        label.append(f"  {kind_of(self.schema)}", style="dim")
        label.append(f"  {REQUIRED}" if self.required else "  optional", style="dim italic")
        yield Static(label, classes="argument-label")
        yield self.control
        seen = (
            []
            if isinstance(self.control, Select)
            else self.book.candidates(self.argument, self.schema, matching=True)
        )
        if seen:
            yield Static(Text("seen: " + ", ".join(seen[:HINTS]), style="dim"), classes="seen")

    def read(self) -> tuple[bool, Any]:
        """(True, the value) or (True, None) when left out; (False, what is wrong) otherwise."""
        if isinstance(self.control, Select):
            if self.control.is_blank():
                return (False, REQUIRED) if self.required else (True, None)
            return True, self.control.value
        result = self.control.validate(self.control.value)
        if result is not None and not result.is_valid:
            return False, "; ".join(result.failure_descriptions)
        text = self.control.value
        return True, read_value(text, self.schema) if text.strip() else None


class ArgumentList(VerticalScroll, can_focus=False):
    """The fields, scrolled when they do not fit (tab goes from field to field, not to it)."""


class ToolForm(ModalScreen[str | None]):
    """Fill in one tool call; dismissed with its command line (None: escape, nothing sent)."""

    DEFAULT_CSS = """
    ToolForm { align: center middle; }
    #form-box {
        width: 90%; max-width: 100; height: auto; max-height: 95%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #form-fields { height: auto; max-height: 24; }
    ToolForm .argument { height: auto; margin-top: 1; }
    ToolForm .seen { color: $text-muted; }
    #form-description { color: $text-muted; }
    #form-errors { color: $error; height: auto; }
    #form-buttons { height: auto; margin-top: 1; }
    #form-buttons Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, tools: list[ToolSpec], book: IdBook, tool: str | None = None) -> None:
        """A form for one of ``tools`` (first ``tool``), completing from ``book``."""
        super().__init__()
        self.tools = {t.name: t for t in tools}
        self.book = book
        self.tool = self.tools[tool] if tool in self.tools else tools[0]
        self.picked = tool is not None
        self.picker: Select[str] = Select(
            [(name, name) for name in self.tools],
            value=self.tool.name,
            allow_blank=False,
            id="form-tool",
        )
        self.description = Static(Text(self.tool.description), id="form-description")
        self.errors = Static(id="form-errors")

    def compose(self) -> ComposeResult:
        """The tool's choice, its arguments, what is wrong, and the buttons."""
        with Vertical(id="form-box"):
            yield Static(Text("Call a tool", style="bold"))
            yield self.picker
            yield self.description
            with ArgumentList(id="form-fields"):
                yield from self.argument_fields()
            yield self.errors
            with Horizontal(id="form-buttons"):
                yield Button("Call", variant="primary", id="form-call")
                yield Button("Cancel", id="form-cancel")
                yield Static(Text("enter calls, escape cancels", style="dim"))

    def argument_fields(self) -> list[ArgumentField]:
        """One field per parameter of the chosen tool, in the schema's order."""
        properties: dict[str, Any] = self.tool.parameters.get("properties", {})
        required = set(self.tool.parameters.get("required", []))
        return [ArgumentField(k, s, k in required, self.book) for k, s in properties.items()]

    def on_mount(self) -> None:
        """Focus the first argument of a tool named on opening, else the tool's choice."""
        self._focus_first()

    def _focus_first(self) -> None:
        fields = list(self.query(ArgumentField))
        if not self.picked:
            self.picker.focus()
        elif fields:
            fields[0].control.focus()
        else:
            self.query_one("#form-call", Button).focus()

    @on(Select.Changed, "#form-tool")
    async def chosen(self, message: Select.Changed) -> None:
        """Another tool: its description and its arguments instead."""
        if message.value == self.tool.name or not isinstance(message.value, str):
            return
        self.tool = self.tools[message.value]
        self.description.update(Text(self.tool.description))
        self.errors.update("")
        fields = self.query_one(ArgumentList)
        await fields.remove_children()
        await fields.mount_all(self.argument_fields())

    @on(Input.Submitted)
    @on(Button.Pressed, "#form-call")
    def submitted(self, message: Input.Submitted | Button.Pressed) -> None:
        """Enter in a field, or the Call button: check and call."""
        message.stop()
        self.action_call()

    def action_call(self) -> None:
        """Dismiss with the call's command line, or list what is wrong and stay."""
        arguments: dict[str, Any] = {}
        wrong = Text()
        for field in self.query(ArgumentField):
            ok, value = field.read()
            if not ok:
                wrong.append(f"{field.argument}: {value}\n")
            elif value is not None:
                arguments[field.argument] = value
        if wrong:
            self.errors.update(wrong)
            return
        self.dismiss(f"/{self.tool.name} {json.dumps(arguments, ensure_ascii=False)}")

    @on(Button.Pressed, "#form-cancel")
    def cancelled(self) -> None:
        """The Cancel button."""
        self.action_cancel()

    def action_cancel(self) -> None:
        """Close the form; nothing is sent."""
        self.dismiss(None)
