"""Conversations the agent is not to blame for: endpoint faults and user-simulator failures.

A conversation whose agent or user endpoint failed for good (``EndpointError``) ends with
``infra_error`` and a detail ``"<role>: [<kind>] <message>"``, the one format ``fault_of``
reads back. One whose user simulator failed (an empty or unusable turn, the same message over
and over: the referee decides) ends with ``user_error`` and a detail of the same format
(``user_error_detail``). Such conversations say nothing about the agent: the report leaves them
out of pass^k, success and abandonment unless ``--count-errors`` (which counts both kinds as
failures), counts them apart (``infra_errors``, ``user_errors``), ``--resume`` plays them
again unless ``--keep-errors``, and a run where more than ``max_error_share`` of its
conversations hit one exits with ``EXIT_ENDPOINT_ERRORS`` and the one-line summary of
``share_line``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from tau_sim.simulator.core.chat import EndpointError
from tau_sim.simulator.core.endings import (
    EXCLUDED_ENDINGS,
    INFRA_ENDINGS,
    USER_ERROR_ENDINGS,
    TerminationReason,
)

INFRA_REASON = TerminationReason.INFRA_ERROR.value
INFRA_REASONS = frozenset(r.value for r in INFRA_ENDINGS)
USER_ERROR_REASON = TerminationReason.USER_ERROR.value
USER_ERROR_REASONS = frozenset(r.value for r in USER_ERROR_ENDINGS)
EXCLUDED_REASONS = frozenset(r.value for r in EXCLUDED_ENDINGS)
"""The ending reasons the figures leave out (unless ``--count-errors``) and ``--resume`` plays
again (unless ``--keep-errors``): endpoint errors and user-simulator errors."""
EMPTY_USER_TURN = "empty turn"
"""The ``user_error`` kind of a user turn with no usable message (after the user's repairs)."""
REPEATED_USER_TURN = "repeated turn"
"""The ``user_error`` kind of a user who sent the same message ``REPEATED_USER_TURNS`` times."""
COMPLETED_WITH_ERRORS = "completed_with_errors"
"""The status of a run whose every cell was played but some conversations hit endpoint or
user-simulator errors.

A run is ``completed`` only when its results are whole: with this status ``tau-sim runs`` and
the report never read as a clean success, ``--resume`` plays the failed cells again, and a
resume that clears them turns the run ``completed``.
"""
EXIT_ENDPOINT_ERRORS = 3
"""Exit code of a run where more than ``max_error_share`` of the conversations hit endpoint or
user-simulator errors (the results exclude them)."""
_DETAIL = re.compile(r"^(\w+): \[([^\]]*)\]")


def infra_detail(role: str, error: EndpointError) -> str:
    """The stored detail of a conversation ended by ``error`` of ``role``'s endpoint."""
    return f"{role}: [{error.kind}] {error}"


def user_error_detail(kind: str, message: str) -> str:
    """The stored detail of a conversation its user simulator ended (``EMPTY_USER_TURN``...)."""
    return f"user: [{kind}] {message}"


def fault_of(detail: str | None) -> str:
    """The cause label of an ``infra_detail``: the kind, prefixed by the role unless the agent."""
    found = _DETAIL.match(detail or "")
    if found is None:
        return "endpoint error"
    role, kind = found.groups()
    return kind if role == "agent" else f"{role} {kind}"


def user_fault_of(detail: str | None) -> str:
    """The cause label of a ``user_error_detail``: its kind (``empty turn``, ``repeated turn``)."""
    found = _DETAIL.match(detail or "")
    return found.group(2) if found is not None else "user simulator"


def is_infra(row: Mapping[str, Any]) -> bool:
    """Whether a conversation row completed with an infrastructure ending."""
    return row["status"] == "completed" and row["reason"] in INFRA_REASONS


def is_user_error(row: Mapping[str, Any]) -> bool:
    """Whether a conversation row completed with a user-simulator ending (``user_error``)."""
    return row["status"] == "completed" and row["reason"] in USER_ERROR_REASONS


USER_QUIT = "user_quit"
"""The failure of a correct agent whose user gave up on its own pushback (``engine.failures``)."""


def is_user_quit(row: Mapping[str, Any]) -> bool:
    """Whether a conversation row's user gave up on its own pushback against a correct agent."""
    return row["status"] == "completed" and row.get("failure") == USER_QUIT


def is_excluded(row: Mapping[str, Any]) -> bool:
    """Whether the figures leave a conversation row out by default.

    Those ``EXCLUDED_REASONS`` ended, and those whose user quit on a correct agent
    (``is_user_quit``): neither says anything about the agent.
    """
    return row["status"] == "completed" and (row["reason"] in EXCLUDED_REASONS or is_user_quit(row))


class ErrorShare(msgspec.Struct, frozen=True):
    """How many of a run's conversations hit errors the agent is not to blame for, and why.

    ``errors`` hit endpoint errors (by ``causes``), ``user_errors`` user-simulator errors (by
    ``user_causes``).
    """

    errors: int
    conversations: int
    causes: dict[str, int]
    user_errors: int = 0
    user_causes: dict[str, int] = {}

    @property
    def excluded(self) -> int:
        """How many conversations the figures leave out: both kinds of error."""
        return self.errors + self.user_errors

    @property
    def share(self) -> float:
        """The fraction of conversations the figures leave out (0 for an empty run)."""
        return self.excluded / self.conversations if self.conversations else 0.0

    @property
    def what(self) -> str:
        """What the excluded conversations hit: endpoint errors, user-simulator errors or both."""
        kinds = [
            *(["endpoint errors"] if self.errors else []),
            *(["user-simulator errors"] if self.user_errors else []),
        ]
        return " or ".join(kinds) or "endpoint errors"


def error_share(rows: Iterable[Mapping[str, Any]]) -> ErrorShare:
    """The endpoint and user-simulator errors among conversation rows (those of one run)."""
    total = 0
    causes: Counter[str] = Counter()
    user_causes: Counter[str] = Counter()
    for row in rows:
        count = int(row.get("weight", 1))  # outcomes.weight (outcomes imports this module)
        total += count
        if is_infra(row):
            causes[fault_of(row["detail"])] += count
        elif is_user_error(row):
            user_causes[user_fault_of(row["detail"])] += count
    return ErrorShare(
        sum(causes.values()),
        total,
        dict(causes.most_common()),
        sum(user_causes.values()),
        dict(user_causes.most_common()),
    )


def run_error_share(db: Any, run_id: str) -> ErrorShare:
    """``error_share`` of the stored conversations of a run."""
    rows = db.query("select status, reason, detail from conversations where run_id = ?", [run_id])
    return error_share(rows)


def share_line(share: ErrorShare, resume: str, *, counted: bool = False) -> str:
    """The one-line summary: how many, which causes, that the results exclude them, how to resume.

    ``48 of 48 conversations (100%) hit endpoint errors (HTTP 429 rate limit x48); results
    exclude them; resume with: tau-sim run --resume RUN --db X`` (``counted``: the results
    count them as failures, ``--count-errors``). User-simulator errors read ``user-simulator
    errors (empty turn x3)``, after the endpoint errors when a run has both.
    """
    kinds = [
        f"{what} ({', '.join(f'{cause} x{n}' for cause, n in causes.items())})"
        for what, count, causes in (
            ("endpoint errors", share.errors, share.causes),
            ("user-simulator errors", share.user_errors, share.user_causes),
        )
        if count
    ]
    treated = "count them as failures" if counted else "exclude them"
    return (
        f"{share.excluded} of {share.conversations} conversations ({share.share:.0%}) hit "
        f"{' or '.join(kinds)}; results {treated}; resume with: {resume}"
    )
