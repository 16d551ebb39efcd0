"""The agent player's tool form, completion and several calls a line (``tau-sim human --role
agent``), on the real app (Pilot) with real retail runs stored in real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Select

from tau_sim.simulator.core import ToolCall, ToolCallSpec, ToolResult, UserMessage
from tau_sim.simulator.core.registry import get_domain
from tau_sim.tui.completion import IdBook
from tau_sim.tui.human import HumanScreen
from tau_sim.tui.tool_form import ArgumentField, ToolForm
from tau_sim.tui.tool_lines import CallError, parse_call, parse_calls, read_value
from tests.tui.runs import until
from tests.tui.test_human import SIZE, TASK, my_turn, say_line, session, stored

pytestmark = pytest.mark.anyio
LOOKUP = "/find_user_id_by_name_zip first_name=Samuel last_name=Nguyen zip=77034"
"""The first call of retail-000's gold path, as typed."""


async def _form(pilot: Any, screen: HumanScreen, line: str) -> ToolForm:
    """Type ``line`` (a tool's name alone) and wait for its form."""
    screen.say.value = line
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, ToolForm))
    form: ToolForm = pilot.app.screen
    await until(pilot, lambda: bool(form.query(ArgumentField)) and pilot.app.focused is not None)
    return form


def _field(form: ToolForm, name: str) -> ArgumentField:
    return form.query_one(f"#arg-{name}", ArgumentField)


def _calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored tool calls and agent turns, every field but the time."""
    kinds = ("agent_message", "tool_call")
    return [{k: v for k, v in e.items() if k != "ts"} for e in events if e["kind"] in kinds]


async def test_the_form_is_built_from_the_schema_and_checks_it(tmp_path: Path) -> None:
    """Retail's ``cancel_pending_order``: an input and an enum choice, both required; calling
    it empty lists both as missing and sends nothing; airline's integer bags are checked."""
    app = session(tmp_path / "form.db", role="agent")
    schema = next(t for t in get_domain("retail").toolkit.specs if t.name == "cancel_pending_order")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        asked = screen.ask
        form = await _form(pilot, screen, "/cancel_pending_order")
        assert [f.argument for f in form.query(ArgumentField)] == ["order_id", "reason"]
        order, reason = _field(form, "order_id"), _field(form, "reason")
        assert isinstance(order.control, Input) and app.focused is order.control
        properties = schema.parameters["properties"]
        assert order.control.placeholder == properties["order_id"]["description"]
        assert isinstance(reason.control, Select)
        listed = reason.control.query_one(OptionList)  # what the choice opens to
        options = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert options[1:] == properties["reason"]["enum"]  # after the blank "choose reason"
        label = str(order.query_one(".argument-label").render())
        assert "order_id *" in label and "required" in label
        await pilot.press("enter")  # call with nothing filled in
        await until(pilot, lambda: "required" in str(form.errors.render()))
        shown = str(form.errors.render())
        assert "order_id: required" in shown and "reason: required" in shown
        assert order.control.has_class("-invalid")
        assert app.screen is form and screen.ask is asked  # nothing sent
        form.picker.value = "get_order_details"  # another tool: its fields instead
        await until(pilot, lambda: [f.argument for f in form.query(ArgumentField)] == ["order_id"])
        assert str(form.errors.render()) == ""
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HumanScreen))
        assert screen.ask is asked and screen.say.value == "/cancel_pending_order"

        airline = get_domain("airline").toolkit.specs
        bags = ToolForm(airline, screen.book, "update_reservation_baggages")
        app.push_screen(bags)
        await until(pilot, lambda: app.screen is bags and app.focused is not None)
        await pilot.press(*"ZK3F9Q", "tab", *"two", "enter")
        await until(pilot, lambda: "total_baggages" in str(bags.errors.render()))
        shown = str(bags.errors.render())
        assert "total_baggages: 'two' is not an integer" in shown
        assert "reservation_id" not in shown and "nonfree_baggages: required" in shown
        await pilot.press("escape")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)


