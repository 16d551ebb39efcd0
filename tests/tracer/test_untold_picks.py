"""Tracer drops conversations where the agent picked a record nobody singled out (real CLI).

insurance-016: the user asks to change the payment method of "the policy that claim is on", has
two policies, and gold takes the one the claim's record points to, a link the measure does not
follow (``simulator.world.untold_picks``: the one untold pick gold still makes);
insurance-000 is told. Played by the real ``tau-sim run`` into a SQLite file.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.tracer.conftest import tau_sim


def test_the_filter_drops_an_untold_pick_and_says_why(tmp_path: Path) -> None:
    db, out = tmp_path / "picks.db", tmp_path / "selection.json"
    ran = tau_sim(
        *("run", "--domain", "insurance", "--tasks", "insurance-016,insurance-000"),
        *("--agent", "scripted/gold", "--db", str(db), "--quiet"),
    )
    assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(db) as conn:
        (run_id,) = conn.execute("select id from runs").fetchone()
    base = ("tracer", "filter", run_id, "--db", str(db), "--out", str(out))
    kept = tau_sim(*base)
    assert kept.returncode == 0, kept.stderr
    report = json.loads(kept.stdout)
    assert (report["total"], report["kept"]) == (2, 1)
    assert report["dropped"]["untold_picks"] == report["flagged"]["untold_picks"] == 1
    (kept_id,) = json.loads(out.read_text())["kept"]
    with sqlite3.connect(db) as conn:
        (task,) = conn.execute(
            "select task_id from conversations where id = ?", (kept_id,)
        ).fetchone()
    assert task == "insurance-000"
    # the threshold is a flag: allowing one untold pick keeps both
    loose = tau_sim(*base, "--force", "--max-untold-picks", "1")
    assert loose.returncode == 0, loose.stderr
    assert json.loads(loose.stdout)["kept"] == 2
    bad = tau_sim(*base, "--force", "--max-untold-picks", "many")
    assert bad.returncode == 2
    assert "--max-untold-picks" in bad.stderr and "Traceback" not in bad.stderr
