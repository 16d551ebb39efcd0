"""``tracer construct``: held-out splits (``--hold-out``, ``--split``), run's duplicate rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world.domain import load_tasks
from tau_sim.tracer.construct import signature
from tau_sim.tracer.splits import read_record
from tests.tracer.conftest import tau_sim

HELD = "intents:cancel_pending_order,order_status_inquiry"


def _construct(*args: str) -> dict[str, Any]:
    done = tau_sim("tracer", "construct", "--domain", "retail", *args)
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def test_train_never_sees_the_held_out_intents_and_test_is_their_benchmark_tasks(
    tmp_path: Path,
) -> None:
    train, test = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    load_plugins()
    retail = get_domain("retail")
    names = {"cancel_pending_order", "order_status_inquiry"}
    count = 3 * (len(retail.intents) - len(names))  # round robin: three of each intent left
    held_tasks = sum(t.intent in names for t in retail.tasks)
    made = _construct(
        *("--count", str(count), "--seed", "2", "--hold-out", HELD, "--out", str(train))
    )
    held = _construct(
        *("--hold-out", HELD, "--split", "test", "--emotions", "anger", "--out", str(test))
    )
    assert made["kept"] == count and made["split"]["split"] == "train"
    assert held["kept"] == held_tasks == held["split"]["test_tasks"]
    trained, tested = load_tasks(train, retail), load_tasks(test, retail)
    assert {t.intent for t in tested} == names
    assert not {t.intent for t in trained} & names
    assert len({t.intent for t in trained}) == len(retail.intents) - 2
    benchmark = {t.id: t for t in retail.tasks}
    for task in tested:  # the benchmark's own tasks, ids kept, with a profile each
        assert signature(task) == signature(benchmark[task.id]) and task.emotion is not None
    record = read_record(Path(made["split_record"]))
    assert record == msgspec.structs.replace(read_record(Path(held["split_record"])), split="train")
    assert record.held_out_intents == sorted(names, key=[i.name for i in retail.intents].index)
    assert record.test_tasks == [t.id for t in tested]
    assert set(record.train_intents) == {t.intent for t in trained}


def test_a_held_out_domain_is_all_test(tmp_path: Path) -> None:
    test = tmp_path / "test.jsonl"
    held = _construct("--hold-out", "domains:retail", "--split", "test", "--out", str(test))
    load_plugins()
    assert held["kept"] == len(get_domain("retail").tasks)
    assert held["split"]["held_out_domains"] == ["retail"]
    other = _construct(
        *("--count", "5", "--hold-out", "domains:airline", "--out", str(tmp_path / "t.jsonl"))
    )
    assert other["kept"] == 5 and other["split"]["test_tasks"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "3", "--hold-out", "intents:nope"], "has no intent 'nope'"),
        (["--count", "3", "--hold-out", "tier:hard"], "expected intents:A,B or domains:X,Y"),
        (["--count", "3", "--hold-out", "intents:a,a"], "a name is given twice"),
        (["--count", "3", "--hold-out", "domains:mars"], "unknown domain 'mars'"),
        (["--count", "3", "--split", "test"], "--split test: give --hold-out"),
        (["--count", "3", "--hold-out", "domains:retail"], "holds out every intent"),
        (["--hold-out", "domains:airline", "--split", "test"], "holds out no benchmark task"),
        (["--hold-out", HELD], "--count: give how many tasks to keep"),
        (["--count", "3", "--seed", "-1"], "--seed must be in 0..2^63-1 (got -1)"),
        (
            ["--hold-out", HELD, "--split", "test", "--writer", "openai/x"],
            "paraphrase --split train",
        ),
    ],
)
def test_a_bad_split_is_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "t.jsonl"
    done = tau_sim("tracer", "construct", "--domain", "retail", *args, "--out", str(out))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert not out.exists() and not (tmp_path / "t.jsonl.split.json").exists()


@pytest.mark.parametrize(
    ("emotions", "intensities"),
    [("anger,frustration", "high"), ("fear,fear", "high"), ("anger", "low,0.3")],
)
def test_construct_refuses_the_duplicates_run_refuses(
    tmp_path: Path, emotions: str, intensities: str
) -> None:
    ran = tau_sim(
        *("run", "--domain", "retail", "--tasks", "1", "--dry-run"),
        *("--emotions", emotions, "--intensities", intensities),
    )
    made = tau_sim(
        *("tracer", "construct", "--domain", "retail", "--count", "2"),
        *("--emotions", f"{emotions};intensity={intensities}", "--out", str(tmp_path / "t")),
    )
    assert ran.returncode == made.returncode == 2, (ran.stderr, made.stderr)
    said = ran.stderr.strip().split(": ", 3)[-1]  # after the flag: "'a' and 'b' are the same"
    assert said in made.stderr, (ran.stderr, made.stderr)
