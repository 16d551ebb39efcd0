"""How the scripted user scores a natural-wording agent, against gold on the same tasks.

Starts ``benchmarks/natural_agent.py`` on 127.0.0.1, then plays with ``tau-sim run`` (the
scripted user) the same tasks with ``openai/natural`` (the double, through the real OpenAI
path) and with ``scripted/gold``, at neutral and at frustration 0.9: 10 tasks per domain over the
ten built-in domains (a seeded choice, half of them hard where the domain has hard tasks) plus
every telecom hard task. It prints success per domain and condition for both agents and their
ratio, why each failed conversation failed (the end reason, the state, the outputs), and the
double's turns the user tagged as unclear, no progress or dismissive, grouped by what the turn
did. Gold is a calibrator: its figures say what a perfect agent scores against this user, not
what the benchmark measures.

    PYTHONPATH=$PWD python benchmarks/natural_vs_scripted.py [--per-domain 10] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks import natural_wording as nw
from tau_sim.simulator.core.registry import get_domain

DOMAINS = (
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
CONDITIONS = {
    "neutral": ["--emotions", "neutral"],
    "frustration 0.9": ["--emotions", "frustration", "--intensities", "0.9"],
}
AGENTS = ("openai/natural", "scripted/gold")
MISREAD = (
    "unclear_question",
    "no_progress",
    "dismissive",
    "ignored_cue",
    "unbacked_claim",
    "lookupable_question",
    "repeated_question",
)
"""The triggers of a turn the user found fault with (a slot question's by its prefix)."""
KINDS = {
    "greeting/auth question": nw.GREETINGS + nw.AUTH + nw.AUTH_LIST,
    "held-fact question": nw.FACTS + nw.WHICH,
    "confirmation": nw.CONFIRM + nw.CONFIRM_LIST,
    "report": nw.DONE + nw.DONE_LIST + nw.CHECKED,
    "refusal": nw.REFUSED + nw.RESTATE,
    "device step": nw.STEP_ONE + nw.STEP_MANY,
    "farewell": nw.FAREWELL,
    "closing question": nw.MORE,
    "acknowledgement": nw.COMFORT,
    "transfer": nw.TRANSFER,
}


def choose_tasks(per_domain: int, seed: int) -> tuple[list[str], list[str]]:
    """Seeded: ``per_domain`` tasks a domain (half hard where it has any), and the telecom hard
    tasks not among them (every telecom hard task plays)."""
    rng = random.Random(seed)
    sample: list[str] = []
    extra: list[str] = []
    for name in DOMAINS:
        tasks = get_domain(name).tasks
        hard = [t.id for t in tasks if t.tier == "hard"]
        base = [t.id for t in tasks if t.tier != "hard"]
        n_hard = min(len(hard), per_domain // 2)
        picked = rng.sample(hard, n_hard) + rng.sample(base, per_domain - n_hard)
        sample += picked
        if name == "telecom":
            extra += [t for t in hard if t not in picked]
    return sample, extra


def kind_of(text: str) -> str:
    """Which acts of the double a text holds, by the fixed words of the phrasings it used."""
    found = []
    for kind, options in KINDS.items():
        for option in options:
            head, tail = option.split("{")[0].strip(), option.split("}")[-1].strip()
            parts = [p for p in (head, tail) if p]
            if "{" not in option:
                parts = [option]
            if max(map(len, parts), default=0) >= 8 and all(p in text for p in parts):
                found.append(kind)
                break
    return " + ".join(found) or "other"


def run(agent: str, condition: list[str], tasks: list[str], db: Path, url: str) -> None:
    """One ``tau-sim run`` of ``agent`` over ``tasks`` under ``condition``."""
    cmd = [
        str(Path(sys.executable).parent / "tau-sim"), "run",
        "--domain", ",".join(DOMAINS), "--tasks", ",".join(tasks), "--agent", agent,
        *condition, "--db", str(db), "--quiet", "--concurrency", "16",
    ]  # fmt: skip
    if agent.startswith("openai/"):
        cmd += ["--agent-arg", f"base_url={url}/v1", "--agent-arg", "api_key=none"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def failure(reason: str, breakdown: str | None, path: str) -> str:
    """Why one conversation failed: the end reason, what was wrong, how far gold's path went.

    ``path`` says how the agent's calls compare with gold's on the task: ``all of gold's
    calls`` (a wrong state then comes from steps the user did not do on its device), ``gold's
    calls cut short`` (the conversation ended or was held before the writes), or ``off gold's
    path``.
    """
    parts = [reason]
    data = json.loads(breakdown) if breakdown else {}
    if data.get("db_match") is False:
        parts.append("wrong state")
    if data.get("missing_outputs"):
        parts.append("output missing")
    return f"{', '.join(parts)} ({path})"


def tool_calls(con: sqlite3.Connection) -> dict[tuple[str, str, str], list[str]]:
    """(agent, task, emotion) -> the agent's tool calls, in order, as JSON texts."""
    calls: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for agent, task, emotion, payload in con.execute(
        "select c.agent, c.task_id, c.emotion, e.payload from events e join conversations c "
        "on c.id = e.conversation where e.kind = 'tool_call' order by e.conversation, e.seq"
    ):
        call = json.loads(payload)["call"]
        calls[(agent, task, emotion)].append(json.dumps([call["name"], call["arguments"]]))
    return calls


def path_of(calls: dict[tuple[str, str, str], list[str]], agent: str, task: str, emo: str) -> str:
    """How ``agent``'s calls on ``task`` compare with gold's there (see ``failure``)."""
    mine, gold = calls.get((agent, task, emo), []), calls.get((AGENTS[1], task, emo), [])
    if mine == gold:
        return "all of gold's calls"
    return "gold's calls cut short" if mine == gold[: len(mine)] else "off gold's path"


def device_steps(con: sqlite3.Connection) -> list[str]:
    """Per device tool: how often the double asked for it and how often the user then did it."""
    asked: Counter[str] = Counter()
    done: Counter[str] = Counter()
    pending: dict[str, set[str]] = {}
    for conv, kind, payload in con.execute(
        "select e.conversation, e.kind, e.payload from events e join conversations c "
        "on c.id = e.conversation where c.agent = ? and e.kind in "
        "('agent_message', 'user_tool_call') order by e.conversation, e.seq",
        (AGENTS[0],),
    ):
        data = json.loads(payload)
        if kind == "agent_message":
            text = data.get("text") or ""
            steps = "device step" in kind_of(text)  # a request, not the closing summary
            wanted = {t for t, ask in nw.STEPS.items() if steps and ask.lower() in text.lower()}
            asked.update(wanted)
            pending[conv] = wanted
        elif data["call"]["name"] in pending.get(conv, set()):
            done[data["call"]["name"]] += 1
            pending[conv].discard(data["call"]["name"])
    return [
        f"  {tool:28} asked {n:>4}  done {done[tool]:>4}  ({done[tool] / n:.0%})  "
        f"{nw.STEPS[tool]!r}"
        for tool, n in asked.most_common()
    ]


def report(db: Path, sample: set[str]) -> str:
    """The tables: success per domain and condition, failures, misread turns."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "select task_id, domain, agent, emotion, reward, reason, breakdown from conversations"
    ).fetchall()
    calls = tool_calls(con)
    telecom_hard = {t.id for t in get_domain("telecom").tasks if t.tier == "hard"}
    wins: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    why: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for task, domain, agent, emotion, reward, reason, breakdown in rows:
        cond = "neutral" if emotion == "neutral" else "frustration 0.9"
        wins[(agent, domain, cond)].append(float(reward or 0.0) >= 1.0)
        if task in sample:
            wins[(agent, "sample", cond)].append(float(reward or 0.0) >= 1.0)
        if task in telecom_hard:
            wins[(agent, "telecom (hard)", cond)].append(float(reward or 0.0) >= 1.0)
        if float(reward or 0.0) < 1.0:
            path = path_of(calls, agent, task, emotion)
            why[(agent, cond)][failure(reason, breakdown, path)] += 1
    lines = ["success (share of conversations with reward 1) per domain and condition", ""]
    head = f"{'domain':14} {'condition':16} {'n':>3} {'natural':>8} {'gold':>6} {'ratio':>6}"
    lines += [head, "-" * len(head)]
    for cond in CONDITIONS:
        totals = {a: [] for a in AGENTS}  # type: dict[str, list[float]]
        for domain in (*DOMAINS, "telecom (hard)", "sample", "all"):
            if domain == "all":
                nat, gold = totals[AGENTS[0]], totals[AGENTS[1]]
            else:
                nat, gold = wins[(AGENTS[0], domain, cond)], wins[(AGENTS[1], domain, cond)]
            if domain in DOMAINS:
                totals[AGENTS[0]] += nat
                totals[AGENTS[1]] += gold
            if not nat:
                continue
            n_rate = sum(nat) / len(nat)
            g_rate = sum(gold) / len(gold) if gold else 0.0
            ratio = f"{n_rate / g_rate:.2f}" if g_rate else "-"
            lines.append(
                f"{domain:14} {cond:16} {len(nat):>3} {n_rate:>8.2f} {g_rate:>6.2f} {ratio:>6}"
            )
        lines.append("")
    lines += ["why conversations failed (end reason, what was wrong, the agent's calls)", ""]
    for (agent, cond), counts in sorted(why.items()):
        for what, n in counts.most_common():
            lines.append(f"  {agent:16} {cond:16} {n:>4}  {what}")
    off = sorted(
        f"{task}@{emo}"
        for (agent, task, emo) in calls
        if agent == AGENTS[0] and path_of(calls, agent, task, emo) == "off gold's path"
    )
    lines += ["", f"the double's conversations whose calls left gold's path: {len(off)} {off[:10]}"]
    lines += [
        "",
        "device steps: asked by the double (each request), done by the user right after",
        "",
    ]
    lines += device_steps(con)
    lines += ["", "the double's turns the scripted user tagged (trigger, act, count, example)", ""]
    tagged: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    events = con.execute(
        "select e.conversation, e.kind, e.payload from events e join conversations c "
        "on c.id = e.conversation where c.agent = ? and e.kind in "
        "('agent_message', 'emotion_update') order by e.conversation, e.seq",
        (AGENTS[0],),
    ).fetchall()
    last: dict[str, str] = {}
    for conv, kind, payload in events:
        data = json.loads(payload)
        if kind == "agent_message":
            if data.get("text"):
                last[conv] = data["text"]
            continue
        text = last.pop(conv, None)
        if text is None:
            continue
        for trigger in data.get("triggers", []):
            if trigger.split(":")[0] in MISREAD:
                tagged[(trigger.split(":")[0], kind_of(text))][text] += 1
    for (trigger, act), texts in sorted(tagged.items(), key=lambda kv: -sum(kv[1].values())):
        example, _ = texts.most_common(1)[0]
        shown = example.replace("\n", " / ")[:160]
        lines.append(f"  {trigger:17} {act:28} {sum(texts.values()):>4}  e.g. {shown!r}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-domain", type=int, default=10, help="tasks per domain")
    parser.add_argument("--seed", type=int, default=0, help="chooses the tasks and phrasings")
    parser.add_argument(
        "--closing", choices=("mixed", "question", "farewell"), default="mixed",
        help="how the double's report ends (default mixed: a question or a farewell, drawn)",
    )  # fmt: skip
    parser.add_argument("--db", default="", help="results database (default: a temporary one)")
    args = parser.parse_args(argv)
    if args.per_domain < 2:
        print("--per-domain: at least 2", file=sys.stderr)
        return 2
    sample, extra = choose_tasks(args.per_domain, args.seed)
    tasks = sample + extra
    tmp = tempfile.mkdtemp(prefix="natural-vs-scripted-")
    db = Path(args.db or Path(tmp) / "runs.db")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(Path.cwd()), os.environ.get("PYTHONPATH", "")])
        ),
    }
    server = subprocess.Popen(
        [sys.executable, "benchmarks/natural_agent.py", "--domain", ",".join(DOMAINS),
         "--tasks-of", ",".join(tasks), "--seed", str(args.seed), "--closing", args.closing],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline().split()
        if line[:1] != ["READY"]:
            print("natural agent: did not start", file=sys.stderr)
            return 1
        url = f"http://127.0.0.1:{line[1]}"
        for condition in CONDITIONS.values():
            for agent in AGENTS:
                run(agent, condition, tasks, db, url)
    finally:
        server.terminate()
        server.wait()
    print(
        f"{len(tasks)} tasks (seed {args.seed}, closing {args.closing}), scripted user; "
        "gold is a calibrator"
    )
    print(
        f"rows: each domain's tasks played; telecom (hard): every telecom hard task; sample: the "
        f"{len(sample)} tasks of the seeded sample ({args.per_domain} a domain); all: every task"
    )
    print(report(db, set(sample)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
