"""``tau-sim users audit`` on a real scripted run with planted faulty users beside it.

The store is made by ``tau-sim run`` (scripted gold agent, scripted user); each planted user is
a copy of one of its conversations under another user name, written with the store's own writer,
with one fault put in: a user inventing an order id, one naming a person nobody named, a neutral
user shouting, a user repeating itself, a user accepting at once, one never giving the email it
was asked, one giving in at the first refusal although set to insist five times, a neutral user
insisting, one writing past its persona's length. The audit must flag each, and only there.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.simulator.core import STOP
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    ConversationStarted,
    Event,
    UserMessage,
)
from tau_sim.simulator.results.metrics import conversation_rows
from tau_sim.simulator.store import Store
from tau_sim.simulator.store.opening import open_database
from tau_sim.simulator.store.reads import iter_events
from tau_sim.users.audit_conduct import REFUSING
from tests.helpers.cli import tau_sim

Edit = Callable[[list[Event]], list[Event]]
REFUSAL = "retail-011"
"""A retail task whose user demands what the policy refuses."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one real run: two retail tasks (the second with a demand to refuse), neutral
    and anger at high intensity."""
    db = tmp_path_factory.mktemp("audit") / "runs.db"
    tau_sim(
        "run", "--domain", "retail", "--tasks", f"retail-001,{REFUSAL}",
        "--emotions", "neutral,anger", "--intensities", "high", "--seed", "3",
        "--db", str(db), "--quiet",
    )  # fmt: skip
    sqlite = open_database(db, readonly=True)
    run_id = str(next(iter(sqlite.query("select id from runs")))["id"])
    sqlite.conn.close()
    return db, run_id


def _audit(db: Path, run_id: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        tau_sim("users", "audit", run_id, "--db", str(db), "--json").stdout
    )
    return rows


def _user_texts(events: list[Event], change: Callable[[int, str], str]) -> list[Event]:
    out: list[Event] = []
    n = 0
    for ev in events:
        if isinstance(ev, UserMessage):
            ev = msgspec.structs.replace(ev, text=change(n, ev.text))
            n += 1
        out.append(ev)
    return out


def invents(events: list[Event]) -> list[Event]:
    """The user's second message also names an order id nobody gave it."""
    return _user_texts(
        events, lambda n, t: t + " Oh, and it's order #W9182736, I think." if n == 1 else t
    )


def shouts(events: list[Event]) -> list[Event]:
    """A neutral user opens furious."""
    return _user_texts(
        events,
        lambda n, t: (
            "THIS IS ABSOLUTELY OUTRAGEOUS!!! I am furious and disgusted. " + t if n == 0 else t
        ),
    )


def repeats(events: list[Event]) -> list[Event]:
    """The user says its opening sentence again in every later message."""
    first = next(e.text for e in events if isinstance(e, UserMessage)).split(". ")[0] + "."
    return _user_texts(events, lambda n, t: f"{first} {t}" if n else t)


def names(events: list[Event]) -> list[Event]:
    """The user's second message names a person nobody named."""
    return _user_texts(
        events, lambda n, t: t + " My neighbour Marguerite had the same trouble." if n == 1 else t
    )


def withholds(events: list[Event]) -> list[Event]:
    """The user answers the agent's question for its email without giving it."""
    return _user_texts(events, lambda n, t: "I'd rather not say that here." if "@" in t else t)


def rambles(events: list[Event]) -> list[Event]:
    """Every message runs on past any persona's sentences."""
    more = " It rained. The bus was late. My tea went cold. The cat slept. Work was long."
    return _user_texts(events, lambda n, t: t + more)


def _refusal_answer(events: list[Event]) -> int:
    """The index of the user message right after the agent's first refusal."""
    said = -1
    refused = False
    for ev in events:
        if isinstance(ev, UserMessage):
            said += 1
            if refused:
                return said
        elif isinstance(ev, AgentMessage) and ev.text and REFUSING.search(ev.text):
            refused = True
    raise AssertionError("the agent refused nothing")


