"""The LLM user's brief: the system prompt that tells a chat model which customer it plays.

``system_prompt`` words a ``UserView`` under an emotion profile: the task's goal and facts (never
the gold actions or the outputs the agent must give), how the user writes, feels and pushes back
on a refusal, and how the conversation ends. ``brief_of`` renders it for a task of a domain
(``tau-sim users prompt``). docs/users.md ("The LLM user") states its rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core import Condition
from tau_sim.simulator.world import ConversationContext, user_view
from tau_sim.users.dynamics import WEIGHTS, DissatisfactionModel, Signal
from tau_sim.users.emotions import EmotionProfile, level_name, profile_of
from tau_sim.users.personas import described
from tau_sim.users.pushback import instructions

if TYPE_CHECKING:
    from tau_sim.simulator.world import Domain, Task, UserView

MESSAGE_CHARS = 300
"""The longest message the brief allows and the reply's schema enforces: a grammar-bound model
(llama.cpp) closes the string there, so a small model that starts repeating itself still answers
a whole JSON object within its token budget."""
REASONS: tuple[str, ...] = (
    "dismissive tone",
    "ignored cues",
    "procedural friction",
    "emotional neglect",
)
"""Why a user abandons a conversation (``###UNSATISFIED###``)."""


def brief_of(domain: Domain, task: Task, emotion: str, intensity: float) -> str:
    """The brief an LLM user gets for ``task`` of ``domain`` under ``emotion`` at ``intensity``."""
    ctx = ConversationContext(
        conversation_id=f"{task.id}-brief",
        run_id="brief",
        task=task,
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=0,
    )
    view = user_view(ctx)
    return system_prompt(view, profile_of(view))


SENTENCES: dict[str, str] = {"rambling": "one to four sentences", "terse": "one or two"}
"""How many sentences a message of a persona has, where it is not one to three."""


def length_rule(persona: str) -> str:
    """The one length rule of a brief; the persona's description keeps within it."""
    sentences = SENTENCES.get(persona, "one to three sentences")
    return (
        f"Write one chat message at a time, like a real customer: {sentences}, at most "
        f"{MESSAGE_CHARS} characters."
    )


def abandon_threshold(profile: EmotionProfile) -> float | None:
    """The dissatisfaction at which a user of ``profile`` gives up; None: it never does.

    The scripted user's threshold at the profile's own intensity (``users.dynamics``); a
    neutral user (arousal 0) never abandons, nor one whose threshold is above 1 (dissatisfaction
    never gets there).
    """
    model = DissatisfactionModel(profile)
    if not profile.spec.arousal or model.threshold > 1.0:
        return None
    return model.threshold


def system_prompt(view: UserView, profile: EmotionProfile) -> str:
    """The user model's instructions: scenario and emotion, never the gold actions or outputs."""
    scenario = view.scenario
    known = "\n".join(f"- {slot.prompt}: {slot.value}" for slot in view.slots)
    unknown = "\n".join(f"- {item}" for item in scenario.unknown_info)
    title = view.domain_title
    lines = [
        f"You are role-playing a CUSTOMER who contacts the customer service of {title}. You "
        "are the customer, never the agent. Stay in character for the whole conversation.",
        "",
        "## Your goal",
        scenario.goal,
        "",
        "## What you know",
        "Your opening states only what it says. Give each of these facts only when the agent "
        "asks for it (several at once when one question asks for several), as written here; "
        "never offer the others unasked. When the agent asks which one you mean (a card, an "
        "order, a line), answer with the fact here that says which.",
        known or "- (nothing in particular)",
    ]
    if unknown:
        lines += ["", "## What you do not know", unknown]
    if view.tools:
        lines += [
            "",
            "## Your device",
            "You have tools that act on your own phone; only you can use them, the agent "
            "cannot. Use one only when the agent asks you to check or change something on "
            "your phone, then tell the agent in your message what you saw or did.",
        ]
    if scenario.persona:
        lines += ["", "## How you write", described(scenario.persona)]
    lines += ["", "## How you feel", _feeling(profile), ""]
    pushback = instructions(profile, scenario.demand)
    if pushback:
        lines += ["## If the agent refuses", pushback, ""]
    if scenario.later:
        lines += [
            "## Later in the conversation",
            "Do not mention this at first. In your reply to the agent's third message (or "
            "earlier, instead of ending, if the agent asks whether there is anything else), "
            f'raise this new need in your own words: "{scenario.later}"',
            "",
        ]
    threshold = abandon_threshold(profile)
    lines += [
        "## How the conversation goes",
        "- Your first message opens with your request in your own words, for example: "
        f'"{scenario.opening}"',
        f"- {length_rule(scenario.persona)}",
        "- If the agent asks for something this brief does not tell you, say you do not know "
        "or that it is not something you have. Never invent information.",
        _dissatisfaction(profile),
        _discourtesy(profile),
        "- When your goal is fully met (a refusal settled as your goal says counts as met), "
        "thank the agent and end the conversation with STOP. "
        "If the agent transfers you to a human agent, end with STOP as well.",
    ]
    if threshold is None:
        lines.append(
            "- You never give up: you stay until your goal is met, the agent transfers you, or "
            "the agent ends the conversation."
        )
        ends = '"ends": null | "STOP", "reason": null}'
    else:
        lines.append(
            "- Give up only once your dissatisfaction reaches "
            f"{threshold:.2f}: then end with UNSATISFIED and the main reason. While you still "
            "have insistences left on a refusal, never give up on an agent that stays courteous."
        )
        ends = (
            '"ends": null | "STOP" | "UNSATISFIED", "reason": null | '
            + " | ".join(f'"{r}"' for r in REASONS)
            + "}"
        )
    lines += [
        "",
        "## Answer format",
        "Answer with exactly one JSON object and nothing else:",
        '{"message": "<what you write to the agent>", "intensity": <0..1, how strongly you '
        'feel now>, "dissatisfaction": <0..1>, ' + ends,
    ]
    return "\n".join(lines)


POLITENESS_NOTES: dict[str, str] = {
    "warm": "you write warmly and courteously",
    "neutral": "you write plainly, neither warm nor rude",
    "cold": "you write curtly and coldly, and a dismissive agent stings you",
}
URGENCY_NOTES: dict[str, str] = {
    "low": "you are in no hurry and tolerate waiting and lookups",
    "moderate": "you want it done in reasonable time",
    "high": "you are in a hurry: turns without progress and lookups announced but not done "
    "make you impatient fast",
}
TRUST_NOTES: dict[str, str] = {
    "trusting": "you take the agent's claims at face value",
    "cautious": "you notice when a claim comes without details",
    "skeptical": "you doubt claims that come without a detail (an id, an amount) and ask the "
    "agent to confirm that an action really went through",
}


def _dissatisfaction(profile: EmotionProfile) -> str:
    """How dissatisfaction moves, with the scripted user's figures at this profile."""
    model = DissatisfactionModel(profile)

    def rise(signal: Signal) -> str:
        return f"{model.friction(signal):.2f}"

    return (
        "- Keep track of your dissatisfaction (0 to 1; it starts at 0). A question the agent "
        f"could answer with a lookup raises it by about {rise(Signal.LOOKUPABLE_QUESTION)}, "
        f"a question it already asked by {rise(Signal.REPEATED_QUESTION)}, a dismissive reply "
        f"by {rise(Signal.DISMISSIVE)}, a turn without progress by "
        f"{rise(Signal.NO_PROGRESS)}; real progress lowers it by "
        f"{WEIGHTS[Signal.PROGRESS].base:.2f}."
    )


def _discourtesy(profile: EmotionProfile) -> str:
    """What the user does when the agent is discourteous."""
    if not profile.emotional:
        return (
            "- If the agent is rude or discourteous, point it out calmly once and go on with "
            "your goal; it counts as a dismissive reply."
        )
    return (
        "- If the agent is rude or discourteous, it counts as a dismissive reply: let it show "
        "as your feeling and politeness say, but never insult the agent, and stay on your goal."
    )


def _dimensions(profile: EmotionProfile) -> str:
    return (
        f"Your politeness is {profile.politeness}: {POLITENESS_NOTES[profile.politeness]}. "
        f"Your urgency is {profile.urgency}: {URGENCY_NOTES[profile.urgency]}. "
        f"Your trust in the agent is {profile.trust}: {TRUST_NOTES[profile.trust]}."
    )


def _feeling(profile: EmotionProfile) -> str:
    if not profile.emotional:
        return f"You are calm and matter-of-fact. {_dimensions(profile)}"
    return (
        f"You feel {profile.leaf} (a kind of {profile.family}), at {level_name(profile.intensity)} "
        f"intensity ({profile.intensity:.2f} on 0 to 1). {_dimensions(profile)} "
        "Let this show in how you write: word choice, patience, how much you push. The feeling "
        "changes how you talk, never what you want: your goal stays exactly the same. Report "
        "your current intensity each turn; it may rise or fall with how the agent treats you."
    )
