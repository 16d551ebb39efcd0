"""``tau-sim domains [list|show|stats|generate]``: list, show, measure or sample domains.

``stats`` measures the domains' tasks (``world.taskstats``); ``generate`` samples a domain's.

The tables (``results.catalogs``, ``cli.taskstats``: rich) are imported when the command runs
(a lean start-up).
"""

from __future__ import annotations

import argparse
import json
import sys

from tau_sim.simulator.cli.options import Parser
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import DOMAINS, Command, get_domain, load_plugins
from tau_sim.simulator.store.outputs import atomic_output, check_output
from tau_sim.simulator.world.domain import Domain
from tau_sim.simulator.world.splits import ALL_TIERS, check_tier
from tau_sim.simulator.world.taskformat import encode_task
from tau_sim.simulator.world.taskstats import task_stats

MAX_GENERATED = 10_000
"""The most tasks ``domains generate`` samples at once."""


def configure(domains: argparse.ArgumentParser) -> None:
    """The sub-commands of ``tau-sim domains`` and their options."""
    dsub = domains.add_subparsers(dest="domains_command", parser_class=Parser)
    dsub.add_parser("list", help="list the domains")
    show = dsub.add_parser("show", help="tools, intents and task count of a domain")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    stats = dsub.add_parser(
        "stats",
        help="how hard the domains' tasks are: writes, gold length, variety, id handing, "
        "conditional goals, mixed requests, refusals, dual control",
    )
    stats.add_argument(
        "names", nargs="*", metavar="DOMAIN", help="domains to measure (default: every one)"
    )
    stats.add_argument(
        "--tier",
        default="all",
        help="measure only the tasks of one tier: base, hard or all (the default)",
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    gen = dsub.add_parser(
        "generate",
        help="sample tasks from a domain's intents (JSONL); without options, regenerate its "
        "checked-in task file",
    )
    gen.add_argument("name")
    gen.add_argument(
        "--count",
        type=int,
        default=None,
        help=f"1..{MAX_GENERATED} tasks (default: the domain's own)",
    )
    gen.add_argument("--seed", type=int, default=None, help="default: the domain's own")
    gen.add_argument(
        "--out",
        default=None,
        help="file to write, - for stdout (default: the domain's task file when --count and "
        "--seed are not given, else stdout); an existing file needs --force",
    )
    gen.add_argument(
        "--force",
        action="store_true",
        help="replace an existing --out file (the domain's own task file, regenerated without "
        "--out, needs none)",
    )


def run(args: argparse.Namespace) -> int:
    """List the domains (the default), show one, or write the tasks it samples."""
    from tau_sim.simulator.results.catalogs import render_domain, render_domains

    load_plugins()
    command = args.domains_command or "list"
    if command == "list":
        render_domains(_buildable_domains(DOMAINS.names()))
    elif command == "show" and args.json:
        print(json.dumps(get_domain(args.name).describe(), indent=2))
    elif command == "show":
        render_domain(get_domain(args.name))
    elif command == "stats":
        _stats(args)
    else:
        _generate(args)
    return 0


def _stats(args: argparse.Namespace) -> None:
    """``domains stats``: the figures of each domain named (default: every one that builds)."""
    import msgspec

    from tau_sim.simulator.cli.taskstats import render_task_stats

    tier = check_tier(args.tier)
    domains = (
        [get_domain(name) for name in dict.fromkeys(args.names)]
        if args.names
        else _buildable_domains(DOMAINS.names())
    )
    figures = [
        task_stats(d, [t for t in d.tasks if tier == ALL_TIERS or t.tier == tier]) for d in domains
    ]
    if args.json:
        print(json.dumps({"tier": tier, "domains": msgspec.to_builtins(figures)}, indent=2))
    else:
        render_task_stats(figures, tier)


def _generate(args: argparse.Namespace) -> None:
    """``domains generate``: check the numbers, sample, write to ``--out`` (or the task file).

    The file is written whole or not at all (``store.outputs``: a temporary file renamed into
    place, the old file intact on a full disk); an existing ``--out`` is refused without
    ``--force``. Without ``--out``, ``--count`` and ``--seed`` the domain's own task file is
    regenerated in place, ``--force`` or not: that is what the command is for. Written to a
    file, one line on stderr says how many tasks went where.
    """
    domain = get_domain(args.name)
    if args.count is not None and args.count < 1:
        raise UsageError(f"--count must be at least 1 (got {args.count})")
    if args.count is not None and args.count > MAX_GENERATED:
        raise UsageError(f"--count must be at most {MAX_GENERATED} (got {args.count})")
    if args.seed is not None and not 0 <= args.seed < 2**63:
        raise UsageError(f"--seed must be in 0..2^63-1 (got {args.seed})")
    out = args.out
    if out is None:
        own = args.count is None and args.seed is None and domain.tasks_path is not None
        out = str(domain.tasks_path) if own else "-"
        # the documented regeneration of the checked-in file replaces it without --force
        force = args.force or own
    else:
        force = args.force
        if out != "-":  # refused before sampling, which takes seconds for 10,000 tasks
            check_output(out, force=force)
    tasks = domain.generate_tasks(args.count, args.seed)
    data = b"".join(encode_task(t) for t in tasks)
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:  # a device or FIFO (/dev/null) is written in place, never replaced
        with atomic_output(out, force=force) as handle:
            handle.write(data.decode("utf-8"))
        print(f"wrote {len(tasks)} tasks of {args.name} to {out}", file=sys.stderr)


def installed_domains(names: list[str]) -> tuple[list[Domain], dict[str, str]]:
    """The domains ``names`` that build here, and why each other one cannot (an extra missing)."""
    built = []
    missing = {}
    for name in names:
        try:
            built.append(get_domain(name))
        except UsageError as exc:
            missing[name] = str(exc)
    return built, missing


def _buildable_domains(names: list[str]) -> list[Domain]:
    """The domains ``names`` that build here; those that cannot say why, one line per reason.

    The four ``tau2/*`` domains that miss one package are one line, not four.
    """
    built, missing = installed_domains(names)
    by_reason: dict[str, list[str]] = {}
    for name, why in missing.items():
        by_reason.setdefault(why, []).append(name)
    for why, skipped in by_reason.items():
        print(f"tau-sim: {', '.join(skipped)}: {why}", file=sys.stderr)
    return built


COMMAND = Command("domains", "list domains, show one, or regenerate its tasks", configure, run)
