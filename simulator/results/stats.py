"""Statistics of the figures: pass^k, pass@k and seeded percentile-bootstrap intervals over tasks.

A task (the bootstrap unit) holds one or more cells of trials. Every statistic here is a ratio
of sums over tasks (successes over conversations, the sum of per-cell pass^k over the cells that
have k trials, the sum of per-task differences over tasks), so a resample is a multiset of task
indices and the statistic of a resample is the same ratio over the tasks drawn.
"""

from __future__ import annotations

import hashlib
import random
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat, starmap
from math import comb, floor

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
    and the number of tasks, so every statistic of one report over the same number of tasks is
    resampled alike. They are drawn again for each call, one resample at a time, never kept:
    all of them would be ``resamples`` x tasks integers (850 MB for 10,000 tasks). What a call
    found is kept under a digest of its statistics, so a report's many equal summaries (a run
    with one condition has the same figures overall, per group and per condition) are
    resampled once. Fewer than two tasks give no interval: a resample of one task says nothing
    about how tasks vary.
    """

    def __init__(self, seed: str = SEED, resamples: int = RESAMPLES, level: float = LEVEL) -> None:
        self.seed = seed
        self.resamples = resamples
        self.level = level
        self._found: dict[bytes, list[Interval | None]] = {}

    def draws(self, units: int) -> Iterator[list[int]]:
        """The resamples of ``units`` tasks, one at a time: lists of indices in 0..units-1."""
        rng = random.Random(f"{self.seed}:{units}")
        # random.choices(range(units), k=units), without a Python step per index: the same
        # floor(random() * units) of the same generator (tests/simulator/results/
        # test_report_memory.py holds them equal)
        scale = float(units).__mul__
        for _ in range(self.resamples):
            yield list(map(floor, map(scale, starmap(rng.random, repeat((), units)))))

    def ratios(
        self, statistics: Sequence[tuple[Sequence[float], Sequence[float]]]
    ) -> list[Interval | None]:
        """Intervals of sum(numerator) / sum(denominator) over tasks, one per statistic.

        Each statistic gives one value per task for its numerator and its denominator (the
        same length for all); a resample whose denominator sums to 0 is skipped.
        """
        if not statistics or len(statistics[0][0]) < 2:
            return [None] * len(statistics)
        digest = _digest(statistics)
        if digest not in self._found:
            self._found[digest] = self._resample(statistics)
        return list(self._found[digest])

    def _resample(
        self, statistics: Sequence[tuple[Sequence[float], Sequence[float]]]
    ) -> list[Interval | None]:
        """``ratios`` computed: every column summed over each resample as it is drawn."""
        units = len(statistics[0][0])
        columns = {tuple(values) for pair in statistics for values in pair}
        # equal columns (a shared denominator, say) are summed once; a constant one needs no draw
        sums = {c: [c[0] * units] * self.resamples for c in columns if min(c) == max(c)}
        varying = [c for c in columns if c not in sums]
        for c in varying:
            sums[c] = []
        if varying:
            getters = [(sums[c].append, c.__getitem__) for c in varying]
            for idx in self.draws(units):
                for append, get in getters:
                    append(sum(map(get, idx)))
        out: list[Interval | None] = []
        for numerator, denominator in statistics:
            nums, dens = sums[tuple(numerator)], sums[tuple(denominator)]
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


def _digest(statistics: Sequence[tuple[Sequence[float], Sequence[float]]]) -> bytes:
    """A fingerprint of a call's statistics (their values, in order), for ``Bootstrap._found``."""
    h = hashlib.blake2b(digest_size=16)
    for pair in statistics:
        for values in pair:
            h.update(len(values).to_bytes(8, "little"))
            h.update(array("d", values).tobytes())
    return h.digest()


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
