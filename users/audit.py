"""The user-simulator card's figures: per user kind and condition, how faithfully it plays.

Each row groups the audited conversations of one user kind under one condition and holds the
manipulation check (``family_match``, ``expressed_intensity``, ``intensity_rank_corr``), the
facts (``invented_facts``, ``unanswered_questions``), the conduct (``accepted_at_once``,
``abandoned_correct``, insistences, ``over_cooperation``, ``over_insistence``; the rules are in
``users.audit_conduct``) and the language figures (``persona_length_breaks``, ``distinct_2``,
``mattr``, ``repeated_sentence_share``, words and messages). ``flags`` names each figure outside
its target (``TARGETS``). docs/users.md, "The user-simulator card", says what each one measures.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tau_sim.simulator.core import STOP, UNSATISFIED
from tau_sim.users.audit_conduct import (
    insistences_made,
    insistences_set,
    invented_names,
    length_breaks,
    refused,
    unanswered,
)
from tau_sim.users.audit_read import Played
from tau_sim.users.emotions import NEGATIVE, family_of
from tau_sim.users.lexicon import family_counts, negativity, positivity, words
from tau_sim.users.repeats import repeats

MATTR_WINDOW = 25
NEUTRAL_BELOW = 0.05
"""Mean negative valence under which a user without negative-family words reads neutral."""
TARGETS = {
    "family_match": 0.8,
    "intensity_rank_corr": 0.6,
    "invented_facts": 0.0,
    "repeated_sentence_share": 0.02,
    "accepted_at_once": 0.0,
    "abandoned_correct": 0.0,
    "unanswered_questions": 0.0,
    "over_cooperation": 0.0,
    "over_insistence": 0.0,
    "persona_length_breaks": 0.05,
}
_FACT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-/.:]*[0-9][A-Za-z0-9_\-/:]*")
_CONDITION = ("user", "emotion", "intensity", "politeness", "urgency", "trust")


def expressed_family(item: Played) -> str:
    """The family a user's own words express by the NRC lexicon, or ``neutral``.

    The user's own words: those neither the scenario nor an earlier agent message holds.
    """
    counts: dict[str, int] = defaultdict(int)
    for text, given in _own(item):
        for family, n in family_counts(text, given).items():
            counts[family] += n
    negative = {f: n for f, n in counts.items() if f in NEGATIVE and n}
    if negative and mean([negativity(t, g) for t, g in _own(item)]) >= NEUTRAL_BELOW:
        return max(sorted(negative), key=lambda f: negative[f])
    if counts.get("enjoyment") and mean([positivity(t, g) for t, g in _own(item)]) >= NEUTRAL_BELOW:
        return "enjoyment"
    return "neutral"


def expressed_intensity(item: Played, family: str) -> float:
    """The mean valence of the user's own words in the condition's direction (0..1)."""
    read = positivity if family == "enjoyment" else negativity
    return mean([read(t, g) for t, g in _own(item)])


def _own(item: Played) -> list[tuple[str, frozenset[str]]]:
    """Each user message with the words given to the user before it."""
    return [
        (text, frozenset(words(known)))
        for text, known in zip(item.texts, item.known_before, strict=True)
    ]


def invented(item: Played) -> list[str]:
    """The facts user messages state that nobody gave the user before.

    Words holding a digit, then names (``audit_conduct.invented_names``).
    """
    found: list[str] = []
    for text, known in zip(item.texts, item.known_before, strict=True):
        clean = text.replace(STOP, "").replace(UNSATISFIED, "")
        for fact in _FACT.findall(clean):
            fact = fact.rstrip(".:/-")
            if fact and fact.lower() not in known.lower():
                found.append(fact)
    return found + invented_names(item)


def distinct_2(texts: Sequence[str]) -> float | None:
    """Distinct word bigrams over all word bigrams of the messages (None without a bigram)."""
    grams = [g for t in texts for g in zip(words(t), words(t)[1:], strict=False)]
    return len(set(grams)) / len(grams) if grams else None


def mattr(tokens: Sequence[str], window: int = MATTR_WINDOW) -> float | None:
    """Moving-average type-token ratio (the plain ratio for a text shorter than the window)."""
    if not tokens:
        return None
    if len(tokens) <= window:
        return len(set(tokens)) / len(tokens)
    spans = [tokens[i : i + window] for i in range(len(tokens) - window + 1)]
    return mean([len(set(s)) / window for s in spans])


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None where a side is constant."""
    if len(xs) < 2:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = mean(rx), mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else None


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0.0 of nothing)."""
    return sum(values) / len(values) if values else 0.0


def card(played: Sequence[Played]) -> list[dict[str, Any]]:
    """One row of figures per user kind and condition, in the order first played."""
    groups: dict[tuple[Any, ...], list[Played]] = defaultdict(list)
    for item in played:
        groups[_condition_key(item)].append(item)
    corr = _rank_correlations(played)
    rows = []
    for key, items in groups.items():
        row = _row(dict(zip(_CONDITION, key, strict=True)), items)
        row["intensity_rank_corr"] = corr.get((row["user"], row["family"]))
        row["flags"] = flags(row)
        rows.append(row)
    return rows


def _condition_key(item: Played) -> tuple[Any, ...]:
    """The values of ``_CONDITION`` for one conversation (an unset level is "")."""
    condition = item.condition
    levels = (level or "" for level in condition.levels.values())
    return (item.user, condition.emotion, condition.intensity, *levels)


def _rank_correlations(played: Sequence[Played]) -> dict[tuple[str, str], float | None]:
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for item in played:
        family = family_of(item.condition.emotion)
        set_intensity = item.condition.intensity
        pairs[item.user, family].append((set_intensity, expressed_intensity(item, family)))
    out: dict[tuple[str, str], float | None] = {}
    for key, values in pairs.items():
        if family_of(key[1]) == "neutral" or len({s for s, _ in values}) < 2:
            out[key] = None
        else:
            out[key] = spearman([s for s, _ in values], [e for _, e in values])
    return out


def _row(condition: dict[str, Any], items: list[Played]) -> dict[str, Any]:
    family = family_of(condition["emotion"])
    texts = [t for item in items for t in item.texts]
    n = len(items)
    ttr = [mattr([w for t in item.texts for w in words(t)]) for item in items]
    return {
        **condition,
        "family": family,
        "conversations": n,
        "family_match": sum(expressed_family(i) == family for i in items) / n,
        "expressed_intensity": round(mean([expressed_intensity(i, family) for i in items]), 3),
        "invented_facts": sum(len(invented(i)) for i in items) / n,
        "invented_examples": sorted({f for i in items for f in invented(i)})[:5],
        "accepted_at_once": sum(i.ends == STOP and len(i.texts) <= 2 for i in items) / n,
        "abandoned_correct": sum(i.ends == UNSATISFIED and (i.reward or 0.0) >= 1.0 for i in items)
        / n,
        "unanswered_questions": sum(len(unanswered(i)) for i in items) / n,
        **_pushback(items),
        "distinct_2": distinct_2(texts),
        "mattr": mean([v for v in ttr if v is not None])
        if any(v is not None for v in ttr)
        else None,
        "repeated_sentence_share": sum(repeats(i.texts) for i in items) / len(texts),
        "messages_per_conversation": len(texts) / n,
        "words_per_message": mean([len(words(t)) for t in texts]),
        "persona_length_breaks": sum(length_breaks(i) for i in items) / len(texts),
        "words_by_persona": _words_by_persona(items),
    }


def _pushback(items: list[Played]) -> dict[str, float | None]:
    """Insistences set and made, over- and under-insisting, over the refused demands."""
    pairs = [(insistences_set(i), insistences_made(i), i.ends) for i in items if refused(i)]
    if not pairs:
        return dict.fromkeys(
            ("insistences_set", "insistences_made", "over_cooperation", "over_insistence")
        )
    n = len(pairs)
    return {
        "insistences_set": mean([s for s, _, _ in pairs]),
        "insistences_made": mean([m for _, m, _ in pairs]),
        "over_cooperation": sum(m < s and e == STOP for s, m, e in pairs) / n,
        "over_insistence": sum(m > s for s, m, _ in pairs) / n,
    }


def _words_by_persona(items: list[Played]) -> dict[str, float]:
    by: dict[str, list[int]] = defaultdict(list)
    for item in items:
        by[item.persona or "-"].extend(len(words(t)) for t in item.texts)
    return {p: round(mean(v), 2) for p, v in sorted(by.items())}


def flags(row: dict[str, Any]) -> list[str]:
    """The figures of a row that miss ``TARGETS`` (family match on every family)."""
    out = []
    if row["family_match"] < TARGETS["family_match"]:
        out.append("family_match")
    corr = row.get("intensity_rank_corr")
    if corr is not None and corr < TARGETS["intensity_rank_corr"]:
        out.append("intensity_rank_corr")
    for name in (
        "invented_facts",
        "unanswered_questions",
        "accepted_at_once",
        "abandoned_correct",
        "over_cooperation",
        "over_insistence",
        "repeated_sentence_share",
        "persona_length_breaks",
    ):
        if row[name] is not None and row[name] > TARGETS[name]:
            out.append(name)
    by = row["words_by_persona"]
    if "terse" in by and "rambling" in by and by["terse"] >= by["rambling"]:
        out.append("persona_words")
    return out
