"""The user-turn corpus (``tests/agents/corpus``): well-formed, labelled, and not our own words.

The corpus holds customer messages as people and LLM users write them, each labelled with what
a calibrator agent must read in it (the schema is in ``tests/agents/corpus/README.md``). These
tests check the three files themselves (development, held out, fresh held out): valid JSON,
unique ids, the label keys and their types, the minimum counts per label, every domain, context
and feeling present, no text of a held-out set repeated from another set, and no sentence of the
scripted user's own tables (``users.tone``) inside any text: the corpus is wording the
calibrators were not written for.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tau_sim.users import tone

CORPUS = Path(__file__).parent / "corpus"
DEVELOPMENT = CORPUS / "user_turns.jsonl"
HELD_OUT = CORPUS / "user_turns_heldout.jsonl"
FRESH = CORPUS / "user_turns_fresh.jsonl"
"""A second held-out set, written apart (2026-12-05): nobody tuning a reader reads it."""

CONTEXTS = frozenset(
    {"after_refusal", "after_confirmation", "after_question", "after_done", "opening"}
)
FEELINGS = frozenset({"anger", "fear", "sadness", "disgust"})
FLAGS = ("insists", "accepts", "declines", "corrects", "threatens", "ends")
LABELS = frozenset({*FLAGS, "feeling", "distress"})
DOMAINS = (
    "airline",
    "banking",
    "car_rental",
    "food_delivery",
    "hotel",
    "insurance",
    "retail",
    "telecom",
    "telehealth",
    "utilities",
)
ID = re.compile(r"^u-(?:ho-|fr-)?(?P<domain>[a-z_]+)-\d{3}$")

MINIMUM_DEVELOPMENT = {
    "insists": 30,
    "accepts": 20,
    "corrects": 20,
    "declines": 20,
    "threatens": 20,
}
MINIMUM_CALM = 40

Turn = dict[str, Any]


def load(path: Path) -> list[Turn]:
    """The turns of one corpus file, one JSON object a line (a bad line fails with its number)."""
    turns: list[Turn] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            turn = json.loads(line)
        except json.JSONDecodeError as error:
            pytest.fail(f"{path.name}:{number}: not JSON ({error})")
        assert isinstance(turn, dict), f"{path.name}:{number}: not an object"
        turns.append(turn)
    return turns


@pytest.fixture(scope="module")
def development() -> list[Turn]:
    return load(DEVELOPMENT)


@pytest.fixture(scope="module")
def held_out() -> list[Turn]:
    return load(HELD_OUT)


@pytest.fixture(scope="module")
def fresh() -> list[Turn]:
    return load(FRESH)


def _normal(text: str) -> str:
    """Lower case, single spaces, no punctuation at either end."""
    return re.sub(r"\s+", " ", text.lower()).strip(" .,;:!?\"'")


def _sentences(text: str) -> list[str]:
    return [s for s in (_normal(p) for p in re.split(r"(?<=[.!?])\s+", text)) if s]


def _texts(table: object) -> list[str]:
    if isinstance(table, str):
        return [table]
    if isinstance(table, dict):
        return [s for value in table.values() for s in _texts(value)]
    if isinstance(table, list | tuple):
        return [s for value in table for s in _texts(value)]
    return []


def tone_phrases() -> list[str]:
    """Every sentence of ``users.tone``'s tables (placeholders cut out), normalised."""
    tables = [value for name, value in vars(tone).items() if name.isupper()]
    phrases = {
        sentence
        for text in _texts(tables)
        for part in re.split(r"\{\w*\}", text)
        for sentence in _sentences(part)
    }
    return sorted(phrases)


def copied(text: str, phrases: list[str]) -> list[str]:
    """The scripted user's phrases inside ``text``.

    A phrase of three words or more counts anywhere in the text; one of two words ("Come on.",
    "Oh no.") only as a whole sentence, since such words are common inside other sentences; a
    single word ("Yes.", "Hi!") is everybody's.
    """
    whole = _normal(text)
    own = set(_sentences(text))
    return [
        p
        for p in phrases
        if (p in whole if len(p.split()) >= 3 else len(p.split()) == 2 and p in own)
    ]


@pytest.mark.parametrize(
    "path", [DEVELOPMENT, HELD_OUT, FRESH], ids=["development", "held_out", "fresh"]
)
def test_every_turn_has_the_schema_keys_and_types(path: Path) -> None:
    for turn in load(path):
        where = f"{path.name} {turn.get('id')}"
        assert set(turn) == {"id", "context", "text", "labels"}, where
        assert isinstance(turn["text"], str) and turn["text"].strip(), where
        assert turn["context"] in CONTEXTS, where
        labels = turn["labels"]
        assert isinstance(labels, dict) and set(labels) == LABELS, where
        for flag in FLAGS:
            assert isinstance(labels[flag], bool), f"{where}: {flag}"
        assert labels["feeling"] is None or labels["feeling"] in FEELINGS, where
        assert type(labels["distress"]) is int and labels["distress"] in (0, 1, 2), where


