"""Retail task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money, money_text
from tau_sim.domains.kit.people import Customer, address_args, address_text, random_address
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent, sum_action
from tau_sim.domains.retail.data import (
    DELIVERED,
    PENDING,
    PROCESSED,
    Order,
    OrderItem,
    Product,
    User,
)
from tau_sim.domains.retail.scenario import (
    REASON_TEXT,
    UNKNOWN_IDS,
    gold_reads,
    item_text,
    items_value,
    new_item_text,
    options_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

_CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


class RetailIntent(CustomerIntent):
    """A retail customer: email (60%) or name + zip; never knows item, product or method ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the user's default address; the last write left out."""
        return [
            self.stray_write(task, "modify_user_address", **ELSEWHERE),
            *self.last_write_left_out(domain, task),
        ]


pick_order = picker("orders", Order)


def _method_for(
    user: Customer, order: Order, amount: float, rng: random.Random
) -> PaymentMethod | None:
    """The order's original payment method if it can pay ``amount``, else another one that can."""
    original = user.payment_method(order.payment_history[0].payment_method_id)
    candidates = [m for m in user.payment_methods if can_pay(m, amount)]
    if original is not None and original in candidates:
        return original
    return rng.choice(candidates) if candidates else None


def _swap(
    db: Database, order: Order, rng: random.Random
) -> tuple[OrderItem, Product, OrderItem] | None:
    """An item of ``order`` and another available variant of its product."""
    for item in rng.sample(order.items, len(order.items)):
        product: Product = record(db, "products", item.product_id)
        others = [v for v in product.variants if v.available and v.item_id != item.item_id]
        if others:
            v = rng.choice(others)
            return (
                item,
                product,
                OrderItem(v.item_id, product.product_id, product.name, v.options, v.price),
            )
    return None


class CancelPendingOrder(RetailIntent):
    """Cancel a pending order for one of the two accepted reasons."""

    name = "cancel_pending_order"
    description = "The user cancels a pending order (no longer needed / ordered by mistake)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        because = REASON_TEXT[reason]
        oid = order.order_id
        opening = rng.choice(
            [
                f"Hi, I'd like to cancel my order {oid}, {because}.",
                "Hello, I need to cancel an order please.",
            ]
        )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my pending order {oid} because {because}. {_CONFIRM}",
            opening=opening,
            known={"order_id": oid, "cancel_reason": reason},
            actions=[
                *gold_reads(who, oid),
                Action("cancel_pending_order", {"order_id": oid, "reason": reason}),
            ],
            summary=f"cancel pending order {oid} ({reason})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the order cancelled for the other reason."""
        other = next(r for r in sorted(REASON_TEXT) if r != task.actions[-1].arguments["reason"])
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, reason=other),
        ]


class ModifyOrderAddress(RetailIntent):
    """Ship a pending order to another address."""

    name = "modify_order_address"
    description = "The user changes the shipping address of a pending order."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        oid = order.order_id
        write = Action("modify_pending_order_address", {"order_id": oid, **address_args(address)})
        return self.task(
            domain,
            who,
            goal=f"My order {oid} should go to a different address than the one on it. I only want "
            f"this order changed, not my default address. {_CONFIRM}",
            opening=f"Hi, I need to change the shipping address on my order {oid}.",
            known={"order_id": oid, "new_address": address_text(address)},
            actions=[*gold_reads(who, oid), write],
            summary=f"ship pending order {oid} to another address",
        )


class _VariantSwap(RetailIntent):
    """Swap one item of an order for another variant of the same product (modify or exchange)."""

    status: ClassVar[str]
    tool: ClassVar[str]

    def texts(
        self, oid: str, old: OrderItem, product: Product, new: OrderItem, method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary of the task."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == self.status)
        swap = None if order is None else _swap(db, order, rng)
        if order is None or swap is None:
            return None
        old, product, new = swap
        who = self.owner(db, order, rng)
        method = _method_for(who.customer, order, new.price - old.price, rng)
        if method is None:
            return None
        oid = order.order_id
        args = {
            "order_id": oid,
            "item_ids": [old.item_id],
            "new_item_ids": [new.item_id],
            "payment_method_id": method.id,
        }
        goal, opening, summary = self.texts(oid, old, product, new, method)
        return self.task(
            domain,
            who,
            goal=goal,
            opening=opening,
            known={
                "order_id": oid,
                "items": items_value([old]),
                "new_item": new_item_text(new.options, product.name),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, oid),
                Action("get_product_details", {"product_id": product.product_id}),
                Action(self.tool, args),
            ],
            summary=summary,
        )


