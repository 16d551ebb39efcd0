"""Payment methods with balances: generation, funds checks, credits and how a user names them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

import msgspec

from domains.kit.vocab import CARD_BRANDS
from simulator.tools import ToolError

if TYPE_CHECKING:
    from domains.kit.people import Customer, Ids

C = TypeVar("C", bound="Customer")


class PaymentMethod(msgspec.Struct, frozen=True, omit_defaults=True):
    """A credit card, a PayPal account or a gift card (with its balance)."""

    id: str
    source: str  # "credit_card" | "paypal" | "gift_card"
    brand: str = ""
    last_four: str = ""
    balance: float | None = None


def money(value: float) -> float:
    """Round an amount to cents (never -0.0, which would encode differently)."""
    return round(value, 2) + 0.0


def money_text(amount: float) -> str:
    """An amount as the agent should say it, e.g. "$1,234.50"."""
    return f"${amount:,.2f}"


def payment_methods(rng: random.Random, ids: Ids) -> tuple[PaymentMethod, ...]:
    """One to three sources (sometimes a second card); gift cards hold $0 to $300."""
    methods = []
    sources = rng.sample(("credit_card", "paypal", "gift_card"), rng.randint(1, 3))
    if rng.random() < 0.25 and "credit_card" in sources:
        sources.append("credit_card")
    for source in sorted(sources):
        pid = f"{source}_{ids.digits(7)}"
        if source == "credit_card":
            methods.append(PaymentMethod(pid, source, rng.choice(CARD_BRANDS), ids.digits(4)))
        elif source == "gift_card":
            methods.append(PaymentMethod(pid, source, balance=float(rng.randint(0, 300))))
        else:
            methods.append(PaymentMethod(pid, source))
    return tuple(methods)


def owned_method(customer: Customer, method_id: str) -> PaymentMethod:
    """The customer's payment method ``method_id``; ``ToolError`` when it is not theirs."""
    method = customer.payment_method(method_id)
    if method is None:
        raise ToolError(f"payment method {method_id!r} does not belong to user {customer.user_id}")
    return method


def with_balance(customer: C, method_id: str, delta: float) -> C:
    """The customer with gift card ``method_id`` credited by ``delta`` (debited when negative)."""
    methods = tuple(
        msgspec.structs.replace(m, balance=money((m.balance or 0.0) + delta))
        if m.id == method_id
        else m
        for m in customer.payment_methods
    )
    return msgspec.structs.replace(customer, payment_methods=methods)


def can_pay(method: PaymentMethod, amount: float) -> bool:
    """Whether ``method`` covers ``amount`` (only a gift card's balance can fall short)."""
    return method.source != "gift_card" or amount <= 0 or (method.balance or 0.0) >= amount


def check_funds(method: PaymentMethod, amount: float) -> None:
    """Refuse a gift card whose balance does not cover ``amount``."""
    if not can_pay(method, amount):
        raise ToolError(
            f"gift card {method.id} balance ${method.balance:.2f} is below ${amount:.2f}"
        )


def method_text(method: PaymentMethod) -> str:
    """A payment method as a user names it."""
    if method.source == "credit_card":
        return f"my {method.brand.title()} credit card ending in {method.last_four}"
    if method.source == "paypal":
        return "my PayPal account"
    return "my gift card"
