"""The telecom domain's rules, and dual control: the user's own phone tools, end to end.

Rules are checked with real tool calls on fresh databases (each refusal next to its allowed
counterpart). Dual control is checked through the real engine: the scripted user runs the
phone's tools when asked, the agent never sees that traffic, a run's stored events hold the
user's tool calls, the grader compares the phone's state and ``tau-sim rescore`` reproduces the
rewards.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.agents.scripted import make_scripted_agent
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.telecom import telecom as make_telecom
from tau_sim.domains.telecom.data import (
    BREAKS,
    NON_PAYMENT,
    SUSPENDED,
    Bill,
    Device,
    Line,
    Subscriber,
)
from tau_sim.domains.telecom.factory.troubleshoot import skip_one
from tau_sim.domains.telecom.faults import FAULTS, FINAL_CHECKS, faults_of
from tau_sim.domains.telecom.rules import CREDIT_CAP, DISPUTE_WINDOW_DAYS, ROAMING_DAY_FEE
from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import UserToolCall, UserToolResult
from tau_sim.simulator.core.registry import CalibrationAgentProvider
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import Store
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Action, Domain, Task
from tau_sim.simulator.world.tools import Toolkit
from tau_sim.simulator.world.usersteps import user_steps
from tau_sim.simulator.world.views import ConversationContext, agent_view, answer_key, user_view
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.llm import make_llm_user
from tau_sim.users.scripted import ScriptedUser
from tests.domains.calls import ok, refused
from tests.helpers.cli import TAU_SIM
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import oa_message
from tests.scoring import score


@pytest.fixture(scope="module")
def domain() -> Domain:
    return make_telecom()


def a_line(db: Database, accept: Any) -> Line:
    for _, line in db.items("lines"):
        if accept(line):
            return line  # type: ignore[no-any-return]
    raise AssertionError("no such line")


def a_task(domain: Domain, intent: str, summary: str = "") -> Task:
    return next(t for t in domain.tasks if t.intent == intent and summary in t.summary)


# ---- the rules the tools enforce ---------------------------------------------------------------


def test_plan_changes_only_on_an_active_line_and_to_another_plan(domain: Domain) -> None:
    db = domain.new_database()
    suspended = a_line(db, lambda ln: ln.status == SUSPENDED)
    refused(
        domain, db, "change_plan", "is suspended", line_id=suspended.line_id, plan_id="basic_2gb"
    )
    line = a_line(db, lambda ln: ln.status == "active" and ln.plan_id == "starter_5gb")
    refused(
        domain, db, "change_plan", "already on plan", line_id=line.line_id, plan_id="starter_5gb"
    )
    view = ok(domain, db, "change_plan", line_id=line.line_id, plan_id="world_unlimited")
    assert view["monthly_price"] == 90.0 and view["roaming_enabled"] is True


def test_data_addons_need_a_data_allowance_and_a_method_that_covers_them(domain: Domain) -> None:
    db = domain.new_database()
    unlimited = a_line(db, lambda ln: ln.status == "active" and ln.plan_id == "max_unlimited")
    user: Subscriber = db.get("users", unlimited.user_id)  # type: ignore[assignment]
    method = user.payment_methods[0].id
    refused(
        domain,
        db,
        "add_data_addon",
        "unlimited data",
        line_id=unlimited.line_id,
        addon_id="data_1gb",
        payment_method_id=method,
    )

    def poor_gift_card(ln: Line) -> bool:
        owner: Subscriber = db.get("users", ln.user_id)  # type: ignore[assignment]
        return (
            ln.status == "active"
            and ln.plan_id in ("basic_2gb", "starter_5gb")
            and any(
                m.source == "gift_card" and 10 <= (m.balance or 0) < 40
                for m in owner.payment_methods
            )
        )

    line = a_line(db, poor_gift_card)
    owner: Subscriber = db.get("users", line.user_id)  # type: ignore[assignment]
    card = next(m for m in owner.payment_methods if m.source == "gift_card")
    refused(
        domain,
        db,
        "add_data_addon",
        f"gift card {card.id} balance ${card.balance or 0:.2f} is below",
        line_id=line.line_id,
        addon_id="data_10gb",
        payment_method_id=card.id,
    )
    ok(
        domain,
        db,
        "add_data_addon",
        line_id=line.line_id,
        addon_id="data_1gb",
        payment_method_id=card.id,
    )
    after: Subscriber = db.get("users", line.user_id)  # type: ignore[assignment]
    assert after.payment_method(card.id).balance == (card.balance or 0) - 10.0  # type: ignore[union-attr]
    assert ok(domain, db, "get_line_details", line_id=line.line_id)["addons"] == ["data_1gb"]


def _bill(db: Database, period: str, accept: Any = lambda b: True) -> Bill:
    for _, bill in db.items("bills"):
        if bill.period == period and accept(bill):
            return bill  # type: ignore[no-any-return]
    raise AssertionError("no such bill")


def test_credits_respect_the_window_the_charge_and_once_per_charge(domain: Domain) -> None:
    db = domain.new_database()
    old = _bill(db, "2025-04")
    charge = old.charges[0]
    refused(
        domain,
        db,
        "apply_bill_credit",
        "can be disputed for 60 days",
        bill_id=old.bill_id,
        charge_id=charge.charge_id,
        amount=1.0,
        reason="billing_error",
    )
    bill = _bill(db, "2025-06")
    charge = bill.charges[0]
    args = {"bill_id": bill.bill_id, "charge_id": charge.charge_id, "reason": "billing_error"}
    refused(
        domain, db, "apply_bill_credit", "at most the charge", amount=charge.amount + 0.01, **args
    )
    refused(domain, db, "apply_bill_credit", "more than $0", amount=0.0, **args)
    view = ok(domain, db, "apply_bill_credit", amount=charge.amount, **args)
    assert view["balance"] == round(bill.balance - charge.amount, 2)
    refused(domain, db, "apply_bill_credit", "already been credited", amount=1.0, **args)


def test_bills_are_paid_once_and_lines_suspend_and_resume_by_status(domain: Domain) -> None:
    db = domain.new_database()
    paid = _bill(db, "2025-04")
    user: Subscriber = db.get("users", paid.user_id)  # type: ignore[assignment]
    refused(
        domain,
        db,
        "pay_bill",
        "nothing left to pay",
        bill_id=paid.bill_id,
        payment_method_id=user.payment_methods[0].id,
    )
    due = _bill(db, "2025-06", lambda b: b.user_id == user.user_id)
    method = next(
        m
        for m in user.payment_methods
        if m.source != "gift_card" or (m.balance or 0) >= due.balance
    )
    view = ok(domain, db, "pay_bill", bill_id=due.bill_id, payment_method_id=method.id)
    assert view["status"] == "paid" and view["balance"] == 0.0

    line = a_line(db, lambda ln: ln.status == "active")
    refused(domain, db, "resume_line", "not suspended", line_id=line.line_id)
    ok(domain, db, "suspend_line", line_id=line.line_id, reason="lost_device")
    refused(domain, db, "suspend_line", "is suspended", line_id=line.line_id, reason="lost_device")
    refused(domain, db, "enable_roaming", "is suspended", line_id=line.line_id)
    ok(domain, db, "resume_line", line_id=line.line_id)
    assert ok(domain, db, "get_line_details", line_id=line.line_id)["status"] == "active"


def test_roaming_is_enabled_once_and_disabled_only_when_on(domain: Domain) -> None:
    db = domain.new_database()
    line = a_line(db, lambda ln: ln.status == "active" and not ln.roaming_enabled)
    refused(domain, db, "disable_roaming", "not enabled", line_id=line.line_id)
    ok(domain, db, "enable_roaming", line_id=line.line_id)
    refused(domain, db, "enable_roaming", "already enabled", line_id=line.line_id)


def test_the_phone_answers_from_its_state_and_the_line(domain: Domain) -> None:
    db = domain.new_database()
    refused(domain, db, "check_status_bar", "no phone", phone_number="000-000-0000")
    line = a_line(
        db,
        lambda ln: ln.status == "active" and db.get("devices", ln.phone_number).airplane_mode,  # type: ignore[union-attr]
    )
    phone = line.phone_number
    assert "airplane icon" in ok(domain, db, "check_status_bar", phone_number=phone)
    assert "Airplane mode is now OFF" in ok(domain, db, "toggle_airplane_mode", phone_number=phone)
    device: Device = db.get("devices", phone)  # type: ignore[assignment]
    assert not device.airplane_mode
    cut = a_line(
        db,
        lambda ln: (
            ln.suspension_reason == NON_PAYMENT
            and not db.get("devices", ln.phone_number).airplane_mode  # type: ignore[union-attr]
        ),
    )
    assert "Emergency calls only" in ok(
        domain, db, "check_status_bar", phone_number=cut.phone_number
    )


# ---- dual control --------------------------------------------------------------------------------


def test_the_agent_never_gets_the_phone_tools(domain: Domain) -> None:
    assert domain.user_toolkit is not None
    user_tools = set(domain.user_toolkit.tools)
    assert {"toggle_airplane_mode", "reset_apn_settings", "restart_device"} <= user_tools
    assert not user_tools & set(domain.toolkit.tools)
    task = a_task(domain, "roaming_abroad")
    ctx = _context(domain, task)
    assert not {t.name for t in agent_view(ctx).tools} & user_tools
    assert {t.name for t in user_view(ctx).tools} == user_tools
    with pytest.raises(ValueError, match="share names"):
        Domain(
            name="clash",
            title="",
            policy="",
            toolkit=domain.toolkit,
            build_base=domain.build_base,
            user_toolkit=Toolkit([domain.toolkit.tools["calculate"]]),
        )


def test_fixing_the_account_but_not_the_phone_scores_zero(domain: Domain) -> None:
    task = a_task(domain, "roaming_abroad")
    said = ["Done. " + " and ".join(task.required_outputs)]
    both, account_only = domain.new_database(), domain.new_database()
    for action in task.actions:
        domain.call(both, action)
        if not domain.is_user_step(action):
            domain.call(account_only, action)
    assert score(domain, task, both, said)[0] == 1.0
    reward, breakdown = score(domain, task, account_only, said)
    assert reward == 0.0 and not breakdown.db_match
    fix = a_task(domain, "fix_mobile_data", "wrong APN")
    untouched = domain.new_database()
    assert score(domain, fix, untouched, ["Done."])[0] == 0.0
    no_restart = domain.new_database()
    for action in fix.actions:  # the APN reset, but no restart
        if action.name != "restart_device":
            domain.call(no_restart, action)
    assert "restart_device" in [a.name for a in fix.actions]
    assert score(domain, fix, no_restart, ["Done."])[0] == 0.0


def test_the_scripted_user_performs_a_requested_step_and_says_the_result(domain: Domain) -> None:
    task = a_task(domain, "fix_no_service", "airplane")
    phone = task.scenario.known_info["phone_number"]
    user = ScriptedUser(user_view(_context(domain, task)))

    async def play() -> None:
        transcript = [ChatMessage("user", (await user.respond([])).text)]
        transcript.append(
            ChatMessage("assistant", "Could you please toggle airplane mode on your phone?")
        )
        turn = await user.respond(transcript)
        assert [(c.name, c.arguments) for c in turn.tool_calls] == [
            ("toggle_airplane_mode", {"phone_number": phone})
        ]
        db = domain.new_database()
        outcome = domain.call(db, Action(turn.tool_calls[0].name, turn.tool_calls[0].arguments))
        transcript.append(ChatMessage("user", None, tool_calls=list(turn.tool_calls)))
        transcript.append(
            ChatMessage("tool", outcome.content, tool_call_id=turn.tool_calls[0].id, name="x")
        )
        reply = await user.respond(transcript)
        assert not reply.tool_calls and "Airplane mode is now OFF" in reply.text
        assert reply.state is not None and "user_step:toggle_airplane_mode" in reply.state.triggers
        # a question about the phone that names no step is not a step
        transcript += [ChatMessage("user", reply.text), ChatMessage("assistant", "Is it a Pixel?")]
        assert not (await user.respond(transcript)).tool_calls

    anyio.run(play)


def test_a_step_the_user_lacks_the_arguments_for_is_not_performed(domain: Domain) -> None:
    task = a_task(domain, "fix_no_service", "airplane")
    view = user_view(_context(domain, task))
    view = msgspec.structs.replace(view, slots=[s for s in view.slots if s.name != "phone_number"])
    user = ScriptedUser(view)

    async def play() -> None:
        opening = (await user.respond([])).text
        ask = ChatMessage("assistant", "Could you please toggle airplane mode on your phone?")
        turn = await user.respond([ChatMessage("user", opening), ask])
        assert not turn.tool_calls and turn.text

    anyio.run(play)


def _context(domain: Domain, task: Task, seed: int = 3) -> ConversationContext:
    return ConversationContext(
        conversation_id="c1",
        run_id="r1",
        task=task,
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0.0),
        trial=0,
        seed=seed,
    )


class Recording:
    """Wraps an agent and keeps every history it was handed."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seen: list[ChatMessage] = []

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        self.seen.extend(history)
        response: ChatResponse = await self.agent.respond(history)
        return response


