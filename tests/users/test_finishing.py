"""The scripted user finishes what it came for, in real conversations (the engine's
``run_conversation``) with small agents of this file that say natural texts in order: it raises
an unsaid goal item before it closes, ends on a natural goodbye, insists its count against a
courteous agent without leaving, names what the agent did when it quits, counts only what it
said as told and says no sentence twice."""

from __future__ import annotations

import re

import pytest

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import ConversationEnded, EmotionUpdate, UserMessage
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.core.roles import STOP, UNSATISFIED
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.world.views import user_view
from tau_sim.users.emotions import EmotionProfile
from tau_sim.users.pushback import pushback_of
from tau_sim.users.scripted import ScriptedUser
from tau_sim.users.tone import grievance
from tests.agents.dialog import context, play

pytestmark = pytest.mark.anyio

load_plugins()


class Saying:
    """An agent that says its texts in order, then its last one again."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        said = sum(1 for m in history if m.role == "assistant")
        text = self.texts[min(said, len(self.texts) - 1)]
        return ChatResponse(ChatMessage(role="assistant", content=text))


class Talk:
    """One conversation's end, the user's texts and its triggers."""

    def __init__(self, ended: ConversationEnded, texts: list[str], triggers: list[str]) -> None:
        self.ended = ended
        self.texts = texts
        self.triggers = triggers


async def talk(
    domain_name: str,
    task_id: str,
    texts: list[str],
    emotion: str = "neutral",
    intensity: float = 0.6,
    max_steps: int = 40,
) -> Talk:
    domain = get_domain(domain_name)
    task = next(t for t in domain.tasks if t.id == task_id)
    ctx = context(domain, task, emotion, intensity)
    feed = LiveFeed()
    ended = await run_conversation(
        ctx,
        Saying(texts),
        "saying",
        ScriptedUser(user_view(ctx)),
        "scripted",
        Bus([feed]),
        Limits(max_steps=max_steps),
    )
    events = feed.drain()
    said = [e.text for e in events if isinstance(e, UserMessage)]
    triggers = [t for e in events if isinstance(e, EmotionUpdate) for t in e.triggers]
    return Talk(ended, said, triggers)


HOTEL_033 = [
    "Hi! I'd be glad to help with both stays. Could you share your first name, last name "
    "and zip code so I can find your account?",
    "Thanks, Mason. Both changes are made: the Lakeshore Grand suite from 2026-08-03 has been "
    "cancelled, and your Seattle stay now runs from 2026-07-28 to 2026-08-01. Is there "
    "anything else I can help you with?",
    "Of course. I've noted a quiet room away from the elevator on your Seattle stay. Is there "
    "anything else I can help you with?",
]


async def test_an_unsaid_goal_item_is_raised_before_the_user_closes() -> None:
    """hotel-033: the agent never asks for the special request; at "anything else?" the
    user says it, and closes only once the agent has taken it."""
    got = await talk("hotel", "hotel-033", HOTEL_033)
    raised = got.texts[2]
    assert "a quiet room away from the elevator" in raised and not raised.endswith(STOP)
    assert "goal_item:special_request" in got.triggers
    assert got.ended.reason == "user_stop" and got.texts[3].endswith(STOP)
    assert sum("quiet room" in t for t in got.texts) == 1


async def test_a_goodbye_with_the_item_unsaid_gets_the_item_first() -> None:
    farewell = HOTEL_033[1].replace("Is there anything else I can help you with?", "Enjoy!")
    texts = [HOTEL_033[0], farewell, "Have a wonderful trip!", HOTEL_033[2]]
    got = await talk("hotel", "hotel-033", texts)
    assert any("a quiet room away from the elevator" in t for t in got.texts[2:4])
    assert got.ended.reason == "user_stop"


@pytest.mark.parametrize(("emotion", "intensity"), [("neutral", 0.6), ("anger", 0.9)])
async def test_gold_asks_for_the_goal_item_and_nothing_is_raised(
    emotion: str, intensity: float
) -> None:
    domain = get_domain("hotel")
    task = next(t for t in domain.tasks if t.id == "hotel-033")
    outcome = await play(domain, task, "scripted/gold", emotion=emotion, intensity=intensity)
    assert outcome.reward == 1.0 and outcome.ended == "user_stop"
    assert not [t for t in outcome.triggers if t.startswith("goal_item:")]


RETAIL_048_DONE = [
    "Sure, I can help with that. What's the email address on your account?",
    "Done! Order #W3956140 has been cancelled and the refund goes back to your original payment "
    "method within 5-7 business days.",
]
FAREWELLS = [
    "You're welcome! Take care.",
    "Glad I could help. Take care!",
    "My pleasure, Sofia. Enjoy the rest of your week!",
    "Happy to help! Wishing you a lovely evening.",
    "Great, you're all set then. Bye for now!",
]


@pytest.mark.parametrize("farewell", FAREWELLS)
async def test_a_natural_goodbye_after_the_work_is_done_ends_with_user_stop(farewell: str) -> None:
    """retail-048: the agent reports the cancellation, then says goodbye in its own words; the
    user ends satisfied, at neutral and angry, and no farewell starts a loop."""
    for emotion, intensity in (("neutral", 0.6), ("anger", 0.9)):
        got = await talk("retail", "retail-048", [*RETAIL_048_DONE, farewell], emotion, intensity)
        assert got.ended.reason == "user_stop", (emotion, got.texts)
        assert len(got.texts) <= 4, got.texts


async def test_a_courteous_agent_keeps_a_user_who_insists_five_times() -> None:
    """food_delivery-078 at frustration 0.9 (five insistences): the agent says no politely every
    time, in its own words; the user insists five times, then accepts and ends satisfied."""
    refusals = [
        "I'm so sorry for the trouble, and I understand how frustrating this is. Our records "
        "show the order was delivered on Tuesday at 19:42, so unfortunately I'm not able to "
        "refund it.",
        "I hear you, and I'm sorry. Because the delivery was confirmed at 19:42, I can't issue "
        "a refund for this order.",
        "I understand, and I'm sorry this is so disappointing. An order marked delivered is "
        "one I'm unable to refund.",
        "I'm sorry, I really do understand. I'm not able to make an exception here.",
        "I understand your frustration, and I'm sorry. I still can't refund this order.",
        "I'm sorry. I understand it's not the answer you wanted, but I cannot refund it.",
        "Thank you for your patience, Grace. Take care.",
    ]
    texts = [
        "I'm sorry to hear that. Could you give me your first name, last name and zip code?",
        *refusals,
    ]
    got = await talk("food_delivery", "food_delivery-078", texts, "frustration", 0.9)
    expected = pushback_of(EmotionProfile.of("frustration", 0.9)).insistences
    assert expected == 5
    assert sum(t.startswith("insisted:") for t in got.triggers) == expected
    assert got.ended.reason == "user_stop", got.texts


async def test_a_dismissive_looping_agent_still_loses_the_user() -> None:
    texts = [
        "Could you give me your first name, last name and zip code?",
        "The order was delivered. No refund.",
    ]
    got = await talk("food_delivery", "food_delivery-078", texts, "frustration", 0.9)
    assert got.ended.reason == "user_abandoned"


async def test_the_quit_line_names_the_question_asked_again() -> None:
    """An agent that keeps asking for the email: the user's complaint says so, not that the
    agent asks for things it should already have."""
    texts = [
        "Hi! What's the email address on your account?",
        "Thanks. And what's the email address on your account?",
    ]
    got = await talk("retail", "retail-048", texts, "anger", 0.9)
    assert got.ended.reason == "user_abandoned"
    last = got.texts[-1]
    assert last.endswith(UNSATISFIED)
    assert re.search(r"asked for my email address (twice|\w+ times) now", last), last
    assert "should already have" not in last


async def test_a_name_inside_a_doctor_s_name_is_not_told() -> None:
    """telehealth-022's opening names "Dr. Samuel Clark"; the user is Daniel Clark. Asking
    for the user's last name is a first question, not a repeated one."""
    task = next(t for t in get_domain("telehealth").tasks if t.id == "telehealth-022")
    assert "last_name" not in task.scenario.volunteered()
    texts = ["Could you tell me your first and last name, please?", "Thank you. Anything else?"]
    got = await talk("telehealth", "telehealth-022", texts)
    assert "question:last_name" in got.triggers
    assert not [t for t in got.triggers if t.startswith("repeated_question:")]


