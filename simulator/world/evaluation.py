"""τ-bench style evaluation from a conversation's events alone.

The reward reads nothing but events: the agent's texts from its ``AgentMessage`` events and
the final state from the ``EnvironmentState`` event the environment publishes when the
conversation ends. The expected state comes from replaying the task's gold write actions on a
fresh database of the domain. So a conversation read back from SQLite is scored exactly as it
was while it ran (``tau-sim rescore``).

Reward = database match x every required output communicated (both must hold); only a
conversation that ended well (the user stopped, or a transfer) keeps its score.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.core.endings import SUCCESSFUL_ENDINGS
from tau_sim.simulator.core.events import (
    AgentMessage,
    AssertionJudged,
    ChangedRecord,
    EnvironmentState,
    Event,
    RewardBreakdown,
    UserToolCall,
)
from tau_sim.simulator.world.contractions import written_out

if TYPE_CHECKING:
    from tau_sim.simulator.world.database import Database
    from tau_sim.simulator.world.domain import Action, Domain, Task

_SPACE = re.compile(r"\s+")
_encoder = msgspec.json.Encoder()
_plain = msgspec.json.Decoder()

EVIDENCE = (AgentMessage, EnvironmentState, UserToolCall, AssertionJudged)
"""The kinds of event the evaluator reads (a conversation keeps these for its verdict)."""


class MissingStateError(ValueError):
    """The events hold no ``EnvironmentState`` (a conversation stored by an older tau-sim)."""


def normalize_text(text: str) -> str:
    """Lower-case, drop thousands separators, write contractions out, collapse white space.

    For output matching: "can't be changed", "can not be changed" and "cannot be changed" (or
    "won't", "isn't" …, typographic apostrophes too) match each other either way round
    (``contractions.written_out``).
    """
    text = text.lower().replace(",", "").replace("\u2019", "'")
    text = written_out(text).replace("can not", "cannot")
    return _SPACE.sub(" ", text).strip()


@lru_cache(maxsize=4096)
def _whole(phrase: str) -> re.Pattern[str]:
    """``phrase`` (normalised) as whole words."""
    return re.compile(r"(?<![a-z0-9])" + re.escape(normalize_text(phrase)) + r"(?![a-z0-9])")


@lru_cache(maxsize=4096)
def _stated_alone(output: str) -> re.Pattern[str]:
    """``output`` stated as a value on its own: after ":" or ";", before ".", ";" or the end."""
    return re.compile(
        r"(?:^|[:;])\s*" + re.escape(normalize_text(output)) + r"\s*(?:[.;!?]|$)", re.M
    )


def output_said(output: str, said: str, phrasings: Mapping[str, Sequence[str]]) -> bool:
    """Whether ``said`` (normalised agent text) communicates the required ``output``.

    An output the domain gives phrasings for (``Domain.phrasings``: the policy's own ways of
    saying it, "never removed" for "cannot be removed", or a status in context, "still open"
    but not any "open") is said when one of them appears as whole words, or when the output is
    stated as a value on its own ("Status: open."); any other output when it appears in the
    text ("4 refill" in "4 refills").
    """
    ways = phrasings.get(output)
    if ways is None:
        return normalize_text(output) in said
    return bool(_stated_alone(output).search(said)) or any(_whole(w).search(said) for w in ways)


def agent_texts(events: Iterable[Event]) -> list[str]:
    """What the agent said to the user: the text of every agent turn without tool calls."""
    return [e.text for e in events if isinstance(e, AgentMessage) and e.text and not e.tool_calls]


def final_state(events: Iterable[Event]) -> EnvironmentState:
    """The last ``EnvironmentState`` event; ``MissingStateError`` when there is none."""
    state = None
    for event in events:
        if isinstance(event, EnvironmentState):
            state = event
    if state is None:
        raise MissingStateError("the conversation's events hold no environment_state event")
    return state


def state_event(conversation: str, db: Database) -> EnvironmentState:
    """The ``EnvironmentState`` of a database: its state hash and every changed record."""
    changes = [ChangedRecord(table, key, record) for table, key, record in db.changes()]
    return EnvironmentState(conversation=conversation, state_hash=db.state_hash(), changes=changes)


def final_reward(reason: str, score: float) -> float:
    """The reward a conversation keeps: its score when it ended well, else 0."""
    return score if reason in SUCCESSFUL_ENDINGS else 0.0


def record_value(record: Any) -> Any:
    """A changed record as plain JSON values (a tool's Struct and its stored JSON compare equal)."""
    return _plain.decode(_encoder.encode(record))


@dataclass(frozen=True)
class GoldState:
    """The expected final state of a task: its hash, its changed records and who wrote each.

    ``records`` maps (table, key) to the record as plain JSON values (None: deleted);
    ``writers`` maps (table, key) to the last gold write action that changed it.
    """

    state_hash: str
    records: dict[tuple[str, str], Any]
    writers: dict[tuple[str, str], Action]


@dataclass(frozen=True)
class Violation:
    """A write the policy forbids for a task, and the records it leaves (None: deleted)."""

    action: Action
    records: dict[tuple[str, str], Any]


class Evaluator:
    """Scores the conversations of one domain; gold states are computed once per task."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        # task id -> (the task object, its gold state); a different object under the same id
        # (a task file read again, perhaps changed) is replayed again.
        self._gold: dict[str, tuple[Task, GoldState]] = {}
        self._violations: dict[str, tuple[Task, list[Violation]]] = {}

    def gold_state(self, task: Task) -> GoldState:
        """The state after replaying the gold write actions on a fresh database (cached).

        The user's own gold steps (their device) are replayed too, so the state compared holds
        both what the agent must change and what it must have the user change.
        """
        cached = self._gold.get(task.id)
        if cached is not None and cached[0] is task:
            return cached[1]
        domain = self.domain
        db = domain.new_database(task)
        writers: dict[tuple[str, str], Action] = {}
        before: dict[tuple[str, str], Any] = {}
        for action in domain.write_actions(task):
            outcome = domain.call(db, action)
            if outcome.error:
                raise ValueError(
                    f"task {task.id}: gold action {action.name} fails: {outcome.content}"
                )
            now = {(t, k): record_value(r) for t, k, r in db.changes()}
            writers.update({key: action for key, value in now.items() if before.get(key) != value})
            before = now
        state = GoldState(db.state_hash(), before, writers)
        self._gold[task.id] = (task, state)
        return state

    def violations(self, task: Task) -> list[Violation]:
        """What each forbidden write of ``task`` (``Domain.violations``) leaves behind (cached).

        The gold writes are replayed on a fresh database, then the violations in order; each
        violation that succeeds and changes a record is listed with the records it changed,
        as they stand once every violation is made.
        """
        cached = self._violations.get(task.id)
        if cached is not None and cached[0] is task:
            return cached[1]
        domain = self.domain
        forbidden = domain.violations(task)
        found: list[Violation] = []
        if forbidden:
            db = domain.new_database(task)
            for action in domain.write_actions(task):
                domain.call(db, action)
            before = {(t, k): record_value(r) for t, k, r in db.changes()}
            touched: list[tuple[Action, set[tuple[str, str]]]] = []
            for action in forbidden:
                if domain.call(db, action).error:
                    continue
                now = {(t, k): record_value(r) for t, k, r in db.changes()}
                keys = {k for k in now.keys() | before.keys() if now.get(k) != before.get(k)}
                touched.append((action, keys))
                before = now
            found = [
                Violation(action, {key: before.get(key) for key in keys})
                for action, keys in touched
                if keys
            ]
        self._violations[task.id] = (task, found)
        return found

    def assertions(self, task: Task) -> list[str]:
        """The task's natural-language assertions, which only a judge model can check.

        Our own tasks have none; a domain with its own evaluator may list some (τ²-bench's
        ``nl_assertions``).
        """
        return []

    def scores_assertions(self, task: Task) -> bool:
        """Whether the judge's verdicts on ``task``'s assertions enter its reward."""
        return False

    def gold_hash(self, task: Task) -> str:
        """State hash after replaying the gold write actions on a fresh database (cached)."""
        return self.gold_state(task).state_hash

    def evaluate(self, task: Task, events: Iterable[Event]) -> tuple[float, RewardBreakdown]:
        """(score, breakdown) of one conversation's events against ``task``.

        The score ignores how the conversation ended; ``final_reward`` applies that.
        """
        events = list(events)
        expected = self.gold_hash(task)
        state = final_state(events)
        actual = state.state_hash
        if state.changes:
            # hashed again from the stored records, so a conversation stored under an older hash
            # (before it was blind to the order of writes) is scored as one played today
            changes = [(c.table, c.key, c.record) for c in state.changes]
            actual = self.domain.new_database(task).hash_of(changes)
        said = normalize_text("\n".join(agent_texts(events)))
        ways = self.domain.phrasings
        missing = [o for o in task.required_outputs if not output_said(o, said, ways)]
        outputs = (
            1.0 if not task.required_outputs else 1 - len(missing) / len(task.required_outputs)
        )
        db_match = expected == actual
        score = 1.0 if db_match and not missing else 0.0
        return score, RewardBreakdown(
            db_match=db_match,
            outputs_communicated=outputs,
            missing_outputs=missing,
            expected_hash=expected,
            actual_hash=actual,
        )


def make_evaluator(domain: Domain) -> Evaluator:
    """The evaluator of ``domain``: its own ``evaluator`` factory if it has one, else ours."""
    return domain.evaluator(domain) if domain.evaluator is not None else Evaluator(domain)


def evaluate(domain: Domain, task: Task, events: Iterable[Event]) -> tuple[float, RewardBreakdown]:
    """Score one conversation's events against ``task`` (uncached: an ``Evaluator`` caches)."""
    return make_evaluator(domain).evaluate(task, events)


__all__ = [
    "EVIDENCE",
    "Evaluator",
    "GoldState",
    "MissingStateError",
    "Violation",
    "agent_texts",
    "evaluate",
    "final_reward",
    "final_state",
    "make_evaluator",
    "normalize_text",
    "output_said",
    "record_value",
    "state_event",
]
