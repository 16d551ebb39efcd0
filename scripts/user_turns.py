"""How well the calibrators read natural user turns: accuracy per act on the user-turn corpus.

Reads ``tests/agents/corpus/user_turns.jsonl`` (development), ``user_turns_heldout.jsonl``
(held out) and ``user_turns_fresh.jsonl`` (held out, written apart) and prints, per act, the
share of turns where ``agents.cues`` reads the label the corpus gives: ``insists``,
``accepts``, ``corrects``, ``threatens``, ``ends`` on every turn, ``declines`` on the turns after
a confirmation question, ``feeling`` (the family or none) and ``distress`` (0, 1, 2) on every
turn. ``--misses`` lists the development set's misses only: the held-out sets' are not read.

    PYTHONPATH=$PWD python scripts/user_turns.py [--misses ACT]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tau_sim.agents import cues

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "agents" / "corpus"
FILES = {
    "development": "user_turns.jsonl",
    "held-out": "user_turns_heldout.jsonl",
    "fresh": "user_turns_fresh.jsonl",
}


def _family(text: str) -> str | None:
    shown = cues.feeling(text)
    return shown.family if shown is not None else None


READERS: dict[str, Callable[[str], Any]] = {
    "insists": cues.insists,
    "accepts": cues.accepts,
    "declines": cues.refuses,
    "corrects": cues.corrects,
    "threatens": cues.threatens,
    "ends": cues.ends,
    "feeling": _family,
    "distress": cues.distress_level,
}


def accuracy(turns: list[dict[str, Any]], act: str) -> tuple[int, int, list[str]]:
    """(right, read, the texts read wrongly) for one act."""
    right, seen, misses = 0, 0, []
    for turn in turns:
        if act == "declines" and turn["context"] != "after_confirmation":
            continue
        seen += 1
        if READERS[act](turn["text"]) == turn["labels"][act]:
            right += 1
        else:
            misses.append(f"{turn['labels'][act]!r:8} {turn['text']}")
    return right, seen, misses


def main() -> None:
    """Print the table (and the misses of one act on the development set)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", choices=sorted(READERS), help="list this act's misses")
    args = parser.parse_args()
    sets = {
        name: [json.loads(line) for line in (CORPUS / file).read_text().splitlines()]
        for name, file in FILES.items()
    }
    print(f"{'act':10} " + " ".join(f"{name:>18}" for name in sets))
    for act in READERS:
        cells = []
        for turns in sets.values():
            right, seen, _ = accuracy(turns, act)
            cells.append(f"{right:3}/{seen:3} {100 * right / seen:6.1f} %")
        print(f"{act:10} " + " ".join(f"{c:>18}" for c in cells))
    if args.misses:
        for miss in accuracy(sets["development"], args.misses)[2]:
            print(miss)


if __name__ == "__main__":
    main()
