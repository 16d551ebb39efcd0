"""Each dimension level changes what the scripted user does, through the real conversation engine.

The agent here is a fixed script of texts (the same for both levels compared), so any difference
in the conversation is the user's.
"""

from __future__ import annotations

import itertools

import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse
from tau_sim.simulator.core.conditions import DIMENSIONS
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import ConversationEnded, EmotionUpdate, Event, UserMessage
from tau_sim.simulator.core.roles import STOP, UNSATISFIED
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.world.views import ConversationContext, user_view
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.emotions import FAMILIES, LEAVES, EmotionProfile
from tau_sim.users.scripted import ScriptedUser
from tau_sim.users.tone import PHRASES
from tests.simulator.toy import toy_domain

pytestmark = pytest.mark.anyio

GOODBYE = "Thank you for contacting us. Have a great day!"


class ScriptAgent:
    """Says its texts in order (never a tool call), then goodbye."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        said = sum(1 for m in history if m.role == "assistant")
        text = self.texts[said] if said < len(self.texts) else GOODBYE
        return ChatResponse(ChatMessage(role="assistant", content=text))


def context(emotion: str, intensity: float = 0.6, **levels: str | None) -> ConversationContext:
    domain = toy_domain()
    return ConversationContext(
        conversation_id="c",
        run_id="r",
        task=domain.tasks[0],
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity, **levels),
        trial=0,
        seed=7,
    )


async def converse(
    texts: list[str], emotion: str, intensity: float = 0.6, **levels: str | None
) -> tuple[ConversationEnded, list[Event]]:
    ctx = context(emotion, intensity, **levels)
    feed = LiveFeed()
    ended = await run_conversation(
        ctx,
        ScriptAgent(texts),
        "script",
        ScriptedUser(user_view(ctx)),
        "scripted",
        Bus([feed]),
        Limits(max_steps=60),
    )
    return ended, feed.drain()


def user_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, UserMessage)]


def updates(events: list[Event]) -> list[EmotionUpdate]:
    return [e for e in events if isinstance(e, EmotionUpdate)]


SORRY = "I'm sorry about the wait."
DELAYS = [f"{SORRY} Let me check that for you, one moment."] * 8 + [
    "Is there anything else I can help you with?"
]


async def test_urgency_high_gives_up_on_announced_lookups_low_waits() -> None:
    high, high_events = await converse(DELAYS, "annoyance", urgency="high")
    low, low_events = await converse(DELAYS, "annoyance", urgency="low")
    assert high.reason == "user_abandoned"
    assert low.reason == "user_stop"
    assert any("announced_delay" in u.triggers for u in updates(high_events))
    # same script, same point: the urgent user is more dissatisfied after every delay
    for h, lo in zip(updates(high_events)[1:], updates(low_events)[1:], strict=False):
        assert h.dissatisfaction > lo.dissatisfaction
    waits = user_texts(low_events)[1]
    assert waits in ("No rush, take your time.", "Sure, I can wait.")


CLAIM = "I'm sorry for the trouble. Your request has been processed. Is there anything else?"


async def test_trust_skeptical_doubts_a_bare_claim_trusting_takes_it() -> None:
    trusting, t_events = await converse([CLAIM], "annoyance", trust="trusting")
    skeptical, s_events = await converse([CLAIM], "annoyance", trust="skeptical")
    assert trusting.reason == skeptical.reason == "user_stop"
    # trusting closes on the claim; skeptical asks whether it went through, then closes
    assert len(user_texts(t_events)) == 2 and user_texts(t_events)[1].endswith(STOP)
    doubt = user_texts(s_events)[1]
    assert "are you sure" in doubt.lower() and "went through" in doubt
    assert len(user_texts(s_events)) == 3
    assert "unbacked_claim" in updates(s_events)[1].triggers
    assert "unbacked_claim" not in updates(t_events)[1].triggers
    assert updates(s_events)[1].dissatisfaction > updates(t_events)[1].dissatisfaction


async def test_trust_skeptical_accepts_a_claim_with_a_stated_detail() -> None:
    backed = CLAIM.replace("has been processed", "has been processed as request #R-1042")
    _, events = await converse([backed], "annoyance", trust="skeptical")
    assert len(user_texts(events)) == 2 and user_texts(events)[1].endswith(STOP)
    assert "unbacked_claim" not in updates(events)[1].triggers


DISMISSIVE = ["Please provide your email."] * 12


async def test_politeness_cold_words_coldly_and_is_hurt_more_by_dismissal() -> None:
    warm, w_events = await converse(DISMISSIVE, "frustration", politeness="warm")
    cold, c_events = await converse(DISMISSIVE, "frustration", politeness="cold")
    # the first agent text ignores the user's feeling: dismissive, weighted by politeness
    assert "dismissive" in updates(w_events)[1].triggers
    assert updates(c_events)[1].dissatisfaction > updates(w_events)[1].dissatisfaction
    # the user gives up on the (unanswerable) repeated request sooner when cold
    assert cold.reason == warm.reason == "user_abandoned"
    assert len(user_texts(c_events)) < len(user_texts(w_events))
    assert user_texts(c_events)[-1].endswith(UNSATISFIED)
    cold_words = {p.removesuffix(".").lower() for p in PHRASES["unclear"]["cold"]}
    warm_words = {p.removesuffix(".").lower() for p in PHRASES["unclear"]["warm"]}
    said = {t.removesuffix(".").lower() for t in user_texts(c_events)[1:-1]}
    assert said & cold_words and not said & warm_words


HOSTILE = [
    "Please provide your email.",
    "Could you give me the counter's name again?",
    "What is the airspeed velocity of a swallow?",
    "Let me check, one moment.",
    "It has been processed.",
    "What are your payment method ids?",
] * 8


@pytest.mark.parametrize("scale", [0.01, 1.0])
async def test_neutral_never_abandons_whatever_the_levels(scale: float) -> None:
    for politeness, urgency, trust in itertools.product(*DIMENSIONS.values()):
        ctx = context("neutral", 1.0, politeness=politeness, urgency=urgency, trust=trust)
        user = ScriptedUser(user_view(ctx), threshold_scale=scale)
        transcript: list[ChatMessage] = []
        turn = await user.respond(transcript)
        for text in HOSTILE:
            transcript += [
                ChatMessage(role="user", content=turn.text),
                ChatMessage(role="assistant", content=text),
            ]
            turn = await user.respond(transcript)
            assert turn.ends is None, (politeness, urgency, trust, turn.text)
        assert user.dynamics.dissatisfaction > 0  # the friction registered


async def test_neutral_never_abandons_through_the_engine_at_a_tiny_threshold() -> None:
    ctx = context("neutral", politeness="cold", urgency="high", trust="skeptical")
    feed = LiveFeed()
    ended = await run_conversation(
        ctx,
        ScriptAgent(HOSTILE),
        "script",
        ScriptedUser(user_view(ctx), threshold_scale=0.01),
        "scripted",
        Bus([feed]),
        Limits(max_steps=40),
    )
    assert ended.reason == "max_steps"


@pytest.mark.parametrize("name", [n for n, s in LEAVES.items() if s.family == "enjoyment"])
async def test_enjoyment_does_not_demand_an_apology(name: str) -> None:
    for intensity, politeness in itertools.product((0.3, 0.9), DIMENSIONS["politeness"]):
        _, events = await converse(HOSTILE[:12], name, intensity, politeness=politeness)
        triggers = {t for u in updates(events) for t in u.triggers}
        assert not triggers & {"dismissive", "ignored_cue"}, (name, intensity, politeness)


async def test_negative_families_do_want_an_apology() -> None:
    for family in FAMILIES:
        profile = EmotionProfile.of(family, 0.6)
        _, events = await converse(HOSTILE[:2], family)
        triggers = {t for u in updates(events) for t in u.triggers}
        assert ("dismissive" in triggers) == profile.wants_acknowledgement, family


def test_reader_sees_announcements_claims_and_details() -> None:
    reader = AgentTextReader([])
    wait = reader.read("Let me check that for you. One moment.")
    assert wait.announced and not wait.substantive
    found = reader.read("I found your request.")
    assert found.progress and not found.done and found.unbacked
    done = reader.read("Your refund has been processed.")
    assert done.done and done.unbacked
    backed = reader.read("Your refund of $12.50 has been processed.")
    assert backed.done and not backed.unbacked


async def test_skeptical_user_doubts_only_actions_said_to_be_done() -> None:
    _, events = await converse(
        [f"{SORRY} I found your request.", "Is there anything else I can help you with?"],
        "annoyance",
        trust="skeptical",
    )
    assert "unbacked_claim" in updates(events)[1].triggers
    assert not any("are you sure" in t.lower() for t in user_texts(events))
