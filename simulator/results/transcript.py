r"""One stored conversation as a transcript: ``tau-sim show CONVERSATION_ID [--json]``.

The terminal view styles the user, the agent, tool calls and tool results apart (the user's
own device calls and what they showed as ``phone`` lines), gives each
user turn the intensity its ``EmotionUpdate`` reported, marks on it the friction the user
perceived in the agent's turn before (``perceived: dismissive, repeated_question:email``: the
tags of ``results.tags.PERCEPTION_TAGS``; its other triggers stay with the intensity), and ends
with the ending, the reward breakdown, the failure reason and how the reward was computed
(``grading:``, ``store.provenance``). Every text from a model, a user
or a tool is put in a rich ``Text`` (never parsed as markup), so ``[bold]`` in a message
prints as written, and every stored text is passed through ``core.escapes.visible`` first:
NUL, ESC, a bidirectional override or a zero-width space prints as its escape (``\x00``,
``\x1b``, ``\u202e``, ``\u200b``), never raw. The ``--json`` form writes those characters as
JSON escapes (``json_visible``): the same text once decoded, but no raw control or
bidirectional character on the terminal.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import sqlite_utils
from rich.console import Console
from rich.text import Text

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.escapes import json_visible, visible
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    EmotionUpdate,
    EnvironmentState,
    Event,
    ModelUsage,
    ToolResult,
    UserMessage,
    UserToolCall,
    UserToolResult,
)
from tau_sim.simulator.core.grading import Provenance
from tau_sim.simulator.core.registry import is_calibration_agent
from tau_sim.simulator.results.tags import PERCEPTION_TAGS, tag_kind
from tau_sim.simulator.store import iter_events
from tau_sim.simulator.store.provenance import (
    provenance_columns,
    provenance_line,
    row_provenance,
    stored_warnings,
)

NO_MODEL_BACKENDS = ("scripted", "human")
"""Backends of turns no model made (a scripted actor's, a person's): not counted as calls."""
SHOW_RESULT_CHARS = 600
"""The longest tool result the terminal view prints (the JSON view keeps it whole)."""


class Transcript(msgspec.Struct, frozen=True):
    """A stored conversation: its row, its events in order, its reviews and its provenance.

    The row has ``breakdown`` and ``warnings`` decoded; ``provenance`` is None for a
    conversation not completed.
    """

    conversation: dict[str, Any]
    events: list[Event]
    reviews: list[dict[str, Any]] = []
    provenance: Provenance | None = None


def load_transcript(sqlite: sqlite_utils.Database, conversation_id: str) -> Transcript:
    """The conversation ``conversation_id`` with its events; ``UsageError`` when there is none."""
    columns = "" if "scored_by" in sqlite.table("conversations").columns_dict else ", "
    columns += provenance_columns(sqlite) if columns else ""
    rows = list(
        sqlite.query(f"select *{columns} from conversations where id = ?", [conversation_id])
    )
    if not rows:
        raise UsageError(
            f"no conversation {conversation_id!r} in this database "
            "(conversation ids: `tau-sim export RUN_ID`)"
        )
    row = dict(rows[0])
    provenance = row_provenance(row) if row.get("status") == "completed" else None
    if row.get("breakdown"):
        row["breakdown"] = json.loads(row["breakdown"])
    if "warnings" in row:
        row["warnings"] = stored_warnings(row["warnings"])
    reviews: list[dict[str, Any]] = []
    if "reviews" in sqlite.table_names():
        reviews = list(
            sqlite.query(
                "select judge, diagnosis, reviewed_at from reviews where conversation = ? "
                "order by reviewed_at",
                [conversation_id],
            )
        )
    return Transcript(row, list(iter_events(sqlite, conversation_id)), reviews, provenance)


def transcript_json(transcript: Transcript) -> str:
    """The ``--json`` form: the conversation row, its events, reviews and ``provenance``."""
    return json_visible(json.dumps(msgspec.to_builtins(transcript), indent=2, ensure_ascii=False))


def _label(name: str, style: str) -> Text:
    return Text(f"{name:>6} ", style=style)


def _text(text: object, style: str = "") -> Text:
    """A stored text as a rich ``Text``: no markup, control and format characters escaped."""
    return Text(visible(str(text)), style=style)


def _args(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False)


def _cut(content: str) -> str:
    if len(content) <= SHOW_RESULT_CHARS:
        return content
    return content[:SHOW_RESULT_CHARS] + f"… ({len(content)} characters)"


def _line(event: Event, intensity: EmotionUpdate | None) -> Text | None:
    """One event as a styled line (None: not shown)."""
    if isinstance(event, UserMessage):
        line = _label("user", "bold cyan") + _text(event.text, "cyan")
        if intensity is not None:
            perceived = [t for t in intensity.triggers if tag_kind(t) in PERCEPTION_TAGS]
            others = [t for t in intensity.triggers if t not in perceived]
            line += _text(
                f"  (intensity {intensity.intensity:.2f}, dissatisfaction "
                f"{intensity.dissatisfaction:.2f}"
                + (f", {', '.join(others)}" if others else "")
                + ")",
                "dim",
            )
            if perceived:
                line += Text(f"\n{'':>7}") + _text(f"perceived: {', '.join(perceived)}", "yellow")
        return line
    if isinstance(event, AgentMessage):
        line = _label("agent", "bold green")
        if event.text:
            line += _text(event.text, "green")
        for call in event.tool_calls:
            line += Text(f"\n{'':>7}-> ", "yellow") + _text(
                f"{call.name}({_args(call.arguments)})", "yellow"
            )
        return line
    if isinstance(event, ToolResult):
        content = _cut(event.content)
        style = "red" if event.error else "magenta"
        mark = "error" if event.error else "result"
        return _label("tool", f"bold {style}") + _text(f"{event.name} {mark}: {content}", style)
    if isinstance(event, UserToolCall):
        return _label("phone", "bold cyan") + _text(
            f"{event.call.name}({_args(event.call.arguments)})", "cyan"
        )
    if isinstance(event, UserToolResult):
        style = "red" if event.error else "cyan"
        mark = "error" if event.error else "shows"
        content = _cut(event.content)
        return _label("phone", f"bold {style}") + _text(f"{event.name} {mark}: {content}", style)
    if isinstance(event, EnvironmentState):
        changed = ", ".join(f"{c.table} {c.key}" for c in event.changes) or "nothing"
        return _label("env", "bold blue") + _text(f"final state changed: {changed}", "blue")
    return None


def _ending(
    row: dict[str, Any], ended: ConversationEnded | None, provenance: Provenance | None
) -> list[Text]:
    lines = [
        Text.assemble(
            ("ended: ", "bold"),
            visible(str(row.get("reason") or "-")),
            (visible(f" ({row['detail']})") if row.get("detail") else "", "dim"),
            ("  reward ", "bold"),
            "-" if row.get("reward") is None else f"{row['reward']:g}",
        )
    ]
    breakdown = row.get("breakdown")
    if isinstance(breakdown, dict):
        missing = ", ".join(breakdown.get("missing_outputs") or []) or "none"
        lines.append(
            _text(
                f"breakdown: state match {breakdown.get('db_match')}, outputs said "
                f"{breakdown.get('outputs_communicated', 0):.0%}, missing outputs: {missing}"
            )
        )
    failure = row.get("failure") or (ended.failure if ended else None)
    if failure:
        detail = row.get("failure_detail") or (ended.failure_detail if ended else "")
        lines.append(
            Text.assemble(
                ("failure: ", "bold red"), (visible(failure), "red"), visible(f" — {detail}")
            )
        )
    if provenance is not None:
        warned = "yellow" if provenance.warnings else "dim"
        lines.append(Text.assemble(("grading: ", "bold"), (provenance_line(provenance), warned)))
    return lines


def render_transcript(transcript: Transcript, console: Console) -> None:
    """Print the transcript: header, one line per turn, tool call and result, then the ending."""
    row = transcript.conversation
    intensity = "" if row["emotion"] == "neutral" else f" {row['intensity']:.2f}"
    console.print(
        Text.assemble(
            (visible(f"conversation {row['id']}"), "bold"),
            visible(f"  run {row['run_id']}  task {row['task_id']} ({row['domain']})"),
            visible(f"\nagent {row['agent']}  user {row['user']}  emotion {row['emotion']}")
            + intensity,
            f"  trial {row['trial']}  seed {row['seed']}",
        )
    )
    feeling: EmotionUpdate | None = None
    ended: ConversationEnded | None = None
    calls = turns = 0
    for event in transcript.events:
        if isinstance(event, EmotionUpdate):
            feeling = event  # it comes just before the user message it describes
            continue
        if isinstance(event, ModelUsage):
            if event.backend in NO_MODEL_BACKENDS:
                turns += 1
            else:
                calls += 1
            continue
        if isinstance(event, ConversationEnded):
            ended = event
            continue
        line = _line(event, feeling if isinstance(event, UserMessage) else None)
        if line is not None:
            console.print(line)
        if isinstance(event, UserMessage):
            feeling = None
    for line in _ending(row, ended, transcript.provenance):
        console.print(line)
    played = f", {turns} turns scripted or typed by a person" if turns else ""
    console.print(Text(f"{calls} model calls{played}", style="dim"))
    if is_calibration_agent(str(row["agent"])):
        console.print(
            _text(
                f"note: {row['agent']} reads the task's answer key: it calibrates the harness "
                "and is not a benchmark subject",
                "dim",
            )
        )
    for review in transcript.reviews:
        console.print(
            Text.assemble(
                ("review ", "bold"),
                (visible(f"({review['judge']}): "), "dim"),
                visible(str(review["diagnosis"])),
            )
        )
