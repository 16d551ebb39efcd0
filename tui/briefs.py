"""The briefs of ``tau-sim human``: what the person playing the user (or the agent) reads.

The user's brief holds the scenario (goal, the need raised later, known facts named as an agent
asks for them and unknown ones, never the gold path), the
condition with a line of acting guidance per emotion family, the intensity being acted, how to
push back where the request must be refused (``users.pushback``) and the phone's tools. The
agent's brief holds what an agent is given: its tools and how to call them (the policy is shown
beside it, rendered as Markdown), never the user's condition.
"""

from __future__ import annotations

from rich.text import Text

from tau_sim.simulator.world import AgentView, UserView
from tau_sim.tui.tool_lines import tools_text
from tau_sim.users.emotions import profile_of
from tau_sim.users.pushback import instructions

GUIDES = {
    "anger": "Be curt and impatient; push back when the agent stalls or repeats itself.",
    "fear": "Sound worried; ask what happens next and whether it is really fixed.",
    "sadness": "Sound low and tired; say what this costs you; respond to kindness.",
    "disgust": "Sound offended by how this was handled; expect the agent to own it.",
    "enjoyment": "Be upbeat and easy-going; thank the agent for progress.",
    "neutral": "Be matter-of-fact: say what you need and answer what you are asked.",
}
"""A line of acting guidance per emotion family."""
INTENSITY_WORDS = ((0.34, "mildly"), (0.67, "clearly"), (1.01, "strongly"))


def acting_words(intensity: float) -> str:
    """How strongly to act an intensity: mildly, clearly or strongly."""
    return next(word for top, word in INTENSITY_WORDS if intensity < top)


def user_brief(view: UserView, acting: float) -> Text:
    """The user's brief: the goal and how to act first, then the phone, facts and keys.

    ``acting`` is the intensity the person is acting now (ctrl+up / ctrl+down).

    What a person needs at every turn (the goal, the condition, the intensity being acted,
    the phone's tools) comes before what is read once, so it is in view at 120x40.
    """
    profile = profile_of(view)
    scenario = view.scenario
    text = Text("You are the customer ", style="bold")
    text.append(f"({view.domain_title}, task {view.task_id})\n")
    text.append("Goal\n", style="bold")
    text.append(scenario.goal + "\n")
    text.append("Act ", style="bold")
    text.append(f"{profile.leaf} ({profile.family}) at {view.condition.intensity:.2f}\n")
    text.append(f"  acting now: {acting:.1f} ({acting_words(acting)})", style="bold")
    text.append("  ctrl+up/down\n", style="dim")
    text.append(f"  {GUIDES.get(profile.family, GUIDES['neutral'])}\n")
    text.append(
        f"  politeness {profile.politeness}, urgency {profile.urgency}, trust {profile.trust}\n"
    )
    pushback = instructions(profile, scenario.demand)
    if pushback:
        text.append("If the agent refuses\n", style="bold")
        text.append(f"  {pushback}\n")
    if view.tools:
        text.append("Your phone\n", style="bold")
        text.append(tools_text(view.tools))
    if scenario.later:
        text.append("Later in the conversation\n", style="bold")
        text.append(
            "  Do not mention this at first. After the agent's third message (or earlier, "
            "instead of ending, if the agent asks whether there is anything else), raise it in "
            f'your own words: "{scenario.later}"\n'
        )
    if view.slots:
        text.append("You know ", style="bold")
        text.append("(give each when asked)\n", style="dim")
        for slot in view.slots:  # named as an agent asks for it, never by its slot name
            text.append(f"  {slot.prompt}: ", style="dim")
            text.append(f"{slot.value}\n")
    if scenario.unknown_info:
        text.append("You do not know\n", style="bold")
        text.append("  " + ", ".join(scenario.unknown_info) + "\n")
    if scenario.opening:
        text.append("You might open with\n", style="bold")
        text.append(f"  {scenario.opening}\n")
    text.append("Keys ", style="bold")
    text.append("ctrl+s satisfied, ctrl+b abandon, ctrl+q stop (resumable)")
    return text


def agent_brief(view: AgentView) -> Text:
    """The agent's brief: what it is, its tools and how to call them, then the policy's title."""
    text = Text("You are the agent\n", style="bold")
    text.append(f"{view.title}\n\n")
    text.append("Tools\n", style="bold")
    text.append(tools_text(view.tools))
    text.append(
        "/a x=1 ; /b y=2 sends both calls in one turn (run in that order); /tool alone or "
        "ctrl+o opens a form; the right arrow accepts a completion\n",
        style="dim italic",
    )
    text.append("\nPolicy", style="bold")
    return text
