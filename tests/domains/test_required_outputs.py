"""Required outputs are checked by meaning the policy's own wording satisfies (issue 39 item 3).

A required output is either a fact the agent reads from its tools (a figure, a name, a status a
gold read returns) or a sentence the policy prescribes ("cannot be removed", which the airline
policy words "never removed"). Every prescribed one must be satisfied by the policy's own
words, and a status must be said as a status: "open" inside an unrelated sentence is not it.
"""

from __future__ import annotations

import re

import pytest

from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.evaluation import normalize_text, output_said
from tau_sim.simulator.world.tools import ToolKind

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
_MARKUP = re.compile(r"[*`_]")


def read_results(domain: Domain, task: Task) -> str:
    """What the task's gold reads return, normalised."""
    db = domain.new_database(task)
    texts = []
    for action in task.actions:
        outcome = domain.call(db, action)
        tool = domain.tool(action.name)
        if tool is not None and tool.kind is ToolKind.READ:
            texts.append(outcome.content)
    return normalize_text(" ".join(texts))


def is_fact(output: str, results: str) -> bool:
    """Whether ``output`` is a fact the tools give (a figure, a name, a value a read returns)."""
    return bool(re.search(r"\d", output)) or output[:1].isupper() or f'"{output}"' in results


@pytest.mark.parametrize("name", NAMES)
def test_every_prescribed_output_is_satisfied_by_the_policy_wording(name: str) -> None:
    domain = get_domain(name)
    policy = normalize_text(_MARKUP.sub("", domain.policy))
    for task in domain.tasks:
        results = read_results(domain, task)
        for output in task.required_outputs:
            if is_fact(output, results):
                continue
            assert output_said(output, policy, domain.phrasings), (task.id, output)


@pytest.mark.parametrize(
    ("name", "output", "said", "counts"),
    [
        ("banking", "open", "You can open the app to see every charge.", False),
        ("banking", "open", "Reopening it is not possible.", False),
        ("banking", "open", "Your dispute is still open; it was filed on 2025-02-10.", True),
        ("banking", "open", "It's under review since 2025-02-10.", True),
        ("banking", "open", "Here are the details: 2025-02-10; open.", True),
        ("airline", "cannot be removed", "Bags can be added, but never removed.", True),
        ("airline", "cannot be removed", "I removed nothing.", False),
        ("insurance", "cannot be added", "Only household members can be added.", True),
        ("insurance", "cannot be filed", "Only active policies can have claims filed.", True),
        ("hotel", "cannot cancel", "I'm sorry, I can't change or cancel it.", True),
        ("airline", "scheduled", "The flight left on time.", True),
        ("telehealth", "cannot", "I cannot wait to help.", False),
    ],
)
def test_a_required_output_is_said_by_meaning(
    name: str, output: str, said: str, counts: bool
) -> None:
    domain = get_domain(name)
    assert output_said(output, normalize_text(said), domain.phrasings) is counts
