"""Two user simulators' card figures side by side, over exactly the cells both played.

Reads two sides, each ``--run DB RUN_ID[,RUN_ID…]`` (one or more stored runs of one store,
typically the LLM user's on one side and the scripted user's over the same grid on the other),
keeps the conversations both sides completed with user messages in the same cell (domain,
task, emotion, intensity, politeness, urgency, trust, trial), computes the user-simulator card
(``users.audit.card``) of each side over those cells only, and prints per emotion and intensity
the two sides' family match, intensity rank correlation (per family, over the cells kept),
invented facts, repeated-sentence share, distinct-2, the conversations of a task with a demand,
those where the agent refused it, and the insistences set and made in these, as a Markdown
table. ``--json`` prints instead ``{"cells": N, "sides": [{"user", "run", "rows"}, …]}`` with
both sides' full rows. A cell one side did not finish (a run stopped before it ended) is left
out on both sides, so a run stopped by hand is compared on what it finished; as in ``tau-sim
users audit``, a conversation a user-simulator error ended is completed and counts.

    PYTHONPATH=$PWD python scripts/users_card_compare.py \
        --run llm.db RUN_LLM[,RUN_LLM2] --run scripted.db RUN_SCRIPTED [--json]

Scripted agents calibrate the harness: these figures measure the users, not an agent.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.results import conversation_rows
from tau_sim.simulator.store import get_run, open_database
from tau_sim.users.audit import card
from tau_sim.users.audit_conduct import refused
from tau_sim.users.audit_read import Played, read_played

Key = tuple[Any, ...]
_CELL = ("domain", "task_id", "emotion", "intensity", "politeness", "urgency", "trust", "trial")
FIGURES = (
    ("family_match", "fam"),
    ("intensity_rank_corr", "rho"),
    ("invented_facts", "inv"),
    ("repeated_sentence_share", "rep"),
    ("distinct_2", "dst2"),
    ("with_demand", "dem"),
    ("refused", "ref"),
    ("insistences_set", "ins"),
    ("insistences_made", "made"),
)


def played_cells(db_path: str, run_ids: str) -> tuple[str, dict[Key, Played], int]:
    """One side: its user kind, its completed conversations with user messages by cell, its size.

    ``run_ids`` is one run or several, comma-separated, of the store ``db_path``; the size is
    how many conversations they store, finished or not. A cell two of them completed counts
    once, the later run's.
    """
    db = open_database(db_path, readonly=True)
    cells: dict[Key, Played] = {}
    stored = 0
    for run_id in run_ids.split(","):
        rows = conversation_rows(db, get_run(db, run_id)["id"])
        stored += len(rows)
        for row in rows:
            if row.get("status") != "completed":
                continue
            item = read_played(db, row)
            if item.texts:
                cells[tuple(row.get(k) for k in _CELL)] = item
    users = {item.user for item in cells.values()}
    if len(users) != 1:
        raise UsageError(f"--run {run_ids}: needs completed conversations of one user kind")
    return users.pop(), cells, stored


def side_card(played: list[Played]) -> list[dict[str, Any]]:
    """``users.audit.card`` of the conversations, with two counts per row.

    ``with_demand``: its conversations of a task with a demand; ``refused``: those the
    insistence figures are over (the agent turned the demand down).
    """
    rows = card(played)
    for row in rows:
        items = [
            i
            for i in played
            if (i.condition.emotion, i.condition.intensity) == (row["emotion"], row["intensity"])
        ]
        row["with_demand"] = sum(bool(item.demand) for item in items)
        row["refused"] = sum(refused(item) for item in items)
    return rows


def _cell_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def markdown(left: list[dict[str, Any]], right: list[dict[str, Any]], names: list[str]) -> str:
    """One Markdown row per emotion and intensity: each figure as left and right columns."""
    by = {(r["emotion"], r["intensity"]): r for r in right}
    head = ["family", "leaf", "int", "conv"]
    for _, short in FIGURES:
        head += [f"{short} {names[0]}", f"{short} {names[1]}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in left:
        other = by[row["emotion"], row["intensity"]]
        cells = [row["family"], row["emotion"], f"{row['intensity']:.1f}"]
        cells.append(str(row["conversations"]))
        for key, _ in FIGURES:
            cells += [_cell_text(row[key]), _cell_text(other[key])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side card; exit 2 with one line on bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--run", nargs=2, action="append", metavar=("DB", "RUN_ID[,RUN_ID…]"), required=True
    )
    parser.add_argument("--json", action="store_true", help="both sides' full card rows")
    args = parser.parse_args(argv)
    if len(args.run) != 2:
        print("--run: give exactly two sides", file=sys.stderr)
        return 2
    try:
        sides = [played_cells(db, run_id) for db, run_id in args.run]
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    common = [key for key in sides[0][1] if key in sides[1][1]]
    if not common:
        print("--run: the two runs completed no cell in common", file=sys.stderr)
        return 2
    cards = [side_card([cells[key] for key in common]) for _, cells, _ in sides]
    names = [user for user, _, _ in sides]
    counts = ", ".join(
        f"{user}: {len(cells)} completed of {stored} stored" for user, cells, stored in sides
    )
    if args.json:
        runs = [run_id for _, run_id in args.run]
        out = [
            {"user": user, "run": run_id, "rows": rows}
            for user, run_id, rows in zip(names, runs, cards, strict=True)
        ]
        print(json.dumps({"cells": len(common), "sides": out}, indent=1))
    else:
        print(f"{len(common)} cells played by both ({counts})\n")
        print(markdown(cards[0], cards[1], ["A", "B"]))
        print(f"\nA = {names[0]}, B = {names[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
