"""How hard a domain's tasks are, in figures (``tau-sim domains stats``).

``task_stats(domain, tasks)`` measures a task set the way issue 22 compares tau-sim with
τ²-bench: how many writes and actions the gold paths take, how varied the tool-call sequences
and the openings are, how often the user hands over the record id instead of describing it,
how many goals are conditional, how many tasks mix an allowed write with a forbidden one, how
many are refusals and how many need user-side steps. A figure that cannot be computed from a
domain's tasks is None, and ``not_computed`` says why (τ²-bench's tasks have no intents, so
their forbidden writes are not known). Every figure is computed from the task data alone: no
conversation is played.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from tau_sim.simulator.world.domain import TIERS, Domain, Task

MANY_WRITES = 3
"""A task with at least this many gold writes counts as a long horizon (``writes_3plus``)."""

NO_RULES = "the policy marks no refusal rule with an id"
"""Why ``refusal_rules`` is not computed for a domain (``[rule ID]`` marks: ``policyrules``)."""

NO_INTENTS = "the tasks come without intents, so their forbidden writes are not known"
"""Why the refusal figures are not computed for a domain read from files (τ²-bench's)."""

_NUMBER = re.compile(r"[#$]?\w*\d[\w.:/,-]*\w|\d")
"""A word holding a digit: an id, an amount, a date, a time, a count."""
_CODE = re.compile(r"\b[A-Z0-9]{5,}\b")
"""A word of five or more capitals: a record code (``HXDUBJ``)."""
_IF = re.compile(r"\bif\b", re.IGNORECASE)
_RECORD_IF = re.compile(r"\bif\b(?! the agent\b)(?! you\b)", re.IGNORECASE)
"""An "if" the records decide: not "If the agent says …" nor "if you waive …" (the agent's
conduct, which the user's own reply settles)."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


class TaskStats(msgspec.Struct, frozen=True, kw_only=True):
    """The figures of one domain's task set.

    Shares are in 0..1; None is not computed (``not_computed`` says why), as are the means and
    shares of no tasks.

    ``tiers``: tasks per tier. ``writes_mean``: gold writes per task (agent's and user's);
    ``writes_3plus``: share of tasks with at least ``MANY_WRITES``. ``gold_mean`` and
    ``gold_max``: gold path length (actions). ``sequences_per_task``: distinct tool-name
    sequences of the gold paths over tasks; ``openings_per_task``: distinct openings over
    tasks once names, ids and numbers are masked (``masked_opening``). ``id_in_opening``: share
    of tasks whose opening states a record id the gold path uses (``record_ids``);
    ``id_in_scenario``: whose opening, goal or known facts state one. ``conditional``: share
    of tasks with a goal sentence holding the word "if"; ``conditional_records``: of those, the
    tasks with an "if" the records decide (not "If the agent says …": ``on_records``).
    ``sequences_collapsed``: ``sequences_per_task`` with each run of one read tool counted
    once (reading three orders in a row is one step of the sequence). ``mixed``: share of tasks
    with a forbidden write the user asks for (``Domain.violations``) and a gold write beside it;
    ``refusals``: tasks where some request must be refused (an intent the policy forbids, or a
    forbidden write the user asks for); ``forbidden_writes``: those of them whose forbidden
    write the tools would allow (``Domain.violations``: what a pushover does; where the tools
    themselves refuse, there is none); ``refusal_rules``: the policy's refusal rules some task
    tests (its intent's ``rules``) and ``rules_total`` how many the policy marks (None where
    it marks none). ``later``: share of tasks whose user raises a new need mid-conversation.
    ``dual_control``: share of tasks whose gold path has a user step (``Domain.is_user_step``).
    """

    domain: str
    tasks: int
    tiers: dict[str, int]
    writes_mean: float | None
    writes_3plus: float | None
    gold_mean: float | None
    gold_max: int | None
    sequences_per_task: float | None
    openings_per_task: float | None
    id_in_opening: float | None
    id_in_scenario: float | None
    conditional: float | None
    conditional_records: float | None
    sequences_collapsed: float | None
    mixed: float | None
    refusals: int | None
    forbidden_writes: int | None
    refusal_rules: int | None
    rules_total: int | None
    later: float | None
    dual_control: float | None
    not_computed: dict[str, str]


def task_stats(domain: Domain, tasks: Sequence[Task] | None = None) -> TaskStats:
    """The figures of ``tasks`` (default: the domain's benchmark tasks) in ``domain``."""
    tasks = domain.tasks if tasks is None else list(tasks)
    n = len(tasks)
    writes = [len(domain.write_actions(t)) for t in tasks]
    lengths = [len(t.actions) for t in tasks]
    tiers = Counter(t.tier for t in tasks)
    not_computed: dict[str, str] = {}
    total = len(domain.policy_rules)
    covered = {r for t in tasks for r in domain.rules_of(t)} & set(domain.policy_rules)
    if not total:
        not_computed["refusal_rules"] = NO_RULES
    mixed: float | None = None
    refusals: int | None = None
    forbidden_writes: int | None = None
    if domain.intents:
        asked = [bool(domain.violations(t)) for t in tasks]
        forbidden_writes = sum(asked)
        refusals = sum(a or t.forbidden for a, t in zip(asked, tasks, strict=True))
        mixed = _share(sum(a and w > 0 for a, w in zip(asked, writes, strict=True)), n)
    else:
        not_computed |= {name: NO_INTENTS for name in ("mixed", "refusals", "forbidden_writes")}
    return TaskStats(
        domain=domain.name,
        tasks=n,
        tiers={tier: tiers.get(tier, 0) for tier in TIERS},
        writes_mean=_mean(writes),
        writes_3plus=_share(sum(w >= MANY_WRITES for w in writes), n),
        gold_mean=_mean(lengths),
        gold_max=max(lengths, default=None),
        sequences_per_task=_share(len({tuple(a.name for a in t.actions) for t in tasks}), n),
        openings_per_task=_share(len({masked_opening(t) for t in tasks}), n),
        id_in_opening=_share(sum(_states_id(t, t.scenario.opening) for t in tasks), n),
        id_in_scenario=_share(sum(_states_id(t, _scenario_text(t)) for t in tasks), n),
        conditional=_share(sum(is_conditional(t) for t in tasks), n),
        conditional_records=_share(sum(on_records(t) for t in tasks), n),
        sequences_collapsed=_share(len({collapsed(domain, t) for t in tasks}), n),
        mixed=mixed,
        refusals=refusals,
        forbidden_writes=forbidden_writes,
        refusal_rules=len(covered) if total else None,
        rules_total=total or None,
        later=_share(sum(bool(t.scenario.later) for t in tasks), n),
        dual_control=_share(sum(any(map(domain.is_user_step, t.actions)) for t in tasks), n),
        not_computed=not_computed,
    )


def masked_opening(task: Task) -> str:
    """``task``'s opening with names, ids and numbers masked, to count its template.

    Each known fact of the scenario (the user's name, email, zip, order id ...) becomes
    ``<fact>`` (longest first, any case), then every word holding a digit or of five or more
    capitals becomes ``<n>``.
    """
    text = task.scenario.opening
    facts = sorted((v for v in task.scenario.known_info.values() if len(v) >= 2), key=len)
    for value in reversed(facts):
        text = re.sub(re.escape(value), "<fact>", text, flags=re.IGNORECASE)
    return _CODE.sub("<n>", _NUMBER.sub("<n>", text))


def record_ids(task: Task) -> list[str]:
    """The record ids ``task``'s gold path uses, in order.

    They are its string arguments (nested ones too) named ``id``, ``*_id`` or ``*_number``
    that are not one of the task's authentication slots.
    """
    found: list[str] = []
    for action in task.actions:
        for key, value in _strings(action.arguments):
            named = key.endswith(("_id", "_number")) or key == "id"
            if named and key not in task.auth_slots and value not in found:
                found.append(value)
    return found


def is_conditional(task: Task) -> bool:
    """Whether a sentence of ``task``'s goal holds the word "if"."""
    return any(_IF.search(s) for s in _SENTENCE.split(task.scenario.goal))


def on_records(task: Task) -> bool:
    """Whether a sentence of ``task``'s goal holds an "if" the records decide.

    "If the agent says a specialist must take it, I accept" turns on the agent's conduct, not
    on what the tools return; "if the fee is more than $20" turns on a record.
    """
    return any(_RECORD_IF.search(s) for s in _SENTENCE.split(task.scenario.goal))


def collapsed(domain: Domain, task: Task) -> tuple[str, ...]:
    """``task``'s gold tool names with each run of one read tool kept once."""
    names: list[str] = []
    for action in task.actions:
        if names and names[-1] == action.name and domain.toolkit.kind(action.name) != "write":
            continue
        names.append(action.name)
    return tuple(names)


def _states_id(task: Task, text: str) -> bool:
    """Whether ``text`` states one of ``task``'s record ids (any case, ``#`` optional)."""
    lowered = text.lower()
    for value in record_ids(task):
        bare = value.lower().lstrip("#")
        if len(bare) >= 3 and bare in lowered:
            return True
    return False


def _scenario_text(task: Task) -> str:
    """The opening, the goal and the known facts of ``task``, one text."""
    scenario = task.scenario
    return "\n".join([scenario.opening, scenario.goal, *scenario.known_info.values()])


def _strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(argument name, value) of every string in an action's arguments, nested ones too."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v, key)


def _mean(values: Sequence[int]) -> float | None:
    return sum(values) / len(values) if values else None


def _share(count: int, total: int) -> float | None:
    return count / total if total else None
