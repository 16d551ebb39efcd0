"""Patient authentication by name and date of birth (a factor the kit does not have yet).

``NAME_DOB`` is a kit ``Factor``; ``find_patient_id_by_name_dob`` is its lookup tool. Both could
move to ``domains.kit.identity`` once another world needs them.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any

from domains.kit.identity import Factor
from domains.kit.people import Customer
from simulator.database import Database
from simulator.tools import ToolError, ToolKind, tool


def name_dob_key(first_name: str, last_name: str, dob: str) -> str:
    """The normalized key of the name + date of birth index."""
    return f"{first_name.strip().lower()}|{last_name.strip().lower()}|{dob.strip()}"


def _dob(customer: Customer) -> str:
    value: Any = getattr(customer, "dob", "")
    return str(value)


def _values(c: Customer) -> dict[str, str]:
    return {"first_name": c.name.first_name, "last_name": c.name.last_name, "dob": _dob(c)}


NAME_DOB = Factor(
    "name_dob",
    "find_patient_id_by_name_dob",
    ("first_name", "last_name", "dob"),
    _values,
    lambda c: name_dob_key(c.name.first_name, c.name.last_name, _dob(c)),
    "I will give my full name and date of birth when asked; I don't remember my email.",
    ("email address",),
)


@tool(ToolKind.READ)
def find_patient_id_by_name_dob(db: Database, first_name: str, last_name: str, dob: str) -> str:
    """Find a patient's user id by first name, last name and date of birth.

    Args:
        first_name: The patient's first name, e.g. "Ava".
        last_name: The patient's last name, e.g. "Smith".
        dob: The date of birth as YYYY-MM-DD, e.g. "1984-07-21".
    """
    hits = db.find(NAME_DOB.index, name_dob_key(first_name, last_name, dob))
    if not hits:
        raise ToolError("no patient with this name and date of birth")
    return hits[0]
