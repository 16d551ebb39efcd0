"""An LLM reviewer of failed conversations: ``tau-sim review RUN_ID --judge PROVIDER/MODEL``.

Each failed conversation of a run that has a rule-based failure reason
(``simulator.engine.failures``) is shown to a judge model, built like any other model
(``make_model_provider``, role ``judge``): the dialogue, the tool calls and results, the ending and
the rule's reason. The judge answers a short free-text diagnosis. It is stored in the ``reviews``
table with the call's tokens and dollars, and the conversation's ``judge_*`` columns hold the sum of
its reviews plus what a ``run --judge`` spent on it, so the judge's cost shows in the report beside
the agent's and the user's. A conversation already reviewed by the same judge is skipped unless
``redo``. Judge calls run concurrently (``concurrency``); each review is committed on its own, so an
interrupted review keeps what it finished.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import anyio
import msgspec
import sqlite_utils

from tau_sim.simulator.core.chat import ChatMessage, ModelError
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.escapes import visible
from tau_sim.simulator.core.infra import EXCLUDED_REASONS
from tau_sim.simulator.core.registry import (
    SIMULATED_BACKENDS,
    load_plugins,
    make_model_provider,
    split_model_name,
)
from tau_sim.simulator.engine.judging import transcript_lines
from tau_sim.simulator.results.transcript import load_transcript
from tau_sim.simulator.store import get_run, role_usage, storage_faults

JUDGE = "judge"
REVIEW_RESULT_CHARS = 400
"""The longest tool result shown to the judge."""
SYSTEM = (
    "You review a failed conversation between a customer-service agent (which uses tools) and "
    "a simulated customer. A rule already classified the failure; explain what went wrong in "
    "at most three sentences: the decisive mistake, who made it (agent or simulated customer) "
    "and at which turn. Answer with the diagnosis only."
)


@dataclass
class _Totals:
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None

    def add(self, tokens_in: int, tokens_out: int, cost_usd: float | None) -> None:
        self.tokens_in += tokens_in
        self.tokens_out += tokens_out
        if cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + cost_usd


class ReviewOutcome(msgspec.Struct, frozen=True):
    """What ``review_run`` did: reviews stored, conversations skipped or failed, judge cost."""

    run_id: str
    judge: str
    reviewed: int
    already_reviewed: int
    errors: list[str]
    tokens_in: int
    tokens_out: int
    cost_usd: float | None


def create_reviews_table(sqlite: sqlite_utils.Database) -> None:
    """The judge's diagnoses, one per (conversation, judge), with the call's accounting."""
    sqlite.table("reviews").create(
        {
            "conversation": str,
            "judge": str,
            "run_id": str,
            "failure": str,
            "diagnosis": str,
            "tokens_in": int,
            "tokens_out": int,
            "tokens_cached": int,
            "cost_usd": float,
            "unpriced": int,
            "latency_s": float,
            "reviewed_at": float,
        },
        pk=("conversation", "judge"),
        if_not_exists=True,
    )


def review_prompt(sqlite: sqlite_utils.Database, conversation: str) -> list[ChatMessage]:
    """The judge's messages for one stored conversation: instructions, then the case."""
    transcript = load_transcript(sqlite, conversation)
    row = transcript.conversation
    lines = [
        f"Task {row['task_id']} ({row['domain']}); the customer's emotion: {row['emotion']}.",
        "",
        "Conversation:",
    ]
    lines += transcript_lines(transcript.events, REVIEW_RESULT_CHARS)
    lines += [
        "",
        f"Ending: {row['reason']}" + (f" ({row['detail']})" if row.get("detail") else ""),
        f"Rule-based failure: {row['failure']}: {row.get('failure_detail') or ''}",
    ]
    return [
        ChatMessage(role="system", content=SYSTEM),
        ChatMessage(role="user", content="\n".join(lines)),
    ]


def _to_review(
    sqlite: sqlite_utils.Database, run_id: str, judge: str, redo: bool
) -> tuple[list[tuple[str, str]], int]:
    excluded = ", ".join(f"'{reason}'" for reason in sorted(EXCLUDED_REASONS))
    failed = [  # the agent's failures: an endpoint's or the user simulator's are no judge's work
        (str(r[0]), str(r[1]))
        for r in sqlite.execute(
            "select id, failure from conversations where run_id = ? and status = 'completed' "
            f"and failure is not null and reason not in ({excluded}) "
            f"and failure not in ({excluded}) order by cell",
            [run_id],
        )
    ]
    done = {
        str(r[0])
        for r in sqlite.execute(
            "select conversation from reviews where run_id = ? and judge = ?", [run_id, judge]
        )
    }
    if redo:
        return failed, 0
    return [f for f in failed if f[0] not in done], sum(1 for f in failed if f[0] in done)


