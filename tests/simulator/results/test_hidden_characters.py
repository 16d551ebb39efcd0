"""Stored text with control, bidirectional and zero-width characters never reaches a terminal raw.

A real scripted run whose user opens with NUL, an ANSI colour sequence, a right-to-left override
and a zero-width space (the task file's opening line); the stored agent message, failure
detail and agent name get the same characters by rewriting the file with sqlite3. Then the real
``tau-sim show`` (text and ``--json``), ``report`` and ``runs``: their stdout bytes hold no raw
control or format character (only newlines, tabs, printable text) and do hold the escapes.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest

from tests.helpers.cli import tau_sim

HIDDEN = "\x00 \x1b[31mred \u202eevil \u200bgap"
"""NUL, ESC with a colour, a right-to-left override and a zero-width space."""
SHOWN = r"\x00 \x1b[31mred \u202eevil \u200bgap"
"""How a terminal view prints ``HIDDEN``."""
OPENING = f"Hi {HIDDEN}, cancel my order."
AGENT = f"Let me check {HIDDEN} for you."
AGENT_NAME = "x\u202ey"
"""An agent name that a right-to-left override turns around (short: the runs table is narrow)."""


def raw_hidden(output: bytes) -> list[str]:
    """The control and format characters (but newline and tab) in ``output``, as code points."""
    text = output.decode("utf-8")
    return [
        f"U+{ord(c):04X}"
        for c in text
        if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")
    ]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one conversation full of hidden characters, and that conversation's id."""
    folder = tmp_path_factory.mktemp("hidden")
    good = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
    task = json.loads(good.read_text().splitlines()[0])
    task["scenario"]["opening"] = OPENING
    tasks = folder / "hidden.jsonl"
    tasks.write_text(json.dumps(task) + "\n")
    db = folder / "h.db"
    tau_sim("run", "--tasks-file", str(tasks), "--agent", "scripted/sloppy", "--db", str(db))
    conn = sqlite3.connect(db)
    with conn:
        (cid, key) = conn.execute("select id, key from conversations").fetchone()
        rowid, payload = conn.execute(
            "select e.rowid, e.payload from event_rows e join event_kinds k on k.key = e.kind "
            "where e.conversation = ? and k.name = 'agent_message' order by e.seq limit 1",
            [key],
        ).fetchone()
        message = json.loads(payload)
        message["text"] = AGENT
        conn.execute(
            "update event_rows set payload = ? where rowid = ?", [json.dumps(message), rowid]
        )
        conn.execute(
            "update conversations set failure = 'wrong_answer', failure_detail = ?, agent = ?",
            [f"said {HIDDEN}", AGENT_NAME],
        )
        (config,) = conn.execute("select config from runs").fetchone()
        conn.execute(
            "update runs set config = ?",
            [json.dumps({**json.loads(config), "agents": [AGENT_NAME]})],
        )
    conn.close()
    return db, cid


def test_show_escapes_what_the_user_and_the_agent_wrote(stored: tuple[Path, str]) -> None:
    db, cid = stored
    out = tau_sim("show", cid, "--db", str(db), text=False).stdout
    assert raw_hidden(out) == []
    shown = out.decode()
    assert f"user Hi {SHOWN}, cancel my order." in shown
    assert f"agent Let me check {SHOWN} for you." in shown
    assert f"failure: wrong_answer — said {SHOWN}" in shown
    assert r"agent x\u202ey" in shown


def test_show_json_escapes_them_and_decodes_to_the_stored_text(stored: tuple[Path, str]) -> None:
    db, cid = stored
    out = tau_sim("show", cid, "--json", "--db", str(db), text=False).stdout
    assert raw_hidden(out) == []
    assert rb"\u0000 \u001b[31mred \u202eevil \u200bgap" in out
    data = json.loads(out)
    texts = [e.get("text") for e in data["events"]]
    assert OPENING in texts and AGENT in texts
    assert data["conversation"]["failure_detail"] == f"said {HIDDEN}"
    assert data["conversation"]["agent"] == AGENT_NAME


def test_report_and_runs_escape_stored_names(stored: tuple[Path, str]) -> None:
    db, _ = stored
    report = tau_sim("report", "--db", str(db), text=False).stdout
    assert raw_hidden(report) == []
    assert rb"x\u202ey" in report
    runs = tau_sim("runs", "--db", str(db), text=False).stdout
    assert raw_hidden(runs) == []
    assert rb"x\u202ey" in runs