class Events:
    def __init__(self) -> None:
        self.events: list[Any] = []

    def offer(self, event: Any) -> bool:
        self.events.append(event)
        return True

    async def deliver(self, event: Any) -> None:
        self.events.append(event)


def test_the_agents_view_never_holds_the_users_tool_calls(domain: Domain) -> None:
    task = a_task(domain, "roaming_abroad")
    ctx = _context(domain, task)
    provider = make_scripted_agent("gold", {})
    assert isinstance(provider, CalibrationAgentProvider)
    agent = Recording(provider.for_answer_key(agent_view(ctx), answer_key(domain, task)))
    user = ScriptedUser(user_view(ctx))
    sink = Events()

    async def play() -> Any:
        return await run_conversation(
            ctx, agent, "scripted/gold", user, "scripted", Bus([sink]), Limits()
        )

    ended = anyio.run(play)
    assert ended.reward == 1.0
    user_calls = [e for e in sink.events if isinstance(e, UserToolCall)]
    results = [e for e in sink.events if isinstance(e, UserToolResult)]
    assert [e.call.name for e in user_calls] == [
        a.name for a in task.actions if domain.is_user_step(a)
    ]
    assert len(results) == len(user_calls) and not any(r.error for r in results)
    assert [e.seq for e in sink.events] == list(range(len(sink.events)))
    assert domain.user_toolkit is not None
    phone_tools = set(domain.user_toolkit.tools)
    ids = {e.call.id for e in user_calls}
    for message in agent.seen:
        assert message.name not in phone_tools and message.tool_call_id not in ids
        assert not {c.name for c in message.tool_calls} & phone_tools


