"""The order-free hash of a database state: what the reward compares.

A policy sets no order on the writes of a task, so two agents that make the same writes in
different orders must leave states that hash alike. Two things would tell them apart:

- sequences inside a record (special requests, add-ons, a payment ledger): each is compared as
  a multiset, its items sorted by their canonical JSON;
- ids a tool mints from creation order: every key of a record the base lacks is a new id
  (``chk_..._026``), and so is a string inside a record that starts with the record's key and a
  separator and that its base record lacks (a scheduled item ``HOM-6794436-I5``). A new id is
  written as ``#new`` wherever it appears as a whole string value, and the new records are
  compared as a multiset of their contents.

Deleted records hash as ``-`` under their (base) key. The hash reads plain JSON values, so a
tool's Structs and the same records read back from the store hash alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

NEW_ID = "#new"
"""What a minted id reads as in the order-free form."""

_encoder = msgspec.json.Encoder(order="deterministic")
_plain = msgspec.json.Decoder()


def _canonical(value: Any, new: frozenset[str]) -> Any:
    """``value`` (plain JSON) with new ids replaced and every list sorted as a multiset."""
    if isinstance(value, str):
        return NEW_ID if value in new else value
    if isinstance(value, dict):
        return {k: _canonical(v, new) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v, new) for v in value]
        return sorted(items, key=_encoder.encode)
    return value


def _strings(value: Any) -> Iterable[str]:
    """Every string inside ``value`` (plain JSON)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _minted_inside(
    key: str, record: Any, base: Any, is_base_key: Callable[[str], bool]
) -> set[str]:
    """Strings of ``record`` that name a new part of it (module doc); never a base record's key."""
    prefixes = tuple(key + sep for sep in _SEPARATORS)
    known = set(_strings(base)) if base is not None else set()
    return {
        s
        for s in _strings(record)
        if s.startswith(prefixes) and s not in known and not is_base_key(s)
    }


_SEPARATORS = ("-", "_", ":")


def order_free_hash(
    changes: Iterable[tuple[str, str, Any]],
    base_record: Callable[[str, str], Any],
    is_base_key: Callable[[str], bool],
) -> str:
    """The hash of ``changes`` (table, key, record-or-None), blind to the order of the writes.

    ``base_record(table, key)`` is the base's record (None: the base lacks it, the key is new);
    ``is_base_key(text)`` whether some base table holds a record of that key (a reference to an
    existing record is never read as a new id, so a write that points at the wrong one differs).
    """
    rows = [(t, k, None if r is None else _plain.decode(_encoder.encode(r))) for t, k, r in changes]
    new: set[str] = set()
    for table, key, record in rows:
        if record is not None:
            base = base_record(table, key)
            if base is None:
                new.add(key)
            else:
                base = _plain.decode(_encoder.encode(base))
            new |= _minted_inside(key, record, base, is_base_key)
    lines: list[bytes] = []
    for table, key, record in rows:
        name = NEW_ID if key in new else key
        body = b"-" if record is None else _encoder.encode(_canonical(record, frozenset(new)))
        lines.append(b"\0".join((table.encode(), name.encode(), body)))
    digest = hashlib.blake2b(digest_size=16)
    for line in sorted(lines):
        digest.update(line)
        digest.update(b"\n")
    return digest.hexdigest()


def exact_hash(changes: Iterable[tuple[str, str, Any]]) -> str:
    """The hash of ``changes`` in the order given, every sequence in its own order."""
    digest = hashlib.blake2b(digest_size=16)
    for table, key, value in changes:
        digest.update(table.encode())
        digest.update(b"\0")
        digest.update(key.encode())
        digest.update(b"\0")
        digest.update(b"-" if value is None else _encoder.encode(value))
        digest.update(b"\n")
    return digest.hexdigest()


__all__ = ["NEW_ID", "exact_hash", "order_free_hash"]
