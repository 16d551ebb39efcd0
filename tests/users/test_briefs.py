"""The LLM user's brief holds together: every task's, under the control and emotional conditions.

Each of the ten domains' tasks is rendered under ``CONDITIONS`` (neutral, frustration at 0.9 and
two more) and checked by ``tests.users.briefs.defects``: no template leftover, no pronoun or name
that does not fit, one rule for a refusal, one length rule, neutral never told to abandon, an
answer for what the scenario does not cover. The checks themselves are shown to catch each kind
on a planted brief. ``tau-sim users prompt`` prints the same brief through the real CLI.
"""

from __future__ import annotations

import re

import msgspec
import pytest

from tau_sim.simulator.core import UNSATISFIED
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import Domain, Task
from tau_sim.users.brief import abandon_threshold, brief_of
from tau_sim.users.dynamics import DissatisfactionModel
from tau_sim.users.emotions import EmotionProfile
from tau_sim.users.llm import STAYING_SCHEMA, parse_reply
from tau_sim.users.pushback import pushback_of
from tests.helpers.cli import one_line_error, tau_sim
from tests.users.briefs import CONDITIONS, DOMAINS, defects, render, sections

load_plugins()


@pytest.mark.parametrize("name", DOMAINS)
def test_every_brief_of_the_domain_holds_together(name: str) -> None:
    domain = get_domain(name)
    found = [
        f"{task.id} {emotion}: {defect}"
        for task in domain.tasks
        for emotion, intensity in CONDITIONS
        for defect in defects(task, emotion, intensity, render(domain, task, emotion, intensity))
    ]
    assert not found, "\n".join(found[:20])


def airline_006() -> tuple[Domain, Task]:
    domain = get_domain("airline")
    return domain, next(t for t in domain.tasks if t.id == "airline-006")


def test_the_checks_catch_each_kind_of_defect() -> None:
    domain, task = airline_006()
    good = render(domain, task, "frustration", 0.9)
    assert not defects(task, "frustration", 0.9, good)
    planted = {
        "leftover (s)": good.replace("## Your goal\n", "## Your goal\nI check 2 bag(s). "),
        "neutral is told it may abandon": good,
        "the refusal section ends the conversation": good.replace(
            "then carry on with the rest", "then end the conversation and carry on with the rest"
        ),
        "length rules in conflict": good.replace(
            "## How you feel",
            "## How you write\nYou write long messages that wander.\n\n## How you feel",
        ),
        "no answer for a question the scenario does not cover": good.replace(
            "not something you have", "unknown"
        ),
        "the refusal section does not say what the user does in the end": good.replace(
            "in the end, ", ""
        ),
    }
    for kind, brief in planted.items():
        emotion = "neutral" if kind.startswith("neutral") else "frustration"
        found = defects(task, emotion, 0.9, brief)
        assert any(f.startswith(kind) for f in found), (kind, found)
    scenario = msgspec.structs.replace(
        task.scenario,
        goal="I am Ava Lee. My wife asked me to cancel their trip. If the agent refuses, I "
        "accept it. I insist that it is mine. Add Ava Lee as a traveller.",
        known_info={"first_name": "Ava", "last_name": "Lee"},
    )
    planted_task = msgspec.structs.replace(task, scenario=scenario)
    told = " | ".join(defects(planted_task, "frustration", 0.9, good))
    for kind in (
        "pronoun does not fit",
        "the goal accepts at once",
        "the goal insists",
        "the user's own first name as another person",
    ):
        assert kind in told, (kind, told)


def test_neutral_is_never_offered_an_abandonment_and_never_abandons() -> None:
    domain, task = airline_006()
    brief = brief_of(domain, task, "neutral", 0.9)
    assert "UNSATISFIED" not in brief and "You never give up" in brief
    assert abandon_threshold(EmotionProfile.of("neutral", 0.9)) is None
    assert STAYING_SCHEMA["properties"]["ends"]["enum"] == [None, "STOP"]
    said = (
        '{"message": "I give up.", "intensity": 0.5, "dissatisfaction": 1, "ends": "UNSATISFIED"}'
    )
    assert parse_reply(said, 0.5, 0.0, abandons=False).ends is None
    assert parse_reply(said, 0.5, 0.0).ends == UNSATISFIED


@pytest.mark.parametrize(("emotion", "intensity"), [("frustration", 0.9), ("anxiety", 0.6)])
def test_the_threshold_and_insistences_told_are_the_scripted_users(
    emotion: str, intensity: float
) -> None:
    domain, task = airline_006()
    brief = brief_of(domain, task, emotion, intensity)
    profile = EmotionProfile.of(emotion, intensity)
    threshold = DissatisfactionModel(profile).threshold
    assert f"reaches {threshold:.2f}: then end with UNSATISFIED" in brief
    count = pushback_of(profile).insistences
    refusal = sections(brief)["If the agent refuses"]
    assert re.search(rf"insist {count} times|insist once", refusal), refusal
    assert "carry on with the rest of your goal" in refusal


def test_a_rambling_writer_is_given_its_asides_and_the_one_length_rule() -> None:
    domain = get_domain("airline")
    task = next(t for t in domain.tasks if t.scenario.persona == "rambling")
    brief = brief_of(domain, task, "neutral", 0.6)
    writes = sections(brief)["How you write"]
    assert "It has been a long week at work." in writes and "Never add a fact" in writes
    assert "one to four sentences, at most 300 characters" in brief
    assert "one to three" not in brief


def test_the_prompt_command_prints_the_brief() -> None:
    out = tau_sim(
        "users",
        "prompt",
        "--domain",
        "retail",
        "--task",
        "retail-020",
        "--emotion",
        "anger",
        "--intensity",
        "0.9",
    )
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if t.id == "retail-020")
    assert out.stdout == brief_of(domain, task, "frustration", 0.9) + "\n"
    assert out.stderr == ""


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--domain", "nowhere", "--task", "retail-020"], "--domain"),
        (["--domain", "retail", "--task", "retail-999"], "--task"),
        (["--domain", "retail", "--task", "retail-020", "--emotion", "glee"], "--emotion"),
        (["--domain", "retail", "--task", "retail-020", "--intensity", "1.5"], "--intensity"),
        (["--domain", "retail", "--task", "retail-020", "--intensity", "loud"], "--intensity"),
    ],
)
def test_bad_input_to_the_prompt_command_is_one_line_naming_the_flag(
    args: list[str], flag: str
) -> None:
    line = one_line_error(tau_sim("users", "prompt", *args, check=False))
    assert flag in line, line


def test_an_intensity_with_neutral_is_a_warning_and_the_brief_still_prints() -> None:
    out = tau_sim(
        "users", "prompt", "--domain", "retail", "--task", "retail-020", "--intensity", "0.9"
    )
    assert out.stdout.startswith("You are role-playing a CUSTOMER")
    assert out.stderr.startswith("tau-sim: warning: --intensity") and out.stderr.count("\n") == 1
