"""``tau-sim tracer construct|filter|export|stats``, registered in the CLI's ``COMMANDS``.

Listed under the ``tau_sim.commands`` entry point group: the CLI imports this module to build
its parser, for every command; what each sub-command runs is in ``tracer.commands``, imported
only when one runs (it loads ``world.domain`` and the store's readers).
"""

from __future__ import annotations

import argparse

import msgspec

from tau_sim.simulator.core import COMMANDS, Command
from tau_sim.simulator.store import DEFAULT_DB
from tau_sim.tracer.thresholds import Thresholds


def configure(tracer: argparse.ArgumentParser) -> None:
    """The sub-commands of ``tau-sim tracer`` and their options."""
    tsub = tracer.add_subparsers(dest="tracer_command", required=True, parser_class=type(tracer))
    construct = tsub.add_parser("construct", help="sample grounded, compliant, new tasks")
    construct.add_argument("--domain", required=True, help="the domain to sample")
    construct.add_argument(
        "--count", type=int, help="tasks to keep (with --split test: at most this many)"
    )
    construct.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    construct.add_argument("--out", required=True, help="task file to write (JSONL)")
    construct.add_argument("--force", action="store_true", help="replace an existing --out file")
    construct.add_argument(
        "--emotions",
        help="profiles to assign, e.g. 'anger:2,fear,helplessness;intensity=low,high;"
        "politeness=warm,cold' (see tracer/emotions.py); played with `run --emotions task`",
    )
    construct.add_argument(
        "--hold-out",
        metavar="SPEC",
        help="hold out intents:A,B or domains:X,Y for evaluation (see tracer/splits.py)",
    )
    construct.add_argument(
        "--split",
        choices=("train", "test"),
        help="with --hold-out: train (default) samples the rest, test writes the held-out "
        "benchmark tasks",
    )
    construct.add_argument("--writer", metavar="PROVIDER/MODEL", help="paraphrase with a model")
    construct.add_argument(
        "--writer-arg", action="append", default=[], metavar="KEY=VALUE", help="writer option"
    )
    filt = tsub.add_parser("filter", help="keep successful, efficient conversations of runs")
    filt.add_argument("run_ids", nargs="+", metavar="RUN_ID", help="runs to filter")
    filt.add_argument("--db", default=DEFAULT_DB)
    filt.add_argument("--out", required=True, help="selection file to write (JSON)")
    filt.add_argument("--force", action="store_true", help="replace an existing --out file")
    for name, value in msgspec.structs.asdict(Thresholds()).items():
        filt.add_argument(
            f"--{name.replace('_', '-')}",
            type=type(value),
            default=value,
            help=f"(default {value})",
        )
    filt.add_argument(
        "--cell-by",
        default="condition,task,agent",
        help="what a balance cell is, of agent, task, condition, domain, emotion, intensity, user "
        "(default condition,task,agent)",
    )
    filt.add_argument("--cap-per-cell", type=int, help="keep at most N conversations per cell")
    filt.add_argument(
        "--rebalance", action="store_true", help="cut every cell to the smallest cell's count"
    )
    filt.add_argument("--balance-seed", type=int, default=0, help="which ones a cut keeps")
    export = tsub.add_parser("export", help="write a selection as an SFT dataset folder")
    export.add_argument("selection", help="selection file of `tau-sim tracer filter`")
    export.add_argument("--db", help="database (default: the one the selection names)")
    export.add_argument("--out", required=True, help="folder for train.jsonl and README.md")
    export.add_argument(
        "--force", action="store_true", help="replace the dataset files already in --out"
    )
    export.add_argument("--format", default="trl", help="trl (default) or sharegpt")
    export.add_argument("--reasoning", default="drop", choices=("keep", "drop"))
    export.add_argument(
        "--tools-as-string", action="store_true", help="`tools` as a JSON string (datasets < 4.7)"
    )
    export.add_argument(
        "--arguments-as-string",
        action="store_true",
        help="each tool call's `arguments` as a JSON string (datasets < 4.7)",
    )
    export.add_argument(
        "--call-ids",
        default="stored",
        choices=("stored", "mistral"),
        help="tool-call ids as stored (default) or as 9 letters and digits (Mistral's tokenizer)",
    )
    stats = tsub.add_parser(
        "stats",
        help="tool executions vs necessary and needless follow-up questions, success by balance",
    )
    stats.add_argument("run_ids", nargs="+", metavar="RUN_ID", help="runs to count together")
    stats.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument(
        "--plot", metavar="PNG", help="also draw a PNG, replacing the file (extra `plot`)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the sub-command given (``tracer.commands``)."""
    from tau_sim.tracer.commands import SUB_COMMANDS

    return SUB_COMMANDS[args.tracer_command](args)


COMMANDS.add(
    "tracer",
    Command(
        "tracer",
        "construct tasks, filter and export SFT data, stats",
        configure,
        run,
        after="review",
    ),
)
