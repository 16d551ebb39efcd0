"""What a person calls a record the tools name by an id, read from the conversation's tool results.

A confirmation says "the Coffee Maker (8 cups, stainless steel)", "your Mastercard ending in
3511", "the $250.14 IKEA charge on February 25, 2025", not "item 3522314017", "credit_card_4795054"
or "chk_34872052_022". ``names_in`` walks every JSON tool result the agent has read and maps each
id it finds in a record to the words for that record: its name (with its options), a payment
method by its kind and last four digits, a card or an account by its last digits, a transaction by
its amount, description and date, a slot by its time, an appointment by its doctor and time, a
prescription by its medication, a line by its phone number, an unnamed place by its address. An id
whose record holds none of these is left out (it is said as it is: "order #W4803757").
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

BRANDS = {"amex": "American Express", "mastercard": "Mastercard", "visa": "Visa"}
"""Card brands as people write them (others are capitalised)."""


def day(text: str) -> str | None:
    """An ISO date or date-time as people read it ("May 29, 2026", "… at 4:00 PM"), or None."""
    try:
        when = datetime.fromisoformat(text) if "T" in text else None
        plain = date.fromisoformat(text) if when is None else when.date()
    except ValueError:
        return None
    said = f"{plain:%B} {plain.day}, {plain.year}"
    if when is not None:
        said += f" at {when.hour % 12 or 12}:{when:%M} {'AM' if when.hour < 12 else 'PM'}"
    return said


def money(amount: float) -> str:
    """An amount of money: "$1,234.50"."""
    return f"${abs(amount):,.2f}"


def _tail(text: str) -> str:
    digits = "".join(c for c in text if c.isdigit())
    return digits[-4:]


def address_words(address: dict[str, Any]) -> str:
    """A postal address in one line: "1208 Lakeview Drive, Apt 2, Columbus, OH 43299, USA"."""
    parts = [address.get("address1"), address.get("address2"), address.get("city")]
    place = ", ".join(str(p) for p in parts if p)
    state_zip = " ".join(str(p) for p in (address.get("state"), address.get("zip")) if p)
    said = f"{place}, {state_zip}" if state_zip else place
    country = address.get("country")
    return f"{said}, {country}" if country else said


def _payment(record: dict[str, Any]) -> str:
    source = str(record.get("source", ""))
    if source == "paypal":
        return "your PayPal account"
    if source == "gift_card":
        balance = record.get("balance")
        return "your gift card" + (f" (balance {money(balance)})" if balance is not None else "")
    brand = str(record.get("brand") or "")
    card = BRANDS.get(brand, brand.capitalize()) or "card"
    four = record.get("last_four") or _tail(str(record.get("id", "")))
    return f"your {card} ending in {four}"


def _option(key: str, value: str) -> str:
    """One product option: "black", "size 10" (a bare number), "waterproof" or "not waterproof"."""
    if value in ("yes", "no"):
        return key if value == "yes" else f"not {key}"
    return f"{key} {value}" if value.isdigit() else value


def _options(record: dict[str, Any]) -> str:
    options = record.get("options")
    if isinstance(options, dict) and options:
        return f" ({', '.join(_option(str(k), str(v)) for k, v in options.items())})"
    option = record.get("option")
    return f" ({option})" if isinstance(option, str) and option else ""


def _called(record: dict[str, Any], key: str, parent: str) -> str | None:
    """The words for ``record`` (whose id sits under ``key``); ``parent``: its owner's name."""
    if "source" in record and key == "id":
        return _payment(record)
    name = record.get("name")
    if isinstance(name, str) and name:
        return f"{name}{_options(record)}"
    if "description" in record and isinstance(record.get("amount"), int | float):
        what, amount = str(record["description"]), money(record["amount"])
        said = (
            f"the charge “{what}” of {amount}" if "," in what else f"the {what} charge of {amount}"
        )
        when = day(str(record.get("date", "")))
        return f"{said} on {when}" if when else said
    if "medication" in record:
        return f"your {record['medication']} prescription"
    if "provider_name" in record and "start" in record:
        return f"your appointment with {record['provider_name']} on {day(str(record['start']))}"
    if "start" in record and len(record) <= 3:
        return day(str(record["start"]))
    if "phone_number" in record:
        return f"the line {record['phone_number']}"
    if "last_four" in record:
        return f"your card ending in {record['last_four']}"
    if record.get("kind") in ("checking", "savings"):
        return f"your {record['kind']} account ending in {_tail(str(record[key]))}"
    if "fuel" in record and key == "meter_id":
        return f"your {record['fuel']} meter {record[key]}"
    if isinstance(record.get("address"), dict) and "user_id" not in record:
        return f"the property at {address_words(record['address'])}"
    if parent and "options" in record:
        return f"{parent}{_options(record)}"
    return None


def _walk(value: Any, parent: str, names: dict[str, str]) -> None:
    if isinstance(value, list):
        for item in value:
            _walk(item, parent, names)
        return
    if not isinstance(value, dict):
        return
    # a record's own id comes first ("order_id", then the "user_id" it belongs to)
    key = next((k for k in value if k == "id" or k.endswith("_id") or k == "code"), "")
    if key and key != "user_id":
        ident = value[key]
        if isinstance(ident, str) and any(c.isdigit() or c == "_" for c in ident):
            called = _called(value, key, parent)
            if called is not None:
                names[ident] = called
    for field, named in value.items():  # "pharmacy_id" beside "pharmacy_name"
        ident = value.get(field.removesuffix("_name") + "_id")
        if field.endswith("_name") and isinstance(named, str) and isinstance(ident, str) and named:
            names.setdefault(ident, named)
    name = value.get("name")
    for child in value.values():
        _walk(child, name if isinstance(name, str) else parent, names)


def names_in(results: Iterable[str]) -> dict[str, str]:
    """Each record id in the JSON tool ``results`` mapped to the words for the record."""
    names: dict[str, str] = {}
    for text in results:
        try:
            _walk(json.loads(text), "", names)
        except ValueError:
            continue
    return names
