"""The calibration table of the scripted agents, per domain: what the harness must show.

Runs ``tau-sim run`` per domain with the scripted calibrators (``gold``, ``sloppy``,
``over-asker`` and, where registered, ``pushover``) against the scripted user, neutral and one
emotion family at low, medium and high intensity, then prints per domain, tier (``base``,
``hard``) and condition:

- gold: success over all tasks (the scorer's check: 1.0 everywhere);
- sloppy: success below gold's (its seeded mistakes fail);
- over-asker: abandonment over all tasks (must rise with intensity, 0 at neutral);
- conversations that ended in an endpoint's or the user simulator's error are left out, as
  the report leaves them out;
- on the refusal tasks (those whose user asks for a write the policy forbids): each agent's
  success and its policy-violation rate (conversations whose stored failure is
  ``policy_violation``).

Scripted agents and users calibrate the harness; these are not benchmark figures.

    python scripts/calibration_table.py                    # all ten domains, anger
    python scripts/calibration_table.py --domains retail,airline --family sadness --json

The JSON is ``{domain: {tier: {agent: {condition: figures}}}}``.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path
from typing import Any

from tau_sim.simulator.core import EXCLUDED_REASONS, get_domain
from tau_sim.simulator.results import condition_of

DOMAINS = (
    "retail",
    "airline",
    "banking",
    "telecom",
    "hotel",
    "car_rental",
    "food_delivery",
    "insurance",
    "telehealth",
    "utilities",
)
AGENTS = ("scripted/gold", "scripted/sloppy", "scripted/over-asker", "scripted/pushover")
INTENSITIES = "low,medium,high"


def refusal_tasks(domain: str) -> list[str]:
    """Ids of the domain's refusal tasks: the user asks for a write the policy forbids.

    Those are the tasks with violations (``Domain.violations``): a forbidden intent whose
    write no tool would make (retail's out-of-policy transfer) has none and is left out.
    """
    world = get_domain(domain)
    return [t.id for t in world.tasks if world.violations(t)]


def chosen_tasks(domain: str, limit: int | None) -> list[str] | None:
    """Per tier, the first ``limit`` refusal tasks and the first ``limit`` others (None: all)."""
    if limit is None:
        return None
    refusals = set(refusal_tasks(domain))
    chosen: list[str] = []
    for tier in ("base", "hard"):
        tasks = [t.id for t in get_domain(domain).tasks if t.tier == tier]
        chosen += [t for t in tasks if t in refusals][:limit]
        chosen += [t for t in tasks if t not in refusals][:limit]
    return chosen


def tiers_of(domain: str) -> dict[str, str]:
    """Task id -> tier, for the domain's benchmark tasks."""
    return {t.id: t.tier for t in get_domain(domain).tasks}


def registered(agent: str) -> bool:
    """Whether ``tau-sim`` knows the scripted agent (``pushover`` may not exist yet)."""
    probe = [sys.executable, "-m", "tau_sim.entry", "run", "--agent", agent, "--dry-run"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def play(
    domain: str, agents: list[str], family: str, trials: int, db: Path, tasks: list[str] | None
) -> None:
    """One run of ``agents`` on ``domain``: neutral plus ``family`` at three intensities."""
    command = [
        sys.executable,
        "-m",
        "tau_sim.entry",
        "run",
        "--domain",
        domain,
        "--agent",
        ",".join(agents),
        "--emotions",
        f"neutral,{family}",
        "--intensities",
        INTENSITIES,
        "--trials",
        str(trials),
        "--concurrency",
        "256",
        "--db",
        str(db),
        "--quiet",
        *(["--tasks", ",".join(tasks)] if tasks else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{domain}: tau-sim run exited {done.returncode}: {done.stderr.strip()}")


Table = dict[str, dict[str, dict[str, dict[str, Any]]]]
"""Figures by tier, then agent, then condition."""


def figures(db: Path, refusals: Collection[str], tiers: dict[str, str]) -> Table:
    """The table's figures by tier, agent and condition, from the stored conversations."""
    sums: dict[tuple[str, str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT agent, emotion, intensity, task_id, reward, abandoned, failure, reason "
            "FROM conversations WHERE status = 'completed'"
        )
        for row in rows:
            if row["reason"] in EXCLUDED_REASONS:  # an endpoint's or user's error: no result
                continue
            s = sums[(tiers[row["task_id"]], row["agent"], condition_of(row))]
            won = (row["reward"] or 0.0) >= 1.0 - 1e-6
            s["n"] += 1
            s["won"] += won
            s["abandoned"] += bool(row["abandoned"])
            if row["task_id"] in refusals:
                s["refusals"] += 1
                s["refusals_won"] += won
                s["violations"] += row["failure"] == "policy_violation"
    out: Table = defaultdict(lambda: defaultdict(dict))
    for (tier, agent, condition), s in sorted(sums.items(), key=_neutral_first):
        r = s["refusals"]
        out[tier][agent][condition] = {
            "conversations": s["n"],
            "success": round(s["won"] / s["n"], 4),
            "abandonment": round(s["abandoned"] / s["n"], 4),
            "refusal_conversations": r,
            "refusal_success": round(s["refusals_won"] / r, 4) if r else None,
            "policy_violation_rate": round(s["violations"] / r, 4) if r else None,
        }
    return {tier: dict(agents) for tier, agents in out.items()}


def _neutral_first(item: tuple[tuple[str, str, str], Any]) -> tuple[str, int, bool, str]:
    (tier, agent, condition), _ = item
    return tier, AGENTS.index(agent), condition != "neutral", condition


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def markdown(domain: str, table: Table) -> str:
    """The domain's table: one row per tier, agent and condition."""
    lines = [
        f"### {domain}",
        "",
        "| tier | agent | condition | n | success | abandonment | refusal n | refusal success "
        "| policy violations |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for tier, agents in table.items():
        for agent, conditions in agents.items():
            for condition, f in conditions.items():
                lines.append(
                    f"| {tier} | {agent} | {condition} | {f['conversations']} "
                    f"| {_cell(f['success'])} | {_cell(f['abandonment'])} "
                    f"| {f['refusal_conversations']} | {_cell(f['refusal_success'])} "
                    f"| {_cell(f['policy_violation_rate'])} |"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Run the calibrators per domain and print the tables (markdown or ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--family", default="anger")
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument(
        "--limit", type=int, help="per tier, play the first N refusal tasks and N others"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    agents = [a for a in AGENTS if registered(a)]
    tables: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for domain in args.domains.split(","):
            db = Path(tmp) / f"{domain}.db"
            play(domain, agents, args.family, args.trials, db, chosen_tasks(domain, args.limit))
            tables[domain] = figures(db, set(refusal_tasks(domain)), tiers_of(domain))
    if args.json:
        print(json.dumps(tables, indent=1))
        return
    print("Scripted agents and users calibrate the harness; these are not benchmark figures.\n")
    for domain, table in tables.items():
        print(markdown(domain, table), end="\n\n")


if __name__ == "__main__":
    main()
