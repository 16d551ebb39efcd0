"""The ``tau-sim tracer`` sub-commands: construct, filter, export, stats.

Each takes the parsed arguments of its sub-parser (``tracer.cli``) and returns the exit code;
bad input is a ``UsageError`` (one line, exit 2, from the CLI). Every ``--out`` is written whole
or not at all and an existing one is replaced only with ``--force`` (``store.outputs``),
checked before the work starts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import anyio
import msgspec

from tau_sim.simulator.core import (
    DOMAINS,
    UsageError,
    get_domain,
    is_calibration_agent,
    load_plugins,
    parse_key_values,
)
from tau_sim.simulator.store import check_output, open_database, write_outputs
from tau_sim.simulator.world import encode_task
from tau_sim.tracer.balance import parse_cell_keys
from tau_sim.tracer.meaning import IntentIndex
from tau_sim.tracer.splits import (
    check_domains,
    check_split,
    encode_record,
    held_out_tasks,
    parse_hold_out,
    record,
    record_path,
    train_intents,
)
from tau_sim.tracer.thresholds import Balance, Thresholds


def construct_command(args: argparse.Namespace) -> int:
    """Sample tasks (or take the held-out benchmark tasks), paraphrase, profile, write them.

    ``--split test`` writes the held-out benchmark tasks (``tracer.splits``); the counts are
    printed as JSON.
    """
    from tau_sim.tracer.construct import Construction, construct, with_profiles
    from tau_sim.tracer.emotions import parse_distribution

    emotions = parse_distribution(args.emotions) if args.emotions is not None else None
    hold_out = parse_hold_out(args.hold_out) if args.hold_out is not None else None
    split = check_split(args.split, hold_out)
    if split == "test" and args.writer is not None:
        raise UsageError(
            "--writer: --split test writes the benchmark's own tasks; paraphrase --split train"
        )
    if split != "test" and args.count is None:
        raise UsageError("--count: give how many tasks to keep")
    if args.count is not None and args.count < 1:
        raise UsageError(f"--count must be at least 1 (got {args.count})")
    if not 0 <= args.seed < 2**63:
        raise UsageError(f"--seed must be in 0..2^63-1 (got {args.seed})")
    out = Path(args.out)
    check_output(out, force=args.force)  # before sampling and paraphrasing
    if hold_out is not None:
        check_output(record_path(out), force=args.force)
    load_plugins()
    if hold_out is not None:
        check_domains(hold_out, DOMAINS.names())
    domain = get_domain(args.domain)
    if hold_out is None or split is None:
        result = construct(domain, args.count, args.seed, emotions)
    elif split == "train":
        result = construct(domain, args.count, args.seed, emotions, train_intents(domain, hold_out))
    else:
        tasks = held_out_tasks(domain, hold_out)[: args.count]
        if emotions is not None:
            tasks = with_profiles(tasks, emotions, args.seed)
        result = Construction(domain.name, tasks, {}, 0)
    files: dict[Path, bytes] = {}
    if hold_out is not None and split is not None:
        result.split = record(domain, hold_out, split)
        files[record_path(out)] = encode_record(result.split)
    if args.writer is not None:
        from tau_sim.tracer.paraphrase import paraphrase_all

        writer_args = parse_key_values(args.writer_arg, "--writer-arg")
        index = IntentIndex.of(domain, result.tasks, seed=args.seed)
        run = partial(paraphrase_all, result.tasks, args.writer, writer_args, index=index)
        result.rewritten(*anyio.run(run))
    files[out] = b"".join(encode_task(t) for t in result.tasks)
    write_outputs(files, force=args.force)
    shown = {**result.summary(), "out": str(out)}
    if result.split is not None:
        shown["split_record"] = str(record_path(out))
    print(json.dumps(shown, sort_keys=True))
    return 0


def filter_command(args: argparse.Namespace) -> int:
    """Filter runs into a selection file; print kept and dropped counts as JSON."""
    from tau_sim.tracer.filtering import filter_runs, write_selection

    limits = Thresholds(
        **{name: getattr(args, name) for name in msgspec.structs.asdict(Thresholds())}
    )
    if args.cap_per_cell is not None and args.cap_per_cell < 1:
        raise UsageError(f"--cap-per-cell {args.cap_per_cell}: give a positive number")
    rule = Balance(
        by=parse_cell_keys(args.cell_by),
        cap=args.cap_per_cell,
        even=args.rebalance,
        seed=args.balance_seed,
    )
    check_output(Path(args.out), force=args.force)
    db = open_database(args.db, readonly=True)
    selection = filter_runs(db, args.db, args.run_ids, limits, rule)
    write_selection(selection, Path(args.out), force=args.force)
    report = {
        "kept": len(selection.kept),
        "total": selection.total,
        "dropped": selection.dropped,
        "flagged": selection.flagged,
        "cells": msgspec.to_builtins(selection.cells),
    }
    print(json.dumps(report, sort_keys=True))
    return 0


def export_command(args: argparse.Namespace) -> int:
    """Export a selection as ``train.jsonl`` and ``README.md`` in ``--out``."""
    from tau_sim.tracer.export import check_dataset, export
    from tau_sim.tracer.filtering import read_selection

    check_dataset(Path(args.out), force=args.force)
    selection = read_selection(Path(args.selection))
    db_path = args.db or selection.db
    db = open_database(db_path, readonly=True)
    count = export(
        db,
        selection,
        Path(args.out),
        fmt=args.format,
        reasoning=args.reasoning,
        tools_as_string=args.tools_as_string,
        arguments_as_string=args.arguments_as_string,
        call_ids=args.call_ids,
        force=args.force,
    )
    print(f"{count} conversations written to {args.out}", file=sys.stderr)
    return 0


def stats_command(args: argparse.Namespace) -> int:
    """Print the figures of ``tracer.stats`` over the runs given (and draw them with ``--plot``)."""
    from tau_sim.tracer.stats import points, render, report

    plot = None if args.plot is None else Path(args.plot)
    if plot is not None:
        from tau_sim.simulator.results import check_plot

        check_plot(plot)  # before the work: matplotlib there, a file name that can be written
    db = open_database(args.db, readonly=True)
    found = points(db, args.run_ids)
    load_plugins()  # the agent registry tells the calibration agents
    figures = report(args.run_ids, found, is_calibration_agent)
    if plot is not None:
        from tau_sim.tracer.plot import draw

        draw(found, plot, is_calibration_agent)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    from tau_sim.simulator.results import stdout_console

    render(figures, stdout_console())
    return 0


SUB_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "construct": construct_command,
    "filter": filter_command,
    "export": export_command,
    "stats": stats_command,
}