async def test_a_submitted_form_stores_the_call_the_typed_line_stores(tmp_path: Path) -> None:
    typed = tmp_path / "typed.db"
    app = session(typed, role="agent")
    async with app.run_test(size=SIZE) as pilot:
        await say_line(pilot, await my_turn(pilot), LOOKUP)
        await my_turn(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)

    filled = tmp_path / "form.db"
    app = session(filled, role="agent")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        asked = screen.ask
        await pilot.press("ctrl+o")  # the form, the tool picked from the list by keys
        await until(pilot, lambda: isinstance(app.screen, ToolForm))
        form = app.screen
        assert isinstance(form, ToolForm) and app.focused is form.picker
        await pilot.press("enter", "down", "enter")  # the second tool
        await until(pilot, lambda: bool(form.query("#arg-first_name")))
        await pilot.press("tab", *"Samuel", "tab", *"Nguyen", "tab", *"77034", "enter")
        await until(pilot, lambda: app.screen is screen and screen.ask not in (None, asked))
        assert screen.say.value == ""
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)

    _, by_hand = stored(typed)
    _, by_form = stored(filled)
    assert _calls(by_form) == _calls(by_hand)
    (call,) = [e for e in by_form if e["kind"] == "tool_call"]
    assert call["call"] == {
        "id": "human-1",
        "name": "find_user_id_by_name_zip",
        "arguments": {"first_name": "Samuel", "last_name": "Nguyen", "zip": "77034"},
    }


async def test_ids_from_an_earlier_result_are_offered(tmp_path: Path) -> None:
    """After ``get_user_details``, the command line completes ``order_id=`` with one of the
    user's orders, and the form lists them and completes them as they are typed."""
    db = tmp_path / "ids.db"
    app = session(db, role="agent")
    async with app.run_test(size=SIZE) as pilot:
        await say_line(pilot, await my_turn(pilot), LOOKUP)
        await say_line(pilot, await my_turn(pilot), "/get_user_details user_id=samuel_nguyen_4142")
        screen = await my_turn(pilot)
        _, events = stored(db)
        details = [e for e in events if e["kind"] == "tool_result"][-1]
        orders = json.loads(details["content"])["orders"]
        assert len(orders) > 1

        line = "/get_order_details order_id="
        await pilot.press(*line)
        await until(pilot, lambda: len(screen.say._suggestion) > len(line))
        await pilot.press("right")  # accept
        assert screen.say.value.removeprefix(line) in orders

        screen.say.value = ""
        form = await _form(pilot, screen, "/get_order_details")
        order = _field(form, "order_id")
        seen = str(order.query_one(".seen").render())
        assert all(o in seen for o in orders[:3])
        second = orders[1]
        await pilot.press(*second[:4])
        control = order.control
        assert isinstance(control, Input)
        await until(pilot, lambda: len(control._suggestion) > 4)
        await pilot.press("right")
        assert control.value in orders and control.value.startswith(second[:4])
        await pilot.press("escape")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)


async def test_two_calls_on_one_line_are_one_turn(tmp_path: Path) -> None:
    """``;`` before the next ``/``: one agent message with both calls, both run in order, and
    the player's next turn comes once both results are in."""
    db = tmp_path / "two.db"
    app = session(db, role="agent")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        await say_line(pilot, screen, f"{LOOKUP} ; /get_order_details order_id=#W4803757")
        screen = await my_turn(pilot)
        assert screen.ask is not None
        history = screen.ask.history  # type: ignore[union-attr]
        assert [m.role for m in history[-3:]] == ["assistant", "tool", "tool"]
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
    _, events = stored(db)
    (turn,) = [e for e in events if e["kind"] == "agent_message"]
    assert [c["id"] for c in turn["tool_calls"]] == ["human-1.1", "human-1.2"]
    calls = [e["call"] for e in events if e["kind"] == "tool_call"]
    assert [c["name"] for c in calls] == ["find_user_id_by_name_zip", "get_order_details"]
    assert calls[1]["arguments"] == {"order_id": "#W4803757"}
    results = [e for e in events if e["kind"] == "tool_result"]
    assert [r["call_id"] for r in results] == ["human-1.1", "human-1.2"]
    assert results[0]["content"] == "samuel_nguyen_4142" and "#W4803757" in results[1]["content"]