def _store(sqlite: sqlite_utils.Database, path: str, record: dict[str, Any]) -> None:
    """Store one review and set the conversation's judge columns.

    They become the run's own judge calls (``run --judge``, from the events) plus the sum of
    the conversation's reviews.
    """
    conversation = record["conversation"]
    with storage_faults(path), sqlite.conn:
        sqlite.table("reviews").upsert(record, pk=("conversation", "judge"))
        tokens_in, tokens_out, cached, cost, unpriced, simulated = role_usage(
            sqlite, conversation, "judge"
        )
        r_in, r_out, r_cached, r_cost, r_unpriced = sqlite.execute(
            "select sum(tokens_in), sum(tokens_out), sum(tokens_cached), sum(cost_usd), "
            "sum(unpriced) from reviews where conversation = ?",
            [conversation],
        ).fetchone()
        costs = [c for c in (cost, r_cost) if c is not None]
        sqlite.execute(
            "update conversations set judge_tokens_in = ?, judge_tokens_out = ?, "
            "judge_tokens_cached = ?, judge_cost_usd = ?, judge_unpriced = ?, "
            "judge_simulated = ? where id = ?",
            [
                tokens_in + (r_in or 0),
                tokens_out + (r_out or 0),
                cached + (r_cached or 0),
                sum(costs) if costs else None,
                unpriced + (r_unpriced or 0),
                simulated,
                conversation,
            ],
        )


async def review_run(
    sqlite: sqlite_utils.Database,
    path: str,
    run_id: str,
    judge: str,
    judge_args: dict[str, Any],
    *,
    redo: bool = False,
    concurrency: int = 8,
) -> ReviewOutcome:
    """Review every failed conversation of ``run_id`` with ``judge``; store each diagnosis.

    Up to ``concurrency`` judge calls are in flight at once. A judge call that fails
    (``ModelError``) is reported in ``errors`` and stores nothing; the other conversations are
    still reviewed.
    """
    if not 1 <= concurrency <= 1024:
        raise UsageError(f"--concurrency must be 1..1024 (got {concurrency})")
    run = get_run(sqlite, run_id)
    if split_model_name(judge)[0] in SIMULATED_BACKENDS or "/" not in judge:
        raise UsageError(f"--judge: expected a model PROVIDER/MODEL, got {judge!r}")
    load_plugins()
    provider = make_model_provider(judge, judge_args, flag="--judge")
    create_reviews_table(sqlite)
    todo, already = _to_review(sqlite, run["id"], judge, redo)
    errors: list[str] = []
    totals = _Totals()
    limiter = anyio.CapacityLimiter(concurrency)

    async def review_one(conversation: str, failure: str) -> None:
        async with limiter:
            model = provider.for_conversation(conversation, JUDGE)
            try:
                response = await model.chat(review_prompt(sqlite, conversation), [])
            except ModelError as exc:
                errors.append(f"{conversation}: {exc}")
                return
        usage = response.usage
        _store(
            sqlite,
            path,
            {
                "conversation": conversation,
                "judge": judge,
                "run_id": run["id"],
                "failure": failure,
                "diagnosis": " ".join((response.message.content or "").split()),
                "tokens_in": usage.tokens_in,
                "tokens_out": usage.tokens_out,
                "tokens_cached": usage.tokens_cached,
                "cost_usd": usage.cost_usd,
                "unpriced": int(usage.cost_usd is None),
                "latency_s": usage.latency_s,
                "reviewed_at": time.time(),
            },
        )
        totals.add(usage.tokens_in, usage.tokens_out, usage.cost_usd)

    async with provider, anyio.create_task_group() as tg:
        for conversation, failure in todo:
            tg.start_soon(review_one, conversation, failure)
    errors.sort()
    return ReviewOutcome(
        run["id"],
        judge,
        len(todo) - len(errors),
        already,
        errors,
        totals.tokens_in,
        totals.tokens_out,
        totals.cost_usd,
    )


def render_review(outcome: ReviewOutcome) -> str:
    """The lines ``tau-sim review`` prints (the judge's and the errors' words made visible)."""
    cost = "unpriced" if outcome.cost_usd is None else f"${outcome.cost_usd:.4f}"
    lines = [
        f"run {outcome.run_id}: {outcome.reviewed} failed conversations reviewed by "
        f"{outcome.judge} ({outcome.already_reviewed} already reviewed), judge tokens "
        f"{outcome.tokens_in} in / {outcome.tokens_out} out, cost {cost}"
    ]
    if outcome.errors:
        lines.append(f"{len(outcome.errors)} not reviewed (the judge's model failed):")
        lines += [f"  {e}" for e in outcome.errors]
    lines.append("diagnoses: `tau-sim show CONVERSATION_ID` or the `reviews` table")
    return visible("\n".join(lines))