def gives_in(events: list[Event]) -> list[Event]:
    """The user accepts the first refusal and leaves."""
    at = _refusal_answer(events)
    out: list[Event] = []
    said = -1
    for ev in events:
        if isinstance(ev, UserMessage):
            said += 1
            if said == at:
                out.append(msgspec.structs.replace(ev, text=f"Okay, fine. {STOP}", ends=STOP))
                break
        out.append(ev)
    ended = next(e for e in events if isinstance(e, ConversationEnded))
    out.append(msgspec.structs.replace(ended, seq=out[-1].seq + 1, reason="user_stop"))
    return out


def presses(events: list[Event]) -> list[Event]:
    """A neutral user insists on the refused demand once."""
    at = _refusal_answer(events)
    return _user_texts(events, lambda n, t: f"I insist, make an exception. {t}" if n == at else t)


def accepts(events: list[Event]) -> list[Event]:
    """The user thanks and leaves after the agent's first reply."""
    out: list[Event] = []
    said = 0
    for ev in events:
        if isinstance(ev, UserMessage):
            said += 1
            if said == 2:
                out.append(msgspec.structs.replace(ev, text=f"Great, thanks! {STOP}", ends=STOP))
                break
        out.append(ev)
    ended = next(e for e in events if isinstance(e, ConversationEnded))
    out.append(msgspec.structs.replace(ended, seq=out[-1].seq + 1, reason="user_stop"))
    return out


def plant(db: Path, run_id: str, emotion: str, user: str, cell: int, edit: Edit) -> None:
    """Copy a conversation of ``emotion`` as user ``user`` (cell ``cell``), edited by ``edit``.

    ``emotion`` may end in ``@TASK``: the conversation of that task (else the first task's).
    """
    emotion, _, task = emotion.partition("@")
    sqlite = open_database(db, readonly=True)
    source = next(
        r["id"]
        for r in conversation_rows(sqlite, run_id)
        if r["emotion"] == emotion and r["task_id"] == (task or "retail-001")
    )
    events = list(iter_events(sqlite, source))
    sqlite.conn.close()
    target = f"{run_id}/{cell:06d}"
    moved = [
        msgspec.structs.replace(e, conversation=target, user=user)
        if isinstance(e, ConversationStarted)
        else msgspec.structs.replace(e, conversation=target)
        for e in edit(events)
    ]

    async def write() -> None:
        store = Store(db, create=False)
        async with anyio.create_task_group() as tg:
            tg.start_soon(store.run_writer)
            for ev in moved:
                await store.deliver(ev)
            await store.close()
        store.close_sync()

    anyio.run(write)


@pytest.fixture(scope="module")
def planted(played: tuple[Path, str]) -> tuple[dict[str, list[dict[str, Any]]], Path, str]:
    """The audit rows per user of a copy of ``played`` with the planted users."""
    db, run_id = played
    copy = db.with_name("planted.db")
    shutil.copy(db, copy)
    faults: list[tuple[str, str, Edit]] = [
        ("frustration", "planted/invents", invents),
        ("neutral", "planted/shouts", shouts),
        ("frustration", "planted/repeats", repeats),
        ("frustration", "planted/accepts", accepts),
        ("frustration", "planted/names", names),
        ("frustration", "planted/withholds", withholds),
        (f"frustration@{REFUSAL}", "planted/gives-in", gives_in),
        (f"neutral@{REFUSAL}", "planted/presses", presses),
        ("frustration", "planted/rambles", rambles),
        ("frustration", "human", repeats),
    ]
    for cell, (emotion, user, edit) in enumerate(faults, start=1000):
        plant(copy, run_id, emotion, user, cell, edit)
    by_user: dict[str, list[dict[str, Any]]] = {}
    for row in _audit(copy, run_id):
        by_user.setdefault(row["user"], []).append(row)
    return by_user, copy, run_id


def test_the_scripted_user_reads_clean(played: tuple[Path, str]) -> None:
    rows = _audit(*played)
    assert {r["emotion"] for r in rows} == {"neutral", "frustration"}
    for row in rows:
        assert row["user"] == "scripted" and row["conversations"] == 2
        assert row["invented_facts"] == 0 and row["repeated_sentence_share"] == 0
        assert row["accepted_at_once"] == 0 and row["unanswered_questions"] == 0
        assert row["over_cooperation"] == 0 and row["over_insistence"] == 0
        for key in ("family_match", "intensity_rank_corr", "distinct_2"):
            assert key in row
    neutral = next(r for r in rows if r["emotion"] == "neutral")
    assert neutral["family_match"] == 1.0 and neutral["flags"] == []


