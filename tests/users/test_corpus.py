"""The corpora of natural turns are well formed: schema, real tasks and slots, sizes, own words.

Agent turns (``tests/users/corpus``, what the scripted user's reader is measured on) and user
turns (``tests/agents/corpus``, what the calibrators read) follow the shared schema described in
``tests/users/corpus/README.md``. The four files of this folder's own corpus must exist; the
device and user-turn files are checked when present. The scripted agents' own sentences are
looked for in agent turns only (a customer may well say "have a great day"). The fresh held-out
sets (agent and device turns) share no sentence of six words or more with any other file, and the
fresh device set asks every telecom user tool at least three times.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tau_sim.agents import phrases, plan
from tau_sim.domains.telecom import device
from tau_sim.simulator.world import Toolkit

TESTS = Path(__file__).resolve().parents[1]
DOMAINS_DIR = TESTS.parent / "domains"
AGENT_DIR = TESTS / "users" / "corpus"
USER_DIR = TESTS / "agents" / "corpus"

DOMAINS = (
    "retail",
    "airline",
    "telecom",
    "telehealth",
    "banking",
    "insurance",
    "hotel",
    "car_rental",
    "food_delivery",
    "utilities",
)
DEVELOPMENT = "agent_turns.jsonl"
HELD_OUT = "agent_turns_heldout.jsonl"
ISSUES = "issue_turns.jsonl"
FRESH = "agent_turns_fresh.jsonl"
DEVICE_FRESH = "device_turns_fresh.jsonl"
FRESH_2 = "agent_turns_fresh2.jsonl"
OWN = (DEVELOPMENT, HELD_OUT, ISSUES, FRESH, FRESH_2)
DEVICE = ("device_turns.jsonl", "device_turns_heldout.jsonl", DEVICE_FRESH)
USER = ("user_turns.jsonl", "user_turns_heldout.jsonl", "user_turns_fresh.jsonl")
AGENT_FILES = (*OWN, *DEVICE)
HELD_APART = (FRESH, DEVICE_FRESH, FRESH_2)
"""The fresh held-out sets, written apart from every other file: no long sentence in common."""

MINIMUM = {DEVELOPMENT: (300, 25), HELD_OUT: (150, 12), FRESH: (200, 15), FRESH_2: (220, 20)}
"""Turns in all and per domain, by file."""
ISSUE_33_TURNS = 26
"""The natural agent turns issue 33 measured the reader on."""
POSITIVE_SHARE = 0.05
"""Share of a set's turns each act must hold in: a reader that never finds an act then scores
below the 95 % the reader's test asks for."""

FLAGS = ("confirms", "done", "refuses", "closes", "transfers", "acknowledges", "asks_other")
ACTS = {"asks", "steps", *FLAGS}
LABELS: dict[str, type | tuple[type, ...]] = {
    "insists": bool,
    "accepts": bool,
    "declines": bool,
    "corrects": bool,
    "threatens": bool,
    "feeling": (str, type(None)),
    "distress": int,
    "ends": bool,
}
CONTEXTS = {"after_refusal", "after_confirmation", "after_question", "after_done", "opening"}
FEELINGS = {"anger", "fear", "sadness", "disgust"}
SHORTEST_COPY = 4
"""Words a calibrator sentence needs before it counts as copied (shorter ones are plain English)."""
DEVICE_FRESH_TURNS = 100
"""Turns of the fresh device set."""
PHRASINGS_PER_TOOL = 3
"""Turns of the fresh device set that ask each telecom user tool."""
SHARED_SENTENCE = 6
"""Words of a sentence that the held-out set may not share with the development set."""


def _path(name: str) -> Path:
    return (USER_DIR if name in USER else AGENT_DIR) / name


def _present(name: str) -> Path:
    path = _path(name)
    if not path.exists():
        if name in OWN:
            pytest.fail(f"{path} is missing: the corpus's own files must exist")
        pytest.skip(f"{path.name} is not written yet (another helper's part of the corpus)")
    return path


