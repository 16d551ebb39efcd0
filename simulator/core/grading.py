"""How a stored reward was computed: its provenance (how, scorer version, when, warnings).

Every completed conversation's row records how its reward was computed (``conversations``
columns ``scored_by``, ``scorer_version``, ``scored_at``, ``warnings``; the README, "Grading
provenance"): ``live`` while it ran, ``rescored`` by ``tau-sim rescore --write``, ``replayed``
from events stored elsewhere (no command writes it yet). A warning is a short code
(``WARNINGS`` gives its human line). A reward one of whose checks could not be evaluated (an
empty or unreadable judge answer on a task whose reward counts the judge's verdicts, or no
judge at all) is *not evaluated*: never a pass, and counted apart by the reports.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from tau_sim.simulator.core.events import RewardBreakdown

SCORER_VERSION = 1
"""The version of the scoring rules (``world.evaluation``, a domain's own evaluator, the failure
reasons of ``engine.failures``): bump it in the change that makes a stored conversation score
differently, and say what changed here. 1: the first recorded version (December 2026): state
match x required outputs said; τ²-bench's reward basis for ``tau2/*``; an empty or unreadable
judge answer is not evaluated. Rows stored before provenance was recorded have none (NULL:
unknown)."""

LIVE = "live"
RESCORED = "rescored"
REPLAYED = "replayed"
SCORED_BY = (LIVE, RESCORED, REPLAYED)
"""How a reward was computed: while the conversation ran, by ``rescore --write``, from replayed
events."""

JUDGE_EMPTY = "judge_empty"
JUDGE_UNREADABLE = "judge_unreadable"
NOT_EVALUATED = "not_evaluated"
WARNINGS = {
    JUDGE_EMPTY: "the judge returned an empty answer",
    JUDGE_UNREADABLE: "the judge's answer did not decode",
    NOT_EVALUATED: "a check of the reward was not evaluated: the reward is not a pass",
}
"""Each warning code and its human line."""
JUDGE_WARNINGS = (JUDGE_EMPTY, JUDGE_UNREADABLE)
"""The warnings of the live judge, which a rescore (it asks no judge) carries over."""


class GradingWarning(msgspec.Struct, frozen=True):
    """One warning of a reward: its code and its human line."""

    code: str
    text: str


class Provenance(msgspec.Struct, frozen=True):
    """How one stored reward was computed (``scorer_version`` None: unknown, stored before it).

    ``evaluated`` is False when a check of the reward was not evaluated (``NOT_EVALUATED``).
    """

    scored_by: str
    scorer_version: int | None
    scored_at: float | None
    warnings: list[GradingWarning]
    evaluated: bool


def grading_warnings(breakdown: RewardBreakdown | None, judge: Iterable[str] = ()) -> list[str]:
    """The warning codes of a reward: the judge's (``judge``), then ``not_evaluated`` if due."""
    codes = [code for code in judge if code in JUDGE_WARNINGS]
    if breakdown is not None and breakdown.not_evaluated:
        codes.append(NOT_EVALUATED)
    return list(dict.fromkeys(codes))


def warning_line(code: str, not_evaluated: Sequence[str] = ()) -> str:
    """The human line of ``code`` (with the checks not evaluated, for ``not_evaluated``)."""
    text = WARNINGS.get(code, "a warning this tau-sim does not know")
    if code == NOT_EVALUATED and not_evaluated:
        text = f"{text} ({', '.join(not_evaluated)})"
    return text


__all__ = [
    "JUDGE_EMPTY",
    "JUDGE_UNREADABLE",
    "JUDGE_WARNINGS",
    "LIVE",
    "NOT_EVALUATED",
    "REPLAYED",
    "RESCORED",
    "SCORED_BY",
    "SCORER_VERSION",
    "WARNINGS",
    "GradingWarning",
    "Provenance",
    "grading_warnings",
    "warning_line",
]
