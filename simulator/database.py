"""Copy-on-write domain databases: one shared immutable base, one small overlay per conversation.

Records are frozen msgspec Structs (nested collections as tuples), so a tool can only change the
database through ``put``/``delete``. Forking is O(1) and hashing costs only what changed, which
keeps a live conversation's memory in kilobytes whatever the size of the domain.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

_DELETED = object()
_encoder = msgspec.json.Encoder(order="deterministic")


class Database:
    """A domain database: ``base`` tables (shared, never mutated) plus this copy's changes."""

    __slots__ = ("_base", "_overlay", "indexes")

    def __init__(
        self,
        base: Mapping[str, Mapping[str, Any]],
        indexes: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self._base = base
        self._overlay: dict[str, dict[str, Any]] = {}
        self.indexes: Mapping[str, Mapping[str, Any]] = indexes or {}

    def fork(self) -> Database:
        """A fresh copy that shares the base and starts with this copy's changes."""
        copy = Database(self._base, self.indexes)
        copy._overlay = {t: dict(rows) for t, rows in self._overlay.items()}
        return copy

    def get(self, table: str, key: str) -> Any | None:
        """The record ``key`` of ``table``, or None."""
        rows = self._overlay.get(table)
        if rows is not None and key in rows:
            value = rows[key]
            return None if value is _DELETED else value
        return self._base.get(table, {}).get(key)

    def put(self, table: str, key: str, record: Any) -> None:
        """Insert or replace a record."""
        self._overlay.setdefault(table, {})[key] = record

    def delete(self, table: str, key: str) -> None:
        """Remove a record."""
        self._overlay.setdefault(table, {})[key] = _DELETED

    def keys(self, table: str) -> Iterator[str]:
        """Keys of a table, base order first, then records added by this copy."""
        rows = self._overlay.get(table, {})
        base = self._base.get(table, {})
        for key in base:
            if rows.get(key, None) is not _DELETED:
                yield key
        for key, value in rows.items():
            if key not in base and value is not _DELETED:
                yield key

    def items(self, table: str) -> Iterator[tuple[str, Any]]:
        """(key, record) pairs of a table with this copy's changes applied."""
        for key in self.keys(table):
            record = self.get(table, key)
            if record is not None:
                yield key, record

    def changes(self) -> list[tuple[str, str, Any]]:
        """(table, key, record-or-None) for every record that differs from the base, sorted."""
        out: list[tuple[str, str, Any]] = []
        for table in sorted(self._overlay):
            base = self._base.get(table, {})
            for key in sorted(self._overlay[table]):
                value = self._overlay[table][key]
                if value is _DELETED:
                    if key in base:
                        out.append((table, key, None))
                elif base.get(key) != value:
                    out.append((table, key, value))
        return out

    def state_hash(self) -> str:
        """A hash of the state: equal for two copies of one base exactly when their data agree."""
        digest = hashlib.blake2b(digest_size=16)
        for table, key, value in self.changes():
            digest.update(table.encode())
            digest.update(b"\0")
            digest.update(key.encode())
            digest.update(b"\0")
            digest.update(b"-" if value is None else _encoder.encode(value))
            digest.update(b"\n")
        return digest.hexdigest()
