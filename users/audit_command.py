"""``tau-sim users audit RUN_ID …``: the user-simulator card of stored runs.

Opens the store read-only, reads each run's completed conversations (``users.audit_read``),
computes the card (``users.audit``) and prints it as a table, or ``--json`` (a list of rows);
``--plot FILE.png`` also draws expressed against set intensity per family (extra ``plot``).
Where the store holds ``human`` users, each other user's row gets ``*_gap_to_human`` figures
for the human row of the same emotion and intensity.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tau_sim.simulator.store import open_database
from tau_sim.users.audit import card
from tau_sim.users.audit_read import read_runs

GAPPED = ("family_match", "invented_facts", "repeated_sentence_share", "distinct_2", "mattr")
_COLUMNS = (
    ("user", "user", 18),
    ("emotion", "emotion", 12),
    ("intensity", "int", 5),
    ("conversations", "conv", 5),
    ("family_match", "fam", 5),
    ("expressed_intensity", "expr", 5),
    ("intensity_rank_corr", "rho", 5),
    ("invented_facts", "inv", 5),
    ("unanswered_questions", "unans", 5),
    ("accepted_at_once", "acc1", 5),
    ("abandoned_correct", "abOK", 5),
    ("insistences_set", "ins", 5),
    ("insistences_made", "made", 5),
    ("over_cooperation", "coop", 5),
    ("over_insistence", "over", 5),
    ("repeated_sentence_share", "rep", 5),
    ("distinct_2", "dst2", 5),
    ("mattr", "mattr", 5),
    ("messages_per_conversation", "msgs", 5),
    ("words_per_message", "wpm", 5),
    ("persona_length_breaks", "long", 5),
)


def run_audit(args: argparse.Namespace) -> int:
    """Print the card of the runs given; exit 0."""
    plot = Path(args.plot) if args.plot else None
    if plot is not None:
        from tau_sim.simulator.results import check_plot

        check_plot(plot)
    db = open_database(args.db, readonly=True)
    rows = card(read_runs(db, list(args.run_ids)))
    add_human_gaps(rows)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(table(rows))
    if plot is not None:
        from tau_sim.users.audit_plot import draw

        draw(rows, plot)
    return 0


def add_human_gaps(rows: list[dict[str, Any]]) -> None:
    """Give each non-human row the gap of each ``GAPPED`` figure to the matching human row."""
    humans = {(r["emotion"], r["intensity"]): r for r in rows if r["user"] == "human"}
    for row in rows:
        human = humans.get((row["emotion"], row["intensity"]))
        if human is None or row is human:
            continue
        for name in GAPPED:
            if row[name] is not None and human[name] is not None:
                row[f"{name}_gap_to_human"] = round(row[name] - human[name], 4)


def table(rows: list[dict[str, Any]]) -> str:
    """The card as fixed-width text, one line per row, flags last."""
    head = " ".join(f"{label:>{w}}" if w == 5 else f"{label:<{w}}" for _, label, w in _COLUMNS)
    lines = [head + " flags"]
    for row in rows:
        cells = []
        for key, _, width in _COLUMNS:
            value = row[key]
            if isinstance(value, float) and key != "intensity":
                text = f"{value:.2f}" if value < 10 else f"{value:.1f}"
            elif value is None:
                text = "-"
            else:
                text = str(value)
            cells.append(f"{text:>{width}}" if width == 5 else f"{text:<{width}}")
        lines.append(" ".join(cells) + " " + (",".join(row["flags"]) or "ok"))
    legend = (
        "fam: expressed family match (NRC lexicon); expr: mean VADER valence; rho: Spearman "
        "expressed vs set intensity; inv: invented facts (ids, numbers, names) per conversation; "
        "unans: facts asked and never given per conversation; acc1: accepted within two "
        "messages; abOK: abandoned a fully rewarded agent; ins/made: insistences set/made on a "
        "refused demand; coop: accepted before the pushback was spent; over: insisted more "
        "than set; rep: repeated-sentence share; dst2: distinct-2; msgs: messages per "
        "conversation; wpm: words per message; long: messages over the persona's length"
    )
    return "\n".join([*lines, legend])
