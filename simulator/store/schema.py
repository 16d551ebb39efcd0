"""The store's tables and schema version, and the migration of older files to it.

``create_schema`` makes the tables of a new file (``meta``, ``runs``, ``conversations``, the
events' ``event_rows`` and view from ``tau_sim.simulator.store.event_rows``, ``rescores``);
``migrate`` brings a file of version 1, 2 or 3 to ``SCHEMA_VERSION`` in one transaction, and
``add_columns`` gives a file the columns added since (also to a read-only file's copy in memory).
"""

from __future__ import annotations

import sqlite_utils

from tau_sim.simulator.core.grading import LIVE, NOT_EVALUATED, RESCORED
from tau_sim.simulator.store.event_rows import create_event_rows, has_event_rows, migrate_events
from tau_sim.simulator.store.usage import ROLE_FIELDS, ROLES

SCHEMA_VERSION = 4
"""4: the grading provenance of each conversation's reward, ``PROVENANCE_COLUMNS``
(``simulator.core.grading``); ``migrate_provenance`` gives the rows of an older file theirs.
3: events in ``event_rows`` with integer conversation and kind keys (``conversations.key``,
``event_kinds``), read through the view ``events`` (``simulator.store.event_rows``); new files have
16 KB pages. 2: ``runs.tasks_hash`` (the hash of the run's task set, checked by ``--resume``)
and the ``conversations`` columns ``politeness``, ``urgency``, ``trust`` (NULL: the leaf's own
level). Added in place without a version change: ``runs.heartbeat_at``, ``runs.pid``, ``runs.host``,
``runs.claimed_at`` and ``runs.earlier_s`` (when the process now or last playing the run claimed
it, and the seconds earlier invocations played it: ``reads.played_seconds``) (NULL in runs
stored before them; readers do not need them), and the ``conversations`` columns of
``CONVERSATION_COLUMNS`` (per-role tokens and cost, the failure reason, ``refusal``: 1 where the
conversation's task is a refusal task, 0 where not, NULL in rows stored before it, whose
report reads the refusal tasks from the domains as before)."""
LEVEL_COLUMNS = ("politeness", "urgency", "trust")
CONVERSATION_COLUMNS = {
    **{f"{role}_{name}": kind for role in ROLES for name, kind in ROLE_FIELDS.items()},
    "failure": "text",
    "failure_detail": "text",
    "refusal": "integer",
}
"""Columns of ``conversations`` that older files may lack, with their SQL types."""
PROVENANCE_COLUMNS = {
    "scored_by": "text",
    "scorer_version": "integer",
    "scored_at": "float",
    "warnings": "text",
}
"""Columns of ``conversations`` (version 4) saying how its reward was computed: ``live``,
``rescored`` or ``replayed``; the ``SCORER_VERSION`` (NULL: unknown); when (seconds since the
epoch); the warning codes as a JSON list (``core.grading.WARNINGS``). NULL until it is scored."""
RUN_COLUMNS = {
    "tasks_hash": "text",
    "heartbeat_at": "float",
    "pid": "integer",
    "host": "text",
    "claimed_at": "float",
    "earlier_s": "float",
}
"""Columns of ``runs`` that older files may lack, with their SQL types (added when opened)."""


def create_schema(sqlite: sqlite_utils.Database) -> None:
    """Create the tables of a new file, marked ``SCHEMA_VERSION`` (in the caller's transaction)."""
    sqlite.table("meta").create({"key": str, "value": str}, pk="key", if_not_exists=True)
    sqlite.table("runs").create(
        {
            "id": str,
            "created_at": float,
            "ended_at": float,
            "status": str,
            "seed": int,
            "config": str,
            "cells": int,
            "tasks_hash": str,
            "heartbeat_at": float,
            "pid": int,
            "host": str,
            "claimed_at": float,
            "earlier_s": float,
        },
        pk="id",
        if_not_exists=True,
    )
    sqlite.table("conversations").create(
        {
            "id": str,
            "run_id": str,
            "cell": int,
            "task_id": str,
            "domain": str,
            "agent": str,
            "user": str,
            "emotion": str,
            "intensity": float,
            "trial": int,
            "seed": int,
            "politeness": str,
            "urgency": str,
            "trust": str,
            "status": str,
            "reason": str,
            "reward": float,
            "abandoned": int,
            "breakdown": str,
            "detail": str,
            "turns": int,
            "tool_calls": int,
            "questions": int,
            "model_calls": int,
            "tokens_in": int,
            "tokens_out": int,
            "cost_usd": float,
            "started_at": float,
            "ended_at": float,
            "key": int,
            **{
                column: (int if kind == "integer" else float if kind == "float" else str)
                for column, kind in (CONVERSATION_COLUMNS | PROVENANCE_COLUMNS).items()
            },
        },
        pk="id",
        if_not_exists=True,
    )
    sqlite.table("conversations").create_index(["run_id", "cell"], unique=True, if_not_exists=True)
    create_event_rows(sqlite.conn)
    create_rescores_table(sqlite)
    sqlite.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")


