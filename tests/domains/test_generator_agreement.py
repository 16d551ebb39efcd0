"""What a task's opening, goal and gold say agree (issue 39 item 4): a wrong dish is never
opened as a missing one, a damage report is scored on a cause kind the user's words name (no
free text compared word for word) and the cause fits the damage; gold wins them through the
real scorer."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.registry import get_domain, load_plugins
from tests.agents.dialog import play
from tests.domains.test_policy_asks import triggers_of

pytestmark = pytest.mark.anyio

load_plugins()
FITS = {
    "chipped_windshield": {"road_hazard"},
    "interior_stain": {"spill"},
    "flat_tire": {"road_hazard"},
}


def test_a_wrong_dish_is_opened_as_wrong_and_a_missing_one_as_missing() -> None:
    tasks = [t for t in get_domain("food_delivery").tasks if t.intent == "search_item_refund"]
    for task in tasks:
        reason = task.actions[-1].arguments["reason"]
        said = f"{task.scenario.opening} {task.scenario.known_info['order']}"
        if reason == "wrong item":
            assert "missing" not in said and "wrong" in task.scenario.known_info["order"], task.id
        else:
            assert "missing" in said, task.id
    assert {t.actions[-1].arguments["reason"] for t in tasks} == {"wrong item", "missing item"}


def test_a_damage_report_is_scored_on_the_cause_kind_its_user_names() -> None:
    domain = get_domain("car_rental")
    reports = [(t, a) for t in domain.tasks for a in t.actions if a.name == "file_damage_report"]
    assert reports
    for task, action in reports:
        cause = task.scenario.known_info["cause"]
        kind = action.arguments["cause"]
        assert cause.endswith(f"({kind.replace('_', ' ')})"), task.id
        assert "notes" not in action.arguments
        assert kind in FITS.get(action.arguments["damage_type"], {kind}), (task.id, cause)


async def test_gold_files_the_cause_kind_and_wins() -> None:
    domain = get_domain("car_rental")
    task = next(t for t in domain.tasks if t.intent == "report_minor_damage")
    outcome = await play(domain, task, "scripted/gold", max_steps=60)
    assert "file_damage_report" in outcome.tool_calls
    assert outcome.reward == 1.0, outcome.breakdown


async def test_the_day_of_a_flight_change_is_answered_on_its_own() -> None:
    domain = get_domain("airline")
    tasks = [t for t in domain.tasks if t.intent == "search_change_flight"]
    assert tasks and all("new_date" in t.scenario.known_info for t in tasks)
    (first, *_) = await triggers_of("airline", tasks[0], ["Which day would you like to fly?"])
    assert "question:new_date" in first, first
