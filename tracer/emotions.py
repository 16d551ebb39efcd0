"""Emotion distributions for constructed tasks: the ``--emotions`` spec and its stratified draw.

A spec is sections separated by ``;``. The first lists emotions, comma-separated, each
``NAME`` or ``NAME:WEIGHT`` (weight a positive number, 1 when left out); a name is a family
(``anger``: its leaves in turn), a leaf or alias (``frustration``), or ``neutral``. Each further
section is ``KEY=V1,V2`` with KEY ``intensity`` (``low``/``medium``/``high`` or 0..1) or a
dimension (``politeness``, ``urgency``, ``trust``: named levels). Example::

    anger:2,fear,helplessness;intensity=low,high;politeness=warm,cold

The cells are (emotion entry x intensity x levels). Each entry receives a share of the tasks in
proportion to its weight (largest remainders), and inside an entry its cells are filled in turn,
so they differ by at most one task; a family entry also deals its leaves in turn. Every profile
names both the family and a leaf of that family. Neutral is played at intensity 0 and without
levels.

Duplicates follow ``tau-sim run``'s rules (``simulator.cli.settings.unique`` over
``simulator.run.checks.normalize_emotions`` and ``parse_intensity``): ``anger,frustration``
(a family and its default leaf) and ``intensity=low,0.3`` are each one entry given twice. As a
family here deals all of its leaves, a family listed with one of its own leaves is refused too.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import msgspec

from tau_sim.simulator.cli import unique
from tau_sim.simulator.core import DIMENSIONS, NEUTRAL, EmotionSpec, UsageError, parse_intensity
from tau_sim.simulator.run import normalize_emotions
from tau_sim.users.emotions import FAMILIES, LEAVES, family_of, resolve


class EmotionEntry(msgspec.Struct, frozen=True):
    """One emotion of a spec: a family with the leaves it deals, and its weight."""

    family: str
    leaves: tuple[str, ...]
    weight: float


class EmotionDistribution(msgspec.Struct, frozen=True):
    """A parsed ``--emotions`` spec (see the module docstring)."""

    entries: tuple[EmotionEntry, ...]
    intensities: tuple[float, ...] = (0.6,)
    politeness: tuple[str | None, ...] = (None,)
    urgency: tuple[str | None, ...] = (None,)
    trust: tuple[str | None, ...] = (None,)


FLAG = "--emotions"


def _entry(term: str) -> EmotionEntry:
    name, _, weight_text = term.partition(":")
    name = name.strip().lower()
    weight = 1.0
    if weight_text.strip():
        try:
            weight = float(weight_text)
        except ValueError:
            raise UsageError(
                f"{FLAG}: weight {weight_text.strip()!r} of {name!r} is not a number"
            ) from None
        if not weight > 0 or weight == float("inf"):
            raise UsageError(f"{FLAG}: weight of {name!r} must be a positive number")
    if name == NEUTRAL:
        return EmotionEntry(NEUTRAL, (NEUTRAL,), weight)
    if name in FAMILIES:
        leaves = tuple(leaf.name for leaf in LEAVES.values() if leaf.family == name)
        return EmotionEntry(name, leaves, weight)
    try:
        leaf = resolve(name)
    except KeyError:
        raise UsageError(
            f"{FLAG}: {name!r} is not an emotion family or leaf (see `tau-sim emotions`)"
        ) from None
    return EmotionEntry(family_of(leaf), (leaf,), weight)


def _check_emotions(terms: Sequence[str], entries: Sequence[EmotionEntry]) -> None:
    """``run``'s duplicate rule over the names, then no family next to one of its own leaves."""
    names = [t.partition(":")[0].strip().lower() for t in terms]
    unique(FLAG, names, normalize_emotions(names, dedupe=False))
    families = {name for name in names if name in FAMILIES and name != NEUTRAL}
    for entry, name in zip(entries, names, strict=True):
        if name not in FAMILIES and entry.family in families:
            raise UsageError(
                f"{FLAG}: {entry.family!r} deals all its leaves, {name!r} among them; "
                "give each emotion once"
            )


def parse_distribution(text: str) -> EmotionDistribution:
    """Parse an ``--emotions`` spec; a malformed one is a one-line ``UsageError``."""
    sections = [s.strip() for s in text.split(";")]
    if not sections[0]:
        raise UsageError(f"{FLAG}: the spec starts with no emotion (e.g. 'anger:2,fear')")
    terms = [t.strip() for t in sections[0].split(",")]
    if any(not t for t in terms):
        raise UsageError(f"{FLAG}: empty emotion in {sections[0]!r}")
    entries = [_entry(t) for t in terms]
    _check_emotions(terms, entries)
    fields: dict[str, tuple[object, ...]] = {}
    for section in sections[1:]:
        key, eq, values = section.partition("=")
        key = key.strip().lower()
        if not eq or not values.strip():
            raise UsageError(f"{FLAG}: section {section!r} is not KEY=V1,V2")
        if key in fields:
            raise UsageError(f"{FLAG}: {key} is given twice")
        parts = [v.strip().lower() for v in values.split(",")]
        if any(not p for p in parts):
            raise UsageError(f"{FLAG}: {key} has an empty value in {values!r}")
        where = f"{FLAG} {key}"
        if key == "intensity":
            numbers = unique(where, parts, [parse_intensity(p, where) for p in parts])
            fields["intensities"] = tuple(numbers)
        elif key in DIMENSIONS:
            for part in parts:
                if part not in DIMENSIONS[key]:
                    raise UsageError(
                        f"{FLAG}: unknown {key} level {part!r} (use {', '.join(DIMENSIONS[key])})"
                    )
            levels = unique(where, parts, parts)
            fields[key] = tuple(levels)
        else:
            raise UsageError(
                f"{FLAG}: unknown section {key!r} (use intensity, {', '.join(DIMENSIONS)})"
            )
    return msgspec.convert(
        {"entries": entries, **fields}, EmotionDistribution, from_attributes=True
    )


def _shares(weights: Sequence[float], total: int) -> list[int]:
    """``total`` split in proportion to ``weights`` by largest remainders (ties: first wins)."""
    whole = sum(weights)
    exact = [w * total / whole for w in weights]
    counts = [int(x) for x in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts


def assign(distribution: EmotionDistribution, count: int, rng: random.Random) -> list[EmotionSpec]:
    """``count`` profiles drawn stratified from ``distribution``, in a seeded random order."""
    profiles: list[EmotionSpec] = []
    shares = _shares([e.weight for e in distribution.entries], count)
    for entry, share in zip(distribution.entries, shares, strict=True):
        if entry.family == NEUTRAL:
            profiles += [EmotionSpec(family=NEUTRAL, leaf=NEUTRAL, intensity=0.0)] * share
            continue
        cells = list(
            itertools.product(
                distribution.intensities,
                distribution.politeness,
                distribution.urgency,
                distribution.trust,
            )
        )
        for n in range(share):
            intensity, politeness, urgency, trust = cells[n % len(cells)]
            leaf = entry.leaves[(n // len(cells)) % len(entry.leaves)]
            profiles.append(
                EmotionSpec(
                    family=entry.family,
                    leaf=leaf,
                    intensity=intensity,
                    politeness=politeness,
                    urgency=urgency,
                    trust=trust,
                )
            )
    rng.shuffle(profiles)
    return profiles
