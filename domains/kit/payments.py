"""Payment methods with balances: generation, funds checks, charges, refunds, how money reads.

``charge`` charges or refunds one method (a gift card's balance changes at once), ``net_paid``
sums a payment history, ``check_refund`` refuses a refund above it, ``refunds`` spreads a refund
over the methods that paid, ``credit_refunds`` books those refunds on gift cards;
``share_of`` and ``capped`` compute a policy's caps; ``money_text``, ``balance_text`` and
``diff_text`` are amounts as the agent should say them; ``card_for`` picks the method an
intent's user pays with.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

import msgspec

from tau_sim.domains.kit.vocab import CARD_BRANDS
from tau_sim.simulator.world import ToolError

if TYPE_CHECKING:
    from tau_sim.domains.kit.people import Customer, Ids
    from tau_sim.simulator.world import Database

C = TypeVar("C", bound="Customer")


class PaymentMethod(msgspec.Struct, frozen=True, omit_defaults=True):
    """A credit card, a PayPal account or a gift card (with its balance)."""

    id: str
    source: str  # "credit_card" | "paypal" | "gift_card"
    brand: str = ""
    last_four: str = ""
    balance: float | None = None


class Payment(msgspec.Struct, frozen=True, omit_defaults=True):
    """One entry of a payment history: a payment or a refund on one payment method."""

    transaction_type: str  # "payment" | "refund"
    amount: float
    payment_method_id: str


class PaymentEntry(Protocol):
    """What ``refunds`` reads of a history entry (a ``Payment`` or a domain's richer one)."""

    @property
    def transaction_type(self) -> str:
        """Either "payment" or "refund"."""
        ...

    @property
    def amount(self) -> float:
        """The amount, never negative."""
        ...

    @property
    def payment_method_id(self) -> str:
        """The payment method charged or refunded."""
        ...


def money(value: float) -> float:
    """Round an amount to cents (never -0.0, which would encode differently)."""
    return round(value, 2) + 0.0


def share_of(amount: float, fraction: float) -> float:
    """``fraction`` of ``amount`` rounded down to the cent (a cap never rounds up)."""
    return math.floor(amount * fraction * 100 + 1e-6) / 100


def capped(amount: float, *left: float) -> float:
    """``amount`` within each of the caps ``left`` (what remains of each), never below zero."""
    return money(max(0.0, min(amount, *left)))


def money_text(amount: float) -> str:
    """An amount as the agent should say it, e.g. "$1,234.50"."""
    return f"${amount:,.2f}"


def diff_text(amount: float) -> str:
    """How a price difference reads for the user: "$X to pay", "$X back" or none."""
    if amount > 0:
        return f"{money_text(amount)} to pay"
    if amount < 0:
        return f"{money_text(-amount)} back"
    return "no price difference"


def balance_text(amount: float) -> str:
    """A signed amount (a balance) as the agent should say it, the sign first: "-$42.10"."""
    return f"-{money_text(-amount)}" if amount < 0 else money_text(amount)


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


class Owned(Protocol):
    """A record a customer owns (a reservation, a booking): what ``payer_of`` reads of it."""

    @property
    def user_id(self) -> str:
        """The owner's user id."""
        ...


def payer_of(
    load_user: Callable[[Database, str], C],
) -> Callable[[Database, Owned, str], tuple[C, PaymentMethod]]:
    """A world's ``payer(db, record, payment_method_id)``: the record's owner and their method.

    The owner is ``load_user(db, record.user_id)``; a method that is not theirs is refused
    (``owned_method``).
    """

    def owner_and_method(
        db: Database, record: Owned, payment_method_id: str
    ) -> tuple[C, PaymentMethod]:
        user = load_user(db, record.user_id)
        return user, owned_method(user, payment_method_id)

    return owner_and_method


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


def card_for(customer: Customer, amount: float, rng: random.Random) -> PaymentMethod | None:
    """A method of ``customer`` that can pay ``amount`` with room to spare (gift cards rarely).

    For an intent's booking: a gift card qualifies only when its balance covers twice the
    amount plus 200 dollars, so a later change on the same card still goes through.
    """
    methods = [m for m in customer.payment_methods if can_pay(m, amount * 2 + 200)]
    return rng.choice(methods) if methods else None


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


def settle(
    db: Database, customer: C, method: PaymentMethod, amount: float, table: str = "users"
) -> C:
    """Charge (amount > 0) or refund (amount < 0) ``method`` of ``customer``.

    A charge is refused beyond a gift card's balance; a gift card's balance changes at once (the
    customer is stored in ``table``), other methods are settled outside the world. The customer
    as it is now.
    """
    amount = money(amount)
    if amount > 0:
        check_funds(method, amount)
    if method.source == "gift_card" and amount != 0:
        customer = with_balance(customer, method.id, -amount)
        db.put(table, customer.user_id, customer)
    return customer


def charge(
    db: Database, customer: C, method: PaymentMethod, amount: float, table: str = "users"
) -> tuple[C, Payment | None]:
    """``settle`` the amount and say it as a history entry (None when the amount is zero)."""
    amount = money(amount)
    if amount == 0:
        return customer, None
    customer = settle(db, customer, method, amount, table)
    kind = "payment" if amount > 0 else "refund"
    return customer, Payment(kind, abs(amount), method.id)


def net_paid_by_method(history: Iterable[PaymentEntry]) -> dict[str, float]:
    """Payments minus refunds per payment method, in the order the methods first paid."""
    paid: dict[str, float] = {}
    for p in history:
        sign = 1 if p.transaction_type == "payment" else -1
        paid[p.payment_method_id] = money(paid.get(p.payment_method_id, 0.0) + sign * p.amount)
    return paid


def net_paid(history: Iterable[PaymentEntry]) -> float:
    """Payments minus refunds of a history, all methods together."""
    return money(sum(p.amount if p.transaction_type == "payment" else -p.amount for p in history))


def check_refund(amount: float, paid: float, what: str) -> None:
    """Refuse a negative refund or one above ``paid``, the net amount paid for ``what``.

    ``what`` names the record in the error, e.g. "reservation ABC123".
    """
    if amount < 0:
        raise ToolError("refund_amount must not be negative")
    if money(amount) > paid:
        raise ToolError(f"refund_amount ${amount:.2f} is above the ${paid:.2f} paid for {what}")


def refunds(history: Iterable[PaymentEntry], amount: float | None = None) -> list[Payment]:
    """``amount`` refunded to the methods that paid, in payment order, each up to its net share.

    Without ``amount``, every method gets back all it paid, net.
    """
    out: list[Payment] = []
    paid = net_paid_by_method(history)
    left = money(sum(v for v in paid.values() if v > 0) if amount is None else amount)
    for method_id, share in paid.items():
        part = money(min(left, share))
        if part > 0:
            out.append(Payment("refund", part, method_id))
            left = money(left - part)
    return out


def credit_refunds(customer: C, back: Iterable[Payment]) -> C:
    """The customer with the refunds ``back`` that go to their gift cards credited (not stored)."""
    for entry in back:
        method = customer.payment_method(entry.payment_method_id)
        if method is not None and method.source == "gift_card":
            customer = with_balance(customer, method.id, entry.amount)
    return customer


def pay_back(
    db: Database, customer: Customer, history: Iterable[PaymentEntry], amount: float | None = None
) -> list[Payment]:
    """Refund ``amount`` (all, net, without it) of ``history`` to the methods that paid.

    The refunds to gift cards are credited to ``customer`` at once (stored in ``users``); the
    refund entries are returned for the record's history.
    """
    back = refunds(history, amount)
    db.put("users", customer.user_id, credit_refunds(customer, back))
    return back
