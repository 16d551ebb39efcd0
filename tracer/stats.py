"""Tool executions against follow-up questions over several runs, and success by their balance.

``tracer stats RUN_ID ...`` reads, per completed conversation of the runs (those ended by an
endpoint or user-simulator error left out, as the run report leaves them out): the tool
executions (tool results the agent received; the user's own tool calls are not counted) and the
follow-up questions as the user tagged them, necessary or needless (``tracer.questions``). No
agent text is read again: both come from the stored events.

The balance of a conversation is the share of tool executions and necessary questions among
tool executions, necessary and needless questions: ``(tools + necessary) / (tools + necessary +
needless)``; 1.0 when no question was needless. It is None for a conversation with none of the
three or whose user does not tag questions (``untagged``). The seed method's claim, success
rises with the balance of tool use and necessary follow-up questions, is read off ``bins``:
success and abandonment per balance bin, overall and per agent.

Figures are per agent, per agent and emotion, and per agent, emotion and intensity; each group
gives conversations, totals and per-conversation means of tools and of each question kind,
success rate (reward 1.0) and abandonment rate. Scripted agents read the answer key: their
figures calibrate the harness (the scorer, the user's tags), they are not benchmark results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core import EXCLUDED_REASONS, SUCCESS_EPS, UsageError, intensity_label
from tau_sim.simulator.store import get_run
from tau_sim.tracer.questions import KINDS, Questions, tags_questions

BINS: tuple[tuple[float, float], ...] = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0))
NO_BALANCE = "none"
"""The bin of conversations without a balance (no moves, or an untagged user)."""
CALIBRATION_NOTE = (
    "read each task's answer key: their figures calibrate the harness (scorer, user tags) "
    "and are not benchmark results"
)


class Point(msgspec.Struct, frozen=True, kw_only=True):
    """One completed conversation: its condition, tool executions, questions and outcome."""

    run_id: str
    id: str
    agent: str
    user: str
    emotion: str
    intensity: float
    tools: int
    kinds: dict[str, int]
    tagged: bool
    untagged: int
    success: bool
    abandoned: bool

    @property
    def necessary(self) -> int:
        """Necessary follow-up questions (the user's tags)."""
        return Questions(self.kinds).necessary

    @property
    def needless(self) -> int:
        """Needless follow-up questions (the user's tags)."""
        return Questions(self.kinds).needless

    @property
    def balance(self) -> float | None:
        """``(tools + necessary) / (tools + necessary + needless)``; None without one."""
        if not self.tagged:
            return None
        good = self.tools + self.necessary
        both = good + self.needless
        return good / both if both else None


def _run_points(sqlite: sqlite_utils.Database, run_id: str) -> list[Point]:
    get_run(sqlite, run_id)  # UsageError for an unknown id
    excluded = sorted(EXCLUDED_REASONS)
    rows = list(
        sqlite.query(
            "select id, agent, user, emotion, intensity, reason, reward, abandoned, questions "
            "from conversations where run_id = ? and status = 'completed' and "
            f"coalesce(reason, '') not in ({', '.join('?' * len(excluded))}) order by id",
            [run_id, *excluded],
        )
    )
    within = "from events e join conversations c on c.id = e.conversation where c.run_id = ?"
    tools = {
        str(r["conversation"]): int(r["n"])
        for r in sqlite.query(
            f"select e.conversation as conversation, count(*) as n {within} "
            "and e.kind = 'tool_result' group by e.conversation",
            [run_id],
        )
    }
    triggers: dict[str, list[str]] = defaultdict(list)
    for r in sqlite.query(
        "select e.conversation as conversation, t.value as tag from events e "
        "join conversations c on c.id = e.conversation, json_each(e.payload, '$.triggers') t "
        "where c.run_id = ? and e.kind = 'emotion_update' order by e.conversation, e.seq",
        [run_id],
    ):
        triggers[str(r["conversation"])].append(str(r["tag"]))
    out: list[Point] = []
    for row in rows:
        cid, user = str(row["id"]), str(row["user"])
        tagged = tags_questions(user)
        out.append(
            Point(
                run_id=run_id,
                id=cid,
                agent=str(row["agent"]),
                user=user,
                emotion=str(row["emotion"]),
                intensity=float(row["intensity"] or 0.0),
                tools=tools.get(cid, 0),
                kinds=Questions.of(triggers.get(cid, [])).as_dict(),
                tagged=tagged,
                untagged=0 if tagged else int(row["questions"] or 0),
                success=(row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS,
                abandoned=bool(row["abandoned"]) or row["reason"] == "user_abandoned",
            )
        )
    return out


def points(sqlite: sqlite_utils.Database, run_ids: Sequence[str]) -> list[Point]:
    """The completed conversations of the runs ``run_ids``, run by run, in id order.

    ``UsageError`` for an unknown run, a run given twice, or runs without a completed
    conversation between them.
    """
    seen: set[str] = set()
    for run_id in run_ids:
        if run_id in seen:
            raise UsageError(f"run {run_id} is given twice")
        seen.add(run_id)
    found = [p for run_id in run_ids for p in _run_points(sqlite, run_id)]
    if not found:
        raise UsageError(f"no completed conversation in {', '.join(run_ids)}")
    return found


def _rate(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def summary(group: Sequence[Point]) -> dict[str, Any]:
    """The figures of ``group``: counts, totals, per-conversation means and rates."""
    n = len(group)
    kinds = {k: sum(p.kinds[k] for p in group) for k in KINDS}
    totals = {
        "tools": sum(p.tools for p in group),
        "necessary": sum(p.necessary for p in group),
        "needless": sum(p.needless for p in group),
        "untagged": sum(p.untagged for p in group),
    }
    balances = [b for p in group if (b := p.balance) is not None]
    return {
        "conversations": n,
        "tagged": sum(p.tagged for p in group),
        "totals": {**totals, **kinds},
        "means": {k: v / n if n else None for k, v in totals.items()},
        "success_rate": _rate([p.success for p in group]),
        "abandon_rate": _rate([p.abandoned for p in group]),
        "mean_balance": sum(balances) / len(balances) if balances else None,
    }


def _order(point: Point) -> tuple[Any, ...]:
    return (point.agent, point.emotion != "neutral", point.emotion, point.intensity)


def grouped(found: Sequence[Point], fields: Sequence[str]) -> list[dict[str, Any]]:
    """One row per value of ``fields`` (of agent, emotion, intensity): the fields, ``summary``."""
    groups: dict[tuple[Any, ...], list[Point]] = defaultdict(list)
    for p in sorted(found, key=_order):
        groups[tuple(getattr(p, f) for f in fields)].append(p)
    return [
        {**dict(zip(fields, key, strict=True)), **summary(group)} for key, group in groups.items()
    ]


def bin_label(balance: float | None) -> str:
    """The ``BINS`` label (``0.8-1.0``) a balance falls in, ``NO_BALANCE`` for None."""
    if balance is None:
        return NO_BALANCE
    for i, (low, high) in enumerate(BINS):
        if low <= balance < high or (i == len(BINS) - 1 and balance == high):
            return f"{low:.1f}-{high:.1f}"
    raise ValueError(f"balance {balance} out of 0..1")


def binned(found: Sequence[Point]) -> list[dict[str, Any]]:
    """One row per balance bin (``NO_BALANCE`` last, when any): ``balance``, ``summary``."""
    labels = [bin_label((low + high) / 2) for low, high in BINS]
    by: dict[str, list[Point]] = {label: [] for label in [*labels, NO_BALANCE]}
    for p in found:
        by[bin_label(p.balance)].append(p)
    return [
        {"balance": label, **summary(group)}
        for label, group in by.items()
        if label != NO_BALANCE or group
    ]


def report(
    run_ids: Sequence[str], found: Sequence[Point], calibration: Callable[[str], bool]
) -> dict[str, Any]:
    """The whole figure set of ``tracer stats --json`` (see the module docstring).

    ``runs`` gives each run's completed conversations counted, 0 for one without any.
    """
    runs = dict.fromkeys(run_ids, 0)
    for p in found:
        runs[p.run_id] += 1
    agents = sorted({p.agent for p in found})
    return {
        "runs": runs,
        "conversations": len(found),
        "balance": "(tools + necessary) / (tools + necessary + needless questions)",
        "calibration_agents": [a for a in agents if calibration(a)],
        "by_agent": grouped(found, ("agent",)),
        "by_emotion": grouped(found, ("agent", "emotion")),
        "by_condition": grouped(found, ("agent", "emotion", "intensity")),
        "bins": binned(found),
        "bins_by_agent": {a: binned([p for p in found if p.agent == a]) for a in agents},
    }


def _cell(value: float | None, pct: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:.0%}" if pct else f"{value:.2f}"


def _condition(row: dict[str, Any]) -> list[str]:
    emotion = row.get("emotion", "all")
    if "intensity" not in row:
        return [row["agent"], emotion, "all"]
    neutral = emotion == "neutral"
    return [row["agent"], emotion, "-" if neutral else intensity_label(row["intensity"])]


def render(figures: dict[str, Any], console: Any) -> None:
    """Print ``figures`` (``report``) as tables on a rich ``console``."""
    from rich.table import Table

    runs = ", ".join(f"{r} ({n})" for r, n in figures["runs"].items())
    rows = [*figures["by_agent"], *figures["by_condition"]]
    console.print(f"runs (completed conversations): {runs}", markup=False)
    shown = Table(title="tool executions vs follow-up questions, per conversation")
    kinds = Table(title="follow-up questions by kind, per conversation (the user's tags)")
    widest = {
        "agent": max(len(r["agent"]) for r in rows),
        "emotion": max(len(r.get("emotion", "all")) for r in rows),
    }
    for table in (shown, kinds):
        for column in ("agent", "emotion", "intensity", "conv."):
            table.add_column(
                column,
                justify="right" if column == "conv." else "left",
                min_width=widest.get(column),
            )
    for column in ("tools", "necessary", "needless", "balance", "success", "abandoned"):
        shown.add_column(column, justify="right")
    for column in (*KINDS, "untagged"):
        kinds.add_column(column, justify="right")
    for row in rows:
        n, means, totals = row["conversations"], row["means"], row["totals"]
        last = row is figures["by_agent"][-1]
        shown.add_row(
            *_condition(row),
            str(n),
            *(_cell(means[k]) for k in ("tools", "necessary", "needless")),
            _cell(row["mean_balance"]),
            _cell(row["success_rate"], pct=True),
            _cell(row["abandon_rate"], pct=True),
            end_section=last,
        )
        kinds.add_row(
            *_condition(row),
            str(n),
            *(_cell(totals[k] / n) for k in KINDS),
            _cell(means["untagged"]),
            end_section=last,
        )
    console.print(shown)
    console.print(kinds)
    bins = Table(title="success by balance = (tools + necessary) / (tools + necessary + needless)")
    for column in ("agent", "balance", "conv.", "tools", "necessary", "needless", "success"):
        bins.add_column(
            column,
            justify="left" if column == "agent" else "right",
            min_width=widest["agent"] if column == "agent" else None,
        )
    bins.add_column("abandoned", justify="right")
    by_agent: dict[str, list[dict[str, Any]]] = {"all": figures["bins"], **figures["bins_by_agent"]}
    for agent, rows in by_agent.items():
        for i, row in enumerate(rows):
            means = row["means"]
            bins.add_row(
                agent if i == 0 else "",
                row["balance"],
                str(row["conversations"]),
                *(_cell(means[k]) for k in ("tools", "necessary", "needless")),
                _cell(row["success_rate"], pct=True),
                _cell(row["abandon_rate"], pct=True),
                end_section=i == len(rows) - 1,
            )
    console.print(bins)
    console.print(
        "necessary: a fact only the user held (login slot asked once, a which-one choice), a "
        "confirmation before a write; needless: lookupable by a tool, unknown to the user, "
        "repeated or already in the opening (the scripted user's tags); untagged: questions of "
        "users that do not tag them",
        markup=False,
    )
    if figures["calibration_agents"]:
        console.print(
            f"note: {', '.join(figures['calibration_agents'])} {CALIBRATION_NOTE}", markup=False
        )
