"""Personas: how a user writes changes its words, never its facts, feeling or answers.

``users.personas.styled`` is checked on its own (facts and feeling phrases verbatim, no
question, digit, yes or no added, each persona's mark) and through the scripted user: the
same task under each persona still gives the same facts and gold still scores 1.0.
"""

from __future__ import annotations

import random
import re

import anyio
import msgspec
import pytest

from tau_sim.agents.cues import distress_level, feeling, insists, presses, refuses, shows_distress
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import PERSONAS
from tau_sim.simulator.world.views import user_view
from tau_sim.users.brief import system_prompt
from tau_sim.users.emotions import profile_of
from tau_sim.users.personas import ASIDES, DESCRIPTIONS, described, styled
from tau_sim.users.tone import FEELING_WORDS
from tests.agents.dialog import context, play

load_plugins()

TEXT = (
    "Okay. Hi, I'm trying to get a refund for the order with the speaker. My email is "
    "sam.lee@example.com and I don't have the order id. Please just check it. I'm anxious "
    "about this."
)
FEAR_TAIL = "I'm anxious about this."
"""A fear tail of ``users.tone.TAILS``: a feeling phrase the persona keeps verbatim."""
KEPT = ["sam.lee@example.com", "the order with the speaker", *FEELING_WORDS]


@pytest.mark.parametrize("persona", PERSONAS)
def test_facts_and_feeling_words_stay_verbatim_and_nothing_is_added(persona: str) -> None:
    for seed in range(20):
        out = styled(persona, TEXT, KEPT, random.Random(seed))
        for kept in ("sam.lee@example.com", "the order with the speaker", FEAR_TAIL):
            assert kept in out, (persona, out)
        assert out.count("?") == TEXT.count("?")
        assert re.findall(r"\d", out) == re.findall(r"\d", TEXT)
        assert not re.search(r"\b(yes|no)\b", out, re.IGNORECASE)
        assert feeling(out) == feeling(TEXT) and distress_level(out) == distress_level(TEXT)


def test_each_persona_leaves_its_mark() -> None:
    rng = random.Random(0)
    assert styled("plain", TEXT, KEPT, rng) == TEXT
    terse = styled("terse", TEXT, KEPT, rng)
    assert len(terse) < len(TEXT) and "Please just" not in terse and "Check it." in terse
    formal = styled("formal", TEXT, KEPT, rng)
    assert "I am trying" in formal and "do not have" in formal and "I'm trying" not in formal
    assert FEAR_TAIL in formal  # a feeling phrase is the tone's, not the persona's
    rambling = styled("rambling", TEXT, KEPT, rng)
    assert TEXT in rambling and any(aside in rambling for aside in ASIDES)
    non_native = {styled("non-native", TEXT, KEPT, random.Random(s)) for s in range(10)}
    assert any(" get refund " in text for text in non_native)


def test_asides_read_as_nothing_to_an_agent() -> None:
    for aside in ASIDES:
        assert feeling(aside) is None and not shows_distress(aside), aside
        assert distress_level(aside) == 0 and not refuses(aside) and not insists(aside), aside
        assert not presses(f"Alright, I understand. {aside}"), aside
        assert not re.search(r"[?\d]|\b(yes|no)\b", aside, re.IGNORECASE), aside


def test_the_llm_user_is_told_how_it_writes() -> None:
    domain = get_domain("retail")
    task = domain.tasks[0]
    for persona in PERSONAS:
        scenario = msgspec.structs.replace(task.scenario, persona=persona)
        view = user_view(context(domain, msgspec.structs.replace(task, scenario=scenario)))
        assert f"## How you write\n{DESCRIPTIONS[persona]}" in system_prompt(view, profile_of(view))
    assert described("a retired teacher who types slowly") == "a retired teacher who types slowly"


def test_gold_scores_one_whoever_writes() -> None:
    domain = get_domain("banking")
    tasks = [t for t in domain.tasks if domain.write_actions(t)][:4]

    async def every_persona() -> list[float]:
        rewards = []
        for task in tasks:
            for persona in PERSONAS:
                scenario = msgspec.structs.replace(task.scenario, persona=persona)
                played = msgspec.structs.replace(task, scenario=scenario)
                outcome = await play(
                    domain, played, "scripted/gold", emotion="anger", intensity=0.9
                )
                rewards.append(outcome.reward)
        return rewards

    assert anyio.run(every_persona) == [1.0] * len(tasks) * len(PERSONAS)
