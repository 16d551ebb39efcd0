"""``tau-sim human`` on the real app (Pilot), with real SQLite files: a person's keys become the
stored events, endings and rewards of an ordinary run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from rich.text import Text
from textual import events

from tau_sim.simulator.cli import config_from_settings
from tau_sim.simulator.core.events import Event, decode_stored, kind_of
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.grid import decode_config
from tau_sim.simulator.run import Player
from tau_sim.simulator.store import Store, open_database
from tau_sim.tui.human import HumanApp, HumanScreen
from tau_sim.tui.human_widgets import ReasonScreen
from tau_sim.tui.session import human_settings, make_app
from tau_sim.tui.tool_lines import CallError, parse_call, tools_text
from tests.helpers.cli import TAU_SIM
from tests.tui.runs import until

pytestmark = pytest.mark.anyio
SIZE = (120, 40)
TASK = "retail-000"


def session(
    db: Path, role: str = "user", task: str = TASK, domain: str = "retail", **kw: Any
) -> HumanApp:
    settings = human_settings(
        role,
        agent=kw.get("agent"),
        user=None,
        domain=domain,
        task=task,
        tasks=kw.get("tasks", 1),
        seed=0,
    )
    settings["emotions"] = kw.get("emotions", "anger")
    settings["intensities"] = kw.get("intensities", "0.5")
    config = config_from_settings(settings, None, {}, {})
    player = Player(config, "human-run")
    player.prepare()
    return make_app(Store(db), config, "human-run", player)


async def my_turn(pilot: Any) -> HumanScreen:
    screen: HumanScreen = pilot.app.screen_of
    await until(pilot, lambda: screen.ask is not None)
    return screen


async def say(pilot: Any, text: str) -> None:
    screen = await my_turn(pilot)
    asked = screen.ask
    await pilot.press(*text)
    await pilot.press("enter")
    await until(pilot, lambda: screen.ask is not asked)


async def say_line(pilot: Any, screen: HumanScreen, line: str) -> None:
    asked = screen.ask
    screen.say.value = line
    await pilot.press("enter")
    await until(pilot, lambda: screen.ask is not asked)


def stored(db: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = open_database(db, readonly=True)
    row = next(data.query("select * from conversations"))
    rows = data.execute("select conversation, seq, kind, ts, payload from events order by seq")
    events = [every_field(decode_stored(*r)) for r in rows]
    return row, events


def every_field(event: Event) -> dict[str, Any]:
    """An event as a dict with its kind and every field, defaults included."""
    fields = {f: msgspec.to_builtins(getattr(event, f)) for f in type(event).__struct_fields__}
    return {"kind": kind_of(event), **fields}


async def test_typing_raising_and_abandoning_are_stored(tmp_path: Path) -> None:
    db = tmp_path / "human.db"
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hi, my order")
        await my_turn(pilot)
        await pilot.press("ctrl+up", "ctrl+up")
        await say(pilot, "hurry up")
        await my_turn(pilot)
        await pilot.press("ctrl+b")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # the second reason
        await until(pilot, lambda: app.done)
    row, events = stored(db)
    assert row["user"] == "human" and row["reason"] == "user_abandoned"
    assert row["failure_detail"].startswith("the agent ignored how I feel")
    texts = [e["text"] for e in events if e["kind"] == "user_message"]
    assert texts == ["hi, my order", "hurry up", "I am giving up on this. ###UNSATISFIED###"]
    reasons = [e["reason"] for e in events if e["kind"] == "emotion_update"]
    assert reasons[-1] == "the agent ignored how I feel"
    acted = [e["intensity"] for e in events if e["kind"] == "emotion_update"]
    assert acted == [0.5, 0.7, 0.7]
    assert [e["dissatisfaction"] for e in events if e["kind"] == "emotion_update"][-1] == 1.0


async def test_an_abandon_reason_is_written_and_never_said_to_the_agent(tmp_path: Path) -> None:
    """The reason (here written, not picked) is the ending's; what the user says last is the
    typed line, which the agent may read; the outcome on screen names the reason."""
    db = tmp_path / "own.db"
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hi, my order")
        screen = await my_turn(pilot)
        screen.say.value = "Forget it."
        await pilot.press("ctrl+b")
        await until(pilot, lambda: isinstance(app.screen, ReasonScreen))
        await pilot.press("tab")
        await until(pilot, lambda: app.focused is not None and app.focused.id == "own-reason")
        await pilot.press(*"you never listened", "enter")
        await until(pilot, lambda: app.done)
        await until(pilot, lambda: "you never listened" in str(screen.outcome.render()))
    row, events = stored(db)
    assert row["reason"] == "user_abandoned"
    assert row["failure_detail"] == "you never listened: the user said 'Forget it.'"
    said = [e["text"] for e in events if e["kind"] == "user_message"]
    assert said[-1] == "Forget it. ###UNSATISFIED###"
    assert not any("never listened" in text for text in said)
    assert [e["reason"] for e in events if e["kind"] == "emotion_update"][-1] == (
        "you never listened"
    )


async def test_stopping_ends_satisfied_and_is_scored(tmp_path: Path) -> None:
    db = tmp_path / "human.db"
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hello")
        await my_turn(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.done)
    row, events = stored(db)
    assert row["reason"] == "user_stop" and row["status"] == "completed"
    assert row["reward"] == 0.0  # nothing was done: scored, and failed
    assert [e for e in events if e["kind"] == "user_message"][-1]["ends"] == "###STOP###"
    ended = next(e for e in events if e["kind"] == "conversation_ended")
    assert ended["breakdown"] is not None


async def test_human_agent_on_the_gold_path_scores_one(tmp_path: Path) -> None:
    db = tmp_path / "agent.db"
    task = next(t for t in get_domain("retail").tasks if t.id == TASK)
    app = session(db, role="agent")
    async with app.run_test(size=SIZE) as pilot:
        for action in task.actions:
            screen = await my_turn(pilot)
            await say_line(pilot, screen, f"/{action.name} {json.dumps(action.arguments)}")
        screen = await my_turn(pilot)
        outputs = " ".join(task.required_outputs)
        screen.say.value = f"Done. {outputs} Is there anything else I can help you with?"
        await pilot.press("enter")
        await until(pilot, lambda: app.done, within=20)
    row, _ = stored(db)
    assert row["agent"] == "human" and row["user"] == "scripted"
    assert row["reason"] == "user_stop"
    assert row["reward"] == 1.0


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for extra in (["--task", "retail-999"], ["--role", "bogus"]):
        done = subprocess.run(
            [*TAU_SIM, "human", "--db", str(tmp_path / "x.db"), *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert ("retail-999" in done.stderr) or ("bogus" in done.stderr)
    assert not (tmp_path / "x.db").exists()


async def test_a_ctrl_b_inside_pasted_text_never_abandons_without_asking(tmp_path: Path) -> None:
    """Pasted text (a ``Paste`` event) loses its ctrl+b; the same bytes arriving as keys (a
    terminal that does not mark pastes) open the confirmation, whose Enter picks nothing."""
    db = tmp_path / "paste.db"
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        asked = screen.ask
        screen.say.post_message(events.Paste("my order\x02 is late\nsecond line"))
        await until(pilot, lambda: screen.say.value == "my order is late")
        assert app.screen is screen
        screen.say.value = ""
        await pilot.press("h", "i", "ctrl+b", "space", "t", "h", "e", "r", "e", "enter")
        await until(pilot, lambda: isinstance(app.screen, ReasonScreen))
        await pilot.pause()
        assert isinstance(app.screen, ReasonScreen) and not app.done and screen.ask is asked
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        await say_line(pilot, screen, "my order is late")
        await my_turn(pilot)
        await pilot.press("ctrl+b")
        await until(pilot, lambda: isinstance(app.screen, ReasonScreen))
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.done)
    row, events_ = stored(db)
    said = [e["text"] for e in events_ if e["kind"] == "user_message"]
    assert said == ["my order is late", "I am giving up on this. ###UNSATISFIED###"]
    assert row["reason"] == "user_abandoned"


async def test_compare_users_pairs_a_human_run_with_a_scripted_run(tmp_path: Path) -> None:
    db = tmp_path / "both.db"
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hi, my order")
        await my_turn(pilot)
        await pilot.press("ctrl+up")
        await say(pilot, "come on")
        await my_turn(pilot)
        await pilot.press("ctrl+b")
        await pilot.pause()
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.done)
    cli = TAU_SIM
    same = ["--tasks", TASK, "--agent", "scripted/gold", "--emotions", "anger"]
    run = [*cli, "run", "--db", str(db), *same, "--intensities", "0.5", "--quiet", "--json"]
    assert (await anyio.run_process(run, check=False)).returncode == 0
    report = [*cli, "report", "--compare-users", "--db", str(db)]
    done = await anyio.run_process([*report, "--json"], check=False)
    assert done.returncode == 0, done.stderr
    (entry,) = json.loads(done.stdout)["users"]
    assert entry["user"] == "scripted" and entry["cells"] == 1
    assert entry["human"]["n"] == 1 and entry["human"]["abandonment_rate"] == 1.0
    assert entry["simulated"]["n"] == 1
    data = open_database(db, readonly=True)
    paths: dict[str, list[float]] = {}
    for row in data.query(
        "select c.user, e.payload from events e join conversations c on c.id = e.conversation "
        "where e.kind = 'emotion_update' order by e.rowid"
    ):
        paths.setdefault(row["user"], []).append(json.loads(row["payload"])["intensity"])
    diffs = [abs(a - b) for a, b in zip(paths["scripted"], paths["human"], strict=False)]
    assert entry["intensity_distance"] == sum(diffs) / len(diffs)
    assert [t["mean_abs_difference"] for t in entry["by_turn"]] == diffs
    text = (await anyio.run_process(report)).stdout.decode()
    assert "Human-played vs simulated" in text and "by turn" in text


async def test_the_person_uses_the_phone_from_the_screen(tmp_path: Path) -> None:
    db = tmp_path / "telecom.db"
    app = session(db, task="telecom-002", domain="telecom")
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "my phone has no data abroad")
        screen = await my_turn(pilot)
        await say_line(pilot, screen, "/check_status_bar phone_number=118-720-7473")
        await my_turn(pilot)
        shown = [str(turn.render()) for turn in screen.dialogue.query("Turn")]
        assert any("check_status_bar" in text for text in shown)
        await pilot.press("ctrl+b")
        await pilot.pause()
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.done)
    row, events = stored(db)
    calls = [e for e in events if e["kind"] == "user_tool_call"]
    results = [e for e in events if e["kind"] == "user_tool_result"]
    assert [c["call"]["name"] for c in calls] == ["check_status_bar"]
    assert calls[0]["call"]["arguments"] == {"phone_number": "118-720-7473"}
    assert len(results) == 1 and not results[0]["error"]
    assert row["reason"] == "user_abandoned"
    assert row["failure_detail"].startswith("the agent did not solve my problem")


async def test_a_session_stopped_early_resumes(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    app = session(db, task="retail-000,retail-001")
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hello")
        await my_turn(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen_of.started == 2 and app.screen_of.ask is not None)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
    data = open_database(db, readonly=True)
    assert next(data.query("select status from runs"))["status"] == "interrupted"
    assert [
        r["task_id"]
        for r in data.query("select task_id from conversations where status = 'completed'")
    ] == [TASK]
    data.conn.close()
    store = Store(db, create=False)
    config = decode_config(next(store.db.query("select config from runs"))["config"])
    again = make_app(store, config, "human-run", resume=True)
    async with again.run_test(size=SIZE) as pilot:
        await say(pilot, "hello again")
        await my_turn(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: again.done)
    data = open_database(db, readonly=True)
    assert next(data.query("select status from runs"))["status"] == "completed"
    rows = list(data.query("select task_id, reason from conversations order by cell"))
    assert [(r["task_id"], r["reason"]) for r in rows] == [
        (TASK, "user_stop"),
        ("retail-001", "user_stop"),
    ]


def test_tool_command_lines_follow_the_schemas() -> None:
    tools = get_domain("retail").toolkit.specs
    call = parse_call("/cancel_pending_order order_id=#W1 reason=ordered by mistake", tools, "c1")
    assert call.arguments == {"order_id": "#W1", "reason": "ordered by mistake"}
    line = '/modify_pending_order_items item_ids=["1", "2"] order_id=#W2 new_item_ids=["3", "4"]'
    call = parse_call(f"{line} payment_method_id=gift_card_1", tools, "c2")
    assert call.arguments == {
        "item_ids": ["1", "2"],
        "order_id": "#W2",
        "new_item_ids": ["3", "4"],
        "payment_method_id": "gift_card_1",
    }
    call = parse_call('/get_order_details {"order_id": "#W3"}', tools, "c3")
    assert call.arguments == {"order_id": "#W3"} and call.id == "c3"
    for line, words in (
        ("/nope x=1", "no tool 'nope'"),
        ("/get_order_details order=#W1", "no argument 'order'"),
        ("/get_order_details #W1", "write key=value"),
        ("/get_order_details {bad", "not a JSON object"),
        ("/get_order_details", "missing order_id; usage: /get_order_details order_id=string"),
        ("/get_order_details {}", "missing order_id"),
    ):
        with pytest.raises(CallError, match=words):
            parse_call(line, tools, "c")
    text = tools_text(tools).plain
    assert (
        "/cancel_pending_order order_id=string reason=no longer needed|ordered by mistake" in text
    )


async def test_the_brief_of_a_refusal_task_shows_how_to_push_back(tmp_path: Path) -> None:
    app = session(
        tmp_path / "human.db",
        task="airline-006",
        domain="airline",
        intensities="0.9",
        emotions="frustration",
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        brief = screen.brief.content
        assert isinstance(brief, Text)
        told = brief.plain
        assert "If the agent refuses" in told and "insist 5 times" in told
        assert "claim that an exception should be made" in told and "ask for a supervisor" in told
        assert "my reservation" in told and "cancelled with my money back" in told


async def test_a_neutral_player_is_told_not_to_insist(
    tmp_path: Path,
) -> None:
    app = session(tmp_path / "human.db", task="airline-006", domain="airline", emotions="neutral")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        brief = screen.brief.content
        assert isinstance(brief, Text)
        assert "explains why it cannot be done, do not insist" in brief.plain


async def test_the_brief_shows_the_later_need_and_names_facts_as_an_agent_asks(
    tmp_path: Path,
) -> None:
    """A person can win a task whose need comes later, and reads no raw slot names."""
    app = session(tmp_path / "human.db", task="retail-016", domain="retail", emotions="neutral")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        brief = screen.brief.content
        assert isinstance(brief, Text)
        told = brief.plain
        assert "Later in the conversation" in told
        assert "update the default address on my account" in told
        assert "the reason for cancelling:" in told and "the new address:" in told
        for raw in ("cancel_reason", "cancel reason:", "return order:", "new_address"):
            assert raw not in told
