import time

import msgspec
import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import make_user_provider
from tau_sim.simulator.core.roles import STOP, UNSATISFIED, UserTurn
from tau_sim.simulator.world.database import Base
from tau_sim.simulator.world.domain import Domain, Task, UserScenario
from tau_sim.simulator.world.slots import SlotHint, user_slots
from tau_sim.simulator.world.tools import Toolkit
from tau_sim.simulator.world.views import ConversationContext, user_view
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.scripted import ScriptedUser

pytestmark = pytest.mark.anyio

TASK = Task(
    id="t-1",
    domain="test",
    intent="cancel",
    scenario=UserScenario(
        goal="Cancel order #W1.",
        opening="Hi, I want to cancel my order #W1.",
        known_info={
            "email": "ana@example.com",
            "order_id": "#W1",
            "items": "the Lamp",
            "new_address": "1 Main St",
            "reason": "no longer needed",
        },
        unknown_info=["payment method ids"],
    ),
    auth_slots=["email"],
    actions=[],
)
DOMAIN = Domain(
    name="test",
    title="",
    policy="",
    toolkit=Toolkit([]),
    build_base=lambda: Base({}),
    task_source=[TASK],
    slot_hints={
        "email": SlotHint(("email", "e-mail"), "your email address"),
        "order_id": SlotHint(("order id", "order number"), "your order ID", True),
        "items": SlotHint(("item",), "the items", True),
        "new_address": SlotHint(("address", "where"), "the new address"),
        "reason": SlotHint(("reason", "why"), "the reason"),
    },
)


def ctx(emotion: str = "neutral", intensity: float = 0.6, seed: int = 0) -> ConversationContext:
    return ConversationContext(
        conversation_id="c",
        run_id="r",
        task=TASK,
        domain=DOMAIN,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=seed,
    )


class Chat:
    """Feeds agent texts to a user and keeps the user's transcript."""

    def __init__(self, user: ScriptedUser) -> None:
        self.user = user
        self.transcript: list[ChatMessage] = []

    async def start(self) -> UserTurn:
        turn = await self.user.respond([])
        self.transcript.append(ChatMessage(role="user", content=turn.text))
        return turn

    async def say(self, text: str) -> UserTurn:
        self.transcript.append(ChatMessage(role="assistant", content=text))
        turn = await self.user.respond(list(self.transcript))
        self.transcript.append(ChatMessage(role="user", content=turn.text))
        return turn


async def chat(emotion: str = "neutral", intensity: float = 0.6, seed: int = 0) -> Chat:
    c = Chat(ScriptedUser(user_view(ctx(emotion, intensity, seed))))
    await c.start()
    return c


async def test_opening_is_the_scenario_opening_in_tone() -> None:
    neutral = await ScriptedUser(user_view(ctx())).respond([])
    assert neutral.text == TASK.scenario.opening
    assert neutral.ends is None
    angry = await ScriptedUser(user_view(ctx("anger", 0.9))).respond([])
    assert TASK.scenario.opening in angry.text and angry.text != TASK.scenario.opening
    assert angry.state is not None and angry.state.emotion == "frustration"
    assert angry.model == "scripted" and angry.usage is not None
    # a scripted user is no model: it reports no made-up tokens and no cost
    assert angry.usage.tokens_in == angry.usage.tokens_out == 0 and angry.usage.cost_usd is None


async def test_answers_the_slots_it_is_asked_for() -> None:
    c = await chat()
    turn = await c.say("Thanks for reaching out. Could you please provide your email address?")
    assert "ana@example.com" in turn.text
    assert "1 Main St" not in turn.text  # "email address" does not ask for an address
    assert turn.state is not None and turn.state.triggers == ["question:email"]
    assert turn.ends is None


async def test_lookupable_and_repeated_questions_are_friction() -> None:
    c = await chat("anger", 0.3)
    turn = await c.say("I'm sorry for the trouble. Could you tell me the items?")
    assert turn.state is not None
    assert "lookupable_question:items" in turn.state.triggers
    assert "the Lamp" in turn.text
    first = turn.state.dissatisfaction
    assert first > 0
    turn = await c.say("Could you give me your order ID again?")  # given in the opening
    assert turn.state is not None
    assert "repeated_question:order_id" in turn.state.triggers
    assert "ignored_cue" in turn.state.triggers  # it complained and got no acknowledgement
    assert "#W1" in turn.text
    assert turn.state.dissatisfaction > first


async def test_confirmation_gets_a_yes_and_progress_eases() -> None:
    c = await chat("fear", 0.6)
    turn = await c.say(
        "I understand. Here is what I am going to do: cancel order #W1. "
        "Shall I go ahead? Please reply yes or no."
    )
    assert turn.text.lower().startswith("yes")
    assert turn.state is not None and "confirmation" in turn.state.triggers
    assert "question:order_id" not in turn.state.triggers


async def test_unknown_and_unclear_questions() -> None:
    c = await chat()
    turn = await c.say("What are your payment method ids?")
    assert turn.state is not None and turn.state.triggers == ["unknown_question:payment method ids"]
    assert "payment method ids" in turn.text
    turn = await c.say("What is the airspeed velocity of a swallow?")
    assert turn.state is not None and turn.state.triggers == ["unclear_question"]


