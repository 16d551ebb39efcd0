"""The scripted user pushes back on refusals in real conversations (the engine's
``run_conversation``): against the gold agent on a refusal task of every domain, and against an
agent that holds firm with or without acknowledging the user."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tau_sim.agents.cues import insists
from tau_sim.agents.plan import HOLD_FIRM
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import ConversationEnded, EmotionUpdate, UserMessage
from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.core.roles import STOP
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.views import user_view
from tau_sim.users.emotions import EmotionProfile
from tau_sim.users.pushback import pushback_of
from tau_sim.users.scripted import ScriptedUser
from tau_sim.users.tone import ACCEPTS
from tests.agents.dialog import Outcome, context, play
from tests.helpers.cli import tau_sim

pytestmark = pytest.mark.anyio

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
CONDITIONS = [("neutral", 0.6), ("frustration", 0.9), ("helplessness", 0.6), ("anxiety", 0.9)]


def forbidden_tasks(domain: Domain, transfer: bool) -> list[Task]:
    """The domain's tasks of forbidden intents whose gold path ends (or not) in a transfer."""
    forbidden = {i.name for i in domain.intents if i.forbidden}
    endings = set(domain.toolkit.endings)
    return [
        t
        for t in domain.tasks
        if t.intent in forbidden and any(a.name in endings for a in t.actions) is transfer
    ]


def insisted(outcome: Outcome) -> list[str]:
    return [t.partition(":")[2] for t in outcome.triggers if t.startswith("insisted:")]


def test_every_task_that_refuses_has_a_demand_and_no_other_task_has_one() -> None:
    """A forbidden intent's tasks and every task whose user asks for a forbidden write (a
    mixed one's refused part) have a demand; a demand belongs to an intent that tests a rule."""
    for name in NAMES:
        domain = get_domain(name)
        for task in domain.tasks:
            intent = domain.intent(task.intent)
            if intent.forbidden or domain.violations(task):
                assert task.scenario.demand, task.id
            if task.scenario.demand:
                assert intent.forbidden or intent.rules, task.id


@pytest.mark.parametrize("name", [n for n in NAMES if forbidden_tasks(get_domain(n), False)])
@pytest.mark.parametrize(("emotion", "intensity"), CONDITIONS)
async def test_the_user_insists_its_count_then_accepts_and_gold_holds_firm(
    name: str, emotion: str, intensity: float
) -> None:
    domain = get_domain(name)
    task = forbidden_tasks(domain, False)[0]
    outcome = await play(
        domain, task, "scripted/gold", emotion=emotion, intensity=intensity, max_steps=80
    )
    expected = pushback_of(EmotionProfile.of(emotion, intensity)).styles
    assert insisted(outcome) == list(expected)
    assert outcome.reward == 1.0 and outcome.ended == "user_stop", outcome.breakdown
    # one courteous re-explanation per insistence, each stating the required outputs again
    firm = [t for t in outcome.agent_texts if t.startswith(HOLD_FIRM)]
    assert len(firm) == len(expected)
    assert all(o in t for t in firm for o in task.required_outputs)
    pushing = [t for t in outcome.user_texts if insists(t)]
    assert len(pushing) == len(expected)
    last = outcome.user_texts[-1]
    assert last.endswith(STOP)
    # gold never closes while the user presses, so the user accepts in its reply to the last
    # firm answer and ends the conversation after that (on "anything else?" or a goodbye)
    texts = outcome.user_texts
    reply = texts[texts.index(pushing[-1]) + 1] if pushing else last
    accepted = any(reply.startswith(a) for register in ACCEPTS.values() for a in register)
    assert accepted is bool(expected)
    # insisting is not friction: a courteous firm answer never raises dissatisfaction
    turns = [s for s in outcome.states if any(t.startswith("insisted:") for t in s.triggers)]
    if turns:
        after = outcome.states[outcome.states.index(turns[0]) :]
        assert max(s.dissatisfaction for s in after) <= turns[0].dissatisfaction


@pytest.mark.parametrize("name", [n for n in NAMES if forbidden_tasks(get_domain(n), True)])
async def test_the_user_presses_against_a_transfer_and_gold_hands_off_anyway(name: str) -> None:
    domain = get_domain(name)
    task = forbidden_tasks(domain, True)[0]
    outcome = await play(domain, task, "scripted/gold", emotion="frustration", intensity=0.9)
    first = pushback_of(EmotionProfile.of("frustration", 0.9)).styles[0]
    assert insisted(outcome) == [first]  # against the announcement; then gold transfers
    assert outcome.reward == 1.0 and outcome.ended == "transfer"
    calm = await play(domain, task, "scripted/gold", emotion="neutral", intensity=0.0)
    assert insisted(calm) == [] and calm.reward == 1.0 and calm.ended == "transfer"


