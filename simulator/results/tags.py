"""What the users perceived: the tags of their emotion updates, counted per agent and condition.

Each ``EmotionUpdate`` a user sends carries its ``triggers``: the tags of the agent turn it
answers (``dismissive``, ``ignored_cue``, ``repeated_question:email``, ``unbacked_claim`` …;
the scripted user's vocabulary is ``users.dynamics.Signal``). They are results in their own
right: counted in SQL over the run's stored events (memory stays flat), per agent, user model
and condition, over the conversations the report counts, by kind (the part before ``:``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import sqlite_utils

from tau_sim.simulator.core.infra import INFRA_REASONS
from tau_sim.simulator.results.counting import condition_order

PERCEPTION_TAGS = (
    "dismissive",
    "ignored_cue",
    "repeated_question",
    "lookupable_question",
    "unbacked_claim",
    "unclear_question",
    "unknown_question",
    "no_progress",
    "announced_delay",
)
"""The tag kinds that say the user perceived friction (the report's table shows these)."""
GROUP = ("agent", "user", "emotion", "intensity", "politeness", "urgency", "trust")
"""One row of the tag counts: agent, user model and condition."""


def tag_kind(tag: str) -> str:
    """The kind of a tag: ``repeated_question:email`` -> ``repeated_question``."""
    return tag.partition(":")[0]


def tag_counts(
    sqlite: sqlite_utils.Database,
    run_id: str,
    label: Callable[[str, Any], str],
    *,
    count_errors: bool = False,
) -> list[dict[str, Any]]:
    """Per agent, user model and condition: ``updates`` (emotion updates) and ``tags`` by kind.

    ``label`` shows a condition field as the report does (conditions it shows alike are
    counted together: a task-profile run's families and levels); conversations an endpoint ended are
    left out unless ``count_errors``, as every figure of the report leaves them out.
    """
    have = set(sqlite.table("conversations").columns_dict)
    fields = ", ".join(f"c.{f} as {f}" if f in have else f"NULL as {f}" for f in GROUP)
    by = ", ".join(f"c.{f}" for f in GROUP if f in have)
    keep = "c.run_id = ? and c.status = 'completed' and e.kind = 'emotion_update'"
    args: list[Any] = [run_id]
    if not count_errors:
        keep += f" and c.reason not in ({', '.join('?' * len(INFRA_REASONS))})"
        args += sorted(INFRA_REASONS)
    source = "from events e join conversations c on c.id = e.conversation"
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in sqlite.query(
        f"select {fields}, count(*) as updates {source} where {keep} group by {by}", args
    ):
        key = tuple(row[f] for f in GROUP)
        groups[key] = {"updates": row["updates"], "tags": Counter()}
    for row in sqlite.query(
        f"select {fields}, t.value as tag, count(*) as n {source}, "
        f"json_each(e.payload, '$.triggers') t where {keep} group by {by}, t.value",
        args,
    ):
        key = tuple(row[f] for f in GROUP)
        groups[key]["tags"][tag_kind(str(row["tag"]))] += row["n"]
    merged: dict[tuple[str, ...], dict[str, Any]] = {}
    for key, entry in groups.items():
        shown = tuple(label(f, v) for f, v in zip(GROUP, key, strict=True))
        into = merged.setdefault(shown, {"updates": 0, "tags": Counter()})
        into["updates"] += entry["updates"]
        into["tags"].update(entry["tags"])
    out = [
        {
            **dict(zip(GROUP, shown, strict=True)),
            "updates": entry["updates"],
            "tags": dict(sorted(entry["tags"].items())),
        }
        for shown, entry in merged.items()
    ]
    return sorted(out, key=condition_order)