class ModifyOrderItems(_VariantSwap):
    """Swap an item of a pending order for another variant of the same product."""

    name = "modify_order_items"
    description = "The user swaps an item of a pending order for another variant (size, color…)."
    status = PENDING
    tool = "modify_pending_order_items"

    def texts(
        self, oid: str, old: OrderItem, product: Product, new: OrderItem, method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary of the task."""
        return (
            f"In my pending order {oid} I want {item_text(old)} replaced by the same "
            f"{product.name} with {options_text(new.options)}. Any price difference should go "
            f"through {method_text(method)}. Nothing else in the order should change. {_CONFIRM}",
            f"Hi, I ordered a {product.name} but picked the wrong option. Can I change it?",
            f"swap {product.name} in pending order {oid}",
        )


class ChangeOrderPayment(RetailIntent):
    """Pay a pending order with another payment method."""

    name = "change_order_payment"
    description = "The user pays a pending order with another of their payment methods."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING and len(o.payment_history) == 1)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        paid = order.payment_history[0]
        others = [
            m
            for m in who.customer.payment_methods
            if m.id != paid.payment_method_id and can_pay(m, paid.amount)
        ]
        if not others:
            return None
        method = rng.choice(others)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"I want to pay my pending order {oid} with {method_text(method)} instead of the "
            f"payment method I used. {_CONFIRM}",
            opening=f"Hi, can I change how I pay for my order {oid}?",
            known={"order_id": oid, "payment_method": method_text(method)},
            actions=[
                *gold_reads(who, oid),
                Action(
                    "modify_pending_order_payment",
                    {"order_id": oid, "payment_method_id": method.id},
                ),
            ],
            summary=f"pay pending order {oid} with {method.source}",
        )


def _returnable(
    db: Database, rng: random.Random, at_least: int
) -> tuple[Order, list[OrderItem]] | None:
    order = pick_order(db, rng, lambda o: o.status == DELIVERED and len(o.items) >= at_least)
    if order is None:
        return None
    count = rng.randint(at_least, min(2, len(order.items)))
    return order, rng.sample(order.items, count)


class ReturnDeliveredItems(RetailIntent):
    """Return items of a delivered order, refund to the original method or a gift card."""

    name = "return_delivered_items"
    description = "The user returns items of a delivered order and learns the refund amount."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _returnable(db, rng, 1)
        if picked is None:
            return None
        order, items = picked
        who = self.owner(db, order, rng)
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
        what = " and ".join(item_text(i) for i in items)
        return self.task(
            domain,
            who,
            goal=f"I want to return {what} from my delivered order {oid}, and I want the refund to "
            f"{method_text(method)}. I want to know how much I will get back. {_CONFIRM}",
            opening=f"Hi, I'd like to return something from an order that was delivered, {oid}.",
            known={
                "order_id": oid,
                "items": items_value(items),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, oid),
                *sum_action([i.price for i in items]),
                Action("return_delivered_order_items", args),
            ],
            outputs=[money_text(refund)],
            summary=f"return {len(items)} item(s) of order {oid}, refund {money_text(refund)}",
        )


class ExchangeDeliveredItems(_VariantSwap):
    """Exchange an item of a delivered order for another available variant."""

    name = "exchange_delivered_items"
    description = "The user exchanges a delivered item for another variant of the same product."
    status = DELIVERED
    tool = "exchange_delivered_order_items"

    def texts(
        self, oid: str, old: OrderItem, product: Product, new: OrderItem, method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary of the task."""
        return (
            f"I received my order {oid} and want to exchange {item_text(old)} for the same "
            f"{product.name} with {options_text(new.options)}. Any price difference should go "
            f"through {method_text(method)}. {_CONFIRM}",
            f"Hello, I want to exchange the {product.name} I received for a different one.",
            f"exchange {product.name} of delivered order {oid}",
        )


class UpdateDefaultAddress(RetailIntent):
    """Change the user's default address."""

    name = "update_default_address"
    description = "The user moved and updates the default address of the account."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: True)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        write = Action(
            "modify_user_address", {"user_id": who.customer.user_id, **address_args(address)}
        )
        return self.task(
            domain,
            who,
            goal="I just moved and want my account's default address updated. My existing orders "
            f"do not need to change. {_CONFIRM}",
            opening="Hi, I moved recently and need to update the address on my account.",
            known={"new_address": address_text(address)},
            actions=[*who.actions, write],
            summary=f"update default address of {who.customer.user_id}",
        )