async def test_completion_stops() -> None:
    c = await chat("enjoyment", 0.6)
    turn = await c.say("I'm glad to help! All done. Is there anything else I can help you with?")
    assert turn.ends == STOP
    assert turn.text.endswith(STOP)
    again = await c.user.respond(c.transcript)
    assert again is turn


async def test_transfer_announcement_is_acknowledged_without_ending() -> None:
    c = await chat()
    turn = await c.say("I'm going to transfer you to a human agent. Please hold on.")
    assert turn.ends is None
    assert turn.state is not None and "transfer" in turn.state.triggers


async def test_dismissive_first_reply_to_an_emotional_user() -> None:
    cold = await chat("sadness", 0.6)
    turn = await cold.say("Could you please provide your email address?")
    assert turn.state is not None and "dismissive" in turn.state.triggers
    warm = await chat("sadness", 0.6)
    turn = await warm.say("I'm sorry to hear that. Could you please provide your email address?")
    assert turn.state is not None and "dismissive" not in turn.state.triggers
    neutral = await chat()
    turn = await neutral.say("Could you please provide your email address?")
    assert turn.state is not None and "dismissive" not in turn.state.triggers


async def test_abandons_past_the_threshold_with_a_reason() -> None:
    c = await chat("anger", 0.9)
    ended = None
    for _ in range(10):
        turn = await c.say("Could you give me your order ID again?")
        if turn.ends:
            ended = turn
            break
    assert ended is not None and ended.ends == UNSATISFIED
    assert ended.text.endswith(UNSATISFIED)
    assert ended.state is not None and ended.state.reason == "procedural friction"
    assert ended.state.dissatisfaction >= 0.4


async def test_neutral_user_does_not_abandon_a_nagging_agent() -> None:
    c = await chat("neutral", 0.9)
    for _ in range(20):
        turn = await c.say("Could you give me your order ID again?")
        assert turn.ends is None


async def dialogue(seed: int, emotion: str = "anger") -> list[str]:
    c = await chat(emotion, 0.6, seed)
    texts = [c.transcript[0].content or ""]
    for line in (
        "Could you please provide your email address?",
        "Could you tell me the items?",
        "Shall I go ahead? Please reply yes or no.",
        "All done. Anything else?",
    ):
        texts.append((await c.say(line)).text)
    return texts


async def test_deterministic_for_a_seed_and_varied_in_wording_only() -> None:
    assert await dialogue(1) == await dialogue(1)
    runs = [await dialogue(seed) for seed in range(8)]
    assert len({tuple(r) for r in runs}) > 1
    for run in runs:
        assert "ana@example.com" in run[1]
        assert "the Lamp" in run[2]
        assert run[3].lower().startswith("yes")
        assert run[4].endswith(STOP)


async def test_provider_arguments_and_latency() -> None:
    provider = make_user_provider("scripted", {"latency": "0.05", "threshold_scale": "2"})
    async with provider:
        user = provider.for_conversation(user_view(ctx()))
        started = time.perf_counter()
        turn = await user.respond([])
    assert time.perf_counter() - started >= 0.04
    assert turn.usage is not None and turn.usage.latency_s == pytest.approx(0.05)
    with pytest.raises(UsageError, match="--user-arg latency"):
        make_user_provider("scripted", {"latency": "soon"})
    with pytest.raises(UsageError, match="threshold_scale"):
        make_user_provider("scripted", {"threshold_scale": "-1"})
    with pytest.raises(UsageError, match="hunger"):
        provider.for_conversation(user_view(ctx("hunger")))


async def test_a_choice_among_records_the_agent_found_is_no_lookup_question() -> None:
    c = await chat("anger", 0.3)
    turn = await c.say(
        "I'm sorry for the trouble. Could you please tell me the items, so that I know which "
        "one you mean?"
    )
    assert turn.state is not None and "the Lamp" in turn.text
    assert "question:items" in turn.state.triggers
    assert not any(t.startswith("lookupable_question") for t in turn.state.triggers)


async def test_several_facts_asked_in_one_question_are_all_given() -> None:
    c = await chat()
    turn = await c.say("Could you please tell me the new address and the reason?")
    assert "1 Main St" in turn.text and "no longer needed" in turn.text
    assert turn.state is not None
    assert turn.state.triggers[:2] == ["question:new_address", "question:reason"]


def test_the_opening_volunteers_the_facts_it_states() -> None:
    assert TASK.scenario.volunteered() == ["order_id"]


def test_a_prompt_without_its_keywords_is_a_keyword_and_a_longer_keyword_wins() -> None:
    scenario = UserScenario(
        goal="",
        opening="",
        known_info={"promo_code": "LUNCH3", "damage": "a chip", "cause": "a pillar"},
    )
    domain = msgspec.structs.replace(
        DOMAIN,
        slot_hints={
            "promo_code": SlotHint(("promo", "coupon"), "the code"),
            "damage": SlotHint(("damage",), "the damage"),
            "cause": SlotHint(("cause",), "how the damage happened"),
        },
    )
    slots = user_slots(domain, msgspec.structs.replace(TASK, scenario=scenario))
    reader = AgentTextReader(slots)
    assert reader.read("Could you please tell me the code?").asked == ["promo_code"]
    assert reader.read("Could you please tell me how the damage happened?").asked == ["cause"]
    assert reader.read("Could you please tell me the damage?").asked == ["damage"]
