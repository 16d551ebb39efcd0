"""Record codes: a new reservation's or booking's id, the same on every replay.

``new_code`` derives a code from a seed the tool builds of its arguments (never from a random
draw or the clock), so a gold path replayed on a fresh database creates the same records;
``drawn_code`` is a base generator's code, drawn from its seeded random source.
"""

from __future__ import annotations

import hashlib
import random

from tau_sim.simulator.world import Database, ToolError

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Upper-case letters and digits without the look-alikes I, O, 0 and 1."""


def new_code(
    db: Database,
    table: str,
    seed: str,
    *,
    prefix: str = "",
    length: int = 6,
    label: str = "",
) -> str:
    """A code ``prefix`` + ``length`` characters derived from ``seed``, unused in ``table``.

    ``ToolError`` ("could not allocate a <label> code", ``label`` defaulting to ``table``) when
    a hundred candidates are all taken.
    """
    for n in range(100):
        digest = hashlib.sha256(f"{seed}|{n}".encode()).digest()
        code = prefix + "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:length])
        if db.get(table, code) is None:
            return code
    raise ToolError(f"could not allocate a {label or table} code")


def drawn_code(rng: random.Random, taken: set[str], prefix: str = "") -> str:
    """A code ``prefix`` + six characters drawn by ``rng``, not in ``taken`` (added to it).

    A code of digits only is drawn again (it would read as a number).
    """
    while True:
        code = prefix + "".join(rng.choices(CODE_ALPHABET, k=6))
        if code not in taken and not code.isdigit():
            taken.add(code)
            return code
