"""The data card of an exported dataset (``README.md``, Hugging Face's dataset-card layout).

YAML front matter (license, task categories, tags, size category, the ``train`` split's data
file), then the summary, the row format, the counts by domain, emotion family, emotion leaf and
intensity, the filter's thresholds, drop and flag counts, the balance over cells, and the
source runs and models. Nothing in
it depends on the time of the export.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from tau_sim.simulator.core import NEUTRAL
from tau_sim.tracer.filtering import Selection
from tau_sim.tracer.source import Conversation
from tau_sim.users.emotions import family_of


class CardFacts(msgspec.Struct, kw_only=True):
    """What the card counts, gathered row by row (``add``)."""

    selection: Selection
    fmt: str
    reasoning: str
    arguments_as_string: bool = False
    call_ids: str = "stored"
    domains: Counter[str] = msgspec.field(default_factory=Counter)
    families: Counter[str] = msgspec.field(default_factory=Counter)
    emotions: Counter[str] = msgspec.field(default_factory=Counter)
    intensities: Counter[str] = msgspec.field(default_factory=Counter)
    agents: Counter[str] = msgspec.field(default_factory=Counter)
    users: Counter[str] = msgspec.field(default_factory=Counter)

    def add(self, conversation: Conversation) -> None:
        """Count one exported conversation."""
        row = conversation.row
        emotion = str(row["emotion"])
        self.domains[str(row["domain"])] += 1
        self.families[NEUTRAL if emotion == NEUTRAL else family_of(emotion)] += 1
        self.emotions[emotion] += 1
        self.intensities[f"{float(row['intensity']):.1f}"] += 1
        self.agents[str(row["agent"])] += 1
        self.users[str(row["user"])] += 1


def _size_category(rows: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if rows < limit:
            return name
    return "100K<n<1M"


def _table(title: str, counts: Counter[str]) -> list[str]:
    lines = [f"| {title} | rows |", "|---|---:|"]
    lines += [f"| {key} | {counts[key]} |" for key in sorted(counts)]
    return [*lines, ""]


def data_card(facts: CardFacts) -> str:
    """The card's Markdown text."""
    rows = sum(facts.domains.values())
    selection = facts.selection
    limits = selection.thresholds
    arguments = "JSON strings" if facts.arguments_as_string else "JSON objects"
    ids = "as stored" if facts.call_ids == "stored" else "as 9 letters and digits (Mistral's)"
    layout = (
        "`messages` (system = the system prompt the agent was sent: a preamble, then the domain "
        "policy; user; assistant with `tool_calls`, each with its `id` and its `arguments` as "
        f"{arguments}; tool with the `tool_call_id` it answers) and `tools` (JSON-schema "
        f"function definitions), as TRL's `SFTTrainer` reads them. Call ids {ids}"
        if facts.fmt == "trl"
        else "ShareGPT: `system`, `conversations` (human, gpt, function_call, observation) and "
        "`tools` as a JSON string"
    )
    cells = selection.cells
    rule = selection.balance
    balance = [
        f"Cells: {' x '.join(rule.by)}; cap per cell: "
        f"{'none' if rule.cap is None else rule.cap}; evened out: {'yes' if rule.even else 'no'}"
        f" (seed {rule.seed}).",
        "",
    ]
    if cells is not None:
        balance += [
            f"{cells.cells} cells held {cells.before_min} to {cells.before_max} conversations "
            f"that passed the filters, and keep {cells.after_min} to {cells.after_max}; "
            f"{cells.cut} were cut.",
            "",
        ]
    lines = [
        "---",
        "license: apache-2.0",
        "task_categories:",
        "- text-generation",
        "tags:",
        "- tool-calling",
        "- agents",
        "- synthetic",
        "- tau-sim",
        "size_categories:",
        f"- {_size_category(rows)}",
        "configs:",
        "- config_name: default",
        "  data_files:",
        "  - split: train",
        "    path: train.jsonl",
        "---",
        "",
        "# tau-sim Tracer dataset",
        "",
        "## Dataset summary",
        "",
        f"{rows} simulated customer-service conversations between a tool-calling agent and a "
        "simulated emotional user, collected with tau-sim on Tracer-constructed tasks and "
        "kept by Tracer's interaction-aware filter. Scripted agents are calibration agents, "
        "not benchmark subjects: their conversations show the format, not a model's skill.",
        "",
        "## Dataset structure",
        "",
        f"One row per conversation in `train.jsonl`: `id`, `domain`, {layout}. Reasoning: "
        f"{facts.reasoning}. The user's hidden fields (scenario, emotion, emotion reports) are "
        "not in the rows.",
        "",
        "## Counts",
        "",
        *_table("domain", facts.domains),
        *_table("emotion family", facts.families),
        *_table("emotion", facts.emotions),
        *_table("intensity", facts.intensities),
        "## Filters",
        "",
        f"Kept {len(selection.kept)} of {selection.total} conversations: completed, not "
        f"abandoned, reward >= {limits.min_reward:g}; grounded (at most "
        f"{limits.max_ungrounded_arguments} tool-call arguments and "
        f"{limits.max_ungrounded_facts} stated ids, amounts or dates that nobody in the "
        f"dialogue gave; at most {limits.max_untold_picks} records picked among several that "
        "nobody singled out); "
        f"at most {limits.max_reliance} questions for information a tool could give, "
        f"{limits.max_redundant} questions for what the user had already given, "
        f"{limits.max_unanswered} user questions left unanswered; the user's tags at most "
        f"{limits.max_dismissive} dismissive, {limits.max_ignored_cue} ignored cues, "
        f"{limits.max_repeated_question} repeated questions, {limits.max_unbacked_claim} "
        f"unbacked claims; at most {limits.max_turns} turns and {limits.max_tool_errors} tool "
        "errors. Each dropped conversation counts under its first failed check; `flagged` "
        "counts every conversation a check fails.",
        "",
        *_table("dropped for", Counter(selection.dropped)),
        *_table("flagged for", Counter(selection.flagged)),
        "## Balance",
        "",
        *balance,
        "## Source",
        "",
        "Runs: " + ", ".join(f"`{r}`" for r in selection.runs) + ".",
        "",
        *_table("agent", facts.agents),
        *_table("user", facts.users),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"
