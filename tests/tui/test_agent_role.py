"""The agent player's screen (``tau-sim human --role agent``) on the real app with a real
store: what an agent is given, whole and readable, and nothing of the user's condition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Markdown

from tau_sim.simulator.core.registry import get_domain
from tau_sim.tui.dialogue import RESULT_CHARS, Turn
from tests.tui.runs import until
from tests.tui.test_human import SIZE, TASK, my_turn, say_line, session

pytestmark = pytest.mark.anyio


async def test_the_agent_player_reads_whole_results_and_the_policy_not_the_condition(
    tmp_path: Path,
) -> None:
    task = next(t for t in get_domain("retail").tasks if t.id == TASK)
    app = session(tmp_path / "agent.db", role="agent", emotions="anger", intensities="0.9")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        looked = next(n for n, a in enumerate(task.actions) if a.name == "get_order_details")
        for action in task.actions[: looked + 1]:  # up to the first get_order_details
            screen = await my_turn(pilot)
            await say_line(pilot, screen, f"/{action.name} {json.dumps(action.arguments)}")
        await my_turn(pilot)
        results = [
            str(t.render()) for t in screen.dialogue.query(Turn) if "tool-result" in t.classes
        ]
        order = results[-1]
        assert len(order) > RESULT_CHARS and "…" not in order
        stored = json.loads(order.partition("\n")[2])  # pretty-printed JSON, whole
        assert stored["order_id"] == task.actions[looked].arguments["order_id"] and stored["items"]
        assert all(item["item_id"] in order for item in stored["items"])
        title = str(screen.title_line.render())
        assert TASK in title
        assert not any(word in title for word in ("emotion", "anger", "frustration", "0.90"))
        policy = screen.query_one("#human-policy", Markdown)
        await until(pilot, lambda: len(policy.children) > 1)  # rendered into blocks
        assert policy.source == app.source.runner.player.domains["retail"].policy
        assert policy.size.width >= 50  # half the screen, not a 46-column panel
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
