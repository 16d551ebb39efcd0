"""One offline retail conversation of the embedded agent, llama-cpp-python's chat format vs ours.

``tau-sim run --domain retail --tasks 1 --agent local/smollm2-135m --user scripted`` runs twice
in this process's machine, each starting its own llama.cpp server:

- ``stock``: llama-cpp-python's ``chatml-function-calling`` chat format and the fixed 600 s
  per-call timeout (``chat_format=chatml-function-calling calibrate=false``), as before;
- ``ours``: the defaults, tau-sim's ``tau-sim-tools`` (every answer within ``max_tokens``) and
  the per-call timeout from the speed measured at start.

For each it prints every agent call (seconds, prompt and answer tokens, the error if any) from
the run's database, the conversation's seconds and end reason, and the command's wall seconds
(server start and the speed check included); then the ratios stock/ours. The scripted user
plays the customer (it calibrates the harness; its figures are no model's). The machine is
shared: timings are noisy, compare within one run of this script.

    python benchmarks/local_conversation.py
    python benchmarks/local_conversation.py --only ours --tasks 5
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = {
    "stock": ["chat_format=chatml-function-calling", "calibrate=false"],
    "ours": [],
}


@dataclass
class Played:
    """One conversation: its agent calls (seconds, tokens in, tokens out, error), end, wall."""

    calls: list[tuple[float, int, int, str | None]]
    seconds: float
    reason: str
    detail: str
    wall_s: float
    estimate: str


def play(mode: str, folder: Path, tasks: str, timeout_s: float) -> Played:
    """Run the conversation with ``mode``'s agent options; its figures from the database."""
    db = folder / f"{mode}.db"
    command = [sys.executable, "-m", "tau_sim.simulator.cli.main", "run", "--quiet"]
    command += ["--domain", "retail", "--tasks", tasks, "--user", "scripted"]
    command += ["--agent", "local/smollm2-135m", "--db", str(db), "--timeout", f"{timeout_s:g}"]
    for arg in [*MODES[mode], f"log_dir={folder / mode}"]:
        command += ["--agent-arg", arg]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 3):  # 3: the conversation ended with an endpoint error
        raise SystemExit(f"{mode}: tau-sim exited {done.returncode}:\n{done.stderr}")
    estimate = next((line for line in done.stderr.splitlines() if " here: " in line), "")
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "select payload from events where kind = 'model_usage' order by seq"
        ).fetchall()
        started, ended, reason, detail = conn.execute(
            "select started_at, ended_at, reason, detail from conversations"
        ).fetchone()
    usages = [json.loads(r[0]) for r in rows]
    calls = [
        (u.get("latency_s", 0.0), u.get("tokens_in", 0), u.get("tokens_out", 0), u.get("error"))
        for u in usages
        if u["role"] == "agent"
    ]
    return Played(calls, ended - started, reason, detail or "", wall, estimate)


def show(mode: str, played: Played) -> None:
    """The per-call lines and the totals of one conversation."""
    print(f"\n{mode}: {played.estimate or '(no speed measured)'}")
    for i, (seconds, tokens_in, tokens_out, error) in enumerate(played.calls, 1):
        failed = f"  error: {error}" if error else ""
        tokens = f"{tokens_in:5d} prompt  {tokens_out:4d} answer"
        print(f"  call {i}: {seconds:7.1f} s  {tokens}{failed}")
    calls = sum(c[0] for c in played.calls)
    print(f"  agent calls: {len(played.calls)}, {calls:.1f} s in all")
    print(f"  conversation: {played.seconds:.1f} s, ended {played.reason}: {played.detail}")
    print(f"  command: {played.wall_s:.1f} s (server start and speed check included)")


def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tau-sim-local-conv-"))
    modes = [args.only] if args.only else list(MODES)
    played = {mode: play(mode, folder, args.tasks, args.timeout) for mode in modes}
    for mode, figures in played.items():
        show(mode, figures)
    if len(played) == 2:
        stock, ours = played["stock"], played["ours"]
        per_call_stock = sum(c[0] for c in stock.calls) / max(1, len(stock.calls))
        per_call_ours = sum(c[0] for c in ours.calls) / max(1, len(ours.calls))
        print("\nstock / ours:")
        finished = f"({len(stock.calls)} and {len(ours.calls)} finished calls)"
        ratio = per_call_stock / max(per_call_ours, 1e-9)
        print(f"  seconds per finished agent call: {ratio:.1f}x {finished}")
        print(f"  conversation: {stock.seconds / max(ours.seconds, 1e-9):.1f}x")
        print(f"  command: {stock.wall_s / max(ours.wall_s, 1e-9):.1f}x")
    print(f"\ndatabases and server logs: {folder}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=list(MODES), help="run one of the two")
    parser.add_argument("--tasks", default="1", help="--tasks of the run: one task (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per conversation")
    main(parser.parse_args())
