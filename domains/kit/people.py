"""Customers: names, addresses, unique ids and the deterministic generator of a customer table."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import msgspec

from tau_sim.domains.kit.payments import PaymentMethod, payment_methods
from tau_sim.domains.kit.vocab import CITIES, FIRST_NAMES, LAST_NAMES, STREETS
from tau_sim.simulator.world import ToolError


class Address(msgspec.Struct, frozen=True, omit_defaults=True):
    """A postal address."""

    address1: str
    address2: str
    city: str
    state: str
    country: str
    zip: str


class Name(msgspec.Struct, frozen=True, omit_defaults=True):
    """A person's name."""

    first_name: str
    last_name: str


class Customer(msgspec.Struct, frozen=True, omit_defaults=True):
    """A customer: identity, default address, payment methods and, where used, account + PIN.

    Domains extend it with their own fields (after these, with defaults); empty fields are not
    encoded, so a domain that does not use accounts never shows or hashes them.
    """

    user_id: str
    name: Name
    address: Address
    email: str = ""
    payment_methods: tuple[PaymentMethod, ...] = ()
    account_number: str = ""
    pin: str = ""

    def payment_method(self, method_id: str) -> PaymentMethod | None:
        """The payment method ``method_id`` of this customer, or None."""
        return next((m for m in self.payment_methods if m.id == method_id), None)

    @property
    def full_name(self) -> str:
        """First and last name."""
        return f"{self.name.first_name} {self.name.last_name}"


C = TypeVar("C", bound=Customer)


class Ids:
    """Unique random digit strings (no leading zero)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def digits(self, n: int) -> str:
        """A fresh ``n``-digit string."""
        while True:
            value = "".join(self.rng.choice("0123456789") for _ in range(n))
            if value[0] != "0" and value not in self.used:
                self.used.add(value)
                return value


def random_address(rng: random.Random) -> Address:
    """A plausible US address."""
    city, state, prefix = rng.choice(CITIES)
    street = f"{rng.randint(10, 9999)} {rng.choice(STREETS)}"
    unit = rng.choice(("", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}"))
    return Address(street, unit, city, state, "USA", f"{prefix}{rng.randint(0, 99):02d}")


def customers(
    rng: random.Random,
    ids: Ids,
    count: int,
    record: Callable[..., C],
    *,
    accounts: bool = False,
) -> dict[str, C]:
    """``count`` customers with distinct name + zip, built with ``record`` (a Customer type).

    Each gets an id ``first_last_1234``, an email, one to four payment methods and, when
    ``accounts``, a ten-digit account number and a four-digit PIN.
    """
    people: dict[str, C] = {}
    seen: set[tuple[str, str, str]] = set()
    while len(people) < count:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        address = random_address(rng)
        if (first, last, address.zip) in seen:
            continue
        seen.add((first, last, address.zip))
        number = ids.digits(4)
        user_id = f"{first}_{last}_{number}".lower()
        email = f"{first}.{last}{number}@example.com".lower()
        methods = payment_methods(rng, ids)
        extra = {}
        if accounts:
            extra = {"account_number": ids.digits(10), "pin": f"{rng.randint(0, 9999):04d}"}
        people[user_id] = record(user_id, Name(first, last), address, email, methods, **extra)
    return people


def hand_over(people: dict[str, C], owned: Mapping[str, Sequence[str]], field: str) -> None:
    """Set each customer's ``field`` to the ids of the records they own, in the order drawn.

    ``owned`` maps a user id to the keys of the records a generator drew for that customer.
    """
    for user_id, keys in owned.items():
        people[user_id] = msgspec.structs.replace(people[user_id], **{field: tuple(keys)})


def address_text(address: Address) -> str:
    """An address on one line."""
    parts = [address.address1, address.address2, address.city, address.state, address.zip]
    return ", ".join(p for p in parts if p) + f", {address.country}"


def address_args(address: Address) -> dict[str, str]:
    """The address fields as tool arguments."""
    return {
        "address1": address.address1,
        "address2": address.address2,
        "city": address.city,
        "state": address.state,
        "country": address.country,
        "zip": address.zip,
    }


def new_address(
    address1: str, address2: str, city: str, state: str, country: str, zip: str
) -> Address:
    """A complete address from tool arguments; ``ToolError`` when a required part is blank."""
    if not (
        address1.strip() and city.strip() and state.strip() and country.strip() and zip.strip()
    ):
        raise ToolError("address1, city, state, country and zip are required")
    return Address(
        address1.strip(),
        address2.strip(),
        city.strip(),
        state.strip(),
        country.strip(),
        zip.strip(),
    )
