"""Infrastructure faults: conversations an endpoint ended, told apart from the agent's failures.

A conversation whose agent or user endpoint failed for good (``EndpointError``) ends with
``infra_error`` and a detail ``"<role>: [<kind>] <message>"``, the one format ``fault_of``
reads back. Such conversations say nothing about the agent: the report leaves them out of
pass^k, success and abandonment unless ``--count-errors``, ``--resume`` plays them again unless
``--keep-errors``, and a run where more than ``max_error_share`` of its conversations hit one
exits with ``EXIT_ENDPOINT_ERRORS`` and the one-line summary of ``share_line``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from tau_sim.simulator.core.chat import EndpointError
from tau_sim.simulator.core.endings import INFRA_ENDINGS, TerminationReason

INFRA_REASON = TerminationReason.INFRA_ERROR.value
INFRA_REASONS = frozenset(r.value for r in INFRA_ENDINGS)
COMPLETED_WITH_ERRORS = "completed_with_errors"
"""The status of a run whose every cell was played but some conversations hit endpoint errors.

A run is ``completed`` only when its results are whole: with this status ``tau-sim runs`` and
the report never read as a clean success, ``--resume`` plays the failed cells again, and a
resume that clears them turns the run ``completed``.
"""
EXIT_ENDPOINT_ERRORS = 3
"""Exit code of a run where more than ``max_error_share`` of the conversations hit endpoint
errors (the results exclude them)."""
_DETAIL = re.compile(r"^(\w+): \[([^\]]*)\]")


def infra_detail(role: str, error: EndpointError) -> str:
    """The stored detail of a conversation ended by ``error`` of ``role``'s endpoint."""
    return f"{role}: [{error.kind}] {error}"


def fault_of(detail: str | None) -> str:
    """The cause label of an ``infra_detail``: the kind, prefixed by the role unless the agent."""
    found = _DETAIL.match(detail or "")
    if found is None:
        return "endpoint error"
    role, kind = found.groups()
    return kind if role == "agent" else f"{role} {kind}"


def is_infra(row: Mapping[str, Any]) -> bool:
    """Whether a conversation row completed with an infrastructure ending."""
    return row["status"] == "completed" and row["reason"] in INFRA_REASONS


class ErrorShare(msgspec.Struct, frozen=True):
    """How many of a run's conversations hit endpoint errors, and why."""

    errors: int
    conversations: int
    causes: dict[str, int]

    @property
    def share(self) -> float:
        """The fraction of conversations that hit endpoint errors (0 for an empty run)."""
        return self.errors / self.conversations if self.conversations else 0.0


def error_share(rows: Iterable[Mapping[str, Any]]) -> ErrorShare:
    """The endpoint errors among conversation rows (those of one run)."""
    total = 0
    causes: Counter[str] = Counter()
    for row in rows:
        count = int(row.get("weight", 1))  # outcomes.weight (outcomes imports this module)
        total += count
        if is_infra(row):
            causes[fault_of(row["detail"])] += count
    return ErrorShare(sum(causes.values()), total, dict(causes.most_common()))


def run_error_share(db: Any, run_id: str) -> ErrorShare:
    """``error_share`` of the stored conversations of a run."""
    rows = db.query("select status, reason, detail from conversations where run_id = ?", [run_id])
    return error_share(rows)


def share_line(share: ErrorShare, resume: str, *, counted: bool = False) -> str:
    """The one-line summary: how many, which causes, that the results exclude them, how to resume.

    ``48 of 48 conversations (100%) hit endpoint errors (HTTP 429 rate limit x48); results
    exclude them; resume with: tau-sim run --resume RUN --db X`` (``counted``: the results
    count them as failures, ``--count-errors``).
    """
    causes = ", ".join(f"{cause} x{n}" for cause, n in share.causes.items())
    treated = "count them as failures" if counted else "exclude them"
    return (
        f"{share.errors} of {share.conversations} conversations ({share.share:.0%}) hit "
        f"endpoint errors ({causes}); results {treated}; resume with: {resume}"
    )
