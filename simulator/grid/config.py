"""A run's configuration (``RunConfig``): what defines it, stored with it, and read back."""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.simulator.core.conditions import NEUTRAL
from tau_sim.simulator.core.endings import Limits


class RunConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that defines a run; stored with it so ``--resume`` needs nothing else.

    ``politeness``, ``urgency`` and ``trust`` are grid dimensions of named levels; None stands
    for the emotion leaf's own level (``default`` on the command line).

    Its defaults (and those of ``Limits``) are the defaults of ``tau-sim run``: the CLI
    fills only what the command line or the run file set (``simulator.cli.run_file.merge``).
    ``agent_options`` and ``user_options`` hold each model's merged options by name; an
    ``api_key`` among them never reaches the store or a worker (``simulator.grid.keys``).
    ``max_error_share``: the share of conversations (0..1) that may end with endpoint or
    user-simulator errors before ``tau-sim run`` exits with code 3
    (``tau_sim.simulator.core.infra``).
    ``domains``: the domains the run plays, in order; ``tasks`` the ids of its tasks across them
    (unique in the run), each played in its own domain; ``tasks_file`` only with one domain.
    ``task_split``: the domains' task split the tasks were drawn from (``--task-split``).
    ``tier``: the tier the tasks were drawn from (``--tier``: ``base``, ``hard`` or ``all``);
    ``tasks`` already holds only that tier's, so a resumed run plays what the new one chose.
    ``ray``: the Ray cluster the run's ``workers`` actors play on (``--ray``,
    ``simulator.run.ray_actors``): None not on Ray, ``local`` a cluster the run starts, else the
    address of a running cluster.
    ``judge``: the model that checks natural-language assertions (``--judge``; None: they stay
    not evaluated), with its merged options in ``judge_options``.
    """

    domains: list[str] = msgspec.field(default_factory=lambda: ["retail"])
    tasks: list[str] = []
    tasks_file: str | None = None
    task_split: str | None = None
    tier: str = "all"
    agents: list[str] = msgspec.field(default_factory=lambda: ["scripted/gold"])
    users: list[str] = msgspec.field(default_factory=lambda: ["scripted"])
    emotions: list[str] = msgspec.field(default_factory=lambda: [NEUTRAL])
    intensities: list[float] = msgspec.field(default_factory=lambda: [0.6])
    politeness: list[str | None] = msgspec.field(default_factory=lambda: [None])
    urgency: list[str | None] = msgspec.field(default_factory=lambda: [None])
    trust: list[str | None] = msgspec.field(default_factory=lambda: [None])
    trials: int = 1
    seed: int = 0
    concurrency: int = 32
    limits: Limits = Limits()
    workers: int = 1
    ray: str | None = None
    max_error_share: float = 0.1
    agent_options: dict[str, dict[str, Any]] = {}
    user_options: dict[str, dict[str, Any]] = {}
    judge: str | None = None
    judge_options: dict[str, Any] = {}


def decode_config(raw: str | bytes) -> RunConfig:
    """A stored run's ``RunConfig``; a run stored before several domains had ``domain: NAME``."""
    fields = msgspec.json.decode(raw)
    if isinstance(fields, dict) and "domain" in fields and "domains" not in fields:
        fields["domains"] = [fields.pop("domain")]
    return msgspec.convert(fields, RunConfig)