class OrderStatusInquiry(RetailIntent):
    """Ask where an order is: its status and, once shipped, its tracking number."""

    name = "order_status_inquiry"
    description = "The user asks for an order's status and tracking number (information only)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PENDING, PROCESSED, DELIVERED))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        outputs = [order.status, *(t for f in order.fulfillments for t in f.tracking_ids)]
        return self.task(
            domain,
            who,
            goal=f"I want to know the status of my order {oid} and, if it has shipped, its "
            "tracking number. I do not want to change anything.",
            opening=f"Hi, where is my order {oid}?",
            known={"order_id": oid},
            actions=gold_reads(who, oid),
            outputs=outputs,
            summary=f"status of order {oid} ({order.status})",
        )


class RefundAmountInquiry(RetailIntent):
    """Ask how much returning two items would refund, without returning them yet."""

    name = "refund_amount_inquiry"
    description = "The user asks what returning two delivered items would refund (needs calculate)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _returnable(db, rng, 2)
        if picked is None:
            return None
        order, items = picked
        who = self.owner(db, order, rng)
        refund = money(sum(i.price for i in items))
        oid = order.order_id
        what = " and ".join(item_text(i) for i in items)
        return self.task(
            domain,
            who,
            goal=f"I am thinking about returning {what} from my delivered order {oid}. I only want "
            "to know how much money I would get back in total; I do not want to return anything "
            "today.",
            opening="Hi, how much would I get back if I returned a couple of things from my order?",
            known={"order_id": oid, "items": items_value(items)},
            actions=[*gold_reads(who, oid), *sum_action([i.price for i in items])],
            outputs=[money_text(refund)],
            summary=f"refund amount for 2 items of order {oid}: {money_text(refund)}",
        )


class CancelShippedOrderTransfer(RetailIntent):
    """Insist on cancelling an order that has already shipped: outside the policy, so transfer."""

    name = "out_of_policy_transfer"
    description = "The user insists on cancelling a processed/delivered order; the agent transfers."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PROCESSED, DELIVERED))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        uid = who.customer.user_id
        summary = f"User {uid} wants to cancel order {oid}, which is {order.status}."
        return self.task(
            domain,
            who,
            goal=f"I want my order {oid} cancelled and my money back, not a return or an exchange. "
            "If the agent says it cannot cancel it, I ask to speak to a human agent.",
            opening=f"I need to cancel my order {oid} right now.",
            known={"order_id": oid},
            actions=[
                *gold_reads(who, oid),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"cancel {order.status} order {oid}: not allowed, transfer",
        )


class CancelAndReturn(RetailIntent):
    """Two requests in one conversation: cancel a pending order, return an item of another."""

    name = "cancel_and_return"
    description = "The user cancels one pending order and returns an item of a delivered one."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        pending = pick_order(db, rng, lambda o: o.status == PENDING)
        if pending is None:
            return None
        user: User = record(db, "users", pending.user_id)
        orders: list[Order] = [record(db, "orders", oid) for oid in user.orders]
        delivered = [o for o in orders if o.status == DELIVERED]
        if not delivered:
            return None
        order = rng.choice(delivered)
        item = rng.choice(order.items)
        method = user.payment_method(order.payment_history[0].payment_method_id)
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        a, b = pending.order_id, order.order_id
        ret = {"order_id": b, "item_ids": [item.item_id], "payment_method_id": method.id}
        return self.task(
            domain,
            who,
            goal=f"Two things: I want to cancel my pending order {a} because "
            f"{REASON_TEXT[reason]}, and I want to return {item_text(item)} from my delivered "
            f"order {b}, refunded to {method_text(method)}. I want to know the refund amount of "
            f"the return. {_CONFIRM}",
            opening=f"Hi, I have two things: cancel order {a}, and return an item from order {b}.",
            known={
                "order_id_1": a,
                "cancel_reason": reason,
                "order_id_2": b,
                "items": items_value([item]),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, a),
                Action("cancel_pending_order", {"order_id": a, "reason": reason}),
                Action("get_order_details", {"order_id": b}),
                Action("return_delivered_order_items", ret),
            ],
            outputs=[money_text(item.price)],
            summary=f"cancel {a} and return 1 item of {b}",
        )


INTENTS: list[Intent] = [
    CancelPendingOrder(),
    ModifyOrderAddress(),
    ModifyOrderItems(),
    ChangeOrderPayment(),
    ReturnDeliveredItems(),
    ExchangeDeliveredItems(),
    UpdateDefaultAddress(),
    OrderStatusInquiry(),
    RefundAmountInquiry(),
    CancelShippedOrderTransfer(),
    CancelAndReturn(),
]
