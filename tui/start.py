"""``tau-sim human``'s start screen: choose the domain, the role and the task on the screen.

Without ``--task`` (or ``--tasks``) ``tau-sim human`` opens ``StartApp`` first: a ``Select`` for
each of the domain (every installed one, τ²-bench's when its package is there), the role, the
tier shown and, for the user role, the emotion and its intensity, above a ``DataTable`` of the
domain's tasks. The flags given fix their fields (a ``Select`` of one option, disabled). Enter
on a task checks the choice as the flags would be checked (an error is shown on the screen)
and ends the app with a ``Choice``, which the command turns into the flags it stands for
(``Choice.applied``): the session is then started, stored and resumed exactly as those flags
would start it. Nothing is stored before a task is chosen.

What a row shows depends on the role. The user player may preview the scenario: the intent and
the goal. The agent player sees only what an agent knows when the conversation opens: the
task's id, its tier and the customer's opening line (which states only the facts the user
volunteers, ``UserScenario.volunteered``); never the intent (its name can say the answer:
``basic_economy_cancel_refused``), the goal, the held facts or the gold path.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Footer, Label, Select, Static

from tau_sim.simulator.cli import installed_domains
from tau_sim.simulator.core import DOMAINS, INTENSITY_LEVELS, NEUTRAL, UsageError
from tau_sim.simulator.world import Domain, Task
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.screens import SizedScreen
from tau_sim.tui.session_defaults import (
    DEFAULT_AGENT,
    DEFAULT_EMOTION,
    DEFAULT_INTENSITY,
    DEFAULT_USER,
)
from tau_sim.users.emotions import FAMILIES, LEAVES

ROLES = ("user", "agent")
"""The roles a person plays (the user: the customer; the agent: who serves them)."""
ALL_TIERS = "all"
KEYS = Text.assemble(
    ("up/down", "bold"),
    " a task, ",
    ("enter", "bold"),
    " starts it; ",
    ("tab/shift+tab", "bold"),
    " the fields (enter opens one, type to search)",
)
"""The start screen's keys, said once above the table."""
PREVIEW_CHARS = 200
"""The most characters of a row's preview (the table crops it to the screen's width)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """What the start screen chose: a domain, a role, a task and the user's condition."""

    domain: str
    role: str
    task: str
    emotion: str
    intensity: str

    def applied(self, args: argparse.Namespace) -> argparse.Namespace:
        """The command's options with the choice in them (the flags it stands for)."""
        chosen = argparse.Namespace(**vars(args))
        chosen.domain, chosen.role, chosen.task = self.domain, self.role, self.task
        if self.role == "user":
            chosen.emotions, chosen.intensities = self.emotion, self.intensity
        return chosen


def opens_start_screen(args: argparse.Namespace) -> bool:
    """Whether ``tau-sim human``'s options leave the task to the start screen."""
    return not args.resume and args.task is None and args.tasks is None


def one_line(text: str, limit: int = PREVIEW_CHARS) -> str:
    """``text`` on one line, cut at ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def columns_of(role: str) -> tuple[str, ...]:
    """The task table's columns for the person playing ``role``."""
    if role == "user":
        return ("task", "tier", "intent", "goal")
    return ("task", "tier", "the customer opens with")


def row_of(task: Task, role: str) -> tuple[str, ...]:
    """A task's row: the user may preview the scenario, the agent only what an agent knows."""
    if role == "user":
        return (task.id, task.tier, task.intent, one_line(task.scenario.goal))
    return (task.id, task.tier, one_line(task.scenario.opening) or "(the customer speaks first)")


def detail_of(task: Task, role: str) -> Text:
    """The highlighted task in full, under the table (the same rule as ``row_of``)."""
    text = Text(f"{task.id}", style="bold")
    text.append(f"  {task.tier} tier\n", style="dim")
    if role == "user":
        text.append("Goal ", style="bold")
        text.append(" ".join(task.scenario.goal.split()))
        return text
    text.append("The customer opens with ", style="bold")
    text.append(" ".join(task.scenario.opening.split()) or "(nothing written down)")
    text.append(
        "\nWhat they want and the facts they hold you learn by asking, as an agent does.",
        style="dim",
    )
    return text


def emotion_options() -> list[tuple[str, str]]:
    """Each emotion family, then its leaves (``--emotions`` takes either)."""
    options: list[tuple[str, str]] = []
    for family in FAMILIES:
        options.append((family, family))
        options += [
            (f"  {leaf.name}", leaf.name)
            for leaf in LEAVES.values()
            if leaf.family == family and leaf.name != NEUTRAL
        ]
    return options


