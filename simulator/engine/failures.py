"""Why a conversation failed: one rule-based reason per failure, from its events alone.

``diagnose`` reads the conversation's events (ending, reward breakdown, user turns and emotion
updates, tool calls and results, the final ``EnvironmentState``) and the task's expected state
(``Evaluator.gold_state``); the first rule of ``FAILURE_KINDS`` that holds wins, so a stored
conversation gets the reason it got while it ran. The rules, one by one: docs/results.md,
"Costs, failure reasons, transcripts, exports".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.core.endings import AGENT_CONDUCT_TAGS, SUCCESS_EPS, TerminationReason
from tau_sim.simulator.core.events import (
    AgentMessage,
    EmotionUpdate,
    Event,
    RewardBreakdown,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.core.infra import REPEATED_USER_TURN, user_fault_of
from tau_sim.simulator.core.roles import EMPTY_TURN, REPAIRED_REPLY, UNSTRUCTURED_REPLY
from tau_sim.simulator.world.evaluation import (
    GoldState,
    MissingStateError,
    final_state,
    record_value,
)

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Task
    from tau_sim.simulator.world.evaluation import Evaluator, Violation

FAILURE_KINDS = (
    "infra_error",
    "model_error",
    "user_error",
    "error",
    "policy_violation",
    "timeout",
    "max_steps",
    "agent_stalled",
    "tool_errors",
    "user_quit",
    "abandoned",
    "transfer",
    "wrong_write",
    "missing_output",
    "unscored",
)
"""Every failure reason, in the order the rules are tried."""
FAILURE_EVIDENCE = (UserMessage, EmotionUpdate, ToolResult)
"""The kinds of event ``diagnose`` reads beyond the evaluator's (a conversation keeps them)."""
DETAIL_CHARS = 400
"""The longest stored failure detail (longer ones end with an ellipsis)."""
_LIMITS = {
    TerminationReason.TIMEOUT: "timeout",
    TerminationReason.MAX_STEPS: "max_steps",
    TerminationReason.AGENT_STALLED: "agent_stalled",
    TerminationReason.TOO_MANY_TOOL_ERRORS: "tool_errors",
}


class Failure(msgspec.Struct, frozen=True):
    """Why one conversation failed: a ``FAILURE_KINDS`` entry and what exactly."""

    kind: str
    detail: str = ""


def _short(text: str, limit: int = DETAIL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call(name: str, arguments: Mapping[str, Any]) -> str:
    """A tool call as ``name(key=value, ...)``."""
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


def _fields(expected: Any, actual: Any) -> str:
    """The fields two records differ in: ``field: expected X, got Y`` (at most three)."""
    if actual is None:
        return "not written"
    if expected is None:
        return "not deleted"
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return f"expected {expected!r}, got {actual!r}"
    names = [k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k)]
    parts = [f"{k}: expected {expected.get(k)!r}, got {actual.get(k)!r}" for k in sorted(names)]
    return "; ".join(parts[:3]) + (f"; +{len(parts) - 3} more" if len(parts) > 3 else "")


def _agent_writer(key: str, events: Sequence[Event]) -> str | None:
    """The last tool call of the agent whose arguments name ``key``, as ``name(args)``."""
    found = None
    for event in events:
        if isinstance(event, AgentMessage):
            for call in event.tool_calls:
                if any(str(v) == key for v in call.arguments.values()):
                    found = _call(call.name, call.arguments)
    return found


def state_diff(gold: GoldState, events: Sequence[Event]) -> list[str]:
    """What the final state gets wrong against ``gold``: missing gold writes, then extra ones."""
    actual = {(c.table, c.key): record_value(c.record) for c in final_state(events).changes}
    missing: dict[str, list[str]] = {}
    for key, expected in gold.records.items():
        if key not in actual or actual[key] != expected:
            writer = gold.writers.get(key)
            by = "gold write" + (f" {_call(writer.name, writer.arguments)}" if writer else "")
            missing.setdefault(by, []).append(
                f"{key[0]} {key[1]} {_fields(expected, actual.get(key))}"
            )
    lines = [f"missing {by}: {', '.join(records)}" for by, records in missing.items()]
    for key in sorted(actual.keys() - gold.records.keys()):  # sorted: the same in every process
        agent = _agent_writer(key[1], events)
        by = f" by {agent}" if agent else ""
        lines.append(f"extra write{by}: {key[0]} {key[1]}")
    return lines


def violation_made(violations: Sequence[Violation], events: Sequence[Event]) -> str | None:
    """The first forbidden write whose every record the final state holds as it leaves it.

    A record the write leaves as the base had it (None: a side record of a gold write that
    the forbidden one undid, such as a night's booking when the dates move) must be absent
    from the final state's changes too. Returned as ``name(args): table key, ...``; None when
    the state holds none of them (or the events hold no final state).
    """
    if not violations:
        return None
    try:
        changes = final_state(events).changes
    except MissingStateError:
        return None
    actual = {(c.table, c.key): record_value(c.record) for c in changes}
    for violation in violations:
        if all(actual.get(key) == value for key, value in violation.records.items()):
            records = ", ".join(f"{t} {k}" for t, k in sorted(violation.records))
            return f"{_call(violation.action.name, violation.action.arguments)}: {records}"
    return None


def _user_trouble(events: Sequence[Event]) -> tuple[int, int, int]:
    """(empty or malformed user turns, unstructured answers, repairs) of the user simulator."""
    empty = sum(
        1
        for e in events
        if isinstance(e, UserMessage) and e.ends is None and e.text.strip() in ("", EMPTY_TURN)
    )
    triggers = Counter(t for e in events if isinstance(e, EmotionUpdate) for t in e.triggers)
    return empty, triggers[UNSTRUCTURED_REPLY], triggers[REPAIRED_REPLY]


