"""τ²-bench's environments behind tau-sim's ``Base``/``Database``/``Tool`` interfaces.

A ``Tau2Base`` holds one loaded τ²-bench environment (its databases, read once per process).
A conversation's ``Tau2Database`` copies those databases the first time a tool runs (validated
from the base's JSON: retail about 0.02 s, airline about 0.1 s, telecom under 0.01 s on the
2-core machine; their databases are pydantic models, which cannot share structure), applies
the task's initial state (``initialization_data`` / ``initialization_actions``, τ²-bench's own
``set_state``) and runs every call through τ²-bench's ``Environment.get_response``, so results
are byte-for-byte theirs.

``changes()`` diffs the live databases against the base record by record (a dict field by key, a
list field by position, any other field whole), as plain JSON values: the ``EnvironmentState``
event holds them, ``state_hash`` hashes them, and ``rebuild`` turns base + changes back into
τ²-bench's databases, so their own hash and assertions can be recomputed from stored events.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec
from pydantic import BaseModel
from tau2.data_model.message import ToolCall as Tau2ToolCall
from tau2.data_model.tasks import Task as Tau2Task
from tau2.environment.environment import Environment
from tau2.environment.toolkit import ToolType

from tau_sim.simulator.core import ToolSpec
from tau_sim.simulator.world import Base, Database, Tool, ToolError, ToolKind, exact_hash

EnvFactory = Callable[..., Environment]
"""τ²-bench's ``get_environment(db=..., [user_db=...])`` of one domain."""

AGENT = "agent"
USER = "user"


class Tau2Base(Base):
    """The read-only base of a τ²-bench domain: its loaded databases and per-task initial states."""

    __slots__ = ("dumps", "factory", "initial", "originals", "texts")

    def __init__(self, factory: EnvFactory, tasks: Mapping[str, Tau2Task]) -> None:
        super().__init__({})
        self.factory = factory
        env = factory()
        self.originals: dict[str, BaseModel] = {AGENT: env.tools.db}
        if env.user_tools is not None:
            self.originals[USER] = env.user_tools.db
        self.initial = dict(tasks)
        self.dumps: dict[str, dict[str, Any]] | None = None
        self.texts = {side: db.model_dump_json() for side, db in self.originals.items()}

    def fresh(self) -> dict[str, BaseModel]:
        """New databases equal to the base: validated from its JSON (2-3x a deep copy's speed)."""
        return {
            side: type(db).model_validate_json(self.texts[side])
            for side, db in self.originals.items()
        }

    def database(self, task_id: str | None = None) -> Tau2Database:
        """A fresh conversation database (a task's initial state applied on first use)."""
        return Tau2Database(self, self.initial.get(task_id) if task_id else None)

    def environment(self, dbs: Mapping[str, BaseModel]) -> Environment:
        """τ²-bench's environment over the databases ``dbs`` (keys ``agent`` and ``user``)."""
        if USER in dbs:
            return self.factory(db=dbs[AGENT], user_db=dbs[USER])
        return self.factory(db=dbs[AGENT])

    def plain(self) -> dict[str, dict[str, Any]]:
        """Each base database as plain JSON values (computed once)."""
        if self.dumps is None:
            self.dumps = {side: db.model_dump(mode="json") for side, db in self.originals.items()}
        return self.dumps


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _diff(side: str, base: BaseModel, live: BaseModel) -> list[tuple[str, str, Any]]:
    """(table, key, value-or-None) for every record of ``live`` that differs from ``base``."""
    out: list[tuple[str, str, Any]] = []
    for field in type(base).model_fields:
        old, new = getattr(base, field), getattr(live, field)
        table = f"{side}.{field}"
        if isinstance(old, dict) and isinstance(new, dict):
            for key in sorted(old.keys() | new.keys()):
                if key not in new:
                    out.append((table, key, None))
                elif old.get(key) != new[key]:
                    out.append((table, key, _plain(new[key])))
        elif isinstance(old, list) and isinstance(new, list):
            for i in range(max(len(old), len(new))):
                if i >= len(new):
                    out.append((table, f"{i:06d}", None))
                elif i >= len(old) or old[i] != new[i]:
                    out.append((table, f"{i:06d}", _plain(new[i])))
        elif old != new:
            out.append((table, "", _plain(new)))
    return out


