"""Retail intents about delivered items: returns, exchanges, refunds."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, sum_action
from tau_sim.domains.retail.data import DELIVERED, PENDING, Order, OrderItem, Product, User
from tau_sim.domains.retail.factory.common import (
    RetailIntent,
    Swap,
    VariantSwap,
    in_window_delivered,
    locate,
    orders_of,
    original_method,
    pick_order,
    swaps_text,
    window_check,
)
from tau_sim.domains.retail.rules import returnable
from tau_sim.domains.retail.scenario import (
    REASON_TEXT,
    gold_reads,
    item_text,
    items_value,
)
from tau_sim.simulator.world import Action, Database, Domain, Task


def _returnable(
    db: Database, rng: random.Random, at_least: int
) -> tuple[Order, list[OrderItem]] | None:
    order = pick_order(
        db,
        rng,
        lambda o: in_window_delivered(o) and len([i for i in o.items if returnable(i)]) >= at_least,
    )
    if order is None:
        return None
    items = [i for i in order.items if returnable(i)]
    count = rng.randint(at_least, min(2, len(items)))
    return order, rng.sample(items, count)


def _owned_returnable(
    intent: RetailIntent, db: Database, rng: random.Random, at_least: int
) -> tuple[Order, list[OrderItem], Identity] | None:
    """What ``_returnable`` picks, with the identity of the order's owner (``intent.owner``)."""
    picked = _returnable(db, rng, at_least)
    if picked is None:
        return None
    order, items = picked
    return order, items, intent.owner(db, order, rng)


class ReturnDeliveredItems(RetailIntent):
    """Return items of a delivered order, refund to the original method or a gift card."""

    name = "return_delivered_items"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _owned_returnable(self, db, rng, 1)
        if picked is None:
            return None
        order, items, who = picked
        gift = [m for m in who.customer.payment_methods if m.source == "gift_card"]
        original = who.customer.payment_method(order.payment_history[0].payment_method_id)
        method = rng.choice(gift) if gift and rng.random() < 0.3 else original
        if method is None:
            return None
        refund = money(sum(i.price for i in items))
        oid = order.order_id
        args = {
            "order_id": oid,
            "item_ids": [i.item_id for i in items],
            "payment_method_id": method.id,
        }
        what = items_value(items)
        at = locate(db, order, rng, 0.3, items)
        return self.task(
            domain,
            who,
            goal=f"I want to return {what} from my delivered {at.ref}, and I want the refund to "
            f"{method_text(method)}. I want to know how much I will get back. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to return something from a delivered {at.ref}.",
                f"Hello, I want to send back part of my {at.ref}.",
                "Hi, I need to return an item I received.",
            ),
            known={
                **at.known,
                "items": items_value(items),
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *at.reads,
                window_check(order),
                *sum_action([i.price for i in items]),
                Action("return_delivered_order_items", args),
            ],
            outputs=[money_text(refund)],
            summary=f"return {len(items)} item(s) of order {oid}, refund {money_text(refund)}",
        )


