"""The domain framework: tasks, intents, the ``Domain`` built by a factory, τ-bench evaluation."""

from __future__ import annotations

import inspect
import random
import re
import zlib
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from tau_sim.simulator.core.conditions import EmotionSpec, validate_emotion_spec
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.world.database import Base, BaseBuilder, Database
from tau_sim.simulator.world.policyrules import policy_rules
from tau_sim.simulator.world.slots import SlotHint
from tau_sim.simulator.world.taskformat import TASK_FORMAT, format_error
from tau_sim.simulator.world.tools import Tool, ToolKind, Toolkit, ToolOutcome
from tau_sim.simulator.world.usersteps import StepHint

if TYPE_CHECKING:
    from tau_sim.simulator.world.evaluation import Evaluator


class Action(msgspec.Struct, frozen=True):
    """One tool call of the gold path.

    A gold action whose tool is one of the domain's user tools (``Domain.user_toolkit``) is a
    user step: the agent asks the user to perform it and never calls it itself.
    """

    name: str
    arguments: dict[str, Any] = {}


class UserScenario(msgspec.Struct, frozen=True):
    """What the simulated user wants and knows; it never contains the gold actions.

    ``known_info`` maps slot names to the values the user holds, in the order the scenario lists
    them; how an agent asks for each slot is the domain's ``slot_hints`` (see
    ``simulator.world.slots``). Facts are told, not known: the user volunteers the facts its
    ``opening`` states (``volunteered``) and gives each of the others only when an agent asks
    for it, so an agent that needs one must ask. ``demand`` is what the user insists on where
    the right answer is a refusal (a forbidden intent's request, said as what the user wants:
    "my reservation DMER6T cancelled with my money back"); empty where nothing must be
    refused. How many times and how the user insists is its emotion profile's
    (``tau_sim.users.pushback``), not the task's. ``later`` is a need the user raises only
    in its reply to the agent's ``LATER_AFTER``-th message (or at the agent's first "anything
    else?" before that),
    in the user's words; empty where the request does not change. ``persona`` names how the
    user writes (one of ``PERSONAS``; the users play it, ``tau_sim.users.personas``).
    """

    goal: str
    opening: str
    known_info: dict[str, str] = {}
    unknown_info: list[str] = []
    persona: str = ""
    demand: str = ""
    later: str = ""

    def volunteered(self) -> list[str]:
        """The names of the known facts the opening states (its value as whole words, any case).

        Whole words: a room type "suite" is not stated by a hotel called "Fog City Suites". A
        value said only inside another name is not stated either: the last name "Clark" in
        "Dr. Samuel Clark" (a capitalised word or a title next to it that is not one of the
        user's own values, those not holding it, and not "I"/"Hi"-like) names someone else.
        """
        return [
            name
            for name, value in self.known_info.items()
            if value and _stated(value, self.opening, self._own_words(value))
        ]

    def _own_words(self, value: str) -> set[str]:
        """The words of the user's other values, those that do not hold ``value`` themselves."""
        inside = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", re.IGNORECASE)
        return {
            w.lower()
            for v in self.known_info.values()
            if v and v != value and not inside.search(v)
            for w in _WORD.findall(v)
        }


_WORD = re.compile(r"[A-Za-z][\w'.-]*")
_NEUTRAL_WORDS = frozenset({"i", "i'm", "im", "hi", "hello", "hey", "my", "this", "it's", "and"})


def _stated(value: str, text: str, own: set[str]) -> bool:
    """Whether ``text`` says ``value`` as whole words, not inside someone else's name."""
    for match in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE):
        before = _WORD.findall(text[: match.start()])[-1:]
        after = _WORD.findall(text[match.end() :])[:1]
        if text[match.end() :].lstrip()[:1] in (",", ";", ":", ".") and after:
            after = []
        neighbours = [w for w in (*before, *after) if w[:1].isupper()]
        if all(w.lower().rstrip(".") in own or w.lower() in _NEUTRAL_WORDS for w in neighbours):
            return True
    return False