def test_values_are_read_by_their_schema() -> None:
    tools = get_domain("retail").toolkit.specs
    airline = get_domain("airline").toolkit.specs
    bags = next(t for t in airline if t.name == "update_reservation_baggages")
    total = bags.parameters["properties"]["total_baggages"]
    assert read_value("3", total) == 3
    for text in ("3.5", "three", "true"):
        with pytest.raises(CallError, match="is not an integer"):
            read_value(text, total)
    assert read_value("412.5", {"type": "number"}) == 412.5
    items = {"type": "array", "items": {"type": "string"}}
    assert read_value("1, 2 ,3", items) == ["1", "2", "3"] == read_value('["1","2","3"]', items)
    with pytest.raises(CallError, match="reason 'bogus' is not one of: no longer needed"):
        parse_call("/cancel_pending_order order_id=#W1 reason=bogus", tools, "c")
    line = "/calculate expression=1; 2 ; /get_order_details order_id=#W1"
    first, second = parse_calls(line, tools, "c")
    assert first.arguments == {"expression": "1; 2"} and first.id == "c.1"
    assert second.name == "get_order_details" and second.id == "c.2"
    assert [c.id for c in parse_calls("/get_order_details order_id=#W1", tools, "c")] == ["c"]


def test_the_book_ranks_what_was_seen_by_the_parameter() -> None:
    """Real retail results, as the gold path of retail-000 shows them: each parameter gets the
    values seen under its own key first (a list's items, an ``id`` in ``payment_methods``, a
    tool's bare answer named by the tool); plain words of the dialogue are offered last."""
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if t.id == TASK)
    db = domain.new_database(task)
    book = IdBook()
    book.add_events([UserMessage(conversation="c", text="Hi, my order #W4803757 please.")])
    results: dict[str, Any] = {}
    for n, action in enumerate(task.actions[:3]):
        call = ToolCallSpec(f"c{n}", action.name, action.arguments)
        content = domain.call(db, action).content
        results[action.name] = json.loads(content) if content.startswith("{") else content
        book.add_events(
            [
                ToolCall(conversation="c", call=call),
                ToolResult(conversation="c", call_id=call.id, name=action.name, content=content),
            ]
        )
    user = results["get_user_details"]
    order = results["get_order_details"]
    specs = {t.name: t.parameters["properties"] for t in domain.toolkit.specs}
    exchange = specs["exchange_delivered_order_items"]

    def offered(tool: str, parameter: str, **kw: bool) -> list[str]:
        return book.candidates(parameter, specs[tool][parameter], **kw)

    assert offered("get_user_details", "user_id")[0] == user["user_id"]
    assert set(offered("get_order_details", "order_id")[:3]) == set(user["orders"])
    assert "#W4803757" in offered("get_order_details", "order_id", matching=True)
    methods = {m["id"] for m in user["payment_methods"]}
    assert set(offered("modify_pending_order_payment", "payment_method_id")[:2]) == methods
    items = {i["item_id"] for i in order["items"]}
    for parameter in ("item_ids", "new_item_ids"):
        assert set(book.candidates(parameter, exchange[parameter])[: len(items)]) == items
    names = offered("find_user_id_by_name_zip", "first_name")
    assert names[0] == user["name"]["first_name"] and "Hi" in names
    assert "Hi" not in offered("find_user_id_by_name_zip", "first_name", matching=True)
    assert offered("cancel_pending_order", "reason") == ["no longer needed", "ordered by mistake"]