def test_an_invented_order_id_is_flagged(planted: Any) -> None:
    (row,) = planted[0]["planted/invents"]
    assert row["invented_facts"] == 1.0 and "invented_facts" in row["flags"]
    assert row["invented_examples"] == ["W9182736"]


def test_a_shouting_neutral_user_does_not_read_neutral(planted: Any) -> None:
    (row,) = planted[0]["planted/shouts"]
    assert row["emotion"] == "neutral"
    assert row["family_match"] == 0.0 and "family_match" in row["flags"]
    calm = next(r for r in planted[0]["scripted"] if r["emotion"] == "neutral")
    assert row["expressed_intensity"] > 2 * calm["expressed_intensity"]


def test_a_user_repeating_itself_is_flagged(planted: Any) -> None:
    (row,) = planted[0]["planted/repeats"]
    assert row["repeated_sentence_share"] > 0.5 and "repeated_sentence_share" in row["flags"]
    assert row["distinct_2"] < planted[0]["scripted"][1]["distinct_2"]


def test_a_user_accepting_at_once_is_flagged(planted: Any) -> None:
    (row,) = planted[0]["planted/accepts"]
    assert row["accepted_at_once"] == 1.0 and "accepted_at_once" in row["flags"]
    assert row["messages_per_conversation"] == 2


def test_a_name_nobody_said_is_an_invented_fact(planted: Any) -> None:
    (row,) = planted[0]["planted/names"]
    assert row["invented_facts"] == 1.0 and "invented_facts" in row["flags"]
    assert row["invented_examples"] == ["Marguerite"]


def test_a_fact_asked_and_never_given_is_unanswered(planted: Any) -> None:
    (row,) = planted[0]["planted/withholds"]
    assert row["unanswered_questions"] == 1.0 and "unanswered_questions" in row["flags"]
    assert row["invented_facts"] == 0


def test_giving_in_before_the_pushback_is_spent_is_over_cooperation(planted: Any) -> None:
    scripted = next(
        r for r in planted[0]["scripted"] if r["emotion"] == "frustration" and r["insistences_set"]
    )
    assert scripted["insistences_made"] == scripted["insistences_set"] == 5
    assert scripted["over_cooperation"] == 0 and scripted["over_insistence"] == 0
    (row,) = planted[0]["planted/gives-in"]
    assert row["insistences_set"] == 5 and row["insistences_made"] == 0
    assert row["over_cooperation"] == 1.0 and "over_cooperation" in row["flags"]


def test_a_neutral_user_insisting_is_over_insistence(planted: Any) -> None:
    (row,) = planted[0]["planted/presses"]
    assert row["insistences_set"] == 0 and row["insistences_made"] == 1
    assert row["over_insistence"] == 1.0 and "over_insistence" in row["flags"]
    assert row["over_cooperation"] == 0


def test_messages_past_the_persona_length_are_flagged(planted: Any) -> None:
    (row,) = planted[0]["planted/rambles"]
    assert row["persona_length_breaks"] == 1.0 and "persona_length_breaks" in row["flags"]
    (persona,) = row["words_by_persona"]
    scripted = next(r for r in planted[0]["scripted"] if r["emotion"] == "frustration")
    assert row["words_by_persona"][persona] > scripted["words_by_persona"][persona]


def test_the_plot_is_a_png(planted: Any, tmp_path: Path) -> None:
    _, db, run_id = planted
    png = tmp_path / "card.png"
    out = tau_sim("users", "audit", run_id, "--db", str(db), "--plot", str(png))
    assert "planted/shouts" in out.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_human_session_gives_each_simulator_its_gap(planted: Any) -> None:
    (human,) = planted[0]["human"]
    scripted = next(r for r in planted[0]["scripted"] if r["emotion"] == human["emotion"])
    gap = scripted["repeated_sentence_share"] - human["repeated_sentence_share"]
    assert gap < 0 and scripted["repeated_sentence_share_gap_to_human"] == round(gap, 4)
    assert "family_match_gap_to_human" not in human
