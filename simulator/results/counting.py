"""What one stored conversation row counts as: a success, and whether the figures count it.

A row may also stand for several conversations with the same outcome (``metrics.outcome_rows``:
its ``weight`` is how many, its counters are their sums); a stored row weighs 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from tau_sim.simulator.core.conditions import INTENSITY_LEVELS, intensity_label
from tau_sim.simulator.core.endings import SUCCESS_EPS
from tau_sim.simulator.core.infra import is_excluded

WEIGHT = "weight"
"""The key of a row that stands for several conversations: how many (absent: one)."""

_LEVELS = list(INTENSITY_LEVELS)
_Row = TypeVar("_Row", bound=Mapping[str, Any])


class OutcomeRow(Mapping[str, Any]):
    """A read-only row whose values sit in a tuple and whose names are shared by its table.

    ``metrics.outcome_rows`` makes one per task, condition and outcome: a dict of its 40-odd
    columns would take about 1.6 kB, this takes a quarter of that.
    """

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: tuple[Any, ...]) -> None:
        self._names = names
        self._values = values

    def __getitem__(self, key: str) -> Any:
        return self._values[self._names[key]]

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, ``default`` when the row has no such column."""
        index = self._names.get(key)
        return default if index is None else self._values[index]

    def __contains__(self, key: object) -> bool:
        return key in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def replaced(self, **values: Any) -> OutcomeRow:
        """This row with ``values`` in place of its own (the same names table, shared)."""
        row = list(self._values)
        for name, value in values.items():
            row[self._names[name]] = value
        return OutcomeRow(self._names, tuple(row))


def weight(row: Mapping[str, Any]) -> int:
    """How many conversations ``row`` stands for (1 for a stored row)."""
    return int(row.get(WEIGHT, 1))


def total(rows: Iterable[Mapping[str, Any]]) -> int:
    """How many conversations ``rows`` stand for."""
    return sum(weight(r) for r in rows)


def is_success(row: Mapping[str, Any]) -> bool:
    """A completed conversation whose reward is 1 (within ``SUCCESS_EPS``)."""
    return row["status"] == "completed" and (row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS


def counted(rows: Sequence[_Row], *, count_errors: bool = False) -> list[_Row]:
    """Completed rows, less those ``core.infra.EXCLUDED_REASONS`` ended unless ``count_errors``.

    Those are the conversations an endpoint (``infra_error``) or the user simulator
    (``user_error``) ended.
    """
    completed = [r for r in rows if r["status"] == "completed"]
    return completed if count_errors else [r for r in completed if not is_excluded(r)]


def condition_of(row: Mapping[str, Any]) -> str:
    """A row's condition as the failure and cost tables name it: ``neutral`` or ``anger 0.90``."""
    if row["emotion"] == "neutral":
        return "neutral"
    return f"{row['emotion']} {shown_intensity(row['intensity'])}"


def shown_intensity(value: float | str) -> str:
    """An intensity as tables show it: exact (``intensity_label``), or a level's name as given."""
    return value if isinstance(value, str) else intensity_label(float(value))


def condition_order(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """How per-condition tables sort: agent, user, neutral first, then emotion and intensity."""
    emotion, intensity = row["emotion"], row["intensity"]
    rank = _LEVELS.index(intensity) if intensity in _LEVELS else -1
    return (row["agent"], row["user"], emotion != "neutral", emotion, rank, str(intensity))