def _user_error(detail: str, events: Sequence[Event], unstructured: int, repairs: int) -> str:
    """The failure detail of a ``user_error`` ending: the repeated message, or the repairs."""
    if user_fault_of(detail) == REPEATED_USER_TURN:
        last = next((e.text for e in reversed(events) if isinstance(e, UserMessage)), "")
        return f"{detail}: {last!r}"
    return f"{detail} ({unstructured} unstructured answers, {repairs} repairs)"


def _abandon_reason(detail: str, events: Sequence[Event]) -> str:
    updates = [e for e in events if isinstance(e, EmotionUpdate)]
    reason = updates[-1].reason if updates else ""
    said = detail.replace("###UNSATISFIED###", "").strip()
    if reason and said:
        return f"{reason}: the user said {said!r}"
    return reason or (f"the user said {said!r}" if said else "the user gave no reason")


def _quit_on_ladder(breakdown: RewardBreakdown | None, events: Sequence[Event]) -> str:
    """What happened when a user gave up on its own pushback against a correct agent ("": not so).

    The final state matches, every required output was said, the user insisted on a refusal and
    none of its perception tags blames the agent's conduct.
    """
    if breakdown is None or not breakdown.db_match or breakdown.missing_outputs:
        return ""
    tags = [t for e in events if isinstance(e, EmotionUpdate) for t in e.triggers]
    insisted = [t.partition(":")[2] for t in tags if t.startswith("insisted:")]
    if not insisted or any(t.partition(":")[0] in AGENT_CONDUCT_TAGS for t in tags):
        return ""
    return (
        f"the user gave up after insisting {len(insisted)}x ({', '.join(insisted)}) on a "
        "refusal; the final state matches and every required output was said"
    )


def _tool_errors(detail: str, events: Sequence[Event]) -> str:
    failed = Counter(e.name for e in events if isinstance(e, ToolResult) and e.error)
    names = ", ".join(f"{name} x{n}" for name, n in failed.most_common(3))
    last = next((e for e in reversed(events) if isinstance(e, ToolResult) and e.error), None)
    tail = f"; last: {last.content}" if last is not None else ""
    return f"{detail} ({names}){tail}" if names else detail


def diagnose(
    *,
    reason: str,
    detail: str,
    reward: float,
    breakdown: RewardBreakdown | None,
    events: Iterable[Event],
    gold: GoldState | None,
    gold_transfer: bool,
    violations: Sequence[Violation] = (),
) -> Failure | None:
    """The reason a conversation failed (None when it earned its full reward).

    ``gold`` is the task's expected state (None: unknown, the diff is left out);
    ``gold_transfer``: the task's gold path ends with a transfer; ``violations``: the writes
    the policy forbids for the task (``Evaluator.violations``).
    """
    if reward >= 1.0 - SUCCESS_EPS:
        return None
    events = list(events)
    empty, unstructured, repairs = _user_trouble(events)
    if reason == TerminationReason.INFRA_ERROR:
        return Failure("infra_error", _short(detail))
    if reason == TerminationReason.MODEL_ERROR:
        kind = "user_error" if detail.startswith("user:") else "model_error"
        return Failure(kind, _short(detail))
    if reason == TerminationReason.USER_ERROR:
        return Failure("user_error", _short(_user_error(detail, events, unstructured, repairs)))
    if empty:
        return Failure(
            "user_error",
            f"{empty} empty or malformed user turns ({unstructured} unstructured answers, "
            f"{repairs} repairs)",
        )
    if reason == TerminationReason.ERROR:
        return Failure("error", _short(detail))
    forbidden = violation_made(violations, events)
    if forbidden is not None:
        return Failure("policy_violation", _short(f"forbidden write {forbidden}"))
    if reason in _LIMITS:
        text = _tool_errors(detail, events) if reason == "too_many_tool_errors" else detail
        return Failure(_LIMITS[TerminationReason(reason)], _short(text))
    if reason == TerminationReason.USER_ABANDONED:
        quit_on_ladder = _quit_on_ladder(breakdown, events)
        if quit_on_ladder:
            return Failure(
                "user_quit", _short(f"{quit_on_ladder}; {_abandon_reason(detail, events)}")
            )
        return Failure("abandoned", _short(_abandon_reason(detail, events)))
    if reason == TerminationReason.TRANSFER and not gold_transfer:
        return Failure("transfer", "transferred to a human; the task's gold path has no transfer")
    if breakdown is None:
        return Failure("unscored", "no reward breakdown")
    if not breakdown.db_match:
        lines = state_diff(gold, events) if gold is not None else []
        text = "; ".join(lines) if lines else "the final state differs from the expected one"
        return Failure("wrong_write", _short(text))
    if breakdown.missing_outputs:
        said = ", ".join(repr(o) for o in breakdown.missing_outputs)
        return Failure("missing_output", _short(f"never said {said}"))
    return Failure("unscored", "reward below 1 with the state and outputs right")


def diagnose_task(
    evaluator: Evaluator,
    task: Task,
    *,
    reason: str,
    detail: str,
    reward: float,
    breakdown: RewardBreakdown | None,
    events: Iterable[Event],
) -> Failure | None:
    """``diagnose`` with the task's expected state and gold ending from ``evaluator``."""
    endings = evaluator.domain.toolkit.endings
    gold_transfer = any(endings.get(a.name) == TerminationReason.TRANSFER for a in task.actions)
    return diagnose(
        reason=reason,
        detail=detail,
        reward=reward,
        breakdown=breakdown,
        events=events,
        gold=evaluator.gold_state(task),
        gold_transfer=gold_transfer,
        violations=evaluator.violations(task),
    )