@functools.cache
def _rows(name: str) -> tuple[dict[str, Any], ...]:
    rows = []
    for number, line in enumerate(_path(name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            pytest.fail(f"{name}:{number}: not valid JSON: {exc}")
        assert isinstance(row, dict), f"{name}:{number}: not a JSON object"
        rows.append(row)
    return tuple(rows)


@functools.cache
def _known_info() -> dict[str, list[str]]:
    """Every task id with its known-info slot names, in the order the task lists them."""
    slots: dict[str, list[str]] = {}
    for domain in DOMAINS:
        for line in (DOMAINS_DIR / domain / "tasks.jsonl").read_text().splitlines():
            if line.strip():
                task = json.loads(line)
                slots[task["id"]] = list(task["scenario"]["known_info"])
    return slots


@functools.cache
def _device_tools() -> frozenset[str]:
    return frozenset(Toolkit.from_module(device).tools)


def _sentences(text: str) -> list[str]:
    """The sentences of ``text``, lower-cased, with their final punctuation and spacing folded."""
    text = text.replace("\u2019", "'").lower()
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    return [" ".join(p.split()).rstrip(".!?") for p in parts if p.strip()]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, tuple | list):
        return [s for v in value for s in _strings(v)]
    return []


@functools.cache
def _calibrator_sentences() -> frozenset[str]:
    """The fixed sentences of the scripted agents: every upper-case constant and table."""
    texts = [
        s
        for module in (plan, phrases)
        for name, value in vars(module).items()
        if name.isupper()
        for s in _strings(value)
    ]
    found = {s for t in texts for s in _sentences(t) if len(s.split()) >= SHORTEST_COPY}
    assert plan.CLOSING_QUESTION.lower().rstrip("?") in found
    return frozenset(found)


def test_the_own_files_exist() -> None:
    for name in OWN:
        assert _path(name).exists(), f"{name} is missing"


@pytest.mark.parametrize("name", AGENT_FILES)
def test_agent_turns_follow_the_schema(name: str) -> None:
    _present(name)
    slots = _known_info()
    for row in _rows(name):
        where = f"{name}: {row.get('id')}"
        assert set(row) - {"note"} == {"id", "domain", "task", "text", "acts"}, where
        assert isinstance(row["id"], str) and row["id"], where
        assert isinstance(row["text"], str) and row["text"].strip(), where
        assert isinstance(row.get("note", ""), str), where
        assert row["domain"] in DOMAINS, where
        assert row["task"] in slots and row["task"].startswith(f"{row['domain']}-"), (
            f"{where}: {row['task']} is not a task of {row['domain']}"
        )
        acts = row["acts"]
        assert isinstance(acts, dict) and set(acts) == ACTS, f"{where}: act keys {sorted(acts)}"
        for flag in FLAGS:
            assert isinstance(acts[flag], bool), f"{where}: {flag} is not a boolean"
        known = slots[row["task"]]
        asks = acts["asks"]
        assert isinstance(asks, list) and all(isinstance(a, str) for a in asks), where
        assert set(asks) <= set(known), f"{where}: {set(asks) - set(known)} not in known_info"
        assert asks == sorted(set(asks), key=known.index), f"{where}: asks not in known_info order"
        steps = acts["steps"]
        assert isinstance(steps, list) and all(isinstance(s, str) for s in steps), where
        assert set(steps) <= _device_tools(), f"{where}: {set(steps) - _device_tools()}"
        assert not steps or row["domain"] == "telecom", f"{where}: device steps outside telecom"


@pytest.mark.parametrize("name", USER)
def test_user_turns_follow_the_schema(name: str) -> None:
    _present(name)
    for row in _rows(name):
        where = f"{name}: {row.get('id')}"
        assert set(row) - {"note"} == {"id", "context", "text", "labels"}, where
        assert isinstance(row["id"], str) and row["id"], where
        assert isinstance(row["text"], str) and row["text"].strip(), where
        assert row["context"] in CONTEXTS, f"{where}: context {row['context']!r}"
        labels = row["labels"]
        assert isinstance(labels, dict) and set(labels) == set(LABELS), f"{where}: {labels}"
        for key, kind in LABELS.items():
            assert isinstance(labels[key], kind), f"{where}: {key} is {labels[key]!r}"
        assert labels["feeling"] is None or labels["feeling"] in FEELINGS, where
        assert labels["distress"] in (0, 1, 2), where


def test_ids_are_unique_across_the_files() -> None:
    seen: Counter[str] = Counter(
        row["id"] for name in (*AGENT_FILES, *USER) if _path(name).exists() for row in _rows(name)
    )
    twice = [i for i, n in seen.items() if n > 1]
    assert not twice, f"ids used more than once: {twice[:10]}"


@pytest.mark.parametrize("name", sorted(MINIMUM))
def test_each_set_is_big_enough_in_every_domain(name: str) -> None:
    rows = _rows(name)
    total, per_domain = MINIMUM[name]
    assert len(rows) >= total
    counts = Counter(row["domain"] for row in rows)
    thin = {d: counts[d] for d in DOMAINS if counts[d] < per_domain}
    assert not thin, f"{name}: fewer than {per_domain} turns in {thin}"


@pytest.mark.parametrize("name", sorted(MINIMUM))
def test_every_act_is_held_by_enough_turns(name: str) -> None:
    rows = _rows(name)
    held = {act: sum(bool(row["acts"][act]) for row in rows) for act in ACTS}
    held["no act"] = sum(not any(row["acts"].values()) for row in rows)
    thin = {act: n for act, n in held.items() if n <= POSITIVE_SHARE * len(rows)}
    assert not thin, (
        f"{name}: acts held by {POSITIVE_SHARE:.0%} of {len(rows)} turns or fewer: {thin}"
    )


def test_the_issue_turns_quote_their_fragments() -> None:
    rows = _rows(ISSUES)
    assert all(row.get("note", "").startswith(("issue 33", "issue 38")) for row in rows)
    assert sum(row["note"].startswith("issue 33") for row in rows) >= ISSUE_33_TURNS
    texts = " ".join(row["text"] for row in rows)
    for fragment in (
        "Is there anything more I can do for you",
        "Have a wonderful day!",
        "Glad I could help. Take care!",
        "Unfortunately, I'm only able to cancel",
        "isn't something I can process",
        "I can't seem to find an account",
        "Done! Your order is cancelled",
        "I completely get why you're upset",
        "connect you with a specialist",
        "I'll need either your email, or your full name together with your ZIP code.",
        "Not a problem at all, I can help you",
        "Which two stays would you like to change",
        "You're welcome! Take care.",
        "Done! Order #W3956140 is cancelled",
        "Please pop the SIM tray out, reseat the SIM card firmly, and slide it back in.",
        "Now restart the phone, please.",
    ):
        assert fragment in texts, fragment


@pytest.mark.parametrize("name", AGENT_FILES)
def test_no_turn_uses_a_calibrator_sentence(name: str) -> None:
    _present(name)
    fixed = _calibrator_sentences()
    for row in _rows(name):
        text = " ".join(_sentences(row["text"]))
        copied = [s for s in fixed if s in text]
        assert not copied, f"{name}: {row['id']} uses the calibrators' {copied}"


def test_the_held_out_set_is_written_apart() -> None:
    def long_sentences(name: str) -> set[str]:
        return {
            s
            for row in _rows(name)
            for s in _sentences(row["text"])
            if len(s.split()) >= SHARED_SENTENCE
        }

    shared = long_sentences(DEVELOPMENT) & long_sentences(HELD_OUT)
    assert not shared, f"sentences in both sets: {sorted(shared)[:5]}"


@pytest.mark.parametrize("name", HELD_APART)
def test_the_fresh_sets_share_no_sentence_with_any_other_file(name: str) -> None:
    def long_sentences(names: tuple[str, ...]) -> set[str]:
        return {
            s
            for other in names
            if _path(other).exists()
            for row in _rows(other)
            for s in _sentences(row["text"])
            if len(s.split()) >= SHARED_SENTENCE
        }

    others = tuple(other for other in AGENT_FILES if other != name)
    shared = long_sentences((name,)) & long_sentences(others)
    assert not shared, f"{name}: sentences found in other files too: {sorted(shared)[:5]}"


def test_the_fresh_device_set_asks_every_tool_several_times() -> None:
    rows = _rows(DEVICE_FRESH)
    assert len(rows) >= DEVICE_FRESH_TURNS
    assert all(row["domain"] == "telecom" for row in rows)
    asked = Counter(step for row in rows for step in set(row["acts"]["steps"]))
    thin = {tool: asked[tool] for tool in _device_tools() if asked[tool] < PHRASINGS_PER_TOOL}
    assert not thin, f"tools asked fewer than {PHRASINGS_PER_TOOL} times: {thin}"
    assert any(len(row["acts"]["steps"]) > 1 for row in rows), "no turn asks several steps"
    assert any(not row["acts"]["steps"] for row in rows), "no look-alike that asks no step"