Tier = Literal["base", "hard"]
"""A task's tier: ``base`` checks the policy's everyday paths, ``hard`` is search, choice,
mixed requests and long horizons (``tau-sim run --tier``)."""

TIERS: tuple[Tier, ...] = ("base", "hard")
"""The tiers, in the order tables list them."""

DEFAULT_TIER: Tier = "base"
"""The tier of a task that names none (every task written before tasks had tiers)."""

LATER_AFTER = 3
"""The agent text in reply to which a user raises its ``later`` need at the latest (earlier,
where the agent asks whether there is anything else before it)."""

PERSONAS: tuple[str, ...] = ("plain", "terse", "rambling", "formal", "non-native")
"""How a user writes; the generator gives each task one (``persona_for``)."""

Challenge = Literal["search", "conditional", "later", "mixed", "disproven", "long"]
"""What makes a hard task hard: the user describes a record among several (``search``), a goal
depends on what the records show (``conditional``), a need comes up mid-conversation
(``later``), one part is allowed and one refused (``mixed``), the user claims what the
records disprove (``disproven``), 3 to 5 writes (``long``)."""

CHALLENGES: tuple[Challenge, ...] = ("search", "conditional", "later", "mixed", "disproven", "long")
"""The challenges, in the order tables list them."""


def persona_for(domain: str, index: int) -> str:
    """The persona of task ``index`` of ``domain``: a stable hash, so no draw of the rng."""
    return PERSONAS[zlib.crc32(f"{domain}:{index}".encode()) % len(PERSONAS)]


