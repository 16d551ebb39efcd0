"""How often a scripted agent's tool calls use a fact nobody told it, per domain and condition.

Plays every task of the given domains (default: the ten built-in ones) with a scripted agent
(default ``scripted/gold``) against the scripted user, neutral and angry at 0.9, through the
engine, and prints per domain and condition the conversations, those with a string argument
that no earlier user message, tool result or the policy holds (``told.untold``; ``--strict``
leaves the policy out), those where the agent picked a record among several that nobody
singled out (``picks.untold_picks``: "untold picks"), the successes, the abandoned ones, the
agent messages that say a required output as a bare word ("Here are the details: belong.";
``agents.outputs.bare``) and those that say goodbye or offer "anything else?" right after a user
message that insists, threatens or complains (``agents.closing.closes``, ``pressing``).
Scripted agents calibrate the harness: these figures check the harness, not a model.

    PYTHONPATH=$PWD python scripts/facts_told.py [--agent NAME] [--strict] [DOMAIN ...]
"""

from __future__ import annotations

import argparse
import asyncio

from inprocess import DOMAINS, play

from tau_sim.agents.closing import closes, pressing
from tau_sim.agents.outputs import bare
from tau_sim.simulator.core.events import AgentMessage, ConversationEnded, Event, UserMessage
from tau_sim.simulator.core.registry import get_domain, make_agent_provider, make_user_provider
from tau_sim.simulator.world import (
    ToolKind,
    agent_texts,
    answer_key,
    policy_today,
    untold,
    untold_picks,
)

CONDITIONS = (("neutral", 0.6), ("anger", 0.9))


def closed_on_pressing(events: list[Event]) -> int:
    """Agent texts that close or offer "anything else?" right after a pressing user message.

    The user's opening is left out: it asks, and nothing has been refused yet.
    """
    count, pressed, opened = 0, False, False
    for event in events:
        if isinstance(event, UserMessage):
            pressed = opened and pressing(event.text or "")  # the opening presses on nothing
            opened = True
        elif isinstance(event, AgentMessage) and event.text and not event.tool_calls:
            count += pressed and closes(event.text)
            pressed = False
    return count


async def measure(agent: str, names: list[str], strict: bool) -> None:
    """Print one line per domain and condition, then the total."""
    agents, users = make_agent_provider(agent, {}), make_user_provider("scripted", {})
    total = [0, 0, 0, 0, 0, 0]
    for name in names:
        domain = get_domain(name)
        keys = {t.id: answer_key(domain, t) for t in domain.tasks}
        given = [] if strict else [domain.policy]
        tools = domain.toolkit.tools.values()
        reads = [t.name for t in tools if t.kind is ToolKind.READ]
        today = policy_today(domain.policy)
        for condition in CONDITIONS:
            emotion = condition[0]
            n = bad = ok = abandoned = bare_words = picked = pressed = 0
            for task in domain.tasks:
                events = await play(
                    domain, task, keys[task.id], (agent, agents), users, condition, "facts"
                )
                ended = events[-1]
                assert isinstance(ended, ConversationEnded)
                n += 1
                bad += bool(untold(events, domain.toolkit.composed, given))
                picked += bool(untold_picks(events, reads, today))
                ok += ended.reward == 1.0
                abandoned += ended.reason == "user_abandoned"
                outputs = task.required_outputs
                bare_words += sum(bare(text, outputs) for text in agent_texts(events))
                pressed += closed_on_pressing(events)
            counts = (n, bad, ok, bare_words, picked, pressed)
            total = [a + b for a, b in zip(total, counts, strict=True)]
            print(
                f"{name:14} {emotion:8} {n:4} conversations, untold {bad:4} "
                f"({100 * bad / n:5.1f} %), untold picks {picked:4} ({100 * picked / n:5.1f} %), "
                f"success {ok:4}, abandoned {abandoned:4}, bare-word messages {bare_words:4}, "
                f"closings after pressing {pressed:4}"
            )
    n, bad, ok, bare_words, picked, pressed = total
    print(
        f"{'all':23} {n:4} conversations, untold {bad:4} ({100 * bad / n:5.1f} %), "
        f"untold picks {picked:4} ({100 * picked / n:5.1f} %), success {ok}, "
        f"bare-word messages {bare_words}, closings after pressing {pressed}"
    )


def main() -> None:
    """Parse the arguments and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", default=list(DOMAINS))
    parser.add_argument("--agent", default="scripted/gold")
    parser.add_argument("--strict", action="store_true", help="the policy counts as unsaid")
    args = parser.parse_args()
    asyncio.run(measure(args.agent, args.domains, args.strict))


if __name__ == "__main__":
    main()
