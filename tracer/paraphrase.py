"""Paraphrase constructed scenarios with an LLM writer, keeping every known value and the intent.

The writer (``--writer PROVIDER/MODEL``, built like any model: ``make_model_provider``, role
``writer``) is asked for a JSON object ``{"goal": ..., "opening": ...}`` rewording the
template's goal and opening. The paraphrase is kept only when it is such an object, its goal
still contains every known-info value that the template's goal contains and its opening every
value the template's opening contains (case-insensitive substrings), and, given an
``IntentIndex`` (``tracer.meaning``), goal and opening still say the task's intent. Else, or
when the call fails, the template stands, and the reason is counted (``REJECTIONS``). Known
info, unknown info and the gold path never change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import anyio
import msgspec

from tau_sim.simulator.core import (
    ChatMessage,
    ModelError,
    UsageError,
    load_plugins,
    make_model_provider,
    split_model_name,
)
from tau_sim.simulator.world import Task, UserScenario
from tau_sim.tracer.meaning import IntentIndex

WRITER = "writer"
REJECTIONS: tuple[str, ...] = (
    "writer_error",
    "not_json",
    "lost_value",
    "lost_intent",
    "hard_tier",
)
"""Why a paraphrase is not kept: the call failed, the answer is not a goal and an opening as
JSON, it lost a known value, its goal or opening no longer says the intent, or the task is of
the hard tier (its intents build on the base ones' requests, so the classifier cannot tell
whether a paraphrase kept the hard one: it is not checked, so not kept)."""
SYSTEM = (
    "You rewrite a simulated customer's scenario for a customer-service benchmark. Reword the "
    "goal and the opening line naturally, in the customer's first person, keeping every name, "
    "number, code, date and amount exactly as written. Answer with one JSON object "
    '{"goal": "...", "opening": "..."} and nothing else.'
)


def _values_in(text: str, values: Sequence[str]) -> list[str]:
    low = text.lower()
    return [v for v in values if v and v.lower() in low]


def keeps_values(template: UserScenario, goal: str, opening: str) -> bool:
    """Whether the paraphrase keeps each known value its template part contains."""
    values = list(template.known_info.values())
    return all(v.lower() in goal.lower() for v in _values_in(template.goal, values)) and all(
        v.lower() in opening.lower() for v in _values_in(template.opening, values)
    )


def judge(
    task: Task, answer: str | None, index: IntentIndex | None = None
) -> tuple[Task, str | None]:
    """``task`` with the writer's ``answer`` as goal and opening, or ``task`` and why not."""
    try:
        parsed: Any = json.loads(answer or "")
    except ValueError:
        return task, "not_json"
    if not isinstance(parsed, dict):
        return task, "not_json"
    goal, opening = parsed.get("goal"), parsed.get("opening")
    if not isinstance(goal, str) or not isinstance(opening, str):
        return task, "not_json"
    goal, opening = " ".join(goal.split()), " ".join(opening.split())
    if not goal or not opening:
        return task, "not_json"
    if not keeps_values(task.scenario, goal, opening):
        return task, "lost_value"
    if index is not None and task.tier != "base":
        return task, "hard_tier"
    if index is not None and not index.keeps_intent(task, goal, opening):
        return task, "lost_intent"
    scenario = msgspec.structs.replace(task.scenario, goal=goal, opening=opening)
    return msgspec.structs.replace(task, scenario=scenario), None


def accept(task: Task, answer: str | None, index: IntentIndex | None = None) -> Task:
    """``task`` with the writer's ``answer`` as goal and opening when it passes the check."""
    return judge(task, answer, index)[0]


def _prompt(task: Task) -> list[ChatMessage]:
    body = json.dumps({"goal": task.scenario.goal, "opening": task.scenario.opening})
    return [ChatMessage("system", SYSTEM), ChatMessage("user", body)]


async def paraphrase_all(
    tasks: Sequence[Task],
    writer: str,
    args: dict[str, Any],
    concurrency: int = 8,
    index: IntentIndex | None = None,
) -> tuple[list[Task], dict[str, int]]:
    """Every task paraphrased by ``writer`` (or left as it is), in order; rejections by reason."""
    if "/" not in writer or split_model_name(writer)[0] == "scripted":
        raise UsageError(f"--writer: expected a model PROVIDER/MODEL, got {writer!r}")
    load_plugins()
    provider = make_model_provider(writer, args, flag="--writer")
    out = list(tasks)
    rejected = dict.fromkeys(REJECTIONS, 0)
    limiter = anyio.CapacityLimiter(concurrency)

    async def one(index_: int) -> None:
        task = out[index_]
        async with limiter:
            model = provider.for_conversation(task.id, WRITER)
            try:
                response = await model.chat(_prompt(task), [])
            except ModelError:
                rejected["writer_error"] += 1
                return
        out[index_], reason = judge(task, response.message.content, index)
        if reason is not None:
            rejected[reason] += 1

    async with provider, anyio.create_task_group() as tg:
        for n in range(len(out)):
            tg.start_soon(one, n)
    return out, rejected