@pytest.mark.parametrize(
    "path", [DEVELOPMENT, HELD_OUT, FRESH], ids=["development", "held_out", "fresh"]
)
def test_labels_agree_with_each_other(path: Path) -> None:
    for turn in load(path):
        labels, where = turn["labels"], f"{path.name} {turn['id']}"
        # a feeling shows as distress and distress as a feeling (enjoyment and calm: neither)
        assert (labels["feeling"] is None) == (labels["distress"] == 0), where
        if labels["threatens"]:
            assert labels["distress"] == 2, f"{where}: a threat is distress 2"
        if labels["declines"]:
            assert turn["context"] == "after_confirmation", f"{where}: declines what?"
        if labels["insists"]:
            assert not labels["accepts"], f"{where}: insists and accepts"


def test_ids_are_unique_prefixed_and_name_a_domain(
    development: list[Turn], held_out: list[Turn], fresh: list[Turn]
) -> None:
    ids = [t["id"] for t in development + held_out + fresh]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    for turn_id in ids:
        match = ID.match(turn_id)
        assert match and match["domain"] in DOMAINS, turn_id
    assert all(t["id"].startswith("u-ho-") for t in held_out)
    assert all(t["id"].startswith("u-fr-") for t in fresh)
    assert not any(t["id"].startswith(("u-ho-", "u-fr-")) for t in development)
    assert not any(t["id"].startswith("u-fr-") for t in held_out)


def test_held_out_phrasings_differ_from_development(
    development: list[Turn], held_out: list[Turn], fresh: list[Turn]
) -> None:
    seen = {_normal(t["text"]) for t in development}
    texts = [_normal(t["text"]) for t in development + held_out + fresh]
    assert [t for t, n in Counter(texts).items() if n > 1] == []
    assert [t["id"] for t in held_out + fresh if _normal(t["text"]) in seen] == []


def _counts(turns: list[Turn]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for turn in turns:
        labels = turn["labels"]
        counts.update(flag for flag in FLAGS if labels[flag])
        counts["calm"] += labels["distress"] == 0 and labels["feeling"] is None
        counts[f"context:{turn['context']}"] += 1
        counts[f"feeling:{labels['feeling']}"] += 1
        match = ID.match(turn["id"])
        counts[f"domain:{match['domain'] if match else '?'}"] += 1
    return counts


def test_development_set_reaches_its_minimums(development: list[Turn]) -> None:
    counts = _counts(development)
    assert len(development) >= 200
    for label, least in MINIMUM_DEVELOPMENT.items():
        assert counts[label] >= least, (label, counts[label])
    assert counts["calm"] >= MINIMUM_CALM


@pytest.mark.parametrize("path", [HELD_OUT, FRESH], ids=["held_out", "fresh"])
def test_held_out_set_reaches_its_minimum(path: Path) -> None:
    held_out = load(path)
    counts = _counts(held_out)
    assert len(held_out) >= 80
    for label in MINIMUM_DEVELOPMENT:
        assert counts[label] >= 5, (label, counts[label])
    assert counts["calm"] >= 15


@pytest.mark.parametrize(
    "path", [DEVELOPMENT, HELD_OUT, FRESH], ids=["development", "held_out", "fresh"]
)
def test_every_domain_context_and_feeling_is_present(path: Path) -> None:
    counts = _counts(load(path))
    for name in [
        *(f"domain:{d}" for d in DOMAINS),
        *(f"context:{c}" for c in CONTEXTS),
        *(f"feeling:{f}" for f in [*FEELINGS, None]),
    ]:
        assert counts[name] >= 3, name
    shouting = [
        t for t in load(path) if "!!" in t["text"] or re.search(r"\b[A-Z]{4,}\b", t["text"])
    ]
    assert len(shouting) >= 3


def test_no_text_copies_the_scripted_users_phrases(
    development: list[Turn], held_out: list[Turn], fresh: list[Turn]
) -> None:
    phrases = tone_phrases()
    assert "i still want" in phrases and "whatever, fine" in phrases  # the tables were read
    turns = development + held_out + fresh
    found = {t["id"]: hits for t in turns if (hits := copied(t["text"], phrases))}
    assert found == {}


def test_the_copy_check_finds_a_copied_phrase() -> None:
    phrases = tone_phrases()
    assert copied("Sorry to insist, but I still want my refund.", phrases)
    assert copied("Whatever, fine. Refund it.", phrases)
    assert not copied("Whatever, fine by me, refund it.", phrases)
    assert not copied("Yes. Refund it.", phrases)