class Task(msgspec.Struct, frozen=True):
    """A benchmark task: the user's scenario and how success is judged.

    ``emotion`` is an optional emotion profile the task carries (checked by ``load_tasks``).
    ``tier`` is ``base`` or ``hard`` (a task file written before tiers reads as ``base``; any
    other value is refused by ``load_tasks`` with the file, line and field). ``later_at`` is
    the index of the first gold action that serves the scenario's ``later`` need (the actions
    before it serve the opening request); None where there is none.

    ``violations``, ``rules``, ``forbidden``, ``mistakes`` and ``format`` are the task data a run,
    a scorer, a report and a grader check read from the line (``simulator.world.taskformat``):
    the forbidden writes the user asks for, the refusal rules the task tests, whether its request
    is a forbidden one, the known wrong paths (each a whole sequence of calls the tools allow
    and the grader must score 0), and the line's format (1: written before that data, so none
    of it is known; 2: before ``mistakes``).
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
    tier: Tier = DEFAULT_TIER
    later_at: int | None = None
    violations: list[Action] = []
    rules: list[str] = []
    forbidden: bool = False
    mistakes: list[list[Action]] = []
    format: int = 1


class Intent:
    """A task template: samples the base database and yields a task, or None when it cannot.

    ``description`` (``tau-sim domains show`` lists it) is the docstring's first paragraph
    unless the class sets one. ``forbidden``: the policy forbids the request, so the gold path
    writes nothing and ends in a refusal or a transfer. ``violations``: the forbidden writes
    the user asks for (what an agent that gives in does); ``mistakes``: what a careless agent
    might do instead (the domain suite checks the tools allow each and it scores 0). ``tier``:
    its tasks' tier; ``rules``: the refusal rule ids its tasks test (``[rule ID]`` in
    ``policy.md``); ``challenges``: what makes its tasks hard (``Challenge``). ``with_data``
    writes violations, rules, forbidden and mistakes on each task it samples: a run and the
    grader checks read them from the task line, never from the intent.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    forbidden: ClassVar[bool] = False
    tier: ClassVar[Tier] = DEFAULT_TIER
    rules: ClassVar[tuple[str, ...]] = ()
    challenges: ClassVar[frozenset[Challenge]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "description" not in cls.__dict__ and cls.__doc__:
            first = inspect.cleandoc(cls.__doc__).split("\n\n", 1)[0]
            cls.description = " ".join(first.split())

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task grounded in ``db``; the id is assigned by the caller."""
        raise NotImplementedError

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The writes the policy forbids that ``task``'s user asks for, in the order made.

        Made after the gold path they succeed on a fresh database and score 0; a conversation
        whose final state holds one fails as ``policy_violation``. None by default.
        """
        return []

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Wrong paths for ``task`` (another record or amount, a forbidden write); none here.

        Each is a whole call sequence the tools allow and the grader must score 0.
        """
        return []

    def with_data(self, domain: Domain, task: Task) -> Task:
        """``task`` (its id given) with the data its line carries (``taskformat.TASK_DATA``).

        Its violations, ``rules``, ``forbidden``, known mistakes and format: what a run, a
        scorer, a report and the grader checks read from the line instead of the intent.
        """
        return msgspec.structs.replace(
            task,
            violations=self.violations(domain, task),
            rules=list(self.rules),
            forbidden=self.forbidden,
            mistakes=self.mistakes(domain, task),
            format=TASK_FORMAT,
        )


class Generation(msgspec.Struct, frozen=True):
    """How a domain's checked-in task set is sampled: task count and seed."""

    count: int
    seed: int


class Domain(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    """A customer-service world, built by a factory: policy, tools, base database and tasks.

    ``build_base`` is called once, on first use; ``task_source`` is the checked-in task file
    (read on first use) or the tasks themselves. ``intents`` (the domain's factory: the intents
    themselves, or a function that imports them on first use, so a run that only reads the task
    file never loads a generator) and ``generation`` regenerate the task set (``tau-sim domains
    generate NAME``); ``slot_hints`` annotate the scenarios' slots
    for the scripted roles (``simulator.world.slots.user_slots``). ``user_toolkit`` holds the
    tools only the user can run (their own device; see ``simulator.world.usersteps``),
    ``user_tool_hints`` how an agent asks for each; no user tool shares a name with an agent tool.

    ``task_splits`` names subsets of the tasks (split name -> task ids, ``--task-split``);
    ``task_reader`` reads a task file in the domain's own format (default: tau-sim's JSONL);
    ``free_text_scenarios`` marks scenarios only a model can read (no slots a scripted user
    could answer from), so the run refuses the scripted user; ``evaluator`` builds the
    domain's own ``Evaluator`` (its reward semantics) instead of the default one.
    ``phrasings`` maps a required output to the ways of saying it that count (the policy's own
    wording; ``evaluation.output_said``).
    """

    name: str
    title: str
    policy: str
    toolkit: Toolkit
    build_base: BaseBuilder
    task_source: Path | Sequence[Task] = ()
    intent_source: Sequence[Intent] | Callable[[], Sequence[Intent]] = ()
    generation: Generation | None = None
    slot_hints: Mapping[str, SlotHint] = {}
    user_toolkit: Toolkit | None = None
    user_tool_hints: Mapping[str, StepHint] = {}
    task_splits: Mapping[str, Sequence[str]] = {}
    task_reader: Callable[[Path], list[Task]] | None = None
    free_text_scenarios: bool = False
    evaluator: Callable[[Domain], Evaluator] | None = None
    phrasings: Mapping[str, Sequence[str]] = {}

    def __post_init__(self) -> None:
        if self.user_toolkit is not None:
            shared = sorted(set(self.toolkit.tools) & set(self.user_toolkit.tools))
            if shared:
                raise ValueError(
                    f"domain {self.name!r}: user tools share names with agent tools: "
                    + ", ".join(shared)
                )

    @classmethod
    def from_folder(
        cls,
        folder: Path,
        *,
        name: str,
        title: str,
        toolkit: Toolkit,
        build_base: BaseBuilder,
        intents: Sequence[Intent] | Callable[[], Sequence[Intent]] = (),
        generation: Generation | None = None,
        slot_hints: Mapping[str, SlotHint] | None = None,
        user_toolkit: Toolkit | None = None,
        user_tool_hints: Mapping[str, StepHint] | None = None,
        phrasings: Mapping[str, Sequence[str]] | None = None,
    ) -> Domain:
        """A domain whose policy and tasks are ``folder/policy.md`` and ``folder/tasks.jsonl``."""
        try:
            policy = (folder / "policy.md").read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read policy {folder / 'policy.md'}: {exc.strerror}") from None
        return cls(
            name=name,
            title=title,
            policy=policy,
            toolkit=toolkit,
            build_base=build_base,
            task_source=folder / "tasks.jsonl",
            intent_source=intents,
            generation=generation,
            slot_hints=dict(slot_hints or {}),
            user_toolkit=user_toolkit,
            user_tool_hints=dict(user_tool_hints or {}),
            phrasings=dict(phrasings or {}),
        )

    @cached_property
    def base(self) -> Base:
        """The shared read-only base (built on first use)."""
        return self.build_base()

    def new_database(self, task: Task | None = None) -> Database:
        """A fresh copy-on-write database over the shared base (with ``task``'s initial state)."""
        return self.base.database(None if task is None else task.id)

    @property
    def tasks_path(self) -> Path | None:
        """The task file the domain's tasks are read from, if they come from a file."""
        return self.task_source if isinstance(self.task_source, Path) else None

    @cached_property
    def tasks(self) -> list[Task]:
        """The fixed benchmark task set."""
        if isinstance(self.task_source, Path):
            return load_tasks(self.task_source, self)
        return list(self.task_source)

    @cached_property
    def intents(self) -> list[Intent]:
        """The intents the tasks are sampled from (the factory is imported on first use)."""
        source = self.intent_source
        return list(source() if callable(source) else source)

    def intent(self, name: str) -> Intent:
        """The intent called ``name``."""
        for intent in self.intents:
            if intent.name == name:
                return intent
        raise KeyError(f"domain {self.name!r} has no intent {name!r}")

    def intent_of(self, task: Task) -> Intent | None:
        """The intent ``task`` was sampled from (None: no intent of that name, τ²-bench's)."""
        return next((i for i in self.intents if i.name == task.intent), None)

    @cached_property
    def policy_rules(self) -> dict[str, str]:
        """The policy's refusal rules: id -> the text that states it (``[rule ID]`` marks)."""
        return policy_rules(self.policy)

    def rules_of(self, task: Task) -> tuple[str, ...]:
        """The refusal rules ``task`` tests, as its line says (``Task.rules``)."""
        return tuple(task.rules)

    def violations(self, task: Task) -> list[Action]:
        """The forbidden writes ``task``'s user asks for, as its line says (``Task.violations``).

        The generator wrote them (``Intent.with_data``); a run never asks it. None for a line
        of format 1 (written before lines carried them) and for τ²-bench's tasks.
        """
        return list(task.violations)

    def describe(self) -> dict[str, Any]:
        """The domain as ``tau-sim domains show --json`` prints it."""
        user_tools = self.user_toolkit.tools.values() if self.user_toolkit is not None else ()
        return {
            "name": self.name,
            "title": self.title,
            "tools": [{"name": t.name, "kind": t.kind.value} for t in self.toolkit.tools.values()],
            "user_tools": [{"name": t.name, "kind": t.kind.value} for t in user_tools],
            "intents": [
                {
                    "name": i.name,
                    "description": i.description,
                    "forbidden": i.forbidden,
                    "tier": i.tier,
                    "rules": list(i.rules),
                    "challenges": [c for c in CHALLENGES if c in i.challenges],
                }
                for i in self.intents
            ],
            "rules": list(self.policy_rules),
            "tasks": len(self.tasks),
            "tiers": {tier: sum(t.tier == tier for t in self.tasks) for tier in TIERS},
            "tasks_path": str(self.tasks_path) if self.tasks_path is not None else None,
        }

    def tool(self, name: str) -> Tool | None:
        """The agent tool or user tool called ``name``, or None."""
        found = self.toolkit.tools.get(name)
        if found is None and self.user_toolkit is not None:
            found = self.user_toolkit.tools.get(name)
        return found

    def is_user_step(self, action: Action) -> bool:
        """Whether ``action`` calls a user tool (the user performs it, not the agent)."""
        return self.user_toolkit is not None and action.name in self.user_toolkit.tools

    def call(self, db: Database, action: Action) -> ToolOutcome:
        """Run ``action`` on ``db`` with the toolkit it belongs to (the agent's or the user's)."""
        toolkit = self.user_toolkit if self.is_user_step(action) else self.toolkit
        assert toolkit is not None
        return toolkit.call(db, action.name, dict(action.arguments))

    def write_actions(self, task: Task) -> list[Action]:
        """The gold actions that can change the database (the agent's and the user's)."""
        return [a for a in task.actions if (t := self.tool(a.name)) and t.kind is ToolKind.WRITE]

    def generate_tasks(self, count: int | None = None, seed: int | None = None) -> list[Task]:
        """Sample ``count`` distinct grounded tasks from the intents, round-robin, reproducibly.

        Without arguments, the domain's ``generation`` defaults: its checked-in task set. An
        intent that gives no new grounded task in ``EXHAUSTED_AFTER`` tries in a row has given
        all it has for this seed and leaves the round; when none is left before ``count``, a
        ``UsageError`` says how many distinct tasks the domain has for the seed.
        """
        if count is None or seed is None:
            if self.generation is None:
                raise UsageError(f"domain {self.name!r} has no generation defaults")
            count = self.generation.count if count is None else count
            seed = self.generation.seed if seed is None else seed
        if not self.intents:
            raise UsageError(f"domain {self.name!r} has no intents to generate tasks from")
        rng = random.Random(seed)
        tasks: list[Task] = []
        seen: set[bytes] = set()
        live = list(self.intents)
        misses = 0
        while len(tasks) < count:
            intent = live[len(tasks) % len(live)]
            task = self._new_task(intent, rng, seen)
            if task is None:
                misses += 1
                if misses == EXHAUSTED_AFTER:
                    live.remove(intent)
                    misses = 0
                    if not live:
                        raise UsageError(
                            f"domain {self.name!r} has {len(tasks)} distinct tasks for seed "
                            f"{seed}, not {count}: ask for at most {len(tasks)}"
                        )
                continue
            misses = 0
            scenario = msgspec.structs.replace(
                task.scenario, persona=persona_for(self.name, len(tasks))
            )
            task = msgspec.structs.replace(
                task, id=f"{self.name}-{len(tasks):03d}", scenario=scenario, tier=intent.tier
            )
            tasks.append(intent.with_data(self, task))
        return tasks

    def _new_task(self, intent: Intent, rng: random.Random, seen: set[bytes]) -> Task | None:
        """One task ``intent`` samples, if it is new (not in ``seen``) and its gold path runs."""
        task = intent.sample(self, self.new_database(), rng)
        if task is None:
            return None
        key = msgspec.json.encode([task.intent, task.actions, task.scenario.opening])
        if key in seen:
            return None
        db = self.new_database()
        if any(self.call(db, a).error for a in task.actions):
            return None
        seen.add(key)
        return task


EXHAUSTED_AFTER = 1000
"""Tries in a row without a new grounded task after which an intent is taken as exhausted."""

_task_decoder = msgspec.json.Decoder(Task)
_encoder = msgspec.json.Encoder()


def load_tasks(
    path: Path, domain: Domain | None = None, *, replay: Collection[str] | None = None
) -> list[Task]:
    """Read a JSONL task file; a malformed line is a ``UsageError`` naming file, line and field.

    A line of a format this tau-sim does not read (``taskformat.FORMATS``) is one too.
    With ``domain``, every task's gold actions are checked against its tools, and the gold
    path of each task in ``replay`` (None: every task) is replayed on a fresh database
    (``check_gold``): a run replays only the tasks it plays, so ``--tasks 3`` over a file of
    20,000 tasks costs three replays. A domain with its own ``task_reader`` reads the file in
    its own format instead.
    """
    if domain is not None and domain.task_reader is not None:
        return domain.task_reader(path)
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read task file {path}: {exc.strerror}") from None
    tasks: list[Task] = []
    ids: set[str] = set()
    if lines and lines[0].startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark (Windows)
        lines[0] = lines[0][3:]
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            task = _task_decoder.decode(line)
        except msgspec.ValidationError as exc:
            if str(exc).endswith("`$.tier`"):
                raise UsageError(
                    f"{path}:{number}: tier: {_tier_value(line)} is not a tier "
                    f"(one of {', '.join(TIERS)})"
                ) from None
            raise UsageError(f"{path}:{number}: invalid task: {exc}") from None
        except msgspec.DecodeError as exc:
            raise UsageError(f"{path}:{number}: not valid JSON: {exc}") from None
        if (wrong := format_error(task.format)) is not None:
            raise UsageError(f"{path}:{number}: format: {wrong}")
        if not task.id.strip():
            raise UsageError(f"{path}:{number}: id: a task needs a non-empty id")
        if task.id in ids:
            raise UsageError(f"{path}:{number}: duplicate task id {task.id!r}")
        if task.emotion is not None:
            spec = validate_emotion_spec(task.emotion, f"{path}:{number}")
            task = msgspec.structs.replace(task, emotion=spec)
        if domain is not None:
            replayed = replay is None or task.id in replay
            check_gold(domain, task, f"{path}:{number}", replay=replayed)
        ids.add(task.id)
        tasks.append(task)
    return tasks


def _tier_value(line: bytes) -> str:
    """The ``tier`` a task line gives, as JSON (the line is an object: it failed on its tier)."""
    fields = msgspec.json.decode(line)
    return _encoder.encode(fields.get("tier") if isinstance(fields, dict) else None).decode()


def check_gold(domain: Domain, task: Task, where: str, *, replay: bool = True) -> None:
    """Check ``task``'s gold actions against ``domain``'s tools; with ``replay``, replay them too.

    The replay runs them on a fresh database.

    Raises:
        UsageError: ``where: task ID: ...`` naming a task of another domain, or the action
            (``actions[i]``), forbidden write (``violations[i]``) or known mistake's call
            (``mistakes[i][j]``) whose tool is unknown,
            whose argument has the wrong type (``actions[i].arguments.NAME``), a gold action
            that fails when replayed, or a rule (``rules[i]``) the policy does not mark.
    """
    prefix = f"{where}: task {task.id}"
    if task.domain != domain.name:
        raise UsageError(f"{prefix}: is for domain {task.domain!r}, not {domain.name!r}")
    for field, actions in (("actions", task.actions), ("violations", task.violations)):
        for i, action in enumerate(actions):
            _check_call(domain, action, f"{prefix}: {field}[{i}]")
    for i, path in enumerate(task.mistakes):
        for j, action in enumerate(path):
            _check_call(domain, action, f"{prefix}: mistakes[{i}][{j}]")
    rules = domain.policy_rules
    for i, rule in enumerate(task.rules):
        if rule not in rules:
            raise UsageError(f"{prefix}: rules[{i}]: {rule!r} is not a refusal rule of the policy")
    if not replay:
        return
    db = domain.new_database(task)
    for i, action in enumerate(task.actions):
        outcome = domain.call(db, action)
        if outcome.error:
            raise UsageError(
                f"{prefix}: actions[{i}] {action.name} fails on a fresh database: {outcome.content}"
            )


def _check_call(domain: Domain, action: Action, where: str) -> None:
    """Check that ``action``'s tool exists and its arguments convert to the tool's types."""
    tool = domain.tool(action.name)
    if tool is None:
        known = [*domain.toolkit.tools, *(domain.user_toolkit.tools if domain.user_toolkit else ())]
        raise UsageError(f"{where} {action.name}: unknown tool (known: {', '.join(known)})")
    try:
        msgspec.convert(action.arguments, tool.args_type)
    except msgspec.ValidationError as exc:
        message, _, field = str(exc).partition(" - at `$")
        raise UsageError(f"{where}.arguments{field.rstrip('`')}: {message}") from None
