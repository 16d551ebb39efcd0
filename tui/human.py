"""``tau-sim human``: a person plays the user (or, with ``--role agent``, the agent) of a run.

The run is an ordinary one (``Runner`` in a worker of the app, through ``LiveSource``), whose
user (or agent) is the ``human`` kind: each time the engine wants that role's turn, its
``Desk`` hands the screen an ask (``tau_sim.users.human``), which a worker reads with ``async for``;
what the person types is the answer. The dialogue comes from the run's live feed, as on the
dashboard, so what is shown is what is stored.

The user's screen shows the scenario (goal, known and unknown facts, never the gold path), the
condition with a short acting guide (and, where the task's request must be refused, how the
user pushes back before it accepts: ``users.pushback``), the intensity being acted (ctrl+up /
ctrl+down: stored with each message as an ``EmotionUpdate``), the dialogue and the input box.
``/tool key=value ...`` runs a user-side tool where the domain has some. ctrl+s ends satisfied
(``###STOP###``), ctrl+b abandons (``###UNSATISFIED###``) once a reason is picked from
``ABANDON_REASONS`` or written (``ReasonScreen``: Enter alone picks none, escape keeps talking),
stored as the reason of the last ``EmotionUpdate`` (never said to the agent). The input line
drops the control characters of pasted text (``PlainInput``).

The agent's screen shows what an agent is given and nothing of the user's condition: the tools
(from their schemas), the policy rendered as Markdown, and the tool results whole and
pretty-printed in a scrollable dialogue; a line of text is a reply, ``/tool key=value ...``
(or ``/tool {json}``) a tool call, and ``/a x=1 ; /b y=2`` several calls in one turn (run in
that order; the next turn comes once every result is in). ``/tool`` alone, or ctrl+o, opens a
form built from the tools' schemas (``tui.tool_form``). Both players' command lines complete
tool and argument names and the values seen so far in the conversation (``tui.completion``;
the right arrow accepts).
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Markdown, Static
from textual.worker import Worker

from tau_sim.simulator.core import (
    STOP,
    UNSATISFIED,
    AgentMessage,
    ChatMessage,
    ChatResponse,
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    Event,
    UserMessage,
    UserToolCall,
    UserToolResult,
    UserTurn,
)
from tau_sim.tui.app import TICK_S, TauSimApp, innermost, stop_on_crash
from tau_sim.tui.briefs import acting_words, agent_brief, user_brief
from tau_sim.tui.completion import CommandSuggester, IdBook
from tau_sim.tui.dialogue import (
    EmotionTrack,
    Outcome,
    describe_start,
)
from tau_sim.tui.human_widgets import HumanDialogue, PlainInput, ReasonScreen
from tau_sim.tui.screens import SizedScreen
from tau_sim.tui.sources import LiveSource
from tau_sim.tui.tool_form import ToolForm
from tau_sim.tui.tool_lines import CallError, parse_calls
from tau_sim.users.emotions import clamp
from tau_sim.users.human import AgentAsk, Ask, Desk, UserAsk

STEP = 0.1
"""How much one key press raises or lowers the intensity being acted."""
GIVE_UP = "I am giving up on this."
"""What the user says last on abandoning when nothing is typed (the reason is not said)."""


class HumanScreen(SizedScreen):
    """One conversation at a time, played by the person in ``role`` (``user`` or ``agent``)."""

    BINDINGS = [
        Binding("ctrl+up", "intensity(1)", "More intense"),
        Binding("ctrl+down", "intensity(-1)", "Less intense"),
        Binding("ctrl+s", "stop", "Satisfied"),
        Binding("ctrl+b", "abandon", "Abandon"),
        Binding("ctrl+o", "tool_form", "Tool form"),
    ]

    def __init__(self, role: str) -> None:
        super().__init__()
        self.role = role
        self.title_line = Static(
            Text("waiting for the conversation", style="italic"), id="human-title"
        )
        self.brief = Static(id="human-brief")
        self.policy = Markdown(id="human-policy")
        """The agent player's policy, rendered as Markdown (shown from the first ask on)."""
        self._policy_shown: str | None = None
        self.track = EmotionTrack(id="emotion")
        self.dialogue = HumanDialogue(whole_results=role == "agent", id="dialogue")
        self.outcome = Outcome(Text("in progress", style="italic"), id="outcome")
        self.book = IdBook()
        """The values seen in this conversation, which the command line and the form offer."""
        self.suggester = CommandSuggester(self.book)
        self.say = PlainInput(
            placeholder="wait for your turn", id="say", disabled=True, suggester=self.suggester
        )
        self.ask: Ask | None = None
        """The engine's question the person is answering (None: not their turn)."""
        self.acting = 0.0
        """The intensity the person acts now (the user role)."""
        self.calls = 0
        self.conversation = ""
        self.started = 0
        """Conversations started on this screen."""
        self.total: int | str = "?"
        """The session's conversations (the app sets it)."""
        self._ready = False
        self.last_ending: Text | None = None
        """How the conversation before this one ended (shown while the next is in progress)."""

    def compose(self) -> ComposeResult:
        """The widget's parts."""
        yield self.too_small_notice()
        with Vertical(classes="main"):
            yield self.title_line
            with Horizontal(id="human-body"):
                with VerticalScroll(id="human-side"):
                    yield self.brief
                    if self.role == "agent":
                        yield self.policy
                with Vertical(id="human-talk"):
                    if self.role == "user":
                        yield self.track
                    yield self.dialogue
                    yield self.outcome
                    yield self.say
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The user's keys only on the user's screen."""
        if action in ("intensity", "stop", "abandon"):
            return self.role == "user"
        if action == "tool_form":
            return self.role == "agent"
        return True

    @property
    def ready(self) -> bool:
        """Whether the screen is mounted and laid out (the app starts the run only then)."""
        return self._ready

    def on_mount(self) -> None:
        """Start the run once the screen has been laid out (its first events need the dialogue)."""
        super().on_mount()
        self.set_class(self.role == "agent", "-agent")
        self.call_after_refresh(self._mounted)

    def _mounted(self) -> None:
        self._ready = True
        app = self.app
        assert isinstance(app, HumanApp)
        app.start_run()

    def show_events(self, events: list[Event]) -> None:
        """Show the feed's new events: a new conversation clears the screen first.

        What came before it in the batch (the last one's ending) is shown before it clears.
        """
        for index, event in enumerate(events):
            if isinstance(event, ConversationStarted):
                if index:
                    self.show_events(events[:index])
                self._start(event)
                self.show_events(events[index + 1 :])
                return
        shown = [e for e in events if self._shown(e)]
        self.dialogue.add_events(shown)
        self.book.add_events(shown)
        if self.role == "user":
            self.track.add_events(events)
        for event in events:
            if isinstance(event, ConversationEnded):
                self.outcome.show(event)
                self._turn(None)
                self.last_ending = Text(
                    f"  (conversation {self.started} ended {event.reason.replace('_', ' ')}, "
                    f"reward {event.reward:.2f})",
                    style="dim",
                )
                self.notify(
                    f"conversation {self.started} ended: {event.reason.replace('_', ' ')}, "
                    f"reward {event.reward:.2f}",
                    timeout=6,
                )

    def _shown(self, event: Event) -> bool:
        if self.role == "agent":
            return not isinstance(event, UserToolCall | UserToolResult)
        return isinstance(event, UserMessage | AgentMessage | UserToolCall | UserToolResult)

    def _start(self, started: ConversationStarted) -> None:
        self.conversation = started.conversation
        self.started += 1
        title = Text(f"{self.started}/{self.total} ", style="bold")
        title.append_text(describe_start(started, condition=self.role == "user"))
        self.title_line.update(title)
        self.dialogue.remove_children()
        self.outcome.remove_class("-ended")
        progress = Text("in progress", style="italic")
        if self.last_ending is not None:
            progress.append_text(self.last_ending)
        self.outcome.update(progress)
        self.track.clear()
        self.book.clear()
        self.acting = started.intensity

    def session_over(self) -> None:
        """Every conversation has ended: the input says so (it stays closed)."""
        self._turn(None)
        self.say.placeholder = "the session is over: every conversation is stored (ctrl+q quits)"

    def too_small_notice(self) -> Static:
        """The notice of this command and its quit key (the input is closed meanwhile)."""
        return self.small_notice("tau-sim human", "ctrl+q")

    def fit(self, width: int, height: int) -> None:
        """Hide the content below the minimum size, and close the hidden input meanwhile."""
        super().fit(width, height)
        self.say.disabled = self.too_small or self.ask is None

    def take(self, ask: Ask) -> None:
        """It is the person's turn: show what they need and open the input."""
        if isinstance(ask, UserAsk) and not ask.transcript:
            self.acting = ask.view.condition.intensity
        self._turn(ask)

    def _turn(self, ask: Ask | None) -> None:
        self.ask = ask
        self.say.disabled = ask is None or self.too_small
        self.say.placeholder = (
            "wait for your turn"
            if ask is None
            else "type your message, or /tool key=value (enter sends)"
            if isinstance(ask, UserAsk) and ask.view.tools
            else "reply, or /tool key=value ; /tool ... (ctrl+o: a form)"
            if isinstance(ask, AgentAsk)
            else "type your message (enter sends)"
        )
        if ask is not None:
            self.suggester.tools = ask.view.tools
            self.brief.update(self._brief(ask))
            if isinstance(ask, AgentAsk) and self._policy_shown != ask.view.policy:
                self._policy_shown = ask.view.policy
                self.policy.update(ask.view.policy)
            self.say.focus()

    def _brief(self, ask: Ask) -> Text:
        if isinstance(ask, AgentAsk):
            return agent_brief(ask.view)
        return user_brief(ask.view, self.acting)

    @on(Input.Submitted, "#say")
    async def submitted(self, message: Input.Submitted) -> None:
        """Send the line typed as the person's turn."""
        line = message.value.strip()
        if not line or self.ask is None:
            return
        if isinstance(self.ask, AgentAsk) and self._form_for(self.ask, line):
            return
        await self.send_line(line)

    async def send_line(self, line: str) -> None:
        """Send a line (typed, or a form's call) as the person's turn; a bad one is a notice."""
        if self.ask is None:
            return
        ask = self.ask
        self.calls += 1
        try:
            if isinstance(ask, AgentAsk):
                answer: UserTurn | ChatResponse = self._agent_answer(ask, line)
            else:
                answer = self._user_answer(ask, line)
        except ValueError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.say.value = ""
        await self._send(answer)

    def _form_for(self, ask: AgentAsk, line: str) -> bool:
        """Open the form for ``/tool`` typed alone (a tool that takes arguments)."""
        tool = next((t for t in ask.view.tools if f"/{t.name}" == line), None)
        if tool is None or not tool.parameters.get("properties"):
            return False
        self.open_form(ask, tool.name)
        return True

    def open_form(self, ask: AgentAsk, tool: str | None = None) -> None:
        """The form of ``tool`` (or of a tool picked in it); its call is sent as typed."""

        async def filled(line: str | None) -> None:
            if line is not None and self.ask is ask:
                self.say.value = ""
                await self.send_line(line)

        self.app.push_screen(ToolForm(ask.view.tools, self.book, tool), callback=filled)

    def action_tool_form(self) -> None:
        """ctrl+o: the tool form (on the agent's turn)."""
        if isinstance(self.ask, AgentAsk) and not self.too_small:
            self.open_form(self.ask)
        else:
            self.notify("wait for your turn to call a tool", timeout=3)

    def _agent_answer(self, ask: AgentAsk, line: str) -> ChatResponse:
        if line.startswith("/"):
            calls = parse_calls(line, ask.view.tools, f"human-{self.calls}")
            return ChatResponse(ChatMessage(role="assistant", tool_calls=calls))
        return ChatResponse(ChatMessage(role="assistant", content=line))

    def _user_answer(
        self, ask: UserAsk, line: str, ends: str | None = None, reason: str = ""
    ) -> UserTurn:
        if line.startswith("/") and ends is None:
            if not ask.view.tools:
                raise CallError("you have no tools in this domain: write to the agent")
            calls = parse_calls(line, ask.view.tools, f"human-{self.calls}")
            return UserTurn(text="", tool_calls=calls, model="human")
        state = EmotionUpdate(
            conversation=ask.view.conversation_id,
            emotion=ask.view.condition.emotion,
            intensity=round(self.acting, 2),
            dissatisfaction=1.0 if ends == UNSATISFIED else 0.0,
            reason=reason or "acted by a person",
            triggers=["human"],
        )
        return UserTurn(text=line, ends=ends, state=state, model="human")

    async def _send(self, answer: UserTurn | ChatResponse) -> None:
        app = self.app
        assert isinstance(app, HumanApp)
        self._turn(None)
        await app.desk.answer(answer)

    def action_intensity(self, direction: int) -> None:
        """Act a little more (1) or less (-1) intensely from the next message on."""
        self.acting = round(clamp(self.acting + direction * STEP), 2)
        if isinstance(self.ask, UserAsk):
            self.brief.update(self._brief(self.ask))
        self.notify(f"acting at {self.acting:.1f} ({acting_words(self.acting)})", timeout=2)

    async def action_stop(self) -> None:
        """End satisfied: the typed line (or a thank-you) with ``###STOP###``."""
        if not isinstance(self.ask, UserAsk):
            return
        line = self.say.value.strip() or "Thank you, that is all."
        self.say.value = ""
        await self._send(self._user_answer(self.ask, f"{line} {STOP}", STOP))

    def action_abandon(self) -> None:
        """Give up: pick or write a reason, kept as the reason of the last emotion update.

        What the user says last is the typed line (or ``GIVE_UP``) with ``###UNSATISFIED###``:
        the reason is not said to the agent.
        """
        if not isinstance(self.ask, UserAsk):
            return

        async def picked(reason: str | None) -> None:
            if reason is not None and isinstance(self.ask, UserAsk):
                line = self.say.value.strip() or GIVE_UP
                self.say.value = ""
                answer = self._user_answer(self.ask, f"{line} {UNSATISFIED}", UNSATISFIED, reason)
                await self._send(answer)

        self.app.push_screen(ReasonScreen(), callback=picked)


class HumanApp(App[None]):
    """A run whose user (or agent) a person plays, one conversation after another."""

    CSS_PATH = TauSimApp.CSS_PATH
    TITLE = "tau-sim human"
    BINDINGS = [
        Binding("ctrl+t", "toggle_theme", "Theme"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, source: LiveSource, desk: Desk, role: str) -> None:
        """Play ``source``'s run; the ``desk`` of its human ``role`` (``user`` or ``agent``)."""
        super().__init__()
        self.source = source
        self.desk = desk
        self.role = role
        self.screen_of = HumanScreen(role)
        self.done = False
        self.error: BaseException | None = None
        self.crash: BaseException | None = None
        """An error the app itself did not handle (the run is stopped, the app exits 1)."""
        self._quitting = False

    def get_default_screen(self) -> HumanScreen:
        """The person's screen."""
        return self.screen_of

    def on_mount(self) -> None:
        """Set up once mounted; the screen starts the run once it is laid out (``start_run``)."""
        self.theme = "textual-dark"
        self.screen_of.total = self.source.runner.total

    def start_run(self) -> None:
        """Open the desk, play the run, read the asks, show the feed (the screen is ready).

        Started from the screen's mount, never before it, whatever the machine's load: in the
        agent role the user speaks first, and its message needs the mounted dialogue.
        """
        if self.source.started or self.crash is not None:
            return
        self.desk.open()
        self.set_interval(TICK_S, self.tick)
        self.follow_run()
        self.read_asks()

    @work(exclusive=True, exit_on_error=False, group="run")
    async def follow_run(self) -> None:
        """Play the run until it ends."""
        await self.source.follow()

    @work(group="asks")
    async def read_asks(self) -> None:
        """Hand each of the engine's asks to the screen (it waits for nothing else)."""
        async for ask in self.desk.asks:
            self.tick()  # the dialogue up to this ask first
            self.screen_of.take(ask)

    def tick(self) -> None:
        """Show the feed's new events."""
        events = self.source.drain()
        if events:
            self.screen_of.show_events(events)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """When the run ends: say so, and exit if quitting or a signal stopped it."""
        if event.worker.group != "run" or not event.worker.is_finished:
            return
        self.done = True
        self.tick()
        self.error = event.worker.error or self.source.error
        if self.error is not None:
            self.notify(f"the run stopped: {innermost(self.error)}", severity="error", markup=False)
        elif not self._quitting:
            self.notify("the session is over: every conversation is stored (ctrl+q quits)")
            self.screen_of.session_over()
        if self._quitting or self.source.runner.interrupted:
            # interrupted, not by the person: a signal (SIGHUP from a closed terminal, SIGTERM)
            # stopped the run; a screen left on a dead terminal would spin for ever
            self.exit(return_code=1 if self.crash else 0)

    def _handle_exception(self, error: Exception) -> None:
        """An error no handler caught: stop the run, then exit 1 (``app.stop_on_crash``)."""
        stop_on_crash(self, error)

    def action_toggle_theme(self) -> None:
        """Switch between Textual's light and dark themes."""
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    async def action_quit(self) -> None:
        """Quit; a session not played to its end stops first and stays resumable."""
        if self.done:
            self.exit()
            return
        if not self._quitting:
            self._quitting = True
            self.notify("stopping: the finished conversations are kept (resume later)")
            self.source.stop()
