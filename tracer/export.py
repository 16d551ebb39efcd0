"""Export a selection as a dataset folder: ``train.jsonl`` and its data card ``README.md``.

``tau-sim tracer export SELECTION --out DIR`` reads the conversations a filter kept
(``tracer.filtering``) and writes one row per conversation (``tracer.sft``), in conversation id
order, keys in a fixed order: exporting the same selection twice gives the same bytes. The card
(``tracer.card``) counts the rows by domain, emotion and intensity and names the filters, the
source runs and the models.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.store import check_output, write_outputs
from tau_sim.tracer.card import CardFacts, data_card
from tau_sim.tracer.filtering import Selection
from tau_sim.tracer.sft import FORMATS, CallIds, Reasoning, sharegpt_row, trl_row
from tau_sim.tracer.source import Conversation, conversations, open_run

DATA_FILE = "train.jsonl"
CARD_FILE = "README.md"


def selected(sqlite: sqlite_utils.Database, selection: Selection) -> Iterator[Conversation]:
    """The kept conversations of every run of ``selection``, run by run, in id order."""
    kept = set(selection.kept)
    for run_id in selection.runs:
        source = open_run(sqlite, run_id)
        ids = [i for i in selection.kept if i.startswith(f"{run_id}/")]
        yield from (c for c in conversations(sqlite, source, ids) if c.id in kept)


def export(
    sqlite: sqlite_utils.Database,
    selection: Selection,
    out: Path,
    *,
    fmt: str = "trl",
    reasoning: Reasoning = "drop",
    tools_as_string: bool = False,
    arguments_as_string: bool = False,
    call_ids: CallIds = "stored",
    force: bool = False,
) -> int:
    """Write ``out/train.jsonl`` and ``out/README.md``; returns the number of rows.

    Both files are written whole before either replaces a file (``store.write_outputs``); a
    folder that already holds a dataset (either file not empty, or a symbolic link) is refused
    unless ``force``, and a missing folder is created.
    """
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: use {' or '.join(FORMATS)}")
    check_dataset(out, force=force)
    if not selection.kept:
        raise UsageError(
            f"tracer export: the selection keeps no conversation (of {selection.total}); "
            "loosen the filter's thresholds"
        )
    facts = CardFacts(
        selection=selection,
        fmt=fmt,
        reasoning=reasoning,
        arguments_as_string=arguments_as_string,
        call_ids=call_ids,
    )
    lines: list[str] = []
    for conversation in selected(sqlite, selection):
        if fmt == "trl":
            row = trl_row(
                conversation,
                reasoning,
                tools_as_string,
                arguments_as_string=arguments_as_string,
                call_ids=call_ids,
            )
        else:
            row = sharegpt_row(conversation, reasoning)
        lines.append(json.dumps(row, ensure_ascii=False) + "\n")
        facts.add(conversation)
    if len(lines) != len(selection.kept):
        raise UsageError(
            f"tracer export: {len(selection.kept) - len(lines)} selected conversations are no "
            f"longer in {selection.db}"
        )
    files = {
        out / DATA_FILE: "".join(lines).encode(),
        out / CARD_FILE: data_card(facts).encode(),
    }
    write_outputs(files, force=force, make_folders=True)
    return len(lines)


def check_dataset(out: Path, *, force: bool = False) -> None:
    """``UsageError`` where ``out`` is a file, or holds a dataset not to be replaced (``force``)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is not a folder")
    for name in (DATA_FILE, CARD_FILE):
        check_output(out / name, force=force, folder_needed=False)
