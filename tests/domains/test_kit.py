"""The domain kit: a toy domain on it plays through the real runner; authentication factors."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.agents.llm import ToolCallingAgent
from tau_sim.domains.kit.identity import (
    ACCOUNT_PIN,
    EMAIL,
    NAME_ZIP,
    Identity,
    find_user_id_by_account,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    identity_indexes,
)
from tau_sim.domains.kit.people import Customer, Ids, customers, random_address
from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolCallSpec, ToolSpec, Usage
from tau_sim.simulator.core.endings import Limits, TerminationReason
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import DOMAINS, make_user_provider
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.grid import RunConfig, grid
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import Store
from tau_sim.simulator.world.database import Base
from tau_sim.simulator.world.domain import Domain
from tau_sim.simulator.world.taskformat import dump_tasks
from tau_sim.simulator.world.tools import Toolkit
from tau_sim.simulator.world.views import ConversationContext, agent_view, user_view
from tests.agents.toy_domain import gym
from tests.scoring import score


@pytest.fixture
def registered() -> Iterator[None]:
    DOMAINS.add("gym", gym)
    yield
    DOMAINS.remove("gym")


def test_toy_domain_has_auth_a_payment_method_and_three_intents() -> None:
    domain = gym()
    assert [i.name for i in domain.intents] == [t.intent for t in domain.tasks]
    assert len(domain.tasks) == 3
    assert all(t.auth_slots == ["email"] for t in domain.tasks)
    assert domain.toolkit.ends("transfer_to_human_agents") is TerminationReason.TRANSFER
    cancel = domain.tasks[0]
    db = domain.new_database()
    for action in cancel.actions:
        assert not domain.toolkit.call(db, action.name, dict(action.arguments)).error
    ana = db.get("users", "ana_1")
    assert ana is not None and ana.payment_methods[0].balance == 50.0  # $10 + the $40 refund


def test_gold_agent_scores_one_through_the_runner(registered: None, tmp_path: Path) -> None:
    config = RunConfig(
        domains=["gym"],
        tasks=[t.id for t in gym().tasks],
        emotions=["neutral", "anger"],
        intensities=[0.9],
        seed=3,
        concurrency=4,
    )
    store = Store(tmp_path / "gym.db")
    cells = sum(1 for _ in grid(config))
    anyio.run(Runner(store, config, "gym-run", create=True).run)
    rows = list(store.db.query("select task_id, reason, reward from conversations"))
    assert len(rows) == cells == 6
    assert all(r["reward"] == 1.0 for r in rows), rows
    assert {r["reason"] for r in rows} == {"user_stop", "transfer"}


class WrongWriteModel:
    """Plays the gold path of the cancel task but cancels the other booking."""

    name = backend = "test/wrong-write"

    def __init__(self, ctx: ConversationContext) -> None:
        self.actions = [a for a in ctx.task.actions]
        self.actions[-1] = msgspec.structs.replace(
            self.actions[-1], arguments={"booking_id": "B2", "reason": "I moved away"}
        )

    async def chat(
        self, messages: list[ChatMessage], tools: list[ToolSpec], *, response_format: Any = None
    ) -> ChatResponse:
        done = sum(1 for m in messages if m.role == "tool")
        if done < len(self.actions):
            a = self.actions[done]
            call = ToolCallSpec(f"c{done}", a.name, dict(a.arguments))
            return ChatResponse(ChatMessage(role="assistant", tool_calls=[call]), Usage(1, 1, 0))
        text = "Done, a refund of $40.00. Is there anything else I can help you with?"
        return ChatResponse(ChatMessage(role="assistant", content=text), Usage(1, 1, 0))

    async def aclose(self) -> None:
        return None


async def _play_wrong_write() -> Any:
    domain = gym()
    task = domain.tasks[0]
    ctx = ConversationContext(
        conversation_id="w",
        run_id="r",
        task=task,
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0.0),
        trial=0,
        seed=1,
    )
    agent = ToolCallingAgent(WrongWriteModel(ctx), agent_view(ctx))
    user = make_user_provider("scripted", {}).for_conversation(user_view(ctx))
    return await run_conversation(ctx, agent, "wrong", user, "scripted", Bus([]), Limits())


def test_a_wrong_write_scores_zero() -> None:
    ended = anyio.run(_play_wrong_write)
    assert ended.reason == "user_stop"
    assert ended.reward == 0.0 and not ended.breakdown.db_match
    assert ended.breakdown.outputs_communicated == 1.0  # the write alone makes it fail


def _bank() -> Base:
    rng = random.Random(4)
    people = customers(rng, Ids(rng), 30, Customer, accounts=True)
    return Base({"users": people}, identity_indexes([EMAIL, NAME_ZIP, ACCOUNT_PIN]))


def test_every_factor_finds_the_user_and_follows_writes() -> None:
    base = _bank()
    db = base.database()
    tools = Toolkit([find_user_id_by_email, find_user_id_by_name_zip, find_user_id_by_account])
    user: Customer = next(iter(base.tables["users"].values()))
    assert len(user.account_number) == 10 and len(user.pin) == 4
    for factor in (EMAIL, NAME_ZIP, ACCOUNT_PIN):
        args = factor.values(user)
        assert list(args) == list(factor.slots)
        assert tools.call(db, factor.tool, args).content == user.user_id
    wrong_pin = {"account_number": user.account_number, "pin": "x"}
    refused = tools.call(db, ACCOUNT_PIN.tool, wrong_pin)
    assert refused.error and "no user with this account number and PIN" in refused.content
    moved = msgspec.structs.replace(user, address=random_address(random.Random(1)))
    db.put("users", user.user_id, moved)
    assert tools.call(db, NAME_ZIP.tool, NAME_ZIP.values(moved)).content == user.user_id
    assert tools.call(db, NAME_ZIP.tool, NAME_ZIP.values(user)).error  # the old zip is gone
    assert tools.call(base.database(), NAME_ZIP.tool, NAME_ZIP.values(user)).content == user.user_id


def test_identity_draws_its_factor_and_gold_reads() -> None:
    user: Customer = next(iter(_bank().tables["users"].values()))
    factors = ((ACCOUNT_PIN, 0.5), (EMAIL, 0.5))
    drawn = [Identity.draw(user, random.Random(s), factors, "get_user_details") for s in range(40)]
    assert {i.factor.index for i in drawn} == {"account", "email"}
    by_account = next(i for i in drawn if i.factor is ACCOUNT_PIN)
    assert by_account.auth_slots == ["account_number", "pin"]
    assert list(by_account.known) == ["account_number", "pin", "first_name", "last_name", "zip"]
    assert [a.name for a in by_account.actions] == ["find_user_id_by_account", "get_user_details"]
    again = [Identity.draw(user, random.Random(s), factors, "x").factor for s in range(40)]
    assert again == [i.factor for i in drawn]


def test_a_domain_is_built_from_files_at_run_time(tmp_path: Path) -> None:
    toy = gym()
    (tmp_path / "policy.md").write_text("Serve the gym's members.\n", encoding="utf-8")
    dump_tasks(toy.tasks, tmp_path / "tasks.jsonl")
    domain = Domain.from_folder(
        tmp_path, name="gym", title="Gym", toolkit=toy.toolkit, build_base=toy.build_base
    )
    assert domain.policy == "Serve the gym's members.\n"
    assert domain.tasks == toy.tasks and domain.tasks_path == tmp_path / "tasks.jsonl"
    for task in domain.tasks:
        db = domain.new_database()
        for action in domain.write_actions(task):
            domain.toolkit.call(db, action.name, dict(action.arguments))
        assert score(domain, task, db, task.required_outputs)[0] == 1.0
    with pytest.raises(UsageError, match=r"^cannot read policy .*nowhere/policy.md: "):
        Domain.from_folder(
            tmp_path / "nowhere", name="x", title="", toolkit=toy.toolkit, build_base=toy.build_base
        )
    with pytest.raises(UsageError, match="domain 'gym' has no generation defaults"):
        domain.generate_tasks()
