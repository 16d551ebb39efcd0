"""Held-out splits for ``tracer construct --hold-out SPEC --split train|test``.

``SPEC`` is ``intents:A,B`` (intents of the domain) or ``domains:X,Y`` (whole domains). The
split is written as the domain's ``task_splits`` (``train``: the benchmark tasks of the intents
not held out, ``test``: those of the held-out ones; a held-out domain has every task in
``test``) and selected with ``simulator.world.splits.split_pool``, as ``run --task-split`` does:

- ``--split train`` samples only the intents not held out (a held-out domain has none: refused);
- ``--split test`` writes the domain's benchmark tasks in the test split, ids unchanged, to be
  played with ``tau-sim run --tasks-file``: the tasks a model trained on the train file never
  saw, nor any task of their intent (or domain).

Either file gets a record of the split next to it (``OUT.split.json``, ``Split``): the spec,
the split, the intents held out and the ids of the test tasks, so an evaluation can check that
it plays only tasks the training data never saw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import msgspec

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.world import Domain, Intent, Task, split_pool

FLAG = "--hold-out"
SPLITS = ("train", "test")
Kind = Literal["intents", "domains"]


class HoldOut(msgspec.Struct, frozen=True):
    """What a ``--hold-out`` spec holds out: intents of the domain, or whole domains."""

    kind: Kind
    names: tuple[str, ...]

    def spec(self) -> str:
        """The spec as written back (``intents:a,b``)."""
        return f"{self.kind}:{','.join(self.names)}"


class Split(msgspec.Struct, frozen=True):
    """The record written next to a held-out split's task file (``OUT.split.json``)."""

    split: str
    hold_out: str
    domain: str
    held_out_domains: list[str]
    held_out_intents: list[str]
    train_intents: list[str]
    test_tasks: list[str]


def parse_hold_out(text: str) -> HoldOut:
    """Parse ``intents:a,b`` or ``domains:x,y``; anything else is a one-line ``UsageError``."""
    kind, colon, rest = text.partition(":")
    kind = kind.strip().lower()
    if not colon or kind not in ("intents", "domains"):
        raise UsageError(f"{FLAG}: expected intents:A,B or domains:X,Y (got {text!r})")
    names = [n.strip() for n in rest.split(",")]
    if not names or any(not n for n in names):
        raise UsageError(f"{FLAG}: empty name in {text!r}")
    if len(set(names)) != len(names):
        raise UsageError(f"{FLAG}: a name is given twice in {text!r}")
    return HoldOut("intents" if kind == "intents" else "domains", tuple(names))


def check_domains(hold_out: HoldOut, known: list[str]) -> None:
    """A ``domains:`` hold-out names only domains that exist."""
    for name in hold_out.names if hold_out.kind == "domains" else ():
        if name not in known:
            raise UsageError(f"{FLAG}: unknown domain {name!r} (known: {', '.join(known)})")


def check_split(split: str | None, hold_out: HoldOut | None) -> str | None:
    """``--split`` checked against ``--hold-out``: the split, or None without a hold-out."""
    if split is None:
        return "train" if hold_out is not None else None
    if split not in SPLITS:
        raise UsageError(f"--split must be train or test (got {split!r})")
    if hold_out is None:
        raise UsageError(f"--split {split}: give {FLAG} intents:A,B or domains:X,Y")
    return split


def held_out_intents(domain: Domain, hold_out: HoldOut) -> list[str]:
    """The names of ``domain``'s intents that ``hold_out`` holds out (checked)."""
    names = [i.name for i in domain.intents]
    if hold_out.kind == "domains":
        return names if domain.name in hold_out.names else []
    for name in hold_out.names:
        if name not in names:
            raise UsageError(
                f"{FLAG}: domain {domain.name!r} has no intent {name!r} (known: {', '.join(names)})"
            )
    return [n for n in names if n in hold_out.names]


def task_splits(domain: Domain, hold_out: HoldOut) -> dict[str, list[str]]:
    """The domain's benchmark task ids as ``train`` and ``test`` (``Domain.task_splits``)."""
    whole = hold_out.kind == "domains" and domain.name in hold_out.names
    held = set(held_out_intents(domain, hold_out))
    out: dict[str, list[str]] = {split: [] for split in SPLITS}
    for task in domain.tasks:
        out["test" if whole or task.intent in held else "train"].append(task.id)
    return out


def held_out_tasks(domain: Domain, hold_out: HoldOut) -> list[Task]:
    """The benchmark tasks of the test split, through ``split_pool`` (as ``--task-split``)."""
    if domain.task_reader is not None:
        raise UsageError(
            f"--split test: domain {domain.name!r} reads task files in its own format; play its "
            "held-out tasks with `tau-sim run --domain` (and --task-split) instead"
        )
    view = msgspec.structs.replace(domain, task_splits=task_splits(domain, hold_out))
    tasks = split_pool(list(domain.tasks), {domain.name: view}, "test")
    if not tasks:
        raise UsageError(
            f"--split test: {FLAG} {hold_out.spec()} holds out no benchmark task of "
            f"domain {domain.name!r}"
        )
    return tasks


def train_intents(domain: Domain, hold_out: HoldOut) -> list[Intent]:
    """The intents ``--split train`` samples: those not held out (none left: refused)."""
    held = set(held_out_intents(domain, hold_out))
    kept = [i for i in domain.intents if i.name not in held]
    if not kept:
        raise UsageError(
            f"--split train: {FLAG} {hold_out.spec()} holds out every intent of domain "
            f"{domain.name!r}; construct its --split test instead"
        )
    return kept


def record(domain: Domain, hold_out: HoldOut, split: str) -> Split:
    """The record of ``split`` (see the module docstring)."""
    held = held_out_intents(domain, hold_out)
    return Split(
        split=split,
        hold_out=hold_out.spec(),
        domain=domain.name,
        held_out_domains=list(hold_out.names) if hold_out.kind == "domains" else [],
        held_out_intents=held,
        train_intents=[i.name for i in domain.intents if i.name not in held],
        test_tasks=task_splits(domain, hold_out)["test"],
    )


def brief(split: Split) -> dict[str, object]:
    """What ``tracer construct`` prints of a record: its lists of test tasks as a count."""
    shown: dict[str, object] = msgspec.structs.asdict(split)
    shown["test_tasks"] = len(split.test_tasks)
    del shown["train_intents"]
    return shown


def record_path(out: Path) -> Path:
    """Where the record of a split written to ``out`` goes: ``OUT.split.json``."""
    return out.with_name(out.name + ".split.json")


def encode_record(split: Split) -> bytes:
    """The record as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(split), indent=2) + b"\n"


def read_record(path: Path) -> Split:
    """A record written by ``tracer construct``; a bad one is a ``UsageError``."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=Split)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise UsageError(f"cannot read split record {path}: {exc}") from None
