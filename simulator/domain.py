"""The domain framework: tasks, intents, the Domain base class and τ-bench style evaluation."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from simulator.conditions import EmotionSpec, validate_emotion_spec
from simulator.database import Database
from simulator.errors import UsageError
from simulator.events import RewardBreakdown
from simulator.tools import ToolKind, Toolkit


class Action(msgspec.Struct, frozen=True):
    """One tool call of the gold path."""

    name: str
    arguments: dict[str, Any] = {}


class InfoSlot(msgspec.Struct, frozen=True):
    """A piece of information the user holds.

    ``keywords`` are words an agent uses when it asks for it (matched case-insensitively);
    ``prompt`` is how an agent names it in a question ("your email address"); ``lookupable``
    marks information the agent could have found with its tools once the user is authenticated.
    """

    name: str
    value: str
    keywords: list[str]
    prompt: str
    lookupable: bool = False


class UserScenario(msgspec.Struct, frozen=True):
    """What the simulated user wants and knows; it never contains the gold actions."""

    goal: str
    opening: str
    known_info: list[InfoSlot] = []
    unknown_info: list[str] = []
    persona: str = ""


class Task(msgspec.Struct, frozen=True):
    """A benchmark task: the user's scenario and how success is judged.

    ``emotion`` is an optional emotion profile the task carries (checked by ``load_tasks``).
    """

    id: str
    domain: str
    intent: str
    scenario: UserScenario
    auth_slots: list[str]
    actions: list[Action]
    required_outputs: list[str] = []
    summary: str = ""
    emotion: EmotionSpec | None = None

    def slot(self, name: str) -> InfoSlot | None:
        """The known-info slot called ``name``."""
        for slot in self.scenario.known_info:
            if slot.name == name:
                return slot
        return None


class Intent:
    """A task template: samples the base database and yields a task, or None when it cannot."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task grounded in ``db``; the id is assigned by the caller."""
        raise NotImplementedError


_SPACE = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Lower-case, drop thousands separators and collapse white space, for output matching."""
    text = text.lower().replace(",", "")
    return _SPACE.sub(" ", text).strip()


class Domain:
    """A customer-service world: database, tools, policy, intents and benchmark tasks.

    Subclasses set ``name``, ``folder`` (where ``policy.md`` and ``tasks.jsonl`` live), the
    toolkit, the intents, and implement ``build_base``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    folder: ClassVar[Path]
    toolkit: ClassVar[Toolkit]
    intents: ClassVar[Sequence[Intent]] = ()
    transfer_tool: ClassVar[str] = "transfer_to_human_agents"
    seed: ClassVar[int] = 0

    def build_base(self) -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, Mapping[str, Any]]]:
        """Generate (tables, indexes) deterministically from ``seed``."""
        raise NotImplementedError

    @cached_property
    def _base(self) -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, Mapping[str, Any]]]:
        return self.build_base()

    def new_database(self) -> Database:
        """A fresh copy-on-write database over the shared base."""
        tables, indexes = self._base
        return Database(tables, indexes)

    @cached_property
    def policy(self) -> str:
        """The agent's policy (markdown): its system prompt."""
        return (self.folder / "policy.md").read_text(encoding="utf-8")

    @property
    def tasks_path(self) -> Path:
        """The benchmark task file checked into the domain folder."""
        return self.folder / "tasks.jsonl"

    @cached_property
    def tasks(self) -> list[Task]:
        """The fixed benchmark task set."""
        return load_tasks(self.tasks_path)

    def write_actions(self, task: Task) -> list[Action]:
        """The gold actions that can change the database."""
        return [a for a in task.actions if self.toolkit.kind(a.name) is ToolKind.WRITE]

    @cached_property
    def _gold_hashes(self) -> dict[str, str]:
        return {}

    def gold_hash(self, task: Task) -> str:
        """State hash after replaying the gold write actions on a fresh database (cached)."""
        cached = self._gold_hashes.get(task.id)
        if cached is None:
            db = self.new_database()
            for action in self.write_actions(task):
                outcome = self.toolkit.call(db, action.name, dict(action.arguments))
                if outcome.error:
                    raise ValueError(
                        f"task {task.id}: gold action {action.name} fails: {outcome.content}"
                    )
            cached = self._gold_hashes[task.id] = db.state_hash()
        return cached

    def evaluate(
        self, task: Task, db: Database, agent_texts: Sequence[str]
    ) -> tuple[float, RewardBreakdown]:
        """Reward = database match x share of required outputs communicated (both must hold)."""
        expected = self.gold_hash(task)
        actual = db.state_hash()
        said = normalize_text("\n".join(agent_texts))
        missing = [o for o in task.required_outputs if normalize_text(o) not in said]
        outputs = (
            1.0 if not task.required_outputs else 1 - len(missing) / len(task.required_outputs)
        )
        db_match = expected == actual
        reward = 1.0 if db_match and not missing else 0.0
        return reward, RewardBreakdown(
            db_match=db_match,
            outputs_communicated=outputs,
            missing_outputs=missing,
            expected_hash=expected,
            actual_hash=actual,
        )

    def generate_tasks(self, count: int, seed: int) -> list[Task]:
        """Sample ``count`` distinct grounded tasks from the intents, round-robin, reproducibly."""
        rng = random.Random(seed)
        tasks: list[Task] = []
        seen: set[bytes] = set()
        attempts = 0
        intents = list(self.intents)
        while len(tasks) < count:
            intent = intents[len(tasks) % len(intents)]
            attempts += 1
            if attempts > count * 200:
                raise RuntimeError(f"could not sample {count} distinct tasks for {self.name}")
            task = intent.sample(self, self.new_database(), rng)
            if task is None:
                continue
            key = msgspec.json.encode([task.intent, task.actions, task.scenario.opening])
            if key in seen:
                continue
            db = self.new_database()
            if any(self.toolkit.call(db, a.name, dict(a.arguments)).error for a in task.actions):
                continue
            seen.add(key)
            tasks.append(msgspec.structs.replace(task, id=f"{self.name}-{len(tasks):03d}"))
        return tasks


_task_decoder = msgspec.json.Decoder(Task)
_encoder = msgspec.json.Encoder(order="deterministic")


def load_tasks(path: Path) -> list[Task]:
    """Read a JSONL task file; a malformed line is a ``UsageError`` naming file, line and field."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read task file {path}: {exc.strerror}") from None
    tasks: list[Task] = []
    ids: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            task = _task_decoder.decode(line)
        except msgspec.ValidationError as exc:
            raise UsageError(f"{path}:{number}: invalid task: {exc}") from None
        except msgspec.DecodeError as exc:
            raise UsageError(f"{path}:{number}: not valid JSON: {exc}") from None
        if task.id in ids:
            raise UsageError(f"{path}:{number}: duplicate task id {task.id!r}")
        if task.emotion is not None:
            spec = validate_emotion_spec(task.emotion, f"{path}:{number}")
            task = msgspec.structs.replace(task, emotion=spec)
        ids.add(task.id)
        tasks.append(task)
    return tasks


def dump_tasks(tasks: Sequence[Task], path: Path) -> None:
    """Write tasks as JSONL, one task per line, keys in a stable order."""
    path.write_bytes(b"".join(_encoder.encode(t) + b"\n" for t in tasks))
