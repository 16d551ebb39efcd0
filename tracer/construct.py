"""Construct training tasks: sampled from a domain's intents, grounded, compliant and new.

``construct`` samples the domain's intents round-robin (like ``Domain.generate_tasks``) and
keeps a sampled task only when it is

- sampled: the intent returned a task (``sampled`` counts the tries that returned None);
- new: its signature (intent + gold actions, ``signature``) was not kept before
  (``duplicate``) and is not the signature of a benchmark task of the domain (``benchmark``);
- grounded: every gold action succeeds when played in order on a fresh database
  (``not_grounded``);
- compliant (``compliant``, else ``not_compliant``): ``check_gold`` accepts it (known tools,
  arguments that convert to the tools' argument types); an intent the policy forbids
  (``Intent.forbidden``) writes nothing on its gold path (its gold answer is a refusal or a
  transfer, never the forbidden change); and a tool that ends the conversation (a transfer)
  comes only as the last gold action.

Kept tasks get ids ``{domain}-train-{n:04d}``, the template scenario (or a checked paraphrase,
``tracer.paraphrase``) with a persona (``persona_for``, as the benchmark's tasks get theirs),
the data their lines carry (``Intent.with_data``: violations, rules, format)
and, with a distribution, an emotion profile each (``tracer.emotions``).
A held-out split (``tracer.splits``) samples only the intents it does not hold out, and its
record is kept in ``Construction.split``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import msgspec

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.world import Domain, Intent, Task, check_gold, persona_for
from tau_sim.tracer.emotions import EmotionDistribution, assign
from tau_sim.tracer.splits import Split, brief

DROP_REASONS: tuple[str, ...] = (
    "sampled",
    "duplicate",
    "benchmark",
    "not_grounded",
    "not_compliant",
)
"""Why a sampled task is not kept, in the order the checks run (see the module docstring)."""


class Construction(msgspec.Struct):
    """The kept tasks and what was dropped, by reason (``DROP_REASONS``)."""

    domain: str
    tasks: list[Task]
    dropped: dict[str, int]
    attempts: int
    paraphrased: int = 0
    paraphrase_rejected: int = 0
    paraphrase_rejected_by: dict[str, int] | None = None
    split: Split | None = None

    def rewritten(self, tasks: list[Task], rejected: dict[str, int] | None = None) -> None:
        """Take ``tasks``: the kept tasks, paraphrased where the writer passed the check.

        ``rejected`` counts the rejected paraphrases by reason (``tracer.paraphrase``).
        """
        self.paraphrased = sum(
            a.scenario != b.scenario for a, b in zip(self.tasks, tasks, strict=True)
        )
        self.paraphrase_rejected = len(tasks) - self.paraphrased
        self.paraphrase_rejected_by = rejected
        self.tasks = tasks

    def summary(self) -> dict[str, object]:
        """The counts as ``tau-sim tracer construct`` prints them."""
        return {
            "domain": self.domain,
            "kept": len(self.tasks),
            "attempts": self.attempts,
            "dropped": self.dropped,
            "paraphrased": self.paraphrased,
            "paraphrase_rejected": self.paraphrase_rejected,
            **(
                {"paraphrase_rejected_by": self.paraphrase_rejected_by}
                if self.paraphrase_rejected_by is not None
                else {}
            ),
            **({"split": brief(self.split)} if self.split is not None else {}),
        }


def signature(task: Task) -> bytes:
    """A task's signature: its intent and its gold actions (arguments in sorted key order)."""
    return msgspec.json.encode([task.intent, task.actions], order="sorted")


def compliant(domain: Domain, task: Task) -> bool:
    """Whether ``task``'s gold path needs no policy violation (see the module docstring)."""
    try:
        check_gold(domain, task, "construct")
    except UsageError:
        return False
    if domain.intent(task.intent).forbidden and domain.write_actions(task):
        return False
    endings = domain.toolkit.endings
    return all(a.name not in endings for a in task.actions[:-1])


def grounded(domain: Domain, task: Task) -> bool:
    """Whether every gold action succeeds, in order, on a fresh database."""
    db = domain.new_database()
    return not any(domain.call(db, a).error for a in task.actions)


def construct(
    domain: Domain,
    count: int,
    seed: int,
    emotions: EmotionDistribution | None = None,
    intents: Sequence[Intent] | None = None,
) -> Construction:
    """Up to ``count`` new grounded, compliant tasks of ``domain`` (fewer if sampling runs dry).

    Only ``intents`` are sampled where given (a train split: ``tracer.splits``). Sampling stops
    after ``count * 200`` tries; what was dropped is counted by reason.
    """
    if count < 1:
        raise UsageError(f"--count must be at least 1 (got {count})")
    if not domain.intents:
        raise UsageError(f"--domain {domain.name}: the domain has no intents to sample")
    rng = random.Random(seed)
    benchmark = {signature(t) for t in domain.tasks}
    seen: set[bytes] = set()
    dropped: Counter[str] = Counter({reason: 0 for reason in DROP_REASONS})
    tasks: list[Task] = []
    pool = list(domain.intents if intents is None else intents)
    attempts = 0
    while len(tasks) < count and attempts < count * 200:
        intent = pool[attempts % len(pool)]
        attempts += 1
        task = intent.sample(domain, domain.new_database(), rng)
        if task is None:
            dropped["sampled"] += 1
            continue
        key = signature(task)
        if key in seen:
            dropped["duplicate"] += 1
            continue
        seen.add(key)
        if key in benchmark:
            dropped["benchmark"] += 1
        elif not grounded(domain, task):
            dropped["not_grounded"] += 1
        elif not compliant(domain, task):
            dropped["not_compliant"] += 1
        else:
            task_id = f"{domain.name}-train-{len(tasks):04d}"
            scenario = msgspec.structs.replace(
                task.scenario, persona=persona_for(f"{domain.name}-train", len(tasks))
            )
            task = msgspec.structs.replace(
                task, id=task_id, domain=domain.name, tier=intent.tier, scenario=scenario
            )
            tasks.append(intent.with_data(domain, task))
    result = Construction(domain.name, tasks, dict(dropped), attempts)
    if emotions is not None:
        result.tasks = with_profiles(result.tasks, emotions, seed)
    return result


def with_profiles(tasks: list[Task], emotions: EmotionDistribution, seed: int) -> list[Task]:
    """``tasks``, each with an emotion profile drawn stratified from ``emotions``."""
    profiles = assign(emotions, len(tasks), random.Random(seed))
    return [msgspec.structs.replace(t, emotion=p) for t, p in zip(tasks, profiles, strict=True)]
