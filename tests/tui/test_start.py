"""``tau-sim human``'s start screen on the real app (Pilot), with real SQLite files: the keys
choose the domain, role and task, and the session is the one the flags of that choice start;
the agent player's preview holds none of the user's facts."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Select

from tau_sim.simulator.cli.parser import build_parser
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.grid import decode_config
from tau_sim.simulator.run import Player
from tau_sim.simulator.store import Store, open_database
from tau_sim.simulator.world import Task
from tau_sim.tui.launch import crash_line
from tau_sim.tui.session import make_app, session_config
from tau_sim.tui.start import Choice, StartApp, StartScreen, opens_start_screen, start_app
from tests.helpers.cli import TAU_SIM
from tests.tui.runs import until
from tests.tui.test_human import SIZE, my_turn

pytestmark = pytest.mark.anyio
OURS = (
    "airline",
    "banking",
    "car_rental",
    "food_delivery",
    "hotel",
    "insurance",
    "retail",
    "telecom",
    "telehealth",
    "utilities",
)
WAIT = 30.0
"""Seconds a state may take to come on a loaded machine."""


def human_args(*argv: str) -> argparse.Namespace:
    """``tau-sim human ARGV`` as the real parser reads it."""
    return build_parser().parse_args(["human", *argv])


def checked(args: argparse.Namespace) -> StartApp:
    """The start app of ``args``, whose choices are checked as ``tau-sim human`` checks them."""
    return start_app(args, lambda choice: session_config(choice.applied(args)))


def screen_of(app: StartApp) -> StartScreen:
    return app.start_screen


async def pick(pilot: Any, field: str, keys: tuple[str, ...], value: str) -> None:
    """Tab to the ``field`` select, open it, press ``keys`` and enter: it holds ``value``."""
    select = pilot.app.screen.query_one(f"#{field}", Select)
    while pilot.app.focused is not select:
        await pilot.press("tab")
    await pilot.press("enter")
    await until(pilot, lambda: select.expanded, WAIT)
    await pilot.press(*keys, "enter")
    await until(pilot, lambda: select.value == value and not select.expanded, WAIT)


async def to_table(pilot: Any) -> None:
    """Tab to the task table."""
    table = pilot.app.screen.query_one("#start-tasks", DataTable)
    while pilot.app.focused is not table:
        await pilot.press("tab")


def row_text(table: DataTable[str], key: str) -> str:
    return " ".join(str(cell) for cell in table.get_row(key))


def hidden_facts(task: Task) -> list[str]:
    """What the user holds (and the evaluator's answer key) beyond what its opening says.

    The opening is the one thing an agent is told before it asks (the facts it volunteers).
    """
    scenario = task.scenario
    facts = [*scenario.known_info.values(), scenario.demand, scenario.later, task.summary]
    facts += [scenario.goal.split(". ")[0], task.intent]
    facts += [str(v) for action in task.actions for v in action.arguments.values()]
    opening = scenario.opening.lower()
    return [f for f in facts if len(f) >= 3 and f.lower() not in opening]


def leaked(text: str, task: Task) -> list[str]:
    return [f for f in hidden_facts(task) if f.lower() in text.lower()]


async def test_keys_choose_domain_role_and_task_and_the_session_is_that_of_the_flags(
    tmp_path: Path,
) -> None:
    args = human_args("--db", str(tmp_path / "chosen.db"))
    assert opens_start_screen(args)
    app = checked(args)
    async with app.run_test(size=SIZE) as pilot:
        await pick(pilot, "domain", tuple("airline"), "airline")
        await pick(pilot, "role", ("down",), "agent")
        await pick(pilot, "tier", ("down", "down"), "hard")
        await to_table(pilot)
        await pilot.press("down")
        await until(pilot, lambda: screen_of(app).tasks.cursor_row == 1, WAIT)
        await pilot.press("enter")
        await until(pilot, lambda: app.return_value is not None, WAIT)
    choice = app.return_value
    assert isinstance(choice, Choice)
    assert not (tmp_path / "chosen.db").exists()  # nothing is stored before the choice
    hard = [t.id for t in get_domain("airline").tasks if t.tier == "hard"]
    assert (choice.domain, choice.role, choice.task) == ("airline", "agent", hard[1])

    chosen = choice.applied(args)
    flags = human_args("--domain", "airline", "--role", "agent", "--task", hard[1])
    assert not opens_start_screen(flags)
    config = session_config(chosen)
    assert config == session_config(flags)
    db = tmp_path / "chosen.db"
    player = Player(config, "human-run")
    player.prepare()
    session = make_app(Store(db), config, "human-run", player)
    async with session.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        assert screen.role == "agent"
        await pilot.press("ctrl+q")
        await until(pilot, lambda: session.done, WAIT)
    data = open_database(db, readonly=True)
    stored = decode_config(next(data.query("select config from runs"))["config"])
    assert stored.domains == ["airline"] and stored.tasks == [hard[1]]
    assert stored.agents == ["human"] and stored.users == ["scripted"]


async def test_the_user_role_chooses_the_condition(tmp_path: Path) -> None:
    args = human_args("--domain", "retail", "--db", str(tmp_path / "x.db"))
    app = checked(args)
    async with app.run_test(size=SIZE) as pilot:
        domain = app.screen.query_one("#domain", Select)
        assert domain.disabled and domain.value == "retail"
        await pick(pilot, "emotion", tuple("anxiety"), "anxiety")
        await pick(pilot, "intensity", ("up", "up"), "low")
        await to_table(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: app.return_value is not None, WAIT)
    choice = app.return_value
    assert choice == Choice("retail", "user", "retail-000", "anxiety", "low")
    config = session_config(choice.applied(args))
    flags = human_args(
        "--domain",
        "retail",
        "--task",
        "retail-000",
        "--emotions",
        "anxiety",
        "--intensities",
        "low",
    )
    assert config == session_config(flags)
    assert config.emotions == ["anxiety"] and config.users == ["human"]


async def shown_domain(pilot: Any, screen: StartScreen, name: str) -> list[Task]:
    """Choose domain ``name`` and wait until the table holds its tasks."""
    screen.query_one("#domain", Select).value = name
    tasks = get_domain(name).tasks
    table = screen.query_one("#start-tasks", DataTable)
    await until(pilot, lambda: screen.value("domain") == name and table.row_count == len(tasks))
    await pilot.pause()
    return tasks


async def highlight(pilot: Any, screen: StartScreen, row: int, task: Task) -> str:
    """Move the cursor to ``row`` (``task``) and wait until the detail shows it."""
    screen.tasks.move_cursor(row=row)
    await until(pilot, lambda: getattr(screen.highlighted_task, "id", None) == task.id, WAIT)
    await pilot.pause()
    return " ".join(str(screen.detail.render()).split())


async def test_the_agent_preview_holds_none_of_the_users_facts() -> None:
    app = checked(human_args("--role", "agent"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        assert screen.role == "agent"
        for name in OURS:
            for task in await shown_domain(pilot, screen, name):
                text = row_text(screen.tasks, task.id)
                assert task.id in text and task.tier in text
                assert not leaked(text, task), (task.id, leaked(text, task))
        tasks = await shown_domain(pilot, screen, "retail")
        for row, task in enumerate(tasks[:30]):
            shown = await highlight(pilot, screen, row, task)
            assert not leaked(shown, task), (task.id, leaked(shown, task))
            assert " ".join(task.scenario.opening.split()) in shown


async def test_the_user_preview_shows_the_scenario() -> None:
    app = checked(human_args("--domain", "airline"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        tasks = await shown_domain(pilot, screen, "airline")
        text = row_text(screen.tasks, tasks[0].id)
        assert tasks[0].intent in text and tasks[0].scenario.goal.split(". ")[0] in text
        shown = await highlight(pilot, screen, 12, tasks[12])
        assert " ".join(tasks[12].scenario.goal.split()) in shown


async def test_a_choice_the_command_refuses_is_said_on_the_screen(tmp_path: Path) -> None:
    app = checked(human_args("--user", "human", "--db", str(tmp_path / "x.db")))
    async with app.run_test(size=SIZE) as pilot:
        await pick(pilot, "role", ("down",), "agent")
        await to_table(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: any("--user" in n.message for n in app._notifications), WAIT)
        assert app.is_running and app.return_value is None
        await pilot.press("ctrl+q")
    assert app.return_value is None


async def test_the_highlighted_task_stays_when_the_role_and_width_change() -> None:
    app = checked(human_args("--domain", "retail"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        tasks = await shown_domain(pilot, screen, "retail")
        await highlight(pilot, screen, 14, tasks[14])
        narrow = screen.tasks.columns[screen.tasks.ordered_columns[-1].key].width
        await pick(pilot, "role", ("down",), "agent")
        assert getattr(screen.highlighted_task, "id", None) == tasks[14].id
        await pilot.resize_terminal(160, 40)
        await until(pilot, lambda: screen.tasks.ordered_columns[-1].width > narrow + 30, WAIT)
        assert getattr(screen.highlighted_task, "id", None) == tasks[14].id


class Boom(RuntimeError):
    """The error the test makes the start screen raise."""


def test_a_crash_of_the_start_screen_is_kept_and_exits_1() -> None:
    app = checked(human_args())

    def broken() -> None:
        raise Boom("the table [red]broke[/red]")

    app.start_screen.refill = broken  # type: ignore[method-assign]
    assert app.run(headless=True, size=SIZE) is None
    assert isinstance(app.crash, Boom) and app.return_code == 1
    line = crash_line(app.crash, None)
    assert "\n" not in line and "[red]broke[/red]" in line


async def test_quitting_the_start_screen_chooses_nothing() -> None:
    app = checked(human_args())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+q")
    assert app.return_value is None and app.crash is None


@pytest.mark.parametrize(
    ("argv", "opens"),
    [
        ((), True),
        (("--domain", "airline", "--role", "agent"), True),
        (("--emotions", "fear"), True),
        (("--task", "retail-000"), False),
        (("--task", "random"), False),
        (("--tasks", "3"), False),
        (("--resume", "run-1"), False),
    ],
)
def test_flags_skip_the_start_screen(argv: tuple[str, ...], opens: bool) -> None:
    assert opens_start_screen(human_args(*argv)) is opens


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (("--domain", "nowhere"), "nowhere"),
        (("--role", "bogus"), "bogus"),
        (("--emotions", "glee-ish"), "glee-ish"),
        (("--intensities", "loud"), "loud"),
        (("--tasks", "0"), "--tasks"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2_before_any_screen(
    tmp_path: Path, argv: tuple[str, ...], named: str
) -> None:
    done = subprocess.run(
        [*TAU_SIM, "human", "--db", str(tmp_path / "x.db"), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert named in done.stderr
    assert not (tmp_path / "x.db").exists()