class Tau2Database(Database):
    """One conversation's τ²-bench environment, created on the first tool call."""

    __slots__ = ("_diff", "_env", "_task", "_version")

    def __init__(self, base: Tau2Base, task: Tau2Task | None = None) -> None:
        super().__init__(base)
        self._task = task
        self._env: Environment | None = None
        self._version = 0  # tool calls so far: the cached diff is valid while it is unchanged
        self._diff: tuple[int, list[tuple[str, str, Any]]] | None = None

    @property
    def tau2_base(self) -> Tau2Base:
        """The base this copy started from."""
        assert isinstance(self.base, Tau2Base)
        return self.base

    @property
    def environment(self) -> Environment:
        """The live τ²-bench environment of this conversation."""
        if self._env is None:
            base = self.tau2_base
            env = base.environment(base.fresh())
            state = self._task.initial_state if self._task is not None else None
            if state is not None:
                history = state.message_history or []
                env.set_state(state.initialization_data, state.initialization_actions, history)
            self._env = env
        return self._env

    def live(self) -> dict[str, BaseModel]:
        """The live databases by side (the base's when no tool ran and no initial state)."""
        if self._env is None and (self._task is None or self._task.initial_state is None):
            return dict(self.tau2_base.originals)
        env = self.environment
        dbs: dict[str, BaseModel] = {AGENT: env.tools.db}
        if env.user_tools is not None:
            dbs[USER] = env.user_tools.db
        return dbs

    def hash_of(self, changes: Iterable[tuple[str, str, Any]]) -> str:
        """τ²-bench compares its databases exactly: the hash keeps every order."""
        return exact_hash(changes)

    def fork(self) -> Tau2Database:
        """A copy with this copy's state (its environment deep-copied)."""
        other = Tau2Database(self.tau2_base, self._task)
        if self._env is not None:
            other._env = self.tau2_base.environment(copy.deepcopy(self.live()))
        return other

    def call(self, name: str, arguments: dict[str, Any], requestor: str) -> str:
        """Run one tool call the way τ²-bench does; its error text becomes a ``ToolError``."""
        call = Tau2ToolCall(id="", name=name, arguments=arguments, requestor=requestor)
        self._version += 1
        message = self.environment.get_response(call)
        content = str(message.content)
        if message.error:
            raise ToolError(content.removeprefix("Error: "))
        return content

    def changes(self) -> list[tuple[str, str, Any]]:
        """Every record that differs from the base, as plain JSON values, sorted.

        Computed once per state (``state_event`` asks for the changes and then the hash).
        """
        if self._env is None and (self._task is None or self._task.initial_state is None):
            return []
        if self._diff is not None and self._diff[0] == self._version:
            return list(self._diff[1])
        base = self.tau2_base.originals
        out: list[tuple[str, str, Any]] = []
        for side, live in sorted(self.live().items()):
            out.extend(_diff(side, base[side], live))
        out.sort(key=lambda c: (c[0], c[1]))
        self._diff = (self._version, out)
        return list(out)


def rebuild(base: Tau2Base, changes: list[tuple[str, str, Any]]) -> dict[str, BaseModel]:
    """τ²-bench's databases after ``changes`` (as ``Tau2Database.changes`` lists them)."""
    data = {side: dict(dump) for side, dump in base.plain().items()}
    for table, key, value in changes:
        side, _, field = table.partition(".")
        if key == "":
            data[side][field] = value
            continue
        current = data[side][field]
        if isinstance(current, dict):
            current = data[side][field] = dict(current)
            if value is None:
                current.pop(key, None)
            else:
                current[key] = value
        else:
            items = data[side][field] = list(current)
            index = int(key)
            if value is None:
                items[index] = None
            elif index < len(items):
                items[index] = value
            else:
                items.append(value)
    out: dict[str, BaseModel] = {}
    for side, dump in data.items():
        for field, value in dump.items():
            if isinstance(value, list):
                dump[field] = [v for v in value if v is not None]
        out[side] = type(base.originals[side]).model_validate(dump)
    return out


class Tau2Tool(Tool):
    """One τ²-bench tool: its schema from their signature, its calls run by their toolkit."""

    def __init__(self, name: str, kind: ToolKind, spec: ToolSpec, requestor: str) -> None:
        def run(db: Tau2Database, **arguments: Any) -> str:
            return db.call(name, arguments, requestor)

        self.fn = run
        self.kind = kind
        self.ends = None
        self.name = name
        self.requestor = requestor
        self.args_type = _AnyArguments
        self.spec = spec

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Arguments go to τ²-bench as given: their tool validates them (an error result)."""
        return dict(arguments)


class _AnyArguments(msgspec.Struct, frozen=True):
    """Any JSON object (τ²-bench's tool validates the arguments itself)."""


def tools_of(env: Environment, side: str) -> list[Tau2Tool]:
    """Our tools for τ²-bench's agent (``side`` = agent) or user tools of ``env``."""
    toolkit = env.tools if side == AGENT else env.user_tools
    if toolkit is None:
        return []
    out: list[Tau2Tool] = []
    for name, their in toolkit.get_tools().items():
        schema = their.openai_schema["function"]
        kind = ToolKind.WRITE if toolkit.tool_type(name) is ToolType.WRITE else ToolKind.READ
        spec = ToolSpec(
            name=name,
            description=str(schema.get("description", "")),
            parameters=dict(schema["parameters"]),
        )
        out.append(Tau2Tool(name, kind, spec, "assistant" if side == AGENT else "user"))
    return out
