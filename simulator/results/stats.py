"""Statistics of the figures: pass^k, pass@k and seeded percentile-bootstrap intervals over tasks.

A task (the bootstrap unit) holds one or more cells of trials. Every statistic here is a ratio
of sums over tasks (successes over conversations, the sum of per-cell pass^k over the cells that
have k trials, the sum of per-task differences over tasks), so a resample is a multiset of task
indices and the statistic of a resample is the same ratio over the tasks drawn.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from math import comb

from tau_sim.simulator.core.errors import UsageError

LEVEL = 0.95
"""Coverage of the intervals the reports print."""
RESAMPLES = 2000
"""Bootstrap resamples per interval unless ``--resamples`` says otherwise."""
SEED = "tau-sim"
"""The seed of every report's draws: an interval is a function of the stored data alone."""
MIN_RESAMPLES = 100
MAX_RESAMPLES = 100_000
DIGITS = 4


def check_resamples(resamples: int) -> int:
    """``resamples`` when it is in MIN_RESAMPLES..MAX_RESAMPLES, else a ``UsageError``."""
    if not MIN_RESAMPLES <= resamples <= MAX_RESAMPLES:
        raise UsageError(
            f"--resamples must be in {MIN_RESAMPLES}..{MAX_RESAMPLES} (got {resamples})"
        )
    return resamples


Interval = tuple[float, float]
"""(low, high) of a percentile interval, rounded to ``DIGITS``."""


def task_pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k): the chance that k trials drawn from n without replacement all pass."""
    return comb(c, k) / comb(n, k)


def task_pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n - c, k) / C(n, k): the chance that at least one of k trials drawn from n passes."""
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Mean over tasks of C(c, k) / C(n, k) for (n trials, c successes); n < k is skipped.

    None when no task has k trials.
    """
    values = [task_pass_hat_k(n, c, k) for n, c in counts if n >= k]
    return sum(values) / len(values) if values else None


def pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Mean over tasks of 1 - C(n - c, k) / C(n, k); tasks with fewer than k trials are skipped.

    c = 0 gives 0, c = n gives 1 (every draw holds a success); None when no task has k trials.
    """
    values = [task_pass_at_k(n, c, k) for n, c in counts if n >= k]
    return sum(values) / len(values) if values else None


class Bootstrap:
    """Seeded percentile bootstrap over tasks: the same seed and data give the same intervals.

    The draws (``resamples`` lists of task indices, with replacement) depend only on the seed
    and the number of tasks, and are made once per number of tasks, so every statistic of one
    report over the same tasks is resampled alike. Fewer than two tasks give no interval: a
    resample of one task says nothing about how tasks vary.
    """

    def __init__(self, seed: str = SEED, resamples: int = RESAMPLES, level: float = LEVEL) -> None:
        self.seed = seed
        self.resamples = resamples
        self.level = level
        self._draws: dict[int, list[list[int]]] = {}

    def draws(self, units: int) -> list[list[int]]:
        """The resamples of ``units`` tasks: lists of indices in 0..units-1."""
        if units not in self._draws:
            rng = random.Random(f"{self.seed}:{units}")
            population = range(units)
            self._draws[units] = [rng.choices(population, k=units) for _ in range(self.resamples)]
        return self._draws[units]

    def ratios(
        self, statistics: Sequence[tuple[Sequence[float], Sequence[float]]]
    ) -> list[Interval | None]:
        """Intervals of sum(numerator) / sum(denominator) over tasks, one per statistic.

        Each statistic gives one value per task for its numerator and its denominator (the
        same length for all); a resample whose denominator sums to 0 is skipped.
        """
        if not statistics or len(statistics[0][0]) < 2:
            return [None] * len(statistics)
        units = len(statistics[0][0])
        draws = self.draws(units)
        sums: dict[tuple[float, ...], list[float]] = {}

        def resampled(values: Sequence[float]) -> list[float]:
            key = tuple(values)
            if key not in sums:  # equal columns (a shared denominator, say) are summed once
                if min(key) == max(key):  # every resample sums to the same
                    sums[key] = [key[0] * units] * len(draws)
                else:
                    get = key.__getitem__
                    sums[key] = [sum(map(get, idx)) for idx in draws]
            return sums[key]

        out: list[Interval | None] = []
        for numerator, denominator in statistics:
            nums, dens = resampled(numerator), resampled(denominator)
            out.append(self.interval([a / b for a, b in zip(nums, dens, strict=True) if b > 0]))
        return out

    def mean(self, values: Sequence[float]) -> Interval | None:
        """Interval of the mean over tasks of one value per task (a paired difference, say)."""
        return self.ratios([(values, [1.0] * len(values))])[0]

    def interval(self, values: list[float]) -> Interval | None:
        """The central ``level`` percentile interval of resampled values (linear interpolation)."""
        if not values:
            return None
        values.sort()
        tail = (1.0 - self.level) / 2
        return (
            round(_quantile(values, tail), DIGITS),
            round(_quantile(values, 1.0 - tail), DIGITS),
        )


def _quantile(ordered: Sequence[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def paired_difference(
    a: Sequence[float], b: Sequence[float], bootstrap: Bootstrap
) -> tuple[float | None, Interval | None]:
    """Mean over tasks of a[t] - b[t] and its bootstrap interval (tasks resampled as pairs)."""
    differences = [x - y for x, y in zip(a, b, strict=True)]
    if not differences:
        return None, None
    return round(sum(differences) / len(differences), DIGITS), bootstrap.mean(differences)
