"""``tau-sim show``: one conversation's transcript, ending and failure reason.

``results.transcript`` and ``results.report`` (rich) are imported where used (a lean start-up).
"""

from __future__ import annotations

import argparse

from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(show: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim show``."""
    show.add_argument("conversation_id", help="conversation id (see `tau-sim export RUN_ID`)")
    show.add_argument("--db", default=DEFAULT_DB)
    show.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Print the transcript (or ``--json``) of one stored conversation."""
    from tau_sim.simulator.results.terminal import stdout_console
    from tau_sim.simulator.results.transcript import (
        load_transcript,
        render_transcript,
        transcript_json,
    )

    db = open_database(args.db, readonly=True)
    transcript = load_transcript(db, args.conversation_id)
    if args.json:
        print(transcript_json(transcript))
    else:
        render_transcript(transcript, stdout_console())
    return 0


COMMAND = Command(
    "show", "one conversation's transcript, ending and failure reason", configure, run
)
