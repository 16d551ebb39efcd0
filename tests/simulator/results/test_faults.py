"""Endpoint and user-simulator errors in the figures: left out of pass^k, success and
abandonment by default, counted apart."""

from typing import Any

from tau_sim.simulator.core.chat import EndpointError
from tau_sim.simulator.core.infra import (
    EMPTY_USER_TURN,
    REPEATED_USER_TURN,
    error_share,
    fault_of,
    infra_detail,
    share_line,
    user_error_detail,
)
from tau_sim.simulator.results.metrics import summarize


def row(task: str, trial: int, reason: str, reward: float, detail: str = "") -> dict[str, Any]:
    return {
        "task_id": task,
        "trial": trial,
        "agent": "a",
        "user": "u",
        "domain": "d",
        "emotion": "neutral",
        "intensity": 0.0,
        "politeness": None,
        "urgency": None,
        "trust": None,
        "status": "completed",
        "reason": reason,
        "reward": reward,
        "detail": detail,
        "turns": 4,
        "tool_calls": 1,
        "questions": 0,
        "tokens_in": 10,
        "tokens_out": 5,
    }


LIMITED = infra_detail("agent", EndpointError("HTTP 429: slow down", kind="HTTP 429 rate limit"))
ROWS = [
    row("t1", 0, "user_stop", 1.0),
    row("t1", 1, "infra_error", 0.0, LIMITED),
    row("t2", 0, "user_abandoned", 0.0),
    row("t2", 1, "user_stop", 1.0),
]


def test_endpoint_errors_are_left_out_unless_counted() -> None:
    figures = summarize(ROWS, 2)
    assert (figures["completed"], figures["infra_errors"], figures["n"]) == (4, 1, 3)
    # t1 has one counted trial (pass^1 = 1), t2 one success of two: pass^2 is not given, as
    # a mean over t2 alone would not be pass^2 of the run's two tasks
    assert figures["pass_hat_k"] == {"1": 0.75, "2": None}
    assert (figures["cells"], figures["cells_with_k"]) == (2, {"1": 2, "2": 1})
    assert figures["success_rate"] == round(2 / 3, 4)
    assert figures["abandonment_rate"] == round(1 / 3, 4)
    assert figures["reasons"]["infra_error"] == 1
    counted = summarize(ROWS, 2, count_errors=True)
    assert (counted["n"], counted["infra_errors"]) == (4, 1)
    assert counted["pass_hat_k"] == {"1": 0.5, "2": 0.0}
    assert counted["success_rate"] == 0.5 and counted["abandonment_rate"] == 0.25


def test_the_cause_comes_back_from_the_stored_detail() -> None:
    assert LIMITED == "agent: [HTTP 429 rate limit] HTTP 429: slow down"
    assert fault_of(LIMITED) == "HTTP 429 rate limit"
    user = infra_detail("user", EndpointError("no answer within 1 s", kind="timeout"))
    assert fault_of(user) == "user timeout"
    assert fault_of("agent: something else") == "endpoint error"
    share = error_share([*ROWS, row("t3", 0, "infra_error", 0.0, user)])
    assert (share.errors, share.conversations) == (2, 5)
    line = share_line(share, "tau-sim run --resume R --db x.db")
    assert line == (
        "2 of 5 conversations (40%) hit endpoint errors (HTTP 429 rate limit x1, user timeout "
        "x1); results exclude them; resume with: tau-sim run --resume R --db x.db"
    )


def test_the_progress_counts_endpoint_errors_apart() -> None:
    from tau_sim.simulator.core.events import ConversationEnded
    from tau_sim.simulator.run import RunProgress

    progress = RunProgress(enabled=False)
    progress.start(3, 0)
    for reason, reward in (("user_stop", 1.0), ("infra_error", 0.0), ("user_abandoned", 0.0)):
        progress.conversation_ended(
            None, ConversationEnded(conversation="c", reason=reason, reward=reward)
        )
    assert (progress.done, progress.finished, progress.infra_errors) == (3, 2, 1)
    assert (progress.successes, progress.abandoned) == (1, 1)


LOOPED = user_error_detail(REPEATED_USER_TURN, "the user simulator sent the same message 6 times")
SILENT = user_error_detail(EMPTY_USER_TURN, "the user simulator sent no usable message")


def test_user_simulator_errors_are_left_out_and_counted_apart_from_endpoint_errors() -> None:
    rows = [*ROWS, row("t2", 2, "user_error", 0.0, LOOPED), row("t1", 2, "user_error", 0.0, SILENT)]
    figures = summarize(rows, 2)
    assert (figures["completed"], figures["n"]) == (6, 3)
    assert (figures["infra_errors"], figures["user_errors"]) == (1, 2)
    assert figures["pass_hat_k"] == {"1": 0.75, "2": None}  # as without the user errors
    counted = summarize(rows, 2, count_errors=True)  # both kinds back, as failures
    assert (counted["n"], counted["user_errors"]) == (6, 2)
    assert counted["success_rate"] == round(2 / 6, 4)
    share = error_share(rows)
    assert (share.errors, share.user_errors, share.excluded, share.conversations) == (1, 2, 3, 6)
    assert share.user_causes == {"repeated turn": 1, "empty turn": 1}
    assert share_line(share, "RESUME") == (
        "3 of 6 conversations (50%) hit endpoint errors (HTTP 429 rate limit x1) or "
        "user-simulator errors (repeated turn x1, empty turn x1); results exclude them; "
        "resume with: RESUME"
    )


def test_the_progress_counts_user_simulator_errors_apart() -> None:
    from tau_sim.simulator.core.events import ConversationEnded
    from tau_sim.simulator.run import RunProgress

    progress = RunProgress(enabled=False)
    progress.start(3, 0)
    for reason, reward in (("user_stop", 1.0), ("user_error", 0.0), ("infra_error", 0.0)):
        progress.conversation_ended(
            None, ConversationEnded(conversation="c", reason=reason, reward=reward)
        )
    assert (progress.finished, progress.infra_errors, progress.user_errors) == (1, 1, 1)