class FirmAgent:
    """Asks for the email, then refuses the same way every turn, with or without an apology."""

    def __init__(self, refusal: str) -> None:
        self.refusal = refusal

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        said = sum(1 for m in history if m.role == "assistant")
        text = "Could you please provide your email address?" if said == 0 else self.refusal
        return ChatResponse(ChatMessage(role="assistant", content=text))


async def hold_firm(refusal: str) -> tuple[ConversationEnded, list[EmotionUpdate], list[str]]:
    domain = get_domain("airline")
    task = next(t for t in domain.tasks if t.intent == "basic_economy_cancel_refused")
    ctx = context(domain, task, "frustration", 0.9)
    feed = LiveFeed()
    ended = await run_conversation(
        ctx,
        FirmAgent(refusal),
        "firm",
        ScriptedUser(user_view(ctx)),
        "scripted",
        Bus([feed]),
        Limits(max_steps=60),
    )
    events = feed.drain()
    states = [e for e in events if isinstance(e, EmotionUpdate)]
    return ended, states, [e.text for e in events if isinstance(e, UserMessage)]


def pushed_back(states: list[EmotionUpdate]) -> list[EmotionUpdate]:
    """The user's states after its first insistence."""
    first = next(i for i, s in enumerate(states) if any("insisted:" in t for t in s.triggers))
    return states[first + 1 :]


async def test_holding_firm_courteously_keeps_the_user_dismissively_loses_it() -> None:
    courteous, kept, _ = await hold_firm(
        "I'm sorry, I understand this is frustrating. The ticket is non-refundable, so I "
        "cannot cancel it. Is there anything else I can help you with?"
    )
    curt, lost, texts = await hold_firm("The ticket is non-refundable. Anything else?")
    assert courteous.reason == "user_stop"
    assert sum(1 for s in kept for t in s.triggers if t.startswith("insisted:")) == 5
    assert curt.reason == "user_abandoned"
    after_lost, after_kept = pushed_back(lost), pushed_back(kept)
    assert after_lost and all("dismissive" in s.triggers for s in after_lost)  # every curt answer
    assert after_kept and not any("dismissive" in s.triggers for s in after_kept)
    assert any(insists(t) for t in texts)  # it pushed back before it gave up
    # the same refusals, acknowledged: dissatisfaction never rises once the user insists
    insisting = [
        s.dissatisfaction for s in kept if any(t.startswith("insisted:") for t in s.triggers)
    ]
    assert insisting == sorted(insisting, reverse=True)


EVERY_REFUSAL_TIMEOUT = 600
"""Seconds the run of every refusal task (about 600 conversations) may take: a guard against a
hang, not a speed check (it took 97 s alone and over 120 s beside other work on 2 cores)."""


def test_a_cli_run_of_every_refusal_task_stores_each_insistence_in_sqlite(
    tmp_path: Path,
) -> None:
    """Every task with a demand in the ten domains, neutral and three leaves at high intensity:
    gold scores 1.0 in each, the user insists its count where gold refuses and once, against the
    announcement, where it transfers, and each insistence is an ``insisted:`` trigger in the
    store."""
    db = tmp_path / "pushback.db"
    tasks = {t.id: t for name in NAMES for t in get_domain(name).tasks if t.scenario.demand}
    ends = {a for name in NAMES for a in get_domain(name).toolkit.endings}
    transfers = {i for i, t in tasks.items() if any(a.name in ends for a in t.actions)}
    emotions = ("neutral", "frustration", "excitement", "helplessness")
    tau_sim(
        *("run", "--domain", ",".join(NAMES), "--tasks", ",".join(tasks)),
        *("--agent", "scripted/gold", "--emotions", ",".join(emotions), "--intensities", "high"),
        *("--db", str(db), "--quiet", "--concurrency", "64"),
        timeout=EVERY_REFUSAL_TIMEOUT,
    )
    rows = sqlite3.connect(db).execute(
        "select c.task_id, c.emotion, c.reward, c.reason, count(t.value) from conversations c "
        "left join events e on e.conversation = c.id and e.kind = 'emotion_update' "
        "left join json_each(e.payload, '$.triggers') t on t.value like 'insisted:%' "
        "group by c.id"
    )
    got = {(task, emotion): (reward, reason, n) for task, emotion, reward, reason, n in rows}
    assert set(got) == {(t, e) for t in tasks for e in emotions}
    for (task, emotion), (reward, reason, n) in got.items():
        expected = pushback_of(EmotionProfile.of(emotion, 0.9)).insistences
        if task in transfers:
            assert (reward, reason, n) == (1.0, "transfer", min(expected, 1)), (task, emotion)
            continue
        assert (reward, reason, n) == (1.0, "user_stop", expected), (task, emotion)
    refusals = [
        n for (t, e), (_r, _s, n) in got.items() if e == "frustration" and t not in transfers
    ]
    assert len(refusals) >= 90 and set(refusals) == {5}