def test_stored_runs_hold_the_users_tool_calls_and_rescore_reproduces(
    domain: Domain, tmp_path: Path
) -> None:
    tasks = [t.id for t in domain.tasks if t.intent in ("roaming_abroad", "fix_mobile_data")][:6]
    path = tmp_path / "runs.db"
    config = RunConfig(
        domains=["telecom"], tasks=tasks, agents=["scripted/gold", "scripted/sloppy"], seed=4
    )
    anyio.run(Runner(Store(path), config, "t", create=True).run)
    conn = sqlite3.connect(path)
    kinds = dict(conn.execute("select kind, count(*) from events group by kind").fetchall())
    assert kinds["user_tool_call"] == kinds["user_tool_result"] > 0
    stored = dict(conn.execute("select id, reward from conversations").fetchall())
    run_id = conn.execute("select id from runs").fetchone()[0]
    conn.close()
    assert len(stored) == 2 * len(tasks) and 1.0 in stored.values()
    out = subprocess.run(
        [*TAU_SIM, "rescore", run_id, "--db", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    rescored = json.loads(out.stdout)
    assert rescored["rescored"] == len(stored) and rescored["changed"] == []
    assert rescored["skipped"] == []


def test_the_llm_user_gets_the_phone_tools_through_an_openai_endpoint(domain: Domain) -> None:
    task = a_task(domain, "fix_no_service", "airplane")
    phone = task.scenario.known_info["phone_number"]
    args = json.dumps({"phone_number": phone})
    reply = {"message": "Done, airplane mode is off now.", "intensity": 0.2, "dissatisfaction": 0.1}

    async def play() -> None:
        async with ScriptServer() as server:
            server.then(
                oa_message(None, tool_calls=[("toggle_airplane_mode", args)]),
                oa_message(json.dumps(reply)),
            )
            provider = make_llm_user("openai/user-model", {"base_url": server.url + "/v1"})
            async with provider:
                user = provider.for_conversation(user_view(_context(domain, task)))
                ask = ChatMessage("assistant", "Could you please turn airplane mode off?")
                transcript = [ChatMessage("user", task.scenario.opening), ask]
                turn = await user.respond(transcript)
                assert [(c.name, c.arguments) for c in turn.tool_calls] == [
                    ("toggle_airplane_mode", {"phone_number": phone})
                ]
                call_id = turn.tool_calls[0].id
                transcript += [
                    ChatMessage("user", None, tool_calls=list(turn.tool_calls)),
                    ChatMessage("tool", "Airplane mode is now OFF.", tool_call_id=call_id),
                ]
                final = await user.respond(transcript)
            assert final.text == reply["message"] and not final.tool_calls
            first, second = server.bodies()
            assert domain.user_toolkit is not None
            sent = {t["function"]["name"] for t in first["tools"]}
            assert sent == set(domain.user_toolkit.tools)
            roles = [m["role"] for m in second["messages"]]
            assert roles[-2:] == ["assistant", "tool"]
            assert second["messages"][-1]["content"] == "Airplane mode is now OFF."

    anyio.run(play)


def test_credit_cap_tasks_go_to_a_human_and_non_payment_tasks_refuse(domain: Domain) -> None:
    over_cap = [t for t in domain.tasks if t.intent == "dispute_over_cap"]
    unpaid = [t for t in domain.tasks if t.intent == "resume_without_payment"]
    assert over_cap and unpaid
    for task in over_cap:
        assert task.actions[-1].name == "transfer_to_human_agents", task.id
        bill_id = task.actions[-2].arguments["bill_id"]
        bill: Bill = domain.base.tables["bills"][bill_id]
        assert any(c.amount > CREDIT_CAP for c in bill.charges), task.id
    for task in unpaid:
        assert not domain.write_actions(task) and task.required_outputs, task.id


# ---- the phone's faults and the troubleshooting manual (issue 22, item 3) ---------------------

TROUBLESHOOT = (
    "troubleshoot_two_faults",
    "troubleshoot_three_faults",
    "troubleshoot_four_faults",
    "troubleshoot_later_symptom",
    "troubleshoot_and_refuse_credit",
    "troubleshoot_if_data_used_up",
)


def _phone_of(domain: Domain, task: Task) -> Device:
    device: Device = domain.base.tables["devices"][task.scenario.known_info["phone_number"]]
    return device


def test_a_real_dual_control_domain(domain: Domain) -> None:
    """>= 20 user tools, each asked for by its own words; >= 50 % dual tasks; 2, 3, 4 faults."""
    assert domain.user_toolkit is not None
    tools = domain.user_toolkit.tools
    assert len(tools) >= 20
    assert set(domain.user_tool_hints) == set(tools)
    reader = AgentTextReader([], (), user_steps(domain))
    for name, hint in domain.user_tool_hints.items():
        request = f"Could you please {hint.request} and tell me what you see?"
        assert reader.read(request).steps == [name], name
    for fault in FAULTS:  # every fault has a check the user reads and a fix the user makes
        assert tools[fault.check].kind.name == "READ" and tools[fault.fix].kind.name == "WRITE"
    dual = [t for t in domain.tasks if any(domain.is_user_step(a) for a in t.actions)]
    assert len(dual) >= 0.5 * len(domain.tasks)
    counts = {
        len(faults_of(_phone_of(domain, t))) for t in domain.tasks if t.intent in TROUBLESHOOT
    }
    assert {2, 3, 4} <= counts


def test_each_fault_has_its_check_and_fix_and_the_fix_brings_service_back(domain: Domain) -> None:
    db = domain.new_database()
    line = a_line(db, lambda ln: ln.status == "active" and ln.plan_id == "max_unlimited")
    phone = line.phone_number
    healthy = Device(phone, "Pixel 8")
    for fault in FAULTS:
        db.put("devices", phone, BREAKS[fault.name](healthy))
        assert [f.name for f in faults_of(db.get("devices", phone))] == [fault.name]  # type: ignore[arg-type]
        before = ok(domain, db, fault.check, phone_number=phone)
        ok(domain, db, fault.fix, phone_number=phone)
        assert ok(domain, db, fault.check, phone_number=phone) != before, fault.name
        if fault.restart:
            assert "No SIM" in ok(domain, db, "check_status_bar", phone_number=phone)
            ok(domain, db, "restart_device", phone_number=phone)
        assert not faults_of(db.get("devices", phone))  # type: ignore[arg-type]
        assert "5G data icon" in ok(domain, db, "check_status_bar", phone_number=phone)
        assert "85 Mbps" in ok(domain, db, "run_speed_test", phone_number=phone)
        assert "incoming calls reach" in ok(domain, db, "make_test_call", phone_number=phone)
        assert "arrives" in ok(domain, db, "send_test_picture_message", phone_number=phone)


def test_a_troubleshooting_path_that_skips_one_fault_scores_zero(domain: Domain) -> None:
    tasks = [t for t in domain.tasks if t.intent in TROUBLESHOOT]
    assert tasks
    for task in tasks:
        faults = faults_of(_phone_of(domain, task))
        assert 2 <= len(faults) <= 4, task.id
        said = ["Done. " + " ".join(task.required_outputs)]
        gold = domain.new_database()
        for action in task.actions:
            assert not domain.call(gold, action).error, (task.id, action)
        assert score(domain, task, gold, said)[0] == 1.0, task.id
        assert not faults_of(gold.get("devices", _phone_of(domain, task).phone_number))  # type: ignore[arg-type]
        finals = [a.name for a in task.actions if a.name in FINAL_CHECKS.values()]
        assert finals, task.id  # the re-check that shows service closes the path
        skipped = skip_one(domain, task)
        assert len(skipped) == len(faults), task.id
        for path in skipped:
            db = domain.new_database()
            for action in path:
                domain.call(db, action)
            assert score(domain, task, db, said)[0] == 0.0, task.id


def test_the_manual_numbers_its_steps_and_the_policy_marks_its_refusals(domain: Domain) -> None:
    manual = domain.policy.split("troubleshooting manual")[1]
    numbers = [int(line.split(".")[0]) for line in manual.splitlines() if line[:1].isdigit()]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 8
    assert set(domain.policy_rules) == {
        "non-payment-no-resume",
        "credit-cap-transfer",
        "plan-charge-not-disputable",
        "no-credit-for-phone-settings",
    }


def test_mixed_refusals_leave_forbidden_writes_the_tools_allow(domain: Domain) -> None:
    for intent in ("troubleshoot_and_refuse_credit", "dispute_with_plan_charge"):
        task = a_task(domain, intent)
        (violation,) = domain.violations(task)
        db = domain.new_database()
        for action in task.actions:
            domain.call(db, action)
        ok(domain, db, violation.name, **violation.arguments)
        reward, _ = score(domain, task, db, ["Done. " + " ".join(task.required_outputs)])
        assert reward == 0.0


def test_the_policy_states_the_figures_the_tools_and_tasks_use(domain: Domain) -> None:
    for figure in (
        f"issued at most {DISPUTE_WINDOW_DAYS} days ago",
        f"the charge is {money_text(CREDIT_CAP)} or less",
        f"roaming costs {money_text(ROAMING_DAY_FEE)} per day",
    ):
        assert figure in domain.policy, figure
