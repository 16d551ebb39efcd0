"""Run-level subsets of the tasks (tiers, splits) and who can play a domain's scenarios.

``--tier base|hard|all`` keeps the tasks of one tier (``Task.tier``; ``all`` keeps every one).
``--task-split NAME`` keeps the tasks a domain lists under that split (``Domain.task_splits``,
e.g. τ²-bench's ``split_tasks.json``); a domain whose scenarios are free text
(``Domain.free_text_scenarios``) refuses users that cannot read them (a user provider with
``reads_free_text = False``: the scripted user).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import make_user_provider
from tau_sim.simulator.world.domain import TIERS, Domain, Task

ALL_TIERS = "all"
"""``--tier all``: every task, whatever its tier (the default)."""

TIER_CHOICES = (*TIERS, ALL_TIERS)
"""What ``--tier`` takes."""


def check_tier(value: str, flag: str = "--tier") -> str:
    """``value`` as a ``--tier`` (any case, stripped); anything else is a ``UsageError``."""
    tier = str(value).strip().lower()
    if tier not in TIER_CHOICES:
        raise UsageError(f"{flag} must be one of {', '.join(TIER_CHOICES)} (got {value!r})")
    return tier


def tier_pool(pool: list[Task], tier: str, where: str) -> list[Task]:
    """The tasks of ``pool`` of tier ``tier`` (``all``: every one); none is a ``UsageError``."""
    if tier == ALL_TIERS:
        return pool
    kept = [t for t in pool if t.tier == tier]
    if not kept:
        raise UsageError(f"--tier {tier}: {where} has no {tier} tasks ({len(pool)} in all)")
    return kept


def split_pool(pool: list[Task], domains: Mapping[str, Domain], split: str) -> list[Task]:
    """The tasks of ``pool`` in split ``split`` of their domain; an unknown split is an error."""
    members: set[str] = set()
    for name, domain in domains.items():
        if not domain.task_splits:
            raise UsageError(f"--task-split: domain {name!r} has no task splits")
        if split not in domain.task_splits:
            known = ", ".join(sorted(domain.task_splits))
            raise UsageError(
                f"--task-split: domain {name!r} has no split {split!r} (known: {known})"
            )
        members.update(domain.task_splits[split])
    return [t for t in pool if t.id in members]


def reads_free_text(provider: Any) -> bool:
    """Whether a user provider can play a scenario given only as free text."""
    return bool(getattr(provider, "reads_free_text", True))


def check_users(
    domains: Mapping[str, Domain],
    users: Sequence[str],
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Refuse a user that cannot read the free-text scenarios of one of ``domains``.

    Each user is built with its own ``options`` (``--user-arg``, the run file's), as the run
    builds it, so an option such as its API key counts.
    """
    free = [name for name, d in domains.items() if d.free_text_scenarios]
    if not free:
        return
    for user in users:
        if not reads_free_text(make_user_provider(user, dict((options or {}).get(user, {})))):
            raise UsageError(
                f"--user {user}: the scenarios of {free[0]!r} are free text, which the {user} user "
                "cannot read; use an LLM user (a model name, e.g. --user openai/gpt-4.1 or "
                "--user local/smollm2-135m)"
            )