def _sentences(text: str) -> list[str]:
    text = text.replace(STOP, "").replace(UNSATISFIED, "")
    return [s.strip().lower() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


async def test_an_emotional_user_says_no_sentence_twice() -> None:
    """An angry user against an agent that stalls: every lead, complaint and nudge differs."""
    texts = [
        "Let me look into that for you.",
        "One moment please.",
        "I'm checking on it now.",
        "Still looking, thanks for waiting.",
        "Let me check with the team.",
    ]
    got = await talk("retail", "retail-048", texts, "frustration", 0.9, max_steps=12)
    said = [s for t in got.texts for s in _sentences(t)]
    assert len(said) == len(set(said)), said


def test_the_grievance_names_what_happened_most() -> None:
    prompts = {"email": "your email address"}
    assert grievance("procedural friction", {"repeated_question:email": 2}, prompts) == (
        "You've asked for my email address three times now."
    )
    delays = {"announced_delay": 3, "no_progress": 1}
    assert "you'll check" in grievance("procedural friction", delays, prompts)
    assert "should already have" in grievance(
        "procedural friction", {"lookupable_question:order_id": 2}, prompts
    )
    assert grievance("unbacked claims", {}, prompts) == (
        "You keep saying it's done without saying what."
    )


async def test_the_same_seed_plays_the_same_conversation() -> None:
    texts = [*RETAIL_048_DONE, "Let me check that.", FAREWELLS[0]]
    first = await talk("retail", "retail-048", texts, "frustration", 0.9)
    second = await talk("retail", "retail-048", texts, "frustration", 0.9)
    assert first.texts == second.texts and first.triggers == second.triggers
