"""What the TUI knows about a run, folded from its events; no widget code here.

``RunState.apply`` takes events in the order a conversation published them (the live feed
in-process, the store's events when attached) and keeps one ``ConversationSummary`` per
conversation, the run's counts (the same rules as ``tau-sim report``: endpoint and
user-simulator errors are left out of the rates), pass^1, the early terminations and a success
grid per emotion x intensity x agent. Widgets read it on a timer and ask ``take_changes`` what
changed since the last time, so a burst of thousands of events costs one screen update.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tau_sim.simulator.core import (
    EXCLUDED_REASONS,
    SUCCESS_EPS,
    USER_ERROR_REASON,
    USER_QUIT,
    AgentMessage,
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    Event,
    ModelUsage,
    RewardBreakdown,
    TerminationReason,
    UsageError,
    UserMessage,
    emotion_family,
    intensity_label,
)
from tau_sim.simulator.results import pass_hat_k

LIVE, PASSED, FAILED, ABANDONED, ERROR = "live", "passed", "failed", "abandoned", "error"
STALE = "stale"
"""A conversation that was live when its run's process died (``--resume`` plays it again)."""
STATUSES = (LIVE, PASSED, FAILED, ABANDONED, ERROR, STALE)
"""What the status column shows and the status filter matches."""
_ERROR_REASONS = EXCLUDED_REASONS | {
    TerminationReason.MODEL_ERROR.value,
    TerminationReason.ERROR.value,
}
_NORMAL_ENDINGS = {TerminationReason.USER_STOP.value, TerminationReason.TRANSFER.value}
KEPT_FINISHED = 256
"""How many finished conversations keep their events in memory (older ones: from the store)."""


def status_of(ended: ConversationEnded) -> str:
    """The status column of a finished conversation."""
    if ended.reason in _ERROR_REASONS:
        return ERROR
    if ended.reason == TerminationReason.USER_ABANDONED.value:
        return ABANDONED
    return PASSED if ended.reward >= 1.0 - SUCCESS_EPS else FAILED


@dataclass(slots=True)
class ConversationSummary:
    """One conversation as the table shows it, updated event by event."""

    id: str
    agent: str
    user: str
    domain: str
    task_id: str
    emotion: str
    condition_intensity: float
    intensity: float
    trial: int = 0
    family: str = ""
    """The emotion's family (``anger`` for ``frustration``; the emotion itself if unknown)."""
    levels: tuple[str | None, str | None, str | None] = (None, None, None)
    turns: int = 0
    tool_calls: int = 0
    status: str = LIVE
    reason: str = ""
    detail: str = ""
    feeling: str = ""
    """The reason of the user's last emotion update (``procedural friction``, ...)."""
    reward: float | None = None
    breakdown: RewardBreakdown | None = None

    @property
    def short_id(self) -> str:
        """The part of the id after the run id: the cell number without its leading zeros."""
        tail = self.id.rpartition("/")[2]
        return str(int(tail)) if tail.isdigit() else tail


@dataclass(slots=True)
class Cellcount:
    """Successes of the conversations counted in one success-grid cell."""

    n: int = 0
    successes: int = 0


@dataclass(slots=True)
class Changes:
    """What changed since the last ``take_changes``."""

    conversations: list[ConversationSummary] = field(default_factory=list)
    terminations: list[ConversationSummary] = field(default_factory=list)
    grid: bool = False
    events: dict[str, list[Event]] = field(default_factory=dict)
    """New events of the conversations someone follows (``RunState.follow``)."""


