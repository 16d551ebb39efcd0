"""The scripted user's reading of device steps (``users.device_steps``) on the hand-written
corpus of how agents ask for them (tests/users/corpus/DEVICE.md): a turn is read right when its
steps, in order, are the label's.

The reader was tuned on ``device_turns.jsonl`` only; ``device_turns_heldout.jsonl`` measures
it on wording it was not tuned on. Issue 38 asks 95 % on both; the held-out figure is below
that today (79.5 % when measured), so its floor here guards against losing ground, not the
goal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world import user_steps
from tau_sim.users.device_steps import Topic, clauses, read_steps, topics_of

CORPUS = Path(__file__).parent / "corpus"
FLOORS = {"device_turns.jsonl": 0.95, "device_turns_heldout.jsonl": 0.75}


def telecom_topics() -> list[Topic]:
    return topics_of(user_steps(get_domain("telecom")))


def accuracy(name: str) -> tuple[float, list[str]]:
    tools = telecom_topics()
    rows = [json.loads(line) for line in (CORPUS / name).read_text().splitlines() if line]
    wrong = [
        f"{row['id']}: {row['acts']['steps']} read as {got}"
        for row in rows
        if (got := read_steps(row["text"], tools)) != row["acts"]["steps"]
    ]
    return 1 - len(wrong) / len(rows), wrong


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_device_steps_are_read_by_meaning(name: str) -> None:
    share, wrong = accuracy(name)
    print(f"{name}: {share:.1%} of turns read right")
    assert share >= FLOORS[name], "\n".join(wrong)


def test_the_wording_that_failed_in_issue_38_is_read() -> None:
    tools = telecom_topics()
    cases = {
        "Please pop the SIM tray out, reseat the SIM card firmly, and slide it back in.": [
            "reseat_sim_card"
        ],
        "please look at the Messages app's permissions and tell me what it's allowed to do.": [
            "check_app_permissions"
        ],
        "Please grant the Messages app all the permissions it requests.": [
            "grant_messaging_permissions"
        ],
        "Now restart the phone, please.": ["restart_device"],
        "Airplane mode cuts every radio, which is why you had no signal.": [],
    }
    for text, steps in cases.items():
        assert read_steps(text, tools) == steps, text


def test_a_message_is_cut_into_the_clauses_it_asks() -> None:
    assert clauses("First, restart it; then check the APN.\n- call 611") == [
        "first",
        "restart it",
        "then check the apn.",
        "- call 611",
    ]
