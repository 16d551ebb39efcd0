"""Customer authentication: the factors a domain picks, their indexes and lookup tools.

Factors: email, name + zip, account number + PIN, name + date of birth (for a customer type
with a ``dob`` field, e.g. patients). ``Identity`` is what a task's user proves.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import msgspec

from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.people import Customer
from tau_sim.simulator.world import Action, Database, Index, ToolError, ToolKind, tool


def email_key(email: str) -> str:
    """The normalized key of the email index."""
    return email.strip().lower()


def name_zip_key(first_name: str, last_name: str, zip_code: str) -> str:
    """The normalized key of the name + zip index."""
    return f"{first_name.strip().lower()}|{last_name.strip().lower()}|{zip_code.strip()}"


def account_key(account_number: str, pin: str) -> str:
    """The normalized key of the account number + PIN index."""
    return f"{account_number.strip()}|{pin.strip()}"


def name_dob_key(first_name: str, last_name: str, dob: str) -> str:
    """The normalized key of the name + date of birth index."""
    return f"{first_name.strip().lower()}|{last_name.strip().lower()}|{dob.strip()}"


class Factor(msgspec.Struct, frozen=True):
    """One way a user proves who they are: the slots, the lookup tool, the index behind it.

    ``values`` gives a customer's slot values (also the lookup tool's arguments), ``key`` the
    index key of a customer; ``note`` is what the user says about it in the task's goal and
    ``unknown`` what the user does not know when authenticating this way.
    """

    index: str
    tool: str
    slots: tuple[str, ...]
    values: Callable[[Customer], dict[str, str]]
    key: Callable[[Customer], str]
    note: str
    unknown: tuple[str, ...] = ()


def _name_zip(c: Customer) -> dict[str, str]:
    return {"first_name": c.name.first_name, "last_name": c.name.last_name, "zip": c.address.zip}


def _dob(customer: Customer) -> str:
    value: Any = getattr(customer, "dob", "")
    return str(value)


def _name_dob(c: Customer) -> dict[str, str]:
    return {"first_name": c.name.first_name, "last_name": c.name.last_name, "dob": _dob(c)}


EMAIL = Factor(
    "email",
    "find_user_id_by_email",
    ("email",),
    lambda c: {"email": c.email},
    lambda c: email_key(c.email),
    "I will give my email address when asked.",
)
NAME_ZIP = Factor(
    "name_zip",
    "find_user_id_by_name_zip",
    ("first_name", "last_name", "zip"),
    _name_zip,
    lambda c: name_zip_key(c.name.first_name, c.name.last_name, c.address.zip),
    "I don't remember which email I used, but I know my name and zip code.",
    ("email address",),
)
ACCOUNT_PIN = Factor(
    "account",
    "find_user_id_by_account",
    ("account_number", "pin"),
    lambda c: {"account_number": c.account_number, "pin": c.pin},
    lambda c: account_key(c.account_number, c.pin),
    "I will give my account number and PIN when asked.",
)

NAME_DOB = Factor(
    "name_dob",
    "find_patient_id_by_name_dob",
    ("first_name", "last_name", "dob"),
    _name_dob,
    lambda c: name_dob_key(c.name.first_name, c.name.last_name, _dob(c)),
    "I will give my full name and date of birth when asked; I don't remember my email.",
    ("email address",),
)
"""Name + date of birth, for customers with a ``dob`` field (YYYY-MM-DD); looked up as patients."""


def identity_indexes(factors: Sequence[Factor], table: str = "users") -> dict[str, Index]:
    """The indexes the lookup tools of ``factors`` need, over the customer table."""
    return {f.index: Index(table, partial(_keys, f)) for f in factors}


def _keys(factor: Factor, customer: Customer) -> tuple[str]:
    return (factor.key(customer),)


def _found(db: Database, index: str, key: str, what: str) -> str:
    hits = db.find(index, key)
    if not hits:
        raise ToolError(f"no user with this {what}")
    return hits[0]


@tool(ToolKind.READ)
def find_user_id_by_email(db: Database, email: str) -> str:
    """Find a user id by the user's email address.

    Args:
        email: The user's email address, e.g. "ava.smith1234@example.com".
    """
    return _found(db, EMAIL.index, email_key(email), "email")


@tool(ToolKind.READ)
def find_user_id_by_name_zip(db: Database, first_name: str, last_name: str, zip: str) -> str:
    """Find a user id by first name, last name and zip code of the user's default address.

    Args:
        first_name: The user's first name, e.g. "Ava".
        last_name: The user's last name, e.g. "Smith".
        zip: The zip code of the user's default address, e.g. "98101".
    """
    return _found(db, NAME_ZIP.index, name_zip_key(first_name, last_name, zip), "name and zip code")


@tool(ToolKind.READ)
def find_user_id_by_account(db: Database, account_number: str, pin: str) -> str:
    """Find a user id by account number and PIN.

    Args:
        account_number: The user's account number, e.g. "4829301746".
        pin: The user's four-digit PIN, e.g. "0417".
    """
    return _found(db, ACCOUNT_PIN.index, account_key(account_number, pin), "account number and PIN")


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


@tool(ToolKind.READ)
def get_user_details(db: Database, user_id: str) -> Customer:
    """Get a user's profile: name, default address, email and payment methods.

    Args:
        user_id: The user id, e.g. "ava_smith_1234".
    """
    user: Customer = load(db, "users", user_id, "user")
    return user


class Identity:
    """How one task's user proves who they are: known slots, auth slots and the gold reads.

    The user always knows their name and zip code; the factor adds its own slots (first).
    """

    def __init__(self, customer: Customer, factor: Factor, details_tool: str) -> None:
        self.customer = customer
        self.factor = factor
        self.known: dict[str, str] = {**factor.values(customer), **_name_zip(customer)}
        self.auth_slots = list(factor.slots)
        self.actions = [
            Action(factor.tool, factor.values(customer)),
            Action(details_tool, {"user_id": customer.user_id}),
        ]
        self.unknown = list(factor.unknown)
        self.note = factor.note

    @classmethod
    def draw(
        cls,
        customer: Customer,
        rng: random.Random,
        factors: Sequence[tuple[Factor, float]],
        details_tool: str,
    ) -> Identity:
        """An identity whose factor is drawn with the given probabilities (one ``rng`` draw)."""
        r, total = rng.random(), 0.0
        for factor, weight in factors:
            total += weight
            if r < total:
                return cls(customer, factor, details_tool)
        return cls(customer, factors[-1][0], details_tool)

    @property
    def full_name(self) -> str:
        """The user's full name."""
        return self.customer.full_name
