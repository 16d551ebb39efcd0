"""What makes an LLM user's brief wrong: template leftovers and rules that contradict each other.

``defects(task, emotion, brief)`` lists what is wrong with one rendered brief (one short label
per defect, with the text that shows it); ``tests/users/test_briefs.py`` renders every task's brief
and fails on any, and ``scripts/brief_audit.py`` counts them. Render only, no model.
"""

from __future__ import annotations

import re

from tau_sim.simulator.core import NEUTRAL
from tau_sim.simulator.world import Domain, Task
from tau_sim.users.brief import brief_of
from tau_sim.users.dynamics import DissatisfactionModel
from tau_sim.users.emotions import EmotionProfile

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
CONDITIONS: tuple[tuple[str, float], ...] = (
    ("neutral", 0.6),
    ("frustration", 0.9),
    ("helplessness", 0.6),
    ("excitement", 0.3),
)
"""The conditions each task's brief is rendered under: the control, a high intensity, two others."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_GENDERED = re.compile(
    r"\bmy (wife|husband|mother|father|sister|brother|daughter|son|mum|dad)\b", re.IGNORECASE
)
_REFUSAL_LINE = re.compile(
    r"\b(?:if|when)\b[^.]*\b(?:refuses?|cannot|can't|says|shows|explains|transfers)\b"
)


def sections(brief: str) -> dict[str, str]:
    """The brief's sections by their heading ("" for the text before the first heading)."""
    out: dict[str, str] = {}
    name = ""
    for line in brief.splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            out[name] = ""
            continue
        out[name] = out.get(name, "") + line + "\n"
    return out


def render(domain: Domain, task: Task, emotion: str, intensity: float) -> str:
    """The LLM user's brief of ``task`` under ``emotion`` at ``intensity`` (``brief_of``)."""
    return brief_of(domain, task, emotion, intensity)


def never_abandons(emotion: str, intensity: float) -> bool:
    """Whether the scripted user of this condition never abandons (``users.dynamics``)."""
    profile = EmotionProfile.of(emotion, intensity)
    model = DissatisfactionModel(profile)
    return not profile.spec.arousal or model.threshold > 1.0


def defects(task: Task, emotion: str, intensity: float, brief: str) -> list[str]:
    """What is wrong with ``brief``, the LLM user's brief of ``task`` under the condition."""
    found: list[str] = []
    parts = sections(brief)
    body = brief.split("## Answer format", 1)[0]
    scenario = task.scenario
    for pattern, label in (
        (r"\(s\)", "leftover (s)"),
        (r"[{}]", "leftover brace"),
        (r"\bNone\b", "leftover None"),
        (r"\bthey is\b|\bI has\b", "leftover agreement"),
    ):
        hit = re.search(pattern, body)
        if hit:
            found.append(f"{label}: ...{body[max(0, hit.start() - 40) : hit.end() + 20]}...")
    told = " ".join([scenario.goal, scenario.opening, scenario.later, scenario.demand])
    for sentence in _SENTENCE.split(told):
        if _GENDERED.search(sentence) and re.search(r"\b(their|them|they)\b", sentence):
            found.append(f"pronoun does not fit: {sentence}")
    first = scenario.known_info.get("first_name", "")
    last = scenario.known_info.get("last_name", "")
    if first and last:
        me, you = re.escape(first), re.escape(last)
        other = re.search(
            rf"(?<!Dr\. )\b{me} (?!{you}\b)[A-Z][a-z]+|\b[Aa]dd {me} {you}\b|\b{me} {you} added\b",
            told,
        )
        if other:
            found.append(f"the user's own first name as another person: {other.group(0)}")
    for line in parts.get("What you know", "").splitlines():
        label, _, value = line.partition(": ")
        if re.search(r"\(.*\bamount\b.*\)", label) and not re.search(r"\$\d", value):
            found.append(f"a fact labelled with an amount it does not hold: {line}")
    goal = scenario.goal
    pushback = parts.get("If the agent refuses", "")
    if re.search(r"\bI (?:will )?insist\b", goal):
        found.append("the goal insists (how often is the refusal section's)")
    for sentence in _SENTENCE.split(goal):
        if (
            _REFUSAL_LINE.search(sentence.lower())
            and re.search(r"\bI accept\b|\baccept (?:it|that|the)\b|\bagree to be\b", sentence)
            and "in the end" not in sentence
            and pushback
        ):
            found.append(f"the goal accepts at once, the refusal section insists: {sentence}")
    if pushback and "in the end" not in pushback:
        found.append("the refusal section does not say what the user does in the end")
    if "end the conversation" in pushback:
        found.append("the refusal section ends the conversation (other goal items are cut)")
    writes = parts.get("How you write", "")
    rule = re.search(r"\bone to (?:three|four) sentences\b|\bone or two\b", brief)
    if re.search(r"\blong messages|\bwander", writes) and rule:
        found.append("length rules in conflict: a long persona and one to three sentences")
    stays = never_abandons(emotion, intensity)
    if emotion == NEUTRAL and "UNSATISFIED" in brief:
        found.append("neutral is told it may abandon")
    elif stays and "UNSATISFIED" in brief:
        found.append("a user that never abandons is told it may")
    if not stays and "UNSATISFIED" not in brief:
        found.append("a user that abandons is not told how")
    if not stays and not re.search(r"reaches 0\.\d\d", brief):
        found.append("no threshold for abandoning")
    if "not something you have" not in brief:
        found.append("no answer for a question the scenario does not cover")
    if not re.search(r"\bdiscourteous\b", brief):
        found.append("nothing on a discourteous agent")
    if re.search(r"\bhardship\b", pushback) and "only what this brief" not in pushback:
        found.append("a hardship appeal asks for backstory the brief does not give")
    return found