@dataclass(frozen=True, slots=True)
class Given:
    """The flags given to ``tau-sim human`` that fix a field of the start screen (None: free)."""

    domain: str | None = None
    role: str | None = None
    emotion: str | None = None
    intensity: str | None = None
    opponent: dict[str, str] | None = None
    """Whom each role plays against: role -> the other side's name (as the command says it)."""

    @classmethod
    def of(cls, args: argparse.Namespace) -> Given:
        """The fixed fields of ``tau-sim human``'s options."""
        return cls(
            domain=args.domain,
            role=args.role,
            emotion=args.emotions,
            intensity=args.intensities,
            opponent={"user": args.agent or DEFAULT_AGENT, "agent": args.user or DEFAULT_USER},
        )


def _select(
    options: list[tuple[str, str]], given: str | None, default: str, id: str
) -> Select[str]:
    """A ``Select`` of ``options`` at ``default``, or of ``given`` alone, disabled (a flag)."""
    if given is not None:
        return Select([(given, given)], value=given, allow_blank=False, disabled=True, id=id)
    return Select(options, value=default, allow_blank=False, id=id)


class StartScreen(SizedScreen):
    """Pick the domain, the role, the task (and the user's condition); enter starts."""

    DEFAULT_CSS = """
    StartScreen #start-title { padding: 0 1; background: $primary 30%; }
    StartScreen #start-fields { height: auto; }
    StartScreen .field { width: 1fr; height: 4; }
    StartScreen .field Label { padding: 0 1; color: $text-muted; }
    StartScreen #field-domain, StartScreen #field-emotion { width: 3fr; }
    StartScreen #field-role, StartScreen #field-tier, StartScreen #field-intensity { width: 2fr; }
    StartScreen #start-tasks { height: 1fr; }
    StartScreen #start-detail { height: auto; max-height: 8; padding: 0 1;
        border: round $primary 50%; }
    StartScreen #start-missing, StartScreen #start-keys { padding: 0 1; color: $text-muted; }
    """

    class Chosen(Message):
        """The person chose: start this session."""

        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

    def __init__(
        self,
        domains: Sequence[Domain],
        given: Given,
        *,
        missing: Sequence[str] = (),
        check: Callable[[Choice], object] | None = None,
    ) -> None:
        """Offer ``domains`` (``missing``: those not installed here); ``given`` fields are fixed.

        ``check`` raises ``UsageError`` for a choice the command would refuse.
        """
        super().__init__()
        self.domains = {d.name: d for d in domains}
        self.given = given
        self.missing = list(missing)
        self.check = check
        self.title_line = Static(id="start-title")
        self.tasks: DataTable[str] = DataTable(
            cursor_type="row", zebra_stripes=True, id="start-tasks"
        )
        self.detail = Static(id="start-detail")
        self._shown: dict[str, Task] = {}

    def compose(self) -> ComposeResult:
        """The fields, the task table, the highlighted task and the footer."""
        given = self.given
        domains = [(name, name) for name in self.domains]
        default_domain = "retail" if "retail" in self.domains else next(iter(self.domains))
        roles = [(role, role) for role in ROLES]
        tiers = [("all tiers", ALL_TIERS), ("base", "base"), ("hard", "hard")]
        levels = [(level, level) for level in INTENSITY_LEVELS]
        yield self.too_small_notice()
        with Vertical(classes="main"):
            yield self.title_line
            with Horizontal(id="start-fields"):
                fields = (
                    ("domain", _select(domains, given.domain, default_domain, "domain")),
                    ("role", _select(roles, given.role, "user", "role")),
                    ("tier", _select(tiers, None, ALL_TIERS, "tier")),
                    (
                        "emotion",
                        _select(emotion_options(), given.emotion, DEFAULT_EMOTION, "emotion"),
                    ),
                    ("intensity", _select(levels, given.intensity, DEFAULT_INTENSITY, "intensity")),
                )
                for name, select in fields:
                    with Vertical(classes="field", id=f"field-{name}"):
                        yield Label(name)
                        yield select
            yield Static(KEYS, id="start-keys")
            yield self.tasks
            yield self.detail
            if self.missing:
                yield Static(self._missing_line(), id="start-missing")
        yield Footer()

    def too_small_notice(self) -> Static:
        """The notice of this command and its quit key."""
        return self.small_notice("tau-sim human", "ctrl+q")

    def _missing_line(self) -> Text:
        return Text(f"not installed: {', '.join(self.missing)} (see `tau-sim domains list`)")

    def on_mount(self) -> None:
        """Fill the table for the fields' first values; the table has the focus."""
        super().on_mount()
        self.refill()
        self.tasks.focus()

    def value(self, field: str) -> str:
        """The value of one of the fields (``domain``, ``role``, ``tier``, ``emotion``, …)."""
        return str(self.query_one(f"#{field}", Select).value)

    @property
    def role(self) -> str:
        """The role chosen."""
        return self.value("role")

    @on(Select.Changed)
    def changed(self, message: Select.Changed) -> None:
        """A field changed: show its tasks (or the user's condition fields)."""
        if message.select.id in ("domain", "role", "tier"):
            self.refill()

    def fit(self, width: int, height: int) -> None:
        """Hide the content below the minimum size; lay the table out again for the width."""
        super().fit(width, height)
        if self._shown:
            self.refill()

    def refill(self) -> None:
        """The table of the chosen domain's tasks of the chosen tier, as the role may see them.

        The highlighted task stays highlighted where it is still listed.
        """
        kept = self.highlighted_task
        role = self.role
        domain = self.domains[self.value("domain")]
        tier = self.value("tier")
        for name in ("emotion", "intensity"):
            self.query_one(f"#field-{name}").display = role == "user"
        opponent = (self.given.opponent or {}).get(role, "")
        title = Text("tau-sim human", style="bold")
        title.append(f"  {domain.title}: you play the {role}")
        if opponent:
            title.append(f" against {opponent}")
        self.title_line.update(title)
        self._shown = {t.id: t for t in domain.tasks if tier == ALL_TIERS or t.tier == tier}
        rows = {key: row_of(task, role) for key, task in self._shown.items()}
        labels = columns_of(role)
        widths = [
            max([len(labels[i]), *(len(row[i]) for row in rows.values())])
            for i in range(len(labels))
        ]
        # the last column takes what is left of the screen's width (the detail shows it whole)
        widths[-1] = max(20, self.size.width - sum(w + 2 for w in widths[:-1]) - 4)
        self.tasks.clear(columns=True)
        for label, width in zip(labels, widths, strict=True):
            self.tasks.add_column(label, width=width)
        for key, row in rows.items():
            self.tasks.add_row(*row, key=key)
        if kept is not None and kept.id in rows:
            self.tasks.move_cursor(row=list(rows).index(kept.id))
        self._detail()

    @on(DataTable.RowHighlighted, "#start-tasks")
    def highlighted(self) -> None:
        """Show the highlighted task in full."""
        self._detail()

    def _detail(self) -> None:
        task = self.highlighted_task
        self.detail.update(
            detail_of(task, self.role) if task else Text("no tasks of this tier", style="italic")
        )

    @property
    def highlighted_task(self) -> Task | None:
        """The task under the table's cursor (None: the table is empty)."""
        if not self._shown or self.tasks.row_count == 0:
            return None
        key = self.tasks.coordinate_to_cell_key(self.tasks.cursor_coordinate).row_key
        return self._shown.get(str(key.value))

    @on(DataTable.RowSelected, "#start-tasks")
    def selected(self, message: DataTable.RowSelected) -> None:
        """Enter on a task starts it."""
        message.stop()
        self.start()

    def start(self) -> None:
        """Start the highlighted task, once the choice passes the command's checks."""
        task = self.highlighted_task
        if task is None or self.too_small:
            return
        choice = Choice(
            self.value("domain"), self.role, task.id, self.value("emotion"), self.value("intensity")
        )
        if self.check is not None:
            try:
                self.check(choice)
            except UsageError as exc:
                self.notify(str(exc), severity="error", markup=False, timeout=10)
                return
        self.post_message(self.Chosen(choice))