class RunState:
    """The run's conversations and counts, folded from its events."""

    def __init__(
        self, total: int | None = None, already_done: int = 0, agents: Sequence[str] = ()
    ) -> None:
        """``agents``: the run's configured agents, whose grid columns show before any start."""
        self.total = total
        self.already_done = already_done
        self.conversations: dict[str, ConversationSummary] = {}
        self.ended = 0
        self.finished = 0
        self.successes = 0
        self.abandoned = 0
        self.errors = 0
        self.user_errors = 0
        self.user_quits = 0
        self.events_seen = 0
        self.terminations: list[ConversationSummary] = []
        self.grid: dict[tuple[str, float], dict[str, Cellcount]] = defaultdict(dict)
        self.agents: list[str] = list(agents)
        self._per_task: dict[tuple[object, ...], list[int]] = defaultdict(lambda: [0, 0])
        self._live_events: dict[str, list[Event]] = {}
        self._finished_events: OrderedDict[str, list[Event]] = OrderedDict()
        self._followed: set[str] = set()
        self._changes = Changes()
        self._dirty: dict[str, ConversationSummary] = {}

    @property
    def done(self) -> int:
        """Conversations finished, those of earlier invocations of a resumed run included."""
        return self.already_done + self.ended

    @property
    def live(self) -> int:
        """Conversations started and not yet ended."""
        return len(self._live_events)

    @property
    def success_rate(self) -> float | None:
        """Successes over finished conversations, endpoint and user-simulator errors left out."""
        return self.successes / self.finished if self.finished else None

    @property
    def pass_1(self) -> float | None:
        """pass^1: the mean over tasks (task x condition x agent) of their success share."""
        return pass_hat_k([(n, c) for n, c in self._per_task.values()], 1)

    def events_of(self, conversation: str) -> list[Event] | None:
        """The events kept in memory for ``conversation`` (None: ask the store)."""
        events = self._live_events.get(conversation)
        if events is None:
            events = self._finished_events.get(conversation)
        return events

    def follow(self, conversation: str) -> None:
        """Report new events of ``conversation`` in ``Changes.events`` from now on."""
        self._followed.add(conversation)

    def unfollow(self, conversation: str) -> None:
        """Stop reporting ``conversation``'s new events."""
        self._followed.discard(conversation)

    def take_changes(self) -> Changes:
        """What changed since the last call (and reset)."""
        changes = self._changes
        changes.conversations = list(self._dirty.values())
        self._dirty = {}
        self._changes = Changes()
        return changes

    def apply(self, events: list[Event]) -> None:
        """Fold events (each conversation's in the order it published them)."""
        self.events_seen += len(events)
        followed = self._followed
        for event in events:
            if isinstance(event, ModelUsage):
                continue
            cid = event.conversation
            if isinstance(event, ConversationStarted):
                self._start(event)
            summary = self.conversations.get(cid)
            if summary is None:  # events of a conversation whose start we did not see
                continue
            kept = self._live_events.get(cid)
            if kept is not None:
                kept.append(event)
            if cid in followed:
                self._changes.events.setdefault(cid, []).append(event)
            if isinstance(event, UserMessage):
                summary.turns += 1
            elif isinstance(event, AgentMessage):
                summary.turns += 1
                summary.tool_calls += len(event.tool_calls)
            elif isinstance(event, EmotionUpdate):
                summary.intensity = event.intensity
                if event.reason:
                    summary.feeling = event.reason
            elif isinstance(event, ConversationEnded):
                self._end(summary, event)
            self._dirty[cid] = summary

    def orphan(self) -> None:
        """The run's process is gone: its live conversations are ``stale``, none is live.

        A ``--resume`` started elsewhere plays their cells again from the start (a new
        ``ConversationStarted`` of the same id makes the conversation live again).
        """
        for cid in list(self._live_events):
            summary = self.conversations[cid]
            summary.status = STALE
            self._dirty[cid] = summary
        self._live_events.clear()

    def _start(self, event: ConversationStarted) -> None:
        summary = ConversationSummary(
            id=event.conversation,
            agent=event.agent,
            user=event.user,
            domain=event.domain,
            task_id=event.task_id,
            emotion=event.emotion,
            condition_intensity=event.intensity,
            intensity=event.intensity,
            trial=event.trial,
            family=_family(event.emotion),
            levels=(event.politeness, event.urgency, event.trust),
        )
        self.conversations[event.conversation] = summary
        self._live_events[event.conversation] = []
        if event.agent not in self.agents:
            self.agents.append(event.agent)
        condition = (event.emotion, event.intensity)
        if condition not in self.grid:  # its row shows from its first start ("-" till an end)
            self.grid[condition] = {}
            self._changes.grid = True

    def _end(self, summary: ConversationSummary, ended: ConversationEnded) -> None:
        if summary.status != LIVE:  # the same conversation read twice: count it once
            return
        summary.status = status_of(ended)
        summary.reason = ended.reason
        summary.detail = ended.detail
        summary.reward = ended.reward
        summary.breakdown = ended.breakdown
        summary.turns = ended.turns
        summary.tool_calls = ended.tool_calls
        self.ended += 1
        events = self._live_events.pop(summary.id, None)
        if events is not None:
            self._finished_events[summary.id] = events
            while len(self._finished_events) > KEPT_FINISHED:
                self._finished_events.popitem(last=False)
        quit_on_ladder = ended.failure == USER_QUIT  # the user's own pushback, not the agent
        if ended.reason in EXCLUDED_REASONS or quit_on_ladder:  # left out, as the report does
            self.errors += ended.reason != USER_ERROR_REASON and not quit_on_ladder
            self.user_errors += ended.reason == USER_ERROR_REASON
            self.user_quits += quit_on_ladder
        else:
            success = summary.status == PASSED
            self.finished += 1
            self.successes += success
            key = (summary.task_id, summary.agent, summary.user, summary.domain)
            counts = self._per_task[
                (*key, summary.emotion, summary.condition_intensity, *summary.levels)
            ]
            counts[0] += 1
            counts[1] += success
            cell = self.grid[(summary.emotion, summary.condition_intensity)].setdefault(
                summary.agent, Cellcount()
            )
            cell.n += 1
            cell.successes += success
            self._changes.grid = True
        if summary.status == ABANDONED:
            self.abandoned += 1
        if ended.reason not in _NORMAL_ENDINGS:
            self.terminations.append(summary)
            self._changes.terminations.append(summary)


def _family(emotion: str) -> str:
    try:
        return emotion_family(emotion)
    except UsageError:  # an emotion no taxonomy knows (a stored run of another version)
        return emotion


def grid_label(emotion: str, intensity: float) -> str:
    """A success-grid row label: ``frustration 0.90`` (neutral has no intensity)."""
    return emotion if emotion == "neutral" else f"{emotion} {intensity_label(intensity)}"
