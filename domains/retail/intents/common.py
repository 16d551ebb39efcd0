"""The retail intents' base class and the order and item helpers they share."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text
from tau_sim.domains.kit.people import Customer
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.domains.retail.data import Order, OrderItem, Product
from tau_sim.domains.retail.scenario import UNKNOWN_IDS, gold_reads, items_value, new_item_text
from tau_sim.simulator.world import Action, Database, Domain, Task

CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


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


class VariantSwap(RetailIntent):
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
