"""How often the scripted user says a sentence twice in one conversation.

Plays the tasks of the given domains (default: the ten built-in ones; ``--per-domain N``: the
first N of each) with ``scripted/gold`` and ``scripted/over-asker`` against the scripted user,
neutral and frustrated at 0.9, through the engine, and prints per agent and condition the user
messages, the share of them that repeat a sentence the user already said in the same
conversation (sentences compared lower-cased, without the end markers), and the share of
conversations with such a repeat. Scripted agents calibrate the harness: these figures check the
scripted user, not a model.

    PYTHONPATH=$PWD python scripts/user_repeats.py [--per-domain N] [DOMAIN ...]
"""

from __future__ import annotations

import argparse
import asyncio

from inprocess import DOMAINS, play

from tau_sim.simulator.core.events import UserMessage
from tau_sim.simulator.core.registry import get_domain, make_agent_provider, make_user_provider
from tau_sim.simulator.world import answer_key
from tau_sim.users.repeats import repeats

AGENTS = ("scripted/gold", "scripted/over-asker")
CONDITIONS = (("neutral", 0.6), ("frustration", 0.9))


async def measure(names: list[str], per_domain: int) -> None:
    """Print one line per agent and condition, then the total."""
    users = make_user_provider("scripted", {})
    totals = [0, 0, 0, 0]  # messages, repeating messages, conversations, with a repeat
    for agent in AGENTS:
        agents = make_agent_provider(agent, {})
        for condition in CONDITIONS:
            emotion, intensity = condition
            row = [0, 0, 0, 0]
            for name in names:
                domain = get_domain(name)
                tasks = domain.tasks[:per_domain] if per_domain else domain.tasks
                keys = {t.id: answer_key(domain, t) for t in tasks}
                for task in tasks:
                    events = await play(
                        domain, task, keys[task.id], (agent, agents), users, condition, "repeats"
                    )
                    texts = [e.text for e in events if isinstance(e, UserMessage) and e.text]
                    found = repeats(texts)
                    row = [row[0] + len(texts), row[1] + found, row[2] + 1, row[3] + bool(found)]
            totals = [a + b for a, b in zip(totals, row, strict=True)]
            print(_line(f"{agent} {emotion} {intensity}", row))
    print(_line("all", totals))


def _line(label: str, row: list[int]) -> str:
    messages, repeating, conversations, with_repeat = row
    share = 100 * repeating / max(messages, 1)
    conversations_share = 100 * with_repeat / max(conversations, 1)
    return (
        f"{label:38} {messages:6} user messages, {share:5.1f} % repeat; "
        f"{conversations:5} conversations, {conversations_share:5.1f} % with one"
    )


def main() -> None:
    """Parse the arguments and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", default=list(DOMAINS))
    parser.add_argument("--per-domain", type=int, default=0, help="the first N tasks of each")
    args = parser.parse_args()
    unknown = [d for d in args.domains if d not in DOMAINS]
    if unknown:
        parser.exit(2, f"unknown domain: {unknown[0]}\n")
    asyncio.run(measure(args.domains, args.per_domain))


if __name__ == "__main__":
    main()
