"""τ²-bench's reward semantics on tau-sim's events: the task's ``reward_basis`` decides the product.

- DB: our state hash (both their databases, agent and user side) after the conversation
  against the one after replaying every gold action on a fresh copy with the task's initial
  state (a failing gold action is skipped, as their evaluator does);
- ENV_ASSERTION: their assertion functions run on their databases rebuilt from the final
  ``EnvironmentState`` (``adapter.rebuild``);
- COMMUNICATE: each ``communicate_info`` text, lower-cased, inside one agent message lower-cased
  without commas (their rule);
- ACTION: each gold action matched by a tool call of the agent or the user (their
  ``compare_args``);
- NL_ASSERTION: each of the task's ``nl_assertions`` judged met by the judge model
  (``AssertionJudged`` events, ``tau-sim run --judge``; a task without any scores 1.0, as
  theirs). Without a verdict for each, the task is reported in ``not_evaluated`` and scores 0,
  never a silent pass.

With a judge, every task that has ``nl_assertions`` is judged (their ``all_with_nl_assertions``
evaluation): the verdicts are in the breakdown's ``judged``, but only a task whose basis holds
NL_ASSERTION multiplies them into its reward. None of the tasks their package ships does
(airline's 50 and retail's 8 with assertions count DB and COMMUNICATE); a τ²-format task file
may.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tau2.data_model.message import ToolCall as Tau2ToolCall
from tau2.data_model.tasks import RewardType

from tau_sim.domains.tau2.adapter import Tau2Base, Tau2Database, rebuild
from tau_sim.simulator.core import (
    AgentMessage,
    AssertionJudged,
    Event,
    RewardBreakdown,
    UserToolCall,
)
from tau_sim.simulator.world import (
    Action,
    Domain,
    Evaluator,
    GoldState,
    Task,
    final_state,
    record_value,
)


class Tau2Evaluator(Evaluator):
    """Scores conversations of a ``tau2/*`` domain the way τ²-bench's evaluator does."""

    def __init__(self, domain: Domain) -> None:
        super().__init__(domain)
        base = domain.base
        assert isinstance(base, Tau2Base)
        self.tau2_base = base

    def assertions(self, task: Task) -> list[str]:
        """The task's ``nl_assertions`` (what a judge checks)."""
        criteria = self.tau2_base.initial[task.id].evaluation_criteria
        return list(criteria.nl_assertions or []) if criteria is not None else []

    def scores_assertions(self, task: Task) -> bool:
        """Whether NL_ASSERTION is in the task's reward basis."""
        criteria = self.tau2_base.initial[task.id].evaluation_criteria
        return criteria is not None and RewardType.NL_ASSERTION in criteria.reward_basis

    def gold_state(self, task: Task) -> GoldState:
        """The state after every gold action on a fresh copy (failing ones skipped; cached)."""
        cached = self._gold.get(task.id)
        if cached is not None and cached[0] is task:
            return cached[1]
        db = self.domain.new_database(task)
        writers: dict[tuple[str, str], Action] = {}
        before: dict[tuple[str, str], Any] = {}
        for action in task.actions:
            if self.domain.call(db, action).error:
                continue
            now = {(t, k): record_value(r) for t, k, r in db.changes()}
            writers.update({key: action for key, value in now.items() if before.get(key) != value})
            before = now
        state = GoldState(db.state_hash(), before, writers)
        self._gold[task.id] = (task, state)
        return state

    def evaluate(self, task: Task, events: Iterable[Event]) -> tuple[float, RewardBreakdown]:
        """(score, breakdown) of one conversation under the task's reward basis."""
        events = list(events)
        theirs = self.tau2_base.initial[task.id]
        criteria = theirs.evaluation_criteria
        state = final_state(events)
        expected = self.gold_hash(task)
        db_match = expected == state.state_hash
        texts = [
            e.text.lower().replace(",", "")
            for e in events
            if isinstance(e, AgentMessage) and e.text
        ]
        infos = list(criteria.communicate_info or []) if criteria is not None else []
        missing = [i for i in infos if not any(i.lower() in text for text in texts)]
        if criteria is None:
            return 1.0, RewardBreakdown(
                db_match, 1.0, expected_hash=expected, actual_hash=state.state_hash
            )
        basis = [b.value for b in criteria.reward_basis]
        checks: dict[str, float] = {}
        not_evaluated: list[str] = []
        env_free = criteria.actions is None and criteria.env_assertions is None
        if RewardType.DB.value in basis:
            checks["DB"] = 1.0 if db_match or env_free else 0.0
        if RewardType.ENV_ASSERTION.value in basis:
            checks["ENV_ASSERTION"] = 1.0 if env_free else self._assertions(task, state.changes)
        if RewardType.COMMUNICATE.value in basis:
            checks["COMMUNICATE"] = 0.0 if missing else 1.0
        if RewardType.ACTION.value in basis:
            checks["ACTION"] = self._actions(task, events)
        nl = self.assertions(task)
        verdicts = {e.assertion: e.met for e in events if isinstance(e, AssertionJudged)}
        judged = {a: verdicts[a] for a in nl if a in verdicts}
        if RewardType.NL_ASSERTION.value in basis:
            if len(judged) < len(nl):
                not_evaluated.append("NL_ASSERTION")
            else:
                checks["NL_ASSERTION"] = 1.0 if all(judged.values()) else 0.0
        score = 0.0 if not_evaluated else 1.0
        for value in checks.values():
            score *= value
        return score, RewardBreakdown(
            db_match=db_match,
            outputs_communicated=1.0 if not infos else 1 - len(missing) / len(infos),
            missing_outputs=missing,
            expected_hash=expected,
            actual_hash=state.state_hash,
            reward_basis=basis,
            checks=checks,
            not_evaluated=not_evaluated,
            judged=judged,
        )

    def _assertions(self, task: Task, changes: Iterable[Any]) -> float:
        """1.0 when every env assertion holds on the databases rebuilt from the final state."""
        criteria = self.tau2_base.initial[task.id].evaluation_criteria
        assertions = (criteria.env_assertions or []) if criteria is not None else []
        if not assertions:
            return 1.0
        records = [(c.table, c.key, record_value(c.record)) for c in changes]
        env = self.tau2_base.environment(rebuild(self.tau2_base, records))
        for assertion in assertions:
            try:
                held = env.run_env_assertion(assertion, raise_assertion_error=False)
            except Exception:  # their check raises on a record that is not there: not met
                held = False
            if not held:
                return 0.0
        return 1.0

    def _actions(self, task: Task, events: list[Event]) -> float:
        """1.0 when every gold action is matched by some agent or user tool call."""
        criteria = self.tau2_base.initial[task.id].evaluation_criteria
        gold = (criteria.actions or []) if criteria is not None else []
        calls = [
            Tau2ToolCall(id=c.id, name=c.name, arguments=c.arguments)
            for e in events
            if isinstance(e, AgentMessage)
            for c in e.tool_calls
        ]
        calls += [
            Tau2ToolCall(
                id=e.call.id, name=e.call.name, arguments=e.call.arguments, requestor="user"
            )
            for e in events
            if isinstance(e, UserToolCall)
        ]
        matched = all(any(a.compare_with_tool_call(c) for c in calls) for a in gold)
        return 1.0 if matched else 0.0


def tau2_database(db: object) -> Tau2Database:
    """``db`` as a τ²-bench conversation database (a type check for callers)."""
    assert isinstance(db, Tau2Database)
    return db
