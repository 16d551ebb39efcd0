"""Users push back on refusals: the profile's table, the phrases the agents read, the prompt."""

from __future__ import annotations

import itertools

import pytest

from tau_sim.agents.cues import insists
from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.conditions import DIMENSIONS
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world.views import ConversationContext, user_view
from tau_sim.users.brief import system_prompt
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.emotions import LEAVES, EmotionProfile
from tau_sim.users.pushback import MAX_INSISTENCES, STYLES, insistences, pushback_of
from tau_sim.users.tone import ACCEPTS, CLOSINGS, INSISTS, PHRASES, WAITING

TABLE = {
    "neutral": (0, 0, 0),
    "frustration": (1, 3, 5),
    "argumentativeness": (2, 4, 5),
    "anxiety": (1, 3, 5),
    "desperation": (2, 4, 5),
    "helplessness": (0, 1, 4),
    "hopelessness": (0, 2, 4),
    "repugnance": (1, 3, 5),
    "excitement": (0, 1, 3),
    "peace": (0, 1, 2),
}
"""The table of ``users.pushback``'s docstring: insistences at intensity 0.3, 0.6 and 0.9."""

LEVELS = [
    dict(zip(DIMENSIONS, combo, strict=True)) for combo in itertools.product(*DIMENSIONS.values())
]
EMOTIONAL = [name for name in LEAVES if name != "neutral"]


def test_the_documented_table() -> None:
    for leaf, row in TABLE.items():
        got = tuple(insistences(EmotionProfile.of(leaf, i)) for i in (0.3, 0.6, 0.9))
        assert got == row, leaf


def test_a_neutral_user_never_insists_whatever_its_levels() -> None:
    for levels in LEVELS:
        for intensity in (0.0, 0.5, 1.0):
            assert pushback_of(EmotionProfile.of("neutral", intensity, **levels)).styles == ()


def test_insistences_rise_with_intensity_urgency_and_distrust() -> None:
    for leaf in EMOTIONAL:
        for levels in LEVELS:
            counts = [insistences(EmotionProfile.of(leaf, i / 10, **levels)) for i in range(11)]
            assert counts == sorted(counts), (leaf, levels)
            assert counts[-1] > counts[0], (leaf, levels)
        for intensity in (0.3, 0.6, 0.9):
            by_urgency = [
                insistences(EmotionProfile.of(leaf, intensity, urgency=u))
                for u in DIMENSIONS["urgency"]
            ]
            by_trust = [
                insistences(EmotionProfile.of(leaf, intensity, trust=t))
                for t in DIMENSIONS["trust"]
            ]
            for counts in (by_urgency, by_trust):  # rising, unless already at the cap
                assert counts == sorted(counts), (leaf, intensity)
                assert counts[2] > counts[0] or counts[0] == MAX_INSISTENCES, (leaf, intensity)


def test_the_styles_escalate_and_fit_the_profile() -> None:
    for leaf in EMOTIONAL:
        for levels in LEVELS:
            for intensity in (0.3, 0.6, 0.9):
                profile = EmotionProfile.of(leaf, intensity, **levels)
                styles = pushback_of(profile).styles
                assert len(styles) == insistences(profile)
                if not styles:
                    continue
                assert styles[0] == "repeat"
                ranks = [STYLES.index(s) for s in styles]
                assert ranks == sorted(ranks), (leaf, levels, intensity, styles)
                if "supervisor" in styles:
                    assert profile.urgency == "high" or profile.trust == "skeptical"
                if "threaten" in styles:
                    assert profile.family in ("anger", "disgust") or profile.politeness == "cold"
                if "appeal" in styles:
                    assert profile.family in ("fear", "sadness", "enjoyment") or (
                        profile.politeness == "warm"
                    )


def test_every_insisting_phrase_is_read_as_insisting_and_nothing_else_is() -> None:
    demand = "my reservation DMER6T cancelled with my money back"
    for style, registers in INSISTS.items():
        for phrases in registers.values():
            for phrase in phrases:
                assert insists(phrase.format(x=demand)), (style, phrase)
    others = [
        phrase.format(x="my email address is a@b.c")
        for kind, registers in PHRASES.items()
        for phrases in registers.values()
        for phrase in phrases
    ]
    others += [p for ps in (*CLOSINGS.values(), *ACCEPTS.values(), *WAITING.values()) for p in ps]
    assert not [text for text in others if insists(text)]
    for generic in (
        "Can I speak to your manager?",
        "I insist, please refund it.",
        "There must be a way to do this.",
        "I've been a customer for 10 years!",
    ):
        assert insists(generic), generic


def test_refusal_cues_make_a_text_a_refusal() -> None:
    reader = AgentTextReader([])
    for text in (
        "I'm sorry, but basic economy tickets are non-refundable.",
        "I cannot cancel this order.",
        "Unfortunately you are not eligible for a credit.",
        "Our policy does not allow a refill this early.",
        "I'm afraid that is not possible. Is there anything else?",
    ):
        assert reader.read(text).refused, text
    assert not reader.read("Your order has been cancelled. Anything else?").refused


def view_of(task_id: str, emotion: str, intensity: float) -> tuple[ConversationContext, str]:
    domain = get_domain(task_id.rsplit("-", 1)[0])
    task = next(t for t in domain.tasks if t.id == task_id)
    ctx = ConversationContext(
        conversation_id="c",
        run_id="r",
        task=task,
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=0,
    )
    view = user_view(ctx)
    return ctx, system_prompt(view, EmotionProfile.of(emotion, intensity))


@pytest.mark.parametrize(
    ("emotion", "intensity", "told"),
    [
        ("frustration", 0.9, "insist 5 times"),
        ("helplessness", 0.6, "insist once"),
        ("helplessness", 0.9, "2. appeal to your hardship"),
        ("excitement", 0.9, "2. appeal to your loyalty"),
        ("neutral", 0.6, "explains why it cannot be done, do not insist"),
    ],
)
def test_the_llm_user_prompt_states_the_pushback(emotion: str, intensity: float, told: str) -> None:
    ctx, prompt = view_of("airline-006", emotion, intensity)
    demand = ctx.task.scenario.demand
    assert demand and "## If the agent refuses" in prompt
    section = prompt.split("## If the agent refuses", 1)[1].split("##", 1)[0]
    assert demand in section and told in section
    profile = EmotionProfile.of(emotion, intensity)
    styles = pushback_of(profile).styles
    if emotion == "frustration":
        assert styles == ("repeat", "repeat", "exception", "threaten", "supervisor")
        assert section.index("claim that an exception") < section.index("ask for a supervisor")


def test_a_task_without_a_demand_tells_no_pushback() -> None:
    ctx, prompt = view_of("airline-000", "frustration", 0.9)
    assert not ctx.task.scenario.demand
    assert "If the agent refuses" not in prompt