class ExchangeDeliveredItems(VariantSwap):
    """Exchange an item of a delivered order for another available variant."""

    name = "exchange_delivered_items"
    status = DELIVERED
    tool = "exchange_delivered_order_items"

    def texts(
        self, oid: str, ref: str, swaps: list[Swap], method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary (``ref``: the order as said)."""
        product = swaps[0][1]
        return (
            f"I received my {ref} and want to exchange {swaps_text(swaps, 'for')} (same "
            f"products). Any price difference should go through {method_text(method)}. "
            f"{CONFIRM}",
            f"Hello, I want to exchange the {product.name} I received for a different one."
            if len(ref) % 2
            else f"Hi, the {product.name} from my {ref} doesn't work for me, can I swap it?",
            f"exchange {product.name} of delivered order {oid}",
        )


class RefundAmountInquiry(RetailIntent):
    """Ask how much returning two items would refund, without returning them yet."""

    name = "refund_amount_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _owned_returnable(self, db, rng, 2)
        if picked is None:
            return None
        order, items, who = picked
        refund = money(sum(i.price for i in items))
        oid = order.order_id
        what = items_value(items)
        at = locate(db, order, rng, 0.5, items)
        return self.task(
            domain,
            who,
            goal=f"I am thinking about returning {what} from my delivered {at.ref}. I only want "
            "to know how much money I would get back in total; I do not want to return anything "
            "today.",
            opening=one_of(
                rng,
                "Hi, how much would I get back if I returned a couple of things from my order?",
                f"Hello, what refund would returning two items of my {at.ref} give me?",
                "Quick question about a possible return: what would the refund be?",
            ),
            known={**at.known, "items": items_value(items)},
            actions=[*who.actions, *at.reads, *sum_action([i.price for i in items])],
            outputs=[money_text(refund)],
            summary=f"refund amount for 2 items of order {oid}: {money_text(refund)}",
        )


class CancelAndReturn(RetailIntent):
    """Two requests in one conversation: cancel a pending order, return an item of another."""

    name = "cancel_and_return"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        pending = pick_order(db, rng, lambda o: o.status == PENDING)
        if pending is None:
            return None
        user: User = record(db, "users", pending.user_id)
        orders = orders_of(db, user.user_id)
        delivered = [o for o in orders if in_window_delivered(o) and any(map(returnable, o.items))]
        if not delivered:
            return None
        order = rng.choice(delivered)
        allowed = [i for i in order.items if returnable(i)]
        items = rng.sample(allowed, rng.randint(1, min(2, len(allowed))))
        method = original_method(user, order)
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        a, b = pending.order_id, order.order_id
        ret = {
            "order_id": b,
            "item_ids": [i.item_id for i in items],
            "payment_method_id": method.id,
        }
        refund = money(sum(i.price for i in items))
        return self.task(
            domain,
            who,
            goal=f"Two things: I want to cancel my pending order {a} because "
            f"{REASON_TEXT[reason]}, and I want to return {items_value(items)} from my delivered "
            f"order {b}, refunded to {method_text(method)}. I want to know the refund amount of "
            f"the return. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I have two things: cancel order {a}, and return an item from order {b}.",
                f"Hello, please cancel {a}. I also have a return on {b}.",
                "Hi, I need a cancellation and a return today.",
            ),
            known={
                "order_id_1": a,
                "cancel_reason": reason,
                "order_id_2": b,
                "items": items_value(items),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, a),
                Action("cancel_pending_order", {"order_id": a, "reason": reason}),
                Action("get_order_details", {"order_id": b}),
                window_check(order),
                *sum_action([i.price for i in items]),
                Action("return_delivered_order_items", ret),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {a} and return {len(items)} item(s) of {b}",
        )


class ExchangeForOtherProduct(RetailIntent):
    """Exchange a delivered item for another product type: refused (the tools refuse it too)."""

    name = "exchange_for_other_product"
    forbidden = True
    rules = ("same-product-only",)
    # no violations: the exchange tool takes only variants of the same product

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, in_window_delivered)
        if order is None:
            return None
        item = rng.choice(order.items)
        products: list[Product] = [record(db, "products", p) for p in sorted(db.keys("products"))]
        other = rng.choice([p for p in products if p.product_id != item.product_id])
        who = self.owner(db, order, rng)
        oid = order.order_id
        opening = one_of(
            rng,
            f"Hi, can I exchange the {item.name} from order {oid} for a {other.name}?",
            f"Hello, I'd like to swap my {item.name} for a {other.name} instead.",
            f"I got a {item.name} in order {oid} but I really want a {other.name}. Can we "
            "exchange it?",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to exchange {item_text(item)} from my delivered order {oid} for a "
            f"{other.name}, paying or getting back the difference. I do not want a return.",
            demand=f"the {item.name} exchanged for a {other.name}",
            opening=opening,
            known={"order_id": oid, "items": items_value([item])},
            actions=[
                *gold_reads(who, oid),
                Action("get_product_details", {"product_id": item.product_id}),
            ],
            outputs=["same product"],
            summary=f"exchange a {item.name} of {oid} for a {other.name}: refuse",
        )


class RefundToAnotherCard(RetailIntent):
    """Return an item with the refund to a card that did not pay: refused (the tools refuse too)."""

    name = "refund_to_another_card"
    forbidden = True
    rules = ("refund-to-payer",)
    # no violations: the return tool refuses a refund method that did not pay

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _owned_returnable(self, db, rng, 1)
        if picked is None:
            return None
        order, items, who = picked
        paid = order.payment_history[0].payment_method_id
        cards = [m for m in who.customer.payment_methods if m.source == "credit_card"]
        others = [m for m in cards if m.id != paid]
        if not others:
            return None
        card = rng.choice(others)
        at = locate(db, order, rng, items=items)
        opening = one_of(
            rng,
            f"Hi, I want to return something from my {at.ref} and get the money on "
            f"{method_text(card)}.",
            f"Hello, please refund a return from my {at.ref} to {method_text(card)}.",
            "Hi, I'm returning an item, but the refund has to go to a different card.",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to return {items_value(items)} from my delivered {at.ref}, and the "
            f"refund must go to {method_text(card)}, not to the method I paid with and not to a "
            "gift card.",
            demand=f"the refund on {method_text(card)}",
            opening=opening,
            known={**at.known, "items": items_value(items), "payment_method": method_text(card)},
            actions=[*who.actions, *at.reads, window_check(order)],
            outputs=["original payment method"],
            summary=f"refund a return of {order.order_id} to {card.id}, which did not pay: refuse",
        )
