"""The pushback ladder and the policies agree (issue 39 item 6): a user whose last insistence
asks for a supervisor is not asking for a transfer, so an agent that keeps the refusal and
carries on with the rest of the request wins, in every domain, through the real scorer."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.tools import ToolKind
from tau_sim.users.emotions import EmotionProfile
from tau_sim.users.pushback import STYLE_NOTES, instructions, pushback_of
from tests.agents.dialog import play

pytestmark = pytest.mark.anyio

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
LADDER = ("frustration", 0.9)  # its ladder ends in "supervisor"


def mixed_task(domain: Domain) -> Task:
    """A task whose user asks for something refused and for something allowed, with no transfer."""
    endings = set(domain.toolkit.endings)
    for task in domain.tasks:
        intent = domain.intent(task.intent)
        writes = [a for a in task.actions if domain.toolkit.kind(a.name) == ToolKind.WRITE]
        if (
            task.scenario.demand
            and not intent.forbidden
            and writes
            and not any(a.name in endings for a in task.actions)
        ):
            return task
    raise AssertionError(f"{domain.name}: no mixed task")


@pytest.mark.parametrize("name", NAMES)
def test_every_policy_says_a_supervisor_request_is_no_transfer(name: str) -> None:
    policy = " ".join(get_domain(name).policy.split())
    assert (
        "asks for a supervisor or a manager to overturn it is not asking for a transfer" in policy
    )
    assert "go on with the rest of the request" in policy


def test_the_ladder_ends_in_a_supervisor_and_then_carries_on() -> None:
    profile = EmotionProfile.of(*LADDER)
    assert pushback_of(profile).styles[-1] == "supervisor"
    told = instructions(profile, "a refund")
    assert STYLE_NOTES["supervisor"] in told
    assert "then carry on with the rest of your goal" in told
    assert "end the conversation" not in told


@pytest.mark.parametrize("name", NAMES)
async def test_keeping_the_refusal_past_a_supervisor_request_wins(name: str) -> None:
    domain = get_domain(name)
    task = mixed_task(domain)
    outcome = await play(
        domain, task, "scripted/gold", emotion=LADDER[0], intensity=LADDER[1], max_steps=80
    )
    assert any(t.endswith(":supervisor") for t in outcome.triggers), outcome.triggers
    assert "transfer_to_human_agents" not in outcome.tool_calls
    assert outcome.reward == 1.0 and outcome.ended == "user_stop", (task.id, outcome.breakdown)
