"""An environment's options, checked and turned into the ``RunConfig`` its episodes play under.

The options are those of ``tau-sim run`` for one domain, one user and one condition: the tasks
(one id or several, else a split and a tier of the domain's), the user (``scripted`` or a
model name, with its options), the emotion, intensity and the three dimension levels, the run
seed and the limits. The config goes through the same checks as a run's
(``simulator.run.validate``), so a bad option is a one-line ``UsageError`` naming it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

from tau_sim.simulator.core.conditions import NEUTRAL, check_level, parse_intensity
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.gym.seat import BACKEND
from tau_sim.simulator.run.checks import normalize_emotions
from tau_sim.simulator.world.pool import run_domains, task_pool
from tau_sim.simulator.world.splits import check_tier, check_users, split_pool, tier_pool

EPISODE_TIMEOUT_S = 86_400.0
"""An episode's deadline in seconds (a day): the policy's own time between steps counts."""


def rollout_config(
    domain: str,
    *,
    task: str | Sequence[str] | None = None,
    split: str | None = None,
    tier: str = "all",
    user: str = "scripted",
    user_options: dict[str, Any] | None = None,
    emotion: str = NEUTRAL,
    intensity: float | str = 0.6,
    politeness: str | None = None,
    urgency: str | None = None,
    trust: str | None = None,
    seed: int = 0,
    max_steps: int = Limits().max_steps,
    max_tool_errors: int = Limits().max_tool_errors,
    timeout_s: float = EPISODE_TIMEOUT_S,
    policy: str = "policy",
) -> RunConfig:
    """The run an environment's episodes belong to: its tasks are the pool episodes draw from.

    ``policy`` names the agent in the store (``gym/<policy>``).
    """
    domains = run_domains([domain])
    pool = task_pool(list(domains.values()), None)
    if split is not None:
        pool = split_pool(pool, domains, split)
    pool = tier_pool(pool, check_tier(tier, "tier"), f"domain {domain!r}")
    if task is not None:
        wanted = [task] if isinstance(task, str) else list(task)
        known = {t.id for t in pool}
        for task_id in wanted:
            if task_id not in known:
                raise UsageError(f"task: domain {domain!r} has no task {task_id!r} here")
        ids = wanted
    else:
        ids = [t.id for t in pool]
    if not ids:
        raise UsageError(f"split {split!r}: domain {domain!r} has no task in it")
    check_users(domains, [user], {user: user_options or {}})
    emotions = normalize_emotions([emotion])

    def level(dimension: str, value: str | None) -> list[str | None]:
        return [None if value is None else check_level(dimension, value, dimension)]

    return RunConfig(
        domains=[domain],
        tasks=ids,
        task_split=split,
        tier=tier,
        agents=[f"{BACKEND}/{policy}"],
        users=[user],
        user_options={user: dict(user_options)} if user_options else {},
        emotions=emotions,
        intensities=[parse_intensity(intensity, "intensity")],
        trials=1,
        seed=seed,
        concurrency=1,
        politeness=level("politeness", politeness),
        urgency=level("urgency", urgency),
        trust=level("trust", trust),
        limits=Limits(max_steps=max_steps, max_tool_errors=max_tool_errors, timeout_s=timeout_s),
    )


def episode_config(config: RunConfig, task_id: str, trial: int, seed: int) -> RunConfig:
    """The one-task config of seed ``seed`` whose cell ``trial`` is an episode's (``cell_at``)."""
    return msgspec.structs.replace(config, tasks=[task_id], trials=trial + 1, seed=seed)


_FLAG = re.compile(r"^--([a-z][a-z-]*)")


@contextmanager
def named_as_options() -> Iterator[None]:
    """Inside it, a ``UsageError`` that names a ``tau-sim run`` flag names the option instead.

    The checks a run shares say ``--max-steps``; the environment's option is ``max_steps``.
    """
    try:
        yield
    except UsageError as exc:
        text = str(exc)
        renamed = _FLAG.sub(lambda m: m.group(1).replace("-", "_"), text)
        if renamed == text:
            raise
        raise UsageError(renamed) from None


def check_option_names(options: dict[str, Any]) -> None:
    """Refuse an option ``rollout_config`` does not take, naming it and the known ones."""
    known = [
        name
        for name, p in inspect.signature(rollout_config).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    for name in options:
        if name not in known:
            raise UsageError(
                f"{name}: not an option of the environment (known: store, run_id, "
                f"{', '.join(known)})"
            )