class StartApp(App[Choice]):
    """The start screen alone: its result is the ``Choice`` (None: the person quit)."""

    CSS_PATH = TauSimApp.CSS_PATH
    TITLE = "tau-sim human"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+t", "toggle_theme", "Theme"),
    ]

    def __init__(self, screen: StartScreen) -> None:
        """Show ``screen``."""
        super().__init__()
        self.start_screen = screen
        self.crash: BaseException | None = None
        """An error the app did not handle (it exits 1; nothing was stored)."""

    def get_default_screen(self) -> StartScreen:
        """The start screen."""
        return self.start_screen

    def on_mount(self) -> None:
        """The theme of the session's screen."""
        self.theme = "textual-dark"

    def on_start_screen_chosen(self, message: StartScreen.Chosen) -> None:
        """The person chose: the app ends with the choice."""
        self.exit(message.choice)

    def action_toggle_theme(self) -> None:
        """Switch between Textual's light and dark themes."""
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def _handle_exception(self, error: Exception) -> None:
        """An error no handler caught: keep it and exit 1 (the command prints one line)."""
        if self.crash is None:  # as ``tui.app.stop_on_crash`` keeps it, with no run to stop
            self.crash = error
            if self._exception is None:  # what run_test raises again (Textual's bookkeeping)
                self._exception = error
                self._exception_event.set()
        self.exit(return_code=1)


def start_app(args: argparse.Namespace, check: Callable[[Choice], object]) -> StartApp:
    """The start screen of ``tau-sim human``'s options (their fixed fields given)."""
    domains, missing = installed_domains(DOMAINS.names())
    given = Given.of(args)
    if given.domain is not None:
        domains = [d for d in domains if d.name == given.domain]
    return StartApp(StartScreen(domains, given, missing=list(missing), check=check))
