"""The gold agent behaves as a good agent would, in every domain and under every condition.

Scripted agents calibrate the harness; these checks make the gold calibrator a fair model of
good conduct: the scripted user never tags one of its turns dismissive, an ignored cue, an
unbacked claim or a repeated question; it acknowledges what the user's words show in words that
fit the family and level; its texts vary; it answers a user who asks whether it went through.
"""

from __future__ import annotations

from collections import Counter

import anyio
import pytest

from tau_sim.agents.cues import Feeling, feeling, shows_distress
from tau_sim.agents.phrases import ACKNOWLEDGEMENTS, GREETINGS
from tau_sim.agents.plan import ACKS, GOODBYE, Call, GoldPolicy, Say
from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.registry import (
    DOMAINS,
    get_domain,
    load_plugins,
    make_agent_provider,
    make_user_provider,
)
from tau_sim.simulator.world.views import answer_key
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.emotions import family_of, level_name
from tests.agents.dialog import Outcome, play

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
CONDITIONS = [("neutral", 0.0)] + [
    (leaf, intensity)
    for leaf in ("frustration", "anxiety", "helplessness", "repugnance", "excitement")
    for intensity in (0.3, 0.6, 0.9)
]
ROTATION = 4
"""Task k plays the conditions c with (k + c) % ROTATION == 0: every condition in every domain."""
TAGS = ("dismissive", "ignored_cue", "unbacked_claim", "repeated_question")


def _conversations(name: str) -> list[tuple[str, str, float, Outcome]]:
    domain = get_domain(name)
    providers = (make_agent_provider("scripted/gold", {}), make_user_provider("scripted", {}))

    async def all_of_them() -> list[tuple[str, str, float, Outcome]]:
        played = []
        for k, task in enumerate(domain.tasks):
            for c, (emotion, intensity) in enumerate(CONDITIONS):
                if (k + c) % ROTATION == 0:
                    outcome = await play(
                        domain,
                        task,
                        "scripted/gold",
                        emotion=emotion,
                        intensity=intensity,
                        providers=providers,
                        max_steps=Limits().max_steps,  # the runner's default, as a run plays
                    )
                    played.append((task.id, emotion, intensity, outcome))
        return played

    return anyio.run(all_of_them)


@pytest.mark.parametrize("name", NAMES)
def test_no_gold_turn_is_tagged_and_every_acknowledgement_fits(name: str) -> None:
    played = _conversations(name)
    assert {(e, i) for _, e, i, _ in played} == set(CONDITIONS)
    tagged = [
        (task, emotion, intensity, trigger)
        for task, emotion, intensity, outcome in played
        for trigger in outcome.triggers
        if trigger.partition(":")[0] in TAGS
    ]
    assert not tagged, tagged[:5]
    assert [t for t, _, _, o in played if o.reward != 1.0] == []
    scenario_openings = {t.id: t.scenario.opening for t in get_domain(name).tasks}
    for task, emotion, intensity, outcome in played:
        first, opening = outcome.agent_texts[0], outcome.user_texts[0]
        shown = feeling(opening)
        if family_of(emotion) in ACKNOWLEDGEMENTS and feeling(scenario_openings[task]) is None:
            # the user's own words (not the scenario's) show the condition's family and level
            assert shown == Feeling(family_of(emotion), level_name(intensity)), (task, opening)
        if shown is not None:
            fitting = ACKNOWLEDGEMENTS[shown.family][shown.level]
            assert first.startswith(fitting), (task, emotion, intensity, first)
        elif shows_distress(opening):
            assert first.startswith(ACKS), (task, emotion, intensity, first)
        else:
            assert first.startswith(GREETINGS), (task, emotion, first)


def test_gold_texts_vary() -> None:
    played = _conversations("retail")
    openers = Counter(o.agent_texts[0].split(". ")[0] for _, e, _, o in played if e != "neutral")
    total = sum(openers.values())
    assert len(openers) >= 10
    assert openers.most_common(1)[0][1] <= total / 4, openers.most_common(3)


def test_every_acknowledgement_reads_as_care_and_nothing_else() -> None:
    reader = AgentTextReader([], ["user id"])
    phrases = [p for levels in ACKNOWLEDGEMENTS.values() for ps in levels.values() for p in ps]
    for phrase in [*phrases, *ACKS]:
        acts = reader.read(phrase)
        assert acts.acknowledged and not acts.substantive and not acts.announced, phrase
    assert not any(reader.read(g).acknowledged or reader.read(g).substantive for g in GREETINGS)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Hm. I need to return an item. I'd like this sorted out.", Feeling("anger", "low")),
        ("This is ridiculous! I'd like this sorted out.", Feeling("anger", "high")),
        ("Oh, um. I want to book a room. I hope that's okay.", Feeling("fear", "low")),
        ("I'm getting a bit nervous. Is this going to be a problem?", Feeling("fear", "medium")),
        ("Sigh. My card is gone. It's been a rough week.", Feeling("sadness", "medium")),
        ("Ugh. Cancel my order. Let's get it over with.", Feeling("disgust", "low")),
        ("What a joke. Your company is a disgrace.", Feeling("disgust", "high")),
        ("Hi, I'd like to book a flight from JFK to ORD.", None),
        ("Thanks so much! Really looking forward to it!", None),
    ],
)
def test_the_feeling_words_show(text: str, shown: Feeling | None) -> None:
    assert feeling(text) == shown


def test_a_user_who_asks_whether_it_went_through_gets_the_detail() -> None:
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if domain.write_actions(t))
    key = answer_key(domain, task)
    policy = GoldPolicy(key, profile="gold")
    db = domain.new_database(task)
    history = [ChatMessage(role="user", content=task.scenario.opening)]
    answers = iter(["Here you go: " + " ".join(s.value for s in key.known_info), "Yes."])
    for index in range(40):
        step = policy.step(history)
        if isinstance(step, Call):
            call = f"call_{index}"
            history.append(ChatMessage(role="assistant", content=None))
            outcome = domain.call(db, step.action)
            history.append(ChatMessage(role="tool", content=outcome.content, tool_call_id=call))
            continue
        history.append(ChatMessage(role="assistant", content=step.text))
        if "anything else" in step.text.lower():
            break
        history.append(ChatMessage(role="user", content=next(answers, "Yes.")))
    else:
        raise AssertionError("the gold path never finished")
    history.append(ChatMessage(role="user", content="Are you sure? Did it actually go through?"))
    reply = policy.step(history)
    assert isinstance(reply, Say) and reply.text != GOODBYE
    write = key.actions[key.writes[0]]
    ids = [v for v in write.arguments.values() if isinstance(v, str) and any(map(str.isdigit, v))]
    assert ids and all(i in reply.text for i in ids), (reply.text, ids)
    assert reply.text.startswith("Yes. All done: I ") and "anything else" in reply.text.lower()