def create_rescores_table(sqlite: sqlite_utils.Database) -> None:
    """The record of ``tau-sim rescore --write`` runs (created on demand in older files)."""
    sqlite.table("rescores").create(
        {
            "id": int,
            "run_id": str,
            "rescored_at": float,
            "rescored": int,
            "changed": int,
            "tasks_file": str,
        },
        pk="id",
        if_not_exists=True,
    )


def missing_columns(sqlite: sqlite_utils.Database) -> list[tuple[str, str, str]]:
    """(table, column, type) of every column a file of an older version (1 to 3) lacks."""
    missing = [
        ("conversations", column, "text")
        for column in LEVEL_COLUMNS
        if column not in sqlite.table("conversations").columns_dict
    ]
    runs = sqlite.table("runs").columns_dict
    missing += [("runs", c, kind) for c, kind in RUN_COLUMNS.items() if c not in runs]
    have = sqlite.table("conversations").columns_dict
    missing += [
        ("conversations", c, kind)
        for c, kind in (CONVERSATION_COLUMNS | PROVENANCE_COLUMNS).items()
        if c not in have
    ]
    return missing


def add_columns(sqlite: sqlite_utils.Database) -> None:
    """Add the missing columns (NULL in stored rows) and mark the file as this version.

    Version 1 -> 2 adds the level columns and ``runs.tasks_hash``: a run stored by version 1
    has no task-set hash, so it can be reported and rescored but not resumed (``--resume``
    says so). Any version-2 file gains the heartbeat, per-role cost and failure columns the
    same way. A file without the provenance columns (versions 1 to 3) gets them and, for its
    completed rows, the provenance that is true of them (``migrate_provenance``). Runs inside
    the caller's transaction.
    """
    missing = missing_columns(sqlite)
    for table, column, kind in missing:
        sqlite.execute(f"alter table {table} add column {column} {kind}")
    if ("conversations", "scored_by", "text") in missing:
        migrate_provenance(sqlite)
    sqlite.execute("update meta set value = ? where key = 'schema_version'", [str(SCHEMA_VERSION)])


def migrate_provenance(sqlite: sqlite_utils.Database) -> None:
    """Give each completed conversation of an older file the provenance true of it.

    Its reward was computed while it ran (``live``) unless ``rescore --write`` ran on its run
    after its end (a ``rescores`` row: every completed conversation of the run was scored
    again then; ``rescored`` at the last such time); the scorer version is unknown (NULL); the
    time is its end's or the rescore's; its warnings are ``not_evaluated`` where its breakdown
    lists a check not evaluated, else none (``older_provenance``). Nothing else changes.
    """
    found = older_provenance("rescores" in sqlite.table_names())
    sets = ", ".join(f"{column} = {sql}" for column, sql in found.items())
    sqlite.execute(
        f"update conversations set {sets} where status = 'completed' and scored_by is null"
    )


def older_provenance(has_rescores: bool) -> dict[str, str]:
    """SQL per provenance column: what is true of a row of a file older than version 4.

    ``migrate_provenance`` stores them; a reader of such a file opened read-only selects them.
    """
    rescored = "null"
    if has_rescores:
        rescored = (
            "(select max(r.rescored_at) from rescores r where r.run_id = conversations.run_id "
            "and r.rescored_at >= coalesce(conversations.ended_at, 0))"
        )
    return {
        "scored_by": f"case when {rescored} is null then '{LIVE}' else '{RESCORED}' end",
        "scorer_version": "null",
        "scored_at": f"coalesce({rescored}, ended_at)",
        "warnings": (
            "case when json_valid(breakdown) and "
            "json_array_length(json_extract(breakdown, '$.not_evaluated')) > 0 "
            f"then '[\"{NOT_EVALUATED}\"]' else '[]' end"
        ),
    }


def migrate(sqlite: sqlite_utils.Database, *, version: str) -> None:
    """Bring a file of an older version (or layout) to this one, in one transaction.

    ``add_columns``, then (versions 1 and 2) ``migrate_events``: the ``events`` table becomes
    ``event_rows`` and the view. A failure (or a crash) anywhere rolls it all back: the file
    stays as it was.
    """
    moved = has_event_rows(sqlite)
    if moved and not missing_columns(sqlite) and version == str(SCHEMA_VERSION):
        return
    conn = sqlite.conn
    conn.execute("begin immediate")
    try:
        add_columns(sqlite)
        if not moved:
            migrate_events(conn)
    except BaseException:
        conn.rollback()
        raise
    conn.commit()
