"""Balance: cap and even out the kept conversations per cell (condition x task x agent, say).

A cell is the values of ``Balance.by`` for one conversation (``condition`` stands for emotion,
intensity, politeness, urgency and trust together). With a ``cap`` a cell keeps at most that
many conversations; with ``even`` every cell is cut to the smallest cell's count (after the
cap). A cut keeps the conversations first in a seeded order (a hash of the seed and the
conversation id): the same selection and seed keep the same ones, and a cut favours no run,
task order or trial.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import msgspec

from tau_sim.simulator.core import UsageError
from tau_sim.tracer.thresholds import CELL_KEYS, Balance


class CellCounts(msgspec.Struct, frozen=True, kw_only=True):
    """Kept conversations per cell before and after balancing (the data card shows them)."""

    cells: int
    before_min: int
    before_max: int
    after_min: int
    after_max: int
    cut: int


def cell_of(row: Mapping[str, Any], by: tuple[str, ...]) -> str:
    """The cell of a conversation row, as text ("anger/0.3 | retail-train-0001 | gold")."""
    parts: list[str] = []
    for key in by:
        if key == "condition":
            levels = [str(row[k]) for k in ("politeness", "urgency", "trust") if row.get(k)]
            parts.append("/".join([str(row["emotion"]), f"{float(row['intensity']):.1f}", *levels]))
        elif key == "task":
            parts.append(str(row["task_id"]))
        elif key == "intensity":
            parts.append(f"{float(row['intensity']):.1f}")
        else:
            parts.append(str(row[key]))
    return " | ".join(parts)


def parse_cell_keys(text: str) -> tuple[str, ...]:
    """``--cell-by condition,task,agent``; an unknown key is a ``UsageError``."""
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    for key in keys:
        if key not in CELL_KEYS:
            raise UsageError(f"--cell-by: {key!r} is not one of {', '.join(CELL_KEYS)}")
    if not keys or len(set(keys)) != len(keys):
        raise UsageError("--cell-by: name each key once, e.g. condition,task,agent")
    return keys


def _order(seed: int, conversation_id: str) -> bytes:
    return hashlib.sha256(f"{seed}:{conversation_id}".encode()).digest()


NO_CELLS = CellCounts(cells=0, before_min=0, before_max=0, after_min=0, after_max=0, cut=0)


def balance(kept: list[tuple[str, str]], rule: Balance) -> tuple[list[str], CellCounts]:
    """The ids ``rule`` keeps of ``kept`` ((id, cell) pairs), in their order, and the counts."""
    cells: dict[str, list[str]] = defaultdict(list)
    for conversation_id, cell in kept:
        cells[cell].append(conversation_id)
    if not cells:
        return [], NO_CELLS
    sizes = {cell: len(ids) for cell, ids in cells.items()}
    limit = {
        cell: size if rule.cap is None else min(size, rule.cap) for cell, size in sizes.items()
    }
    if rule.even:
        smallest = min(limit.values())
        limit = dict.fromkeys(limit, smallest)
    chosen: set[str] = set()
    for cell, ids in cells.items():
        chosen.update(sorted(ids, key=lambda i: _order(rule.seed, i))[: limit[cell]])
    counts = CellCounts(
        cells=len(cells),
        before_min=min(sizes.values()),
        before_max=max(sizes.values()),
        after_min=min(limit.values()),
        after_max=max(limit.values()),
        cut=len(kept) - len(chosen),
    )
    return [i for i, _ in kept if i in chosen], counts
